"""PowerShell: "$var" and "$($x.id)" interpolation, -f formats, cmdlet parameters.

Calls are commands here (`Invoke-RestMethod -Uri ... -Method Delete`, or a
script's own `Invoke-PRTGRestMethod -Path ... -Method Post`), so the method
and the query come from the command's named parameters; .NET method calls
and splatted hashtables fall back to the shared call analysis.
"""

from __future__ import annotations

import re
from bisect import bisect_right

from apispec.lint.calls.assemble import CallInfo
from apispec.lint.candidates import Chain
from apispec.lint.functions import Definitions
from apispec.lint.languages import lexer
from apispec.lint.languages.dialect import Dialect
from apispec.lint.languages.lexer import Body, Closer, LineCloser, Span
from apispec.lint.scan import (
    Interpolated,
    Lit,
    Part,
    Source,
    parts_with_holes,
    split_interpolations,
    unescape,
)

_DOUBLE = re.compile(
    r"\$\((?:[^()\n]|\([^()\n]*\))*\)|\$\{(?:[^}\n$]|\$(?!\{))*\}|\$(?:script:|global:|env:|using:)?[A-Za-z_]\w*|\{\d+\}"
)
_SINGLE = re.compile(r"\{\d+\}")
_COMMAND = re.compile(
    r"(?:^|[|;{(=]|\bif\b|\belse\b)[ \t]*(?P<name>[A-Za-z]+-[A-Za-z][\w]*|irm|iwr)(?=[\s`])",
    re.M,
)
_PARAM_METHOD = re.compile(r"-Method\s+['\"]?([A-Za-z]+)", re.I)
_PARAM_BODY = re.compile(r"-Body\s+(@\{|\$[A-Za-z_]\w*)", re.I)
_REACH = 2000  # characters of a command line read around a URL
_SPLAT_NAME = re.compile(r"\$(?:script:|global:)?([A-Za-z_]\w*)\s*=\s*\Z", re.I)
_KEY_METHOD = re.compile(r"(?i)(?<![\w-])Method\s*=\s*['\"]?([A-Za-z]+)")
_KEY_BODY = re.compile(r"(?i)(?<![\w-])Body\s*=\s*(@\{|\$[A-Za-z_]\w*)(?!\s*\|)")
# `$path = switch (...) {`, `$p = if (...) {`, `else {`, `'label' {`: the block's statement
_BLOCK_ASSIGNED = re.compile(
    r"\$(?:script:|global:)?([A-Za-z_]\w*)\s*=\s*(?:switch|if)\b[^{}]*\Z", re.I
)
_ELSE = re.compile(r"[ \t]*(?:\}[ \t]*)?else(?:if[ \t]*\(.*\))?[ \t]*\Z", re.I)
_SUBEXPRESSION = Interpolated("$(", ")", "`", "\"'", doubled=False)
# The simple interpolations between subexpressions: `$x`, `${x}`, `{0}`.
_SIMPLE = re.compile(
    r"\$\{(?:[^}\n$]|\$(?!\{))*\}|\$(?:script:|global:|env:|using:)?[A-Za-z_]\w*|\{\d+\}"
)


