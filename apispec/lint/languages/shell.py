"""Shell scripts: curl, wget and httpie command lines, and the script's own helpers.

Shell has no string literals in the usual sense, so every word of a command
is a literal here: quoted and unquoted pieces joined, `$VAR`, `${VAR}` and
`$(...)` as interpolations. The method, headers and query come from the
command's options rather than from a call's arguments.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from typing import cast

from apispec.lint.calls.assemble import CallInfo
from apispec.lint.candidates import Chain, flatten
from apispec.lint.details.filter_value import value_from_parts
from apispec.lint.functions import Definitions
from apispec.lint.languages import lexer
from apispec.lint.languages.dialect import Dialect
from apispec.lint.languages.lexer import Heredoc
from apispec.lint.reference import QueryValue
from apispec.lint.scan import PARAM, Lit, Part, Source, split_interpolations

_INTERP = re.compile(r"\$\{(?:[^}\n$]++|\$(?!\{))*+\}|\$\([^()\n]*\)|\$[A-Za-z_]\w*|\$[0-9@*#?]")
_PIECE = re.compile(
    r"\$'(?P<ansi>(?:[^'\\]++|\\[\s\S])*+)'|'(?P<sq>[^']*+)'|\"(?P<dq>(?:[^\"\\]++|\\[\s\S])*+)\""
    r"|(?P<bare>(?:\$\([^()\n]*+\)|\$\{(?:[^}\n$]++|\$(?!\{))*+\}|\\[^\n]|[^\s'\"|;&<>()\\$]++|\$)++)"
)
# A word the general path would turn into one literal part of its own text.
_PLAIN_WORD = re.compile(r"[^'\"$\\=]*\Z")
_ASSIGNMENT = re.compile(r"[A-Za-z_]\w*=(?!=)")
_COMMAND_START = re.compile(
    r"(?:^|[;&|(]|\b(?:export|local|readonly|declare(?:\s+-\w+)?))[ \t]*\Z", re.M
)
_VERBS = {"GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"}
_CLIENTS = {"curl", "wget", "http", "https", "xh", "xhs"}
_WRAPPERS = {"sudo", "time", "command", "exec", "env", "$", "%", "nohup"}
_DATA = {
    "-d",
    "--data",
    "--data-raw",
    "--data-binary",
    "--data-ascii",
    "--json",
    "-F",
    "--form",
    "--data-urlencode",
    "-T",
    "--upload-file",
}
# Between two words: what ends one command and starts the next (`$(cmd ...)` too).
_SEPARATOR = re.compile(r"\|\|?|&&|;|\n|\(|\)|`")


class ShellDialect(Dialect):
    name = "shell"
    command_calls = True
    definitions = Definitions(
        (
            re.compile(
                r"(?m)^[ \t]*(?:function[ \t]+)?(?P<name>[A-Za-z_][\w:.-]*)[ \t]*\([ \t]*\)"
            ),
            re.compile(r"(?m)^[ \t]*function[ \t]+(?P<name>[A-Za-z_][\w:.-]*)[ \t]*(?=\{)"),
        ),
        "shell",
        "shell",
    )
    token_re = re.compile(
        r"(?P<c>(?<![^\s;|&(])\#[^\n]*)"
        r"|(?P<heredoc><<-?[ \t]*(?P<hq>['\"]?)(?P<word>[A-Za-z_]\w*)(?P=hq))"
        r"|(?P<w>(?:\$'(?:[^'\\]++|\\[\s\S])*+'|'[^']*+'|\"(?:[^\"\\]++|\\[\s\S])*+\"|\$\([^()\n]*+\)"
        r"|\$\{(?:[^}\n$]++|\$(?!\{))*+\}|\\[^\n]|[^\s'\"|;&<>()\\$]++|\$)++)"
    )
    # A heredoc's body is data for the command (a here-document), not words of the script.
    spans = lexer.spans(heredoc=Heredoc(None, comment=True))
    concat_re = None

    def use_pattern(self, var: str) -> str:
        return r"\$\{?" + re.escape(var) + r"\b"

    def scan(self, text: str, pos: int, endpos: int) -> tuple[list[Lit], list[tuple[int, int]]]:
        """Words and comments, and the words of commands inside `$(...)` of a word.

        `version=$(prtg_get /version | jq -r .version)` is one word (an
        assignment whose value is a substitution) and a command of its own.
        """
        lits, comments = super().scan(text, pos, endpos)
        if text.find("$(", pos, endpos) < 0:
            return lits, comments
        inner: list[Lit] = []
        for lit in lits:
            if "$(" not in text[lit.start : lit.end]:
                continue
            for start, end in substitutions(text, lit.start, lit.end):
                found, notes = self.scan(text, start + 2, end - 1)
                inner.extend(found)
                comments.extend(notes)
        if inner:
            lits = sorted(lits + inner, key=lambda lit: lit.start)
            comments.sort()
        return lits, comments

    def literal(self, m: re.Match[str]) -> Lit | None:
        word = m.group()
        base = m.start()
        if _PLAIN_WORD.match(word):  # most words: no quote, variable, escape or assignment
            return Lit(base, m.end(), [Part(word, False, base, m.end())])
        pos = 0
        am = _ASSIGNMENT.match(word)
        if am and _COMMAND_START.search(m.string, max(0, base - 80), base):
            pos = am.end()  # URL="$BASE/x": the value is the literal
        if "$(" in word:
            substituted = _substituted(word, base, pos)
            return Lit(base + pos, m.end(), substituted) if substituted else None
        parts: list[Part] = []
        for piece in _PIECE.finditer(word, pos):
            kind = piece.lastgroup or "bare"
            start = base + piece.start(kind)
            text = piece.group(kind)
            if kind == "sq":
                parts.append(Part(text, False, start, start + len(text)))
            elif kind == "ansi":  # $'...': backslash escapes, no expansion
                parts.extend(split_interpolations(text, start, None, "backslash"))
            else:
                parts.extend(split_interpolations(text, start, _INTERP, "backslash"))
        if not parts:
            return None
        return Lit(base + pos, m.end(), parts)

    def command_context(self, source: Source, chain: Chain) -> CallInfo | None:
        words = _command_words(source, chain.start)
        if not words:
            return CallInfo()
        info = CallInfo(window=(words[0].start, words[-1].end))
        names = [_plain(w) for w in words]
        k = 0
        while k < len(names) and (names[k] in _WRAPPERS or _is_assignment(source, words[k])):
            k += 1
        if k >= len(names):
            return info
        command = names[k].rsplit("/", 1)[-1]
        info.callee = command
        rest = _expanded(source, words[k + 1 :])
        if command == "curl":
            _curl(info, rest, chain)
        elif command == "wget":
            _wget(info, rest)
        elif command in _CLIENTS:
            _httpie(info, rest, chain)
        else:
            for word in rest:
                if _plain(word) in _VERBS:
                    info.method = _plain(word)
                    break
        return info


def substitutions(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """Spans of the outermost `$(...)` of one word (text[start:end]) holding a space."""
    found = []
    i = text.find("$(", start, end)
    while i >= 0:
        close = _substitution_end(text[:end], i)
        if close < 0:
            break
        if any(ch in " \t" for ch in text[i:close]):
            found.append((i, close))
        i = text.find("$(", close, end)
    return found


def _substituted(word: str, base: int, pos: int) -> list[Part]:
    """A word holding command substitutions (`"...?f=$(jq -rn --arg f "$f" '$f|@uri')"`).

    Quotes inside `$(...)` start afresh, so the substitution is found by
    walking the word; it is one interpolation, the rest as usual.
    """
    parts: list[Part] = []
    chars: list[str] = []
    offs: list[int] = []
    quote = ""

    def flush() -> None:
        if chars:
            parts.append(Part("".join(chars), False, offs[0], offs[-1] + 1, tuple(offs)))
            chars.clear()
            offs.clear()

    i = pos
    n = len(word)
    while i < n:
        ch = word[i]
        if quote == "'":
            if ch == "'":
                quote = ""
            else:
                chars.append(ch)
                offs.append(base + i)
            i += 1
            continue
        if (ch == "'" and not quote) or ch == '"':
            quote = "" if quote == ch else ch
            i += 1
            continue
        if ch == "\\" and i + 1 < n:
            chars.append(word[i + 1])
            offs.append(base + i + 1)
            i += 2
            continue
        if ch == "$":
            end = _substitution_end(word, i) if word.startswith("$(", i) else -1
            if end < 0:
                hole = _INTERP.match(word, i)
                end = hole.end() if hole else -1
            if end > i:
                flush()
                parts.append(Part(word[i:end], True, base + i, base + end))
                i = end
                continue
        chars.append(ch)
        offs.append(base + i)
        i += 1
    flush()
    return parts


def _substitution_end(word: str, start: int) -> int:
    """Just past the `)` closing the `$(` at `start` (quotes inside start afresh); -1: none."""
    depth = 0
    quote = ""
    i = start + 1
    while i < len(word):
        ch = word[i]
        if quote:
            if ch == quote:
                quote = ""
            elif ch == "\\" and quote == '"':
                i += 1
        elif ch in "'\"":
            quote = ch
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return -1


def _is_assignment(source: Source, word: Lit) -> bool:
    before = source.text[max(source.pos, word.start - 64) : word.start]
    return re.search(r"(?:^|\s)[A-Za-z_]\w*=\Z", before) is not None


def _plain(word: Lit) -> str:
    return "".join(PARAM if p.is_param else p.text for p in word.parts)


def _command_words(source: Source, offset: int) -> list[Lit]:
    """The words of the simple command around `offset` (continuation lines joined)."""
    text = source.text
    lines = source.lines
    start = source.line_start(offset)
    while start - 2 >= source.pos and text[start - 2] == "\\":  # the line before continues
        start = source.line_start(start - 2)
    starts = lines.starts
    line = bisect_right(starts, offset)  # 1-based: starts[line] begins the next line
    while True:
        if line >= len(starts) or starts[line] - 1 >= source.endpos:
            end = source.endpos
            break
        newline = starts[line] - 1
        if newline > 0 and text[newline - 1] == "\\":
            line += 1
            continue
        end = newline
        break
    inside = _inner_substitution(source, offset)
    if inside is not None:
        start, end = max(start, inside[0]), min(end, inside[1])
    current: list[Lit] = []
    last = start
    lits = source.lits
    for k in range(source.first_lit_after(start), len(lits)):
        lit = lits[k]
        if lit.start >= end:
            break
        if lit.start < start or lit.end > end:
            continue  # the word holding the substitution
        gap = text[last : lit.start]
        if _SEPARATOR.search(gap.replace("\\\n", "  ")):
            if lit.start > offset:
                break
            current = []
        current.append(lit)
        last = lit.end
    return current


def _inner_substitution(source: Source, offset: int) -> tuple[int, int] | None:
    """The inside of the innermost `$(...)` holding `offset`, when it is in one."""
    spans = cast("list[tuple[int, int]] | None", source.memo.get("substitutions"))
    if spans is None:
        spans = []
        text = source.text
        for lit in source.lits:
            if "$(" in text[lit.start : lit.end]:
                spans.extend(substitutions(text, lit.start, lit.end))
        source.memo["substitutions"] = spans
    best = None
    for start, end in spans:
        if start + 2 <= offset < end - 1 and (best is None or start > best[0]):
            best = (start + 2, end - 1)
    return best


_ARRAY_USE = re.compile(r"\$\{([A-Za-z_]\w*)\[[@*]\]\}")


def _expanded(source: Source, words: list[Lit]) -> list[Lit]:
    """Words with `"${args[@]}"` replaced by the words of the array assigned before it.

    `query=(--data-urlencode "filter=..." ...)` then `curl -G "${query[@]}" URL`
    passes the array's words as options of this one command.
    """
    if not words:
        return words
    span = source.text[words[0].start : words[-1].end]
    if "[@]" not in span and "[*]" not in span:
        return words
    text = source.text
    out: list[Lit] = []
    for word in words:
        m = _ARRAY_USE.fullmatch(text[word.start : word.end].strip("\"'"))
        if m is None:
            out.append(word)
            continue
        pattern = re.compile(r"(?<![\w$])" + re.escape(m.group(1)) + r"=\(")
        assigned = list(pattern.finditer(text, max(source.pos, word.start - 4000), word.start))
        assign = assigned[-1] if assigned else None
        if assign is None:
            out.append(word)
            continue
        close = source.matching_closer(assign.end() - 1, 4000)
        end = close if close > 0 else word.start
        out.extend(
            lit
            for lit in source.lits[source.first_lit_after(assign.end()) :]
            if lit.start < end and lit.start >= assign.end()
        )
    return out


def _curl(info: CallInfo, words: list[Lit], chain: Chain) -> None:
    data: list[Lit] = []
    get = False
    i = 0
    while i < len(words):
        w = _plain(words[i])
        nxt = words[i + 1] if i + 1 < len(words) else None
        if w in ("-X", "--request") and nxt is not None:
            info.method = _plain(nxt).upper()
            i += 2
            continue
        if w.startswith("--request="):
            info.method = w.split("=", 1)[1].upper()
        elif w.startswith("-X") and len(w) > 2 and not w.startswith("--"):
            info.method = w[2:].upper()
        elif w in ("-G", "--get"):
            get = True
        elif w in ("-I", "--head"):
            info.method = info.method or "HEAD"
        elif w in _DATA and nxt is not None:
            data.append(nxt)
            i += 2
            continue
        i += 1
    if info.method is None and get:
        info.method = "GET"
    elif info.method is None and data:
        info.method = "POST"
    if get:
        for word in data:
            info.query.extend(_item(word, "="))


def _wget(info: CallInfo, words: list[Lit]) -> None:
    for i, word in enumerate(words):
        w = _plain(word)
        if w.startswith("--method="):
            info.method = w.split("=", 1)[1].upper()
        elif w == "--method" and i + 1 < len(words):
            info.method = _plain(words[i + 1]).upper()
        elif w.startswith("--post-data") or w.startswith("--post-file"):
            info.method = info.method or "POST"


def _httpie(info: CallInfo, words: list[Lit], chain: Chain) -> None:
    seen_url = False
    has_data = False
    for word in words:
        w = _plain(word)
        if w.startswith("-"):
            continue
        if chain.start <= word.start < chain.end:
            seen_url = True
            continue
        if not seen_url:
            if w.upper() in _VERBS:
                info.method = w.upper()
            continue
        if "==" in w:
            info.query.extend(_item(word, "=="))
        elif ":=" in w or re.match(r"[\w.-]+=", w):
            has_data = True
    if info.method is None and has_data:
        info.method = "POST"


def _item(word: Lit, separator: str) -> list[QueryValue]:
    """`name=value` (curl -G -d) or `name==value` (httpie) as a query value."""
    flat, offs, owner = flatten(word.parts)
    cut = flat.find(separator)
    if cut <= 0 or PARAM in flat[:cut]:
        return []
    name = flat[:cut]
    k = cut + len(separator)
    parts: list[Part] = []
    while k < len(flat):
        if flat[k] == PARAM:
            part = word.parts[owner[k]]
            parts.append(Part(part.text, True, part.start, part.end))
            k += 1
            continue
        j = k
        while j < len(flat) and flat[j] != PARAM:
            j += 1
        parts.append(Part(flat[k:j], False, offs[k], offs[j - 1] + 1, tuple(offs[k:j])))
        k = j
    if not parts:
        return [QueryValue(name, "", None)]
    return [value_from_parts(name, parts, parts[0].start, parts[-1].end, decode=separator == "=")]
