"""YAML and JSON files: Ansible `uri` tasks, Postman collections, OpenAPI files.

In data files the "call" is a mapping: the URL and its `method` are sibling
keys (Ansible, Postman's request object), or an OpenAPI path key holds one
child per method (one reference per method). Notebooks are JSON too; their
code cells are found in languages/embedded.py.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from typing import cast

from apispec.lint.calls.assemble import CallInfo
from apispec.lint.candidates import Chain
from apispec.lint.languages.dialect import Dialect
from apispec.lint.scan import Lit, Part, Source, split_interpolations

# A hole's text never holds the start of another hole (`{{`, `${`): an unclosed
# one then costs a look to the next one, not to the end of the line, each time.
_HOLES = re.compile(
    r"\{\{(?:[^}\n{]|\{(?!\{))*\}\}|\{[^{}\n]*\}|\$\{(?:[^}\n$]|\$(?!\{))*\}|(?<=/):[A-Za-z_]\w*"
)
_VERB_KEYS = ("get", "post", "put", "patch", "delete", "head", "options")
_YAML_METHOD = re.compile(
    r"^[ \t]*(?:-[ \t]*)?['\"]?method['\"]?[ \t]*:[ \t]*['\"]?([A-Za-z]+)", re.M
)
_KEY_INDENT = re.compile(r"[ -]*")
# How far a YAML mapping around a URL is read, in lines each way: a mapping is a
# handful of lines, and a list of thousands of siblings must not be read per item.
_BLOCK_LINES = 200
_CHILD_LINES = 2000
_JSON_METHOD = re.compile(r"\"method\"\s*:\s*\"([A-Za-z]+)\"")
_PATH_KEY = re.compile(r"\s*:\s*\{")
_METHOD_KEY = re.compile(r"\"(get|post|put|patch|delete|head|options)\"\s*:")


class YamlDialect(Dialect):
    name = "yaml"
    token_re = re.compile(
        r"(?P<c>(?<!\S)\#[^\n]*)"
        r"|(?P<dq>\"[^\"\\\n]*+(?:\\.[^\"\\\n]*+)*+\")"
        r"|(?P<sq>'(?:[^'\n]|'')*')"
        r"|(?P<key>(?<!\S)/[^\s:#'\"]*(?=:(?:[ \t]|$)))"
        r"|(?P<plain>(?<=[:-][ \t])(?![\s|>'\"\[{&*!#])[^\n]*)"
        r"|(?P<x>[\"'][^\n]*)",  # a quote that closes on no line: the rest of its line
        re.M,
    )
    concat_re = None

    def scan(self, text: str, pos: int, endpos: int) -> tuple[list[Lit], list[tuple[int, int]]]:
        """The token pattern, with a plain scalar cut where its trailing blanks or comment begin.

        A plain scalar's pattern takes the rest of the line; cutting it here
        costs one look at the line, where a pattern that stops before the
        trailing blanks tries them again at every character.
        """
        lits: list[Lit] = []
        comments: list[tuple[int, int]] = []
        search = self.token_re.search
        at = pos
        while True:
            m = search(text, at, endpos)
            if m is None:
                break
            if m.lastgroup in ("c", "x"):
                comments.append((m.start(), m.end()))
                at = m.end()
                continue
            end = _plain_end(text, m.start(), m.end()) if m.lastgroup == "plain" else m.end()
            lit = self.literal(m, end)
            if lit is not None:
                lits.append(lit)
            if end == m.start():  # an empty plain scalar: only at the very end
                break
            at = end
        return lits, comments

    def literal(self, m: re.Match[str], end: int | None = None) -> Lit | None:
        kind = m.lastgroup
        if end is None:
            end = m.end()
        if kind in ("dq", "sq"):
            start, content = m.start() + 1, m.string[m.start() + 1 : end - 1]
        else:
            start, content = m.start(), m.string[m.start() : end]
        style = {"dq": "backslash", "sq": "double'"}.get(kind or "", "none")
        parts = split_interpolations(content, start, _HOLES, style)
        if any(p.is_param and "{{" in p.text for p in parts):
            parts = _constants(parts)
        return Lit(m.start(), end, parts)

    def command_context(self, source: Source, chain: Chain) -> CallInfo | None:
        text = source.text
        line_start = source.line_start(chain.start)
        blanks = _KEY_INDENT.match(text, line_start, chain.start)  # `[ -]*` matches anywhere
        indent = (blanks.end() if blanks is not None else line_start) - line_start
        if line_start + indent == chain.start and re.match(
            r"['\"]?:[ \t]*(?:#.*)?$", text[chain.end : chain.end + 80].split("\n")[0]
        ):
            return CallInfo(methods=_yaml_children(source, line_start))
        lo, hi = _yaml_block(source, line_start, indent)
        info = CallInfo(window=(lo, hi))
        for m in _YAML_METHOD.finditer(text, lo, hi):
            line_indent = len(m.group()) - len(m.group().lstrip(" -"))
            if line_indent == indent and m.group(1).upper() in _VERBS_UPPER:
                info.method = m.group(1).upper()
                break
        if info.method is None:
            info.method = _looped_method(source, line_start)
        return info


_VERBS_UPPER = frozenset(v.upper() for v in _VERB_KEYS)
_LOOP_KEY = re.compile(r"^[ \t]*(?:loop|with_items|with_list|with_dict)[ \t]*:", re.M)
_MODULE_METHOD = re.compile(r"^[ \t]+method[ \t]*:[ \t]*['\"]?([A-Za-z]+)", re.M)


def _looped_method(source: Source, line_start: int) -> str | None:
    """The method of the task whose `loop:` list holds the URL (Ansible's `loop` items of `uri`)."""
    text = source.text
    lo = line_start
    key = None
    for _ in range(_BLOCK_LINES):  # up to the list's key, at a smaller indent
        if lo <= source.pos:
            return None
        prev = max(source.pos, source.lines.line_start(lo - 1))
        line = text[prev : lo - 1]
        if line.strip() and _indent(line) < _indent(
            text[line_start : _line_end(source, line_start)]
        ):
            key = (prev, line)
            break
        lo = prev
    if key is None or not _LOOP_KEY.match(key[1]):
        return None
    task_lo, task_hi = _yaml_block(source, key[0], _indent(key[1]))
    m = _MODULE_METHOD.search(text, task_lo, task_hi)
    return m.group(1).upper() if m and m.group(1).upper() in _VERBS_UPPER else None


# A Jinja expression that is a quoted string, filtered or not: `{{ 'status = down' | urlencode }}`.
_JINJA_CONSTANT = re.compile(
    r"\{\{\s*(?P<q>['\"])(?P<text>[^'\"\n]*)(?P=q)\s*(?:\|\s*(?:urlencode|lower|upper|trim|string)\s*)*\}\}\Z"
)


def _constants(parts: list[Part]) -> list[Part]:
    """Jinja holes that are constant text become that text, at its own offsets: the filter
    in `?filter={{ 'status = Down' | urlencode }}` is checked as written."""
    out: list[Part] = []
    for part in parts:
        m = _JINJA_CONSTANT.match(part.text) if part.is_param else None
        if m is None:
            out.append(part)
            continue
        start = part.start + m.start("text")
        text = m.group("text")
        out.append(Part(text, False, start, start + len(text)))
    return out


def _plain_end(text: str, start: int, end: int) -> int:
    """Where a plain scalar that may run to `end` (its line's end) ends.

    Before the first blanks that a `#` follows (a comment), else before the
    trailing blanks.
    """
    hash_at = text.find("#", start, end)
    while hash_at >= 0:
        if text[hash_at - 1] in " \t":
            cut = hash_at - 1
            while cut > start and text[cut - 1] in " \t":
                cut -= 1
            return cut
        hash_at = text.find("#", hash_at + 1, end)
    while end > start and text[end - 1] in " \t":
        end -= 1
    return end


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _yaml_block(source: Source, line_start: int, indent: int) -> tuple[int, int]:
    """The lines around `line_start` indented at least `indent` (one mapping)."""
    text = source.text
    floor, ceiling = source.pos, source.endpos
    lo = line_start
    for _ in range(_BLOCK_LINES):
        if lo <= floor:
            break
        prev = max(floor, source.lines.line_start(lo - 1))
        line = text[prev : lo - 1]
        if line.strip() and _indent(line) < indent:
            break
        if line.lstrip().startswith("- ") and _indent(line) + 2 <= indent:
            lo = prev
            break
        lo = prev
    hi = _line_end(source, line_start)
    for _ in range(_BLOCK_LINES):
        if hi >= ceiling:
            break
        nxt = _line_end(source, hi + 1)
        line = text[hi + 1 : nxt]
        stripped = line.lstrip(" ")
        if stripped and (
            len(line) - len(stripped) < indent
            or (stripped.startswith("- ") and len(line) - len(stripped) <= indent - 2)
        ):
            break
        hi = nxt
    return lo, hi


def _line_end(source: Source, offset: int) -> int:
    """The newline ending the line that holds `offset`, or the end of the range."""
    starts = source.lines.starts
    line = bisect_right(starts, offset)
    if line < len(starts) and starts[line] - 1 < source.endpos:
        return starts[line] - 1
    return source.endpos


def _yaml_children(source: Source, line_start: int) -> tuple[str, ...]:
    """The methods an OpenAPI path key lists among its children (`get:`, `post:`)."""
    text, ceiling = source.text, source.endpos
    line_end = _line_end(source, line_start)
    indent = _indent(text[line_start:line_end])
    methods: list[str] = []
    pos = line_end
    for _ in range(_CHILD_LINES):
        if pos >= ceiling:
            break
        nxt = _line_end(source, pos + 1)
        child = text[pos + 1 : nxt]
        stripped = child.lstrip(" ")
        if stripped and len(child) - len(stripped) <= indent:
            break
        key = stripped.split(":", 1)[0].strip("'\"")
        if key in _VERB_KEYS and key.upper() not in methods:
            methods.append(key.upper())
        pos = nxt
    return tuple(methods)


class JsonDialect(Dialect):
    name = "json"
    token_re = re.compile(r"(?P<dq>\"[^\"\\\n]*+(?:\\.[^\"\\\n]*+)*+\")|(?P<x>\"[^\n]*)")
    concat_re = None

    def literal(self, m: re.Match[str]) -> Lit | None:
        start = m.start() + 1
        return Lit(
            m.start(), m.end(), split_interpolations(m.group()[1:-1], start, _HOLES, "backslash")
        )

    def command_context(self, source: Source, chain: Chain) -> CallInfo | None:
        text = source.text
        after = _PATH_KEY.match(text, chain.end)
        if after is not None:  # an OpenAPI path key: one child per method
            opener = after.end() - 1
            closer = source.matching_closer(opener, 200000)
            methods = []
            for m in _METHOD_KEY.finditer(text, opener, closer if closer >= 0 else len(text) - 1):
                at = m.start()
                if m.group(1).upper() not in methods and source.enclosing_opener(at, at) == opener:
                    methods.append(m.group(1).upper())
            return CallInfo(methods=tuple(methods))
        info = CallInfo()
        at = chain.start
        for _ in range(3):
            opener = source.enclosing_opener(at, 20000)
            if opener < 0:
                break
            closer = source.matching_closer(opener, 40000)
            if text[opener] == "{":
                method = _json_method(source, opener, closer)
                if method is not None:
                    info.method = method
                    info.window = (opener, closer)
                    break
            at = opener
        return info


def _json_method(source: Source, opener: int, closer: int) -> str | None:
    """The value of the first `"method": "X"` inside text[opener:closer]."""
    found = cast("tuple[list[int], list[re.Match[str]]] | None", source.memo.get("json methods"))
    if found is None:
        matches = list(_JSON_METHOD.finditer(source.text, source.pos, source.endpos))
        found = source.memo["json methods"] = ([m.start() for m in matches], matches)
    starts, matches = found
    for k in range(bisect_left(starts, opener), len(starts)):
        m = matches[k]
        if m.start() >= closer:
            break
        if m.end() <= closer:
            return m.group(1).upper()
    return None
