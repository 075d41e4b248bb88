"""What an expression sent as a query value holds, where the code shows it.

A filter is rarely a literal in the call: it is kept in a variable, built by a
small function, formatted (`'parentid = "{0}"' -f $Id`, `fmt.Sprintf`) and
URL-encoded (`quote(f)`, `encodeURIComponent(f)`, `[uri]::EscapeDataString($f)`,
`jq -rn --arg f "$f" '$f|@uri'`) before it is sent. Resolution follows those
steps back, a few levels deep, to the literal text: simple assignments (the last
one before the use), encoders (looked through: the server decodes), formatters
(their template), and functions of the same file that return a literal or a
formatted literal. Every character keeps its offset in the file, so a finding
points into the function body or the assignment where the text is written;
what cannot be followed stays a placeholder of unknown content.
"""

from __future__ import annotations

import re
from functools import lru_cache

from apispec.lint.calls.callee import callee_before
from apispec.lint.calls.method import MEMBER_SPACED
from apispec.lint.candidates import chain_from
from apispec.lint.details.joins import join_at
from apispec.lint.functions import FunctionDef, returned, split_top
from apispec.lint.patterns import lazy
from apispec.lint.scan import Part, Source

_BLANKS = re.compile(r"[^\S\n]*")  # the blanks str.strip() would remove, within a line
_DEPTH = 8  # how many steps (variable, call, encoder, wrapper) are followed from a use
_REACH = 3000  # characters before a use where the variable's assignment is looked for
# Calls whose result is their first argument, encoded or converted: looked through.
_ENCODERS = frozenset(
    [
        "quote",
        "quote_plus",
        "encodeuricomponent",
        "encodeuri",
        "escape",
        "queryescape",
        "pathescape",
        "escapedatastring",
        "escapeuristring",
        "urlencode",
        "urlencodeunicode",
        "rawurlencode",
        "encode_www_form_component",
        "url_encode",
        "urlencoder.encode",
        "uriutils.encode",
        "uriutils.encodequeryparam",
        "str",
        "string",
        "tostring",
        "trim",
        "strip",
    ]
)
# Calls whose first argument is a template of the result (placeholders stay unknown).
_FORMATTERS = frozenset(["sprintf", "format", "printf", "fprintf", "string.format"])
_WRAPPED = lazy(r"\A\s*(?:\$\{|\$\(|\{|\()(?P<inner>[\s\S]*)(?:\}|\))\s*\Z")
_TYPE_PREFIX = lazy(r"\A\s*\[[\w.]+\]::")
_IDENTIFIER = lazy(r"\A\s*(?:\$\{?)?(?:(?:script|global|env):)?([A-Za-z_][\w]*)\}?\s*\Z")
_ECHO = lazy(r"\b(?:printf|echo)\s+(?:-[a-z]+\s+)*")
_JQ_ARG = lazy(r"--arg\s+(\w+)\s+(\S+)")


def resolve_at(source: Source, pos: int, depth: int = 0) -> list[Part] | None:
    """The parts of the expression that starts at `pos`; None when nothing is known of it."""
    text = source.text
    pos = source.skip_space(pos)
    end = _expression_end(source, pos)
    statement_end = end
    if source.dialect.name == "powershell" and text.startswith(",", end):
        statement_end = text.find("\n", end, source.endpos)  # `"a", "b" -join " AND "`
        statement_end = source.endpos if statement_end < 0 else statement_end
    joined = _joined(source, pos, statement_end, depth)
    if joined is not None:
        return joined
    j = source.lit_starting(pos)
    if j is not None:
        return resolve_parts(source, chain_from(source, j).parts, depth)
    return resolve_text(source, text[pos:end], pos, depth)


def _joined(source: Source, pos: int, end: int, depth: int) -> list[Part] | None:
    """A join of parts (`" and ".join(...)`, `$c -join ' AND '`): details/joins.py."""
    if depth >= _DEPTH:
        return None

    def resolve(lo: int, hi: int | None) -> list[Part] | None:
        if hi is None:
            return resolve_at(source, lo, depth + 1)
        return resolve_text(source, source.text[lo:hi], lo, depth + 1)

    return join_at(source, pos, end, resolve)


def resolve_parts(source: Source, parts: list[Part], depth: int) -> list[Part]:
    """Parts with each interpolation replaced by what it holds, where that is known."""
    if depth >= _DEPTH:
        return parts
    resolved: list[Part] = []
    for part in parts:
        if part.is_param:
            inner = resolve_text(source, part.text, part.start, depth + 1)
            if inner is not None:
                resolved.extend(inner)
                continue
        resolved.append(part)
    return resolved