class PowerShellDialect(Dialect):
    name = "powershell"
    decorators = False  # `@(...)` and `@{...}` at a line's start are an array and a hashtable
    code_groups = frozenset({"dql"})
    code_opener = "$("
    command_calls = True
    definitions = Definitions(
        (
            re.compile(
                r"(?im)^[ \t]*function[ \t]+(?P<name>[A-Za-z_][\w-]*)[ \t]*"
                r"(?:\((?=[^)]*\)[ \t\r\n]*\{))?"
            ),
        ),
        "powershell",
        "braces",
    )
    # Alternatives grouped by their first character (the pattern runs over every
    # line); most strings are on one line, the spans take the others.
    token_re = re.compile(
        r"(?P<c>\#[^\n]*)"
        r"|\"(?:(?P<dql>[^\"`\n]*+(?:(?:`.|\"\")[^\"`\n]*+)*+\")|(?P<dq>))"
        r"|'(?:(?P<sql>[^'\n]*+(?:''[^'\n]*+)*+')|(?P<sq>))"
        r"|<(?P<comment>\#)"
        r"|@(?:(?P<hd>\"[ \t]*\r?\n)|(?P<hs>'[ \t]*\r?\n))"
    )
    spans = lexer.spans(
        comment=Closer("#>", comment=True),
        # here-strings end with `"@` / `'@` at the start of a line
        hd=LineCloser(re.compile(r'^"@', re.M), interp=_DOUBLE, style="backtick"),
        hs=LineCloser(re.compile(r"^'@", re.M), interp=_SINGLE, style="none"),
        dq=Body(re.compile(r'(?:[^"`]++|`[\s\S]|"")*+"'), 1, '"', _DOUBLE, "backtick"),
        sq=Body(re.compile(r"(?:[^']++|'')*+'"), 1, "'", _SINGLE, "double'"),
    )
    operand_re = re.compile(
        r"\$(?:script:|global:|env:)?[A-Za-z_]\w*(?:\.[A-Za-z_]\w*|\[[^\]]{0,60}\]|\([^()]{0,80}\))*|\([^()]{0,80}\)"
    )

    def literal(self, m: re.Match[str]) -> Lit | None:
        double = m.lastgroup == "dql"
        start = m.start() + 1
        content = m.group()[1:-1]
        if double:
            return Lit(
                m.start(),
                m.end(),
                _undouble(split_interpolations(content, start, _DOUBLE, "backtick")),
            )
        return Lit(m.start(), m.end(), split_interpolations(content, start, _SINGLE, "double'"))

    def spanned(
        self, kind: str, m: re.Match[str], start: int, end: int, stop: int, span: Span
    ) -> Lit | None:
        text = m.string
        if kind in ("hd", "hs") and end > start:  # the line break before the closer is not text
            end -= 2 if text[end - 2 : end] == "\r\n" else 1
        if kind == "dq" and "$(" in text[start:end]:
            lit = self._subexpressions(text, m.start(), stop)
            if lit is not None:
                return lit
        parts = split_interpolations(text[start:end], start, span.interp, span.style)
        if kind == "dq":
            parts = _undouble(parts)
        return Lit(m.start(), stop, parts)

    def holds_code(self, m: re.Match[str]) -> bool:
        return m.lastgroup == "dql" and "$(" in m.group()

    def with_code(self, text: str, m: re.Match[str], endpos: int) -> Lit | None:
        return self._subexpressions(text, m.start(), endpos)

    def _subexpressions(self, text: str, quote: int, endpos: int) -> Lit | None:
        """A string whose `$(...)` holds code with strings: `"n: $((irm -Uri "$Base/x").Count)"`."""
        m_start = quote
        end, holes = _SUBEXPRESSION.walk(text, quote, endpos)
        if end < 0 or not any(q in text[a:b] for a, b in holes for q in "\"'"):
            return None
        parts = parts_with_holes(text, m_start + 1, end - 1, holes, "backtick", 2, _SIMPLE)
        return Lit(m_start, end, _undouble(parts), holes=tuple(holes))

    def use_pattern(self, var: str) -> str:
        return r"(?i)" + re.escape(var) + r"(?![\w])(?!\s*=[^=])"

    def command_context(self, source: Source, chain: Chain) -> CallInfo | None:
        text = source.text
        start = max(_logical_line_start(source, chain.start), chain.start - _REACH)
        command = None
        for m in _COMMAND.finditer(text, start, chain.start):
            if source.token_at(m.start("name")) is None:
                command = m
        if command is None:
            return _splatted(source, chain)
        end = min(_logical_line_end(source, chain.end), chain.end + _REACH)
        pipe = text.find("|", chain.end, end)
        if pipe >= 0 and source.token_at(pipe) is None:
            end = pipe
        args = text[command.end("name") : end]
        info = CallInfo(callee=command.group("name"), window=(command.start("name"), end))
        given = _PARAM_METHOD.search(args)
        if given:
            info.method = given.group(1).upper()
        else:
            words = re.findall(r"[A-Z][a-z]+", command.group("name"))
            verbs = {
                "Get": "GET",
                "Post": "POST",
                "Put": "PUT",
                "Patch": "PATCH",
                "Delete": "DELETE",
            }
            if (
                words
                and words[0] in verbs
                and not command.group("name").lower().startswith("get-content")
            ):
                info.method = verbs[words[0]]
        if info.method in (None, "GET"):
            body = _PARAM_BODY.search(args)
            if body:  # -Body of a GET: Invoke-RestMethod sends it as the query
                at = command.end("name") + body.start(1)
                if body.group(1) == "@{":
                    info.query_mapping = at + 1
                else:
                    info.query_variable = (body.group(1), at)
        return info

    def assigned_by_block(self, source: Source, start: int) -> str | None:
        """`$path = switch ($x) { 'a' { "/x" } }`, `$p = if (...) { "/a" } else { "/b" }`:
        the statement's value is the string its branch outputs."""
        text = source.text
        at = start
        for _ in range(4):
            opener = source.enclosing_opener(at, 2000)
            if opener < 0 or text[opener] != "{":
                return None
            line = text[source.head_start(opener) : opener]
            for _ in range(8):  # an `else`/`elseif` block: the `if` its chain starts with
                if not _ELSE.match(line):
                    break
                k = text.rfind("}", source.pos, source.line_start(opener) + len(line))
                previous = source.brackets.opener(k) if k >= 0 else -1
                if previous < 0 or text[k + 1 : opener].strip(" \t\r\n").lower()[:4] != "else":
                    break
                opener = previous
                line = text[source.head_start(opener) : opener]
            m = _BLOCK_ASSIGNED.search(line)
            if m is not None:
                return "$" + m.group(1)
            at = opener
        return None