def resolve_text(source: Source, expression: str, pos: int, depth: int) -> list[Part] | None:
    """The parts of an expression written as `expression` at offset `pos`."""
    if depth >= _DEPTH or not expression.strip():
        return None
    wrapped = _WRAPPED.match(expression)
    if wrapped is not None and _balanced(wrapped.group("inner")):
        inner = wrapped.group("inner")
        offset = pos + wrapped.start("inner")
        if expression.lstrip().startswith("$(") and source.dialect.name == "shell":
            return _command(source, inner, offset, depth)
        return resolve_text(source, inner, offset, depth)
    typed = _TYPE_PREFIX.match(expression)
    if typed is not None:  # PowerShell `[uri]::EscapeDataString($f)`
        return resolve_text(source, expression[typed.end() :], pos + typed.end(), depth)
    stripped = expression.strip()
    lead = pos + len(expression) - len(expression.lstrip())
    if source.text.startswith(stripped, lead):
        joined = _joined(source, lead, lead + len(stripped), depth)
        if joined is not None:
            return joined
    j = source.lit_starting(lead)
    if j is not None:
        return resolve_parts(source, chain_from(source, j).parts, depth + 1)
    name = _IDENTIFIER.match(expression)
    if name is not None:
        return _variable(source, name.group(1), pos, depth)
    if stripped.endswith(")") and "(" in stripped:
        return _call(source, stripped, lead, depth)
    if source.dialect.command_calls:  # `Get-SensorFilter -Parent $gid`
        return _command(source, stripped, lead, depth)
    return None


def _balanced(text: str) -> bool:
    depth = 0
    for ch in text:
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
            if depth < 0:
                return False
    return depth == 0


def _expression_end(source: Source, pos: int) -> int:
    """Where an expression starting at `pos` ends: `,`, `;`, a newline or a closer at depth 0."""
    text = source.text
    stop = min(source.endpos, pos + 400)
    depth = 0
    i = pos
    while i < stop:
        token = source.token_at(i)
        if token is not None and token[0] >= pos:
            i = token[1]
            continue
        ch = text[i]
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            if depth == 0:
                return i
            depth -= 1
        elif depth == 0 and ch in ",;\n":
            if ch == "\n" and text.startswith((".", "?."), source.skip_space(i)):
                i += 1  # a method chain going on on the next line: `.collect(...)`
                continue
            return i
        i += 1
    return stop


def _variable(source: Source, name: str, before: int, depth: int) -> list[Part] | None:
    """What `name` was last assigned before `before` (within reach)."""
    text = source.text
    pattern = _assignment(name, source.dialect.name == "powershell")
    last = None
    for m in pattern.finditer(text, max(source.pos, before - _REACH), before):
        if source.token_at(m.start()) is None or source.dialect.name == "shell":
            last = m
    if last is None:
        return None
    return resolve_at(source, last.end(), depth + 1)


@lru_cache(maxsize=256)
def _assignment(name: str, any_case: bool) -> re.Pattern[str]:
    return re.compile(
        r"(?<![\w$.])\$?(?:script:|global:)?" + re.escape(name) + r"\s*(?::=|=)(?!=)[ \t]*",
        re.I if any_case else 0,
    )


def _call(source: Source, expression: str, pos: int, depth: int) -> list[Part] | None:
    """An encoder, a formatter or a function of the file, called with arguments."""
    opener = pos + expression.index("(")
    m = callee_before(source.text, max(source.pos, opener - 160), opener)
    if m is None:
        return None
    names = [n for n in MEMBER_SPACED.split(m.group(1)) if n]
    if not names:
        return None
    last = names[-1].lower()
    args = split_top(expression[expression.index("(") + 1 : -1])
    first = source.text.find(args[0], opener) if args else -1
    qualified = ".".join(names[-2:]).lower()  # `URLEncoder.encode`, `String.format`
    if last in _ENCODERS or last in _FORMATTERS or qualified in _FORMATTERS | _ENCODERS:
        return resolve_at(source, first, depth + 1) if first >= 0 else None
    fn = _function(source, names[-1])
    return _returned(source, fn, depth) if fn is not None else None


def _command(source: Source, command: str, pos: int, depth: int) -> list[Part] | None:
    """A command whose output is the value: an own function, or `jq ... '$f|@uri'`."""
    words = command.split()
    if not words:
        return None
    if words[0] == "jq" and "@uri" in command:
        arg = _JQ_ARG.search(command)
        if arg is not None:
            return resolve_text(source, arg.group(2).strip("\"'"), pos + arg.start(2), depth + 1)
        return None
    fn = _function(source, words[0])
    return _returned(source, fn, depth) if fn is not None else None


def _function(source: Source, name: str) -> FunctionDef | None:
    lowered = name.lower()
    functions: list[FunctionDef] = source.dialect.functions(source)
    for fn in functions:
        if fn.name.lower() == lowered:
            return fn
    return None


def _returned(source: Source, fn: FunctionDef, depth: int) -> list[Part] | None:
    """What a function returns: its `return` expression, or a command's printed text."""
    text = source.text
    start, end = fn.body
    if source.dialect.name == "shell":
        m = _ECHO.search(text, start, end)
        if m is None:
            return None
        j = source.lit_starting(m.end())
        return list(source.lits[j].parts) if j is not None else None
    if source.dialect.name == "powershell":
        j = source.first_lit_after(start)
        while j < len(source.lits) and source.lits[j].start < end:
            lit = source.lits[j]
            line_start = source.line_start(lit.start)
            blanks = _BLANKS.match(text, line_start)  # `[^\S\n]*` matches anywhere
            if blanks is not None and blanks.end() >= lit.start:  # a string as a statement:
                # the function's output (only the line's indentation is read)
                return resolve_parts(source, list(lit.parts), depth + 1)
            j += 1
    for at in returned(source, fn):
        found = resolve_at(source, at, depth + 1)
        if found is not None:
            return found
    return None