def _splatted(source: Source, chain: Chain) -> CallInfo | None:
    """A URL in a hashtable splatted into a command: `$p = @{ Uri = "..."; Body = $q }; iwr @p`.

    The command and the hashtable's `Method` say the method; its `Body` on a GET
    is the query, as with -Body.
    """
    text = source.text
    opener = source.enclosing_opener(chain.start, 2000)
    if opener < 1 or text[opener - 1 : opener + 1] != "@{":
        return None
    named = _SPLAT_NAME.search(text, source.line_start(opener), opener - 1)
    closer = source.matching_closer(opener, 20000)
    if named is None or closer < 0:
        return None
    use = re.compile(r"(?i)@" + re.escape(named.group(1)) + r"\b").search(
        text, closer, min(source.endpos, closer + 4000)
    )
    if use is None:
        return None
    start = _logical_line_start(source, use.start())
    command = None
    for m in _COMMAND.finditer(text, start, use.start()):
        if source.token_at(m.start("name")) is None:
            command = m
    if command is None:
        return None
    end = _logical_line_end(source, use.end())
    table = text[opener:closer]
    info = CallInfo(callee=command.group("name"), window=(opener, end))
    given = _KEY_METHOD.search(table) or _PARAM_METHOD.search(text, command.end("name"), end)
    if given:
        info.method = given.group(1).upper()
    if info.method in (None, "GET"):
        body = _KEY_BODY.search(table)
        if body:
            at = opener + body.start(1)
            if body.group(1) == "@{":
                info.query_mapping = at + 1
            else:
                info.query_variable = (body.group(1), at)
    return info


def _undouble(parts: list[Part]) -> list[Part]:
    """`""` inside a double-quoted string is one quote (unescape() did backticks only)."""
    fixed = []
    for part in parts:
        if part.is_param or '""' not in part.text:
            fixed.append(part)
            continue
        offs = part.offs or tuple(range(part.start, part.start + len(part.text)))
        text, inner = unescape(part.text, 0, 'double"')
        mapped = tuple(offs[i] for i in inner) if inner is not None else offs
        fixed.append(Part(text, False, part.start, part.end, mapped))
    return fixed


def _logical_line_start(source: Source, offset: int) -> int:
    """The start of the line holding `offset`, lines ending in a backtick joined."""
    text = source.text
    start = source.line_start(offset)
    while start > source.pos:  # the newline before the line is in range
        newline = start - 1
        if (
            text[max(source.pos, newline - 1) : newline] == "`"
            or text[max(source.pos, newline - 2) : newline] == "`\r"
        ):
            start = source.line_start(newline - 1)
            continue
        break
    return start


def _logical_line_end(source: Source, offset: int) -> int:
    """The end of the line holding `offset`, lines ending in a backtick joined."""
    text = source.text
    starts = source.lines.starts
    line = bisect_right(starts, offset)  # starts[line] begins the next line
    while line < len(starts) and starts[line] - 1 < source.endpos:
        newline = starts[line] - 1
        if text[newline - 1] == "`" or text[newline - 2 : newline] == "`\r":
            line += 1
            continue
        return newline
    return source.endpos
