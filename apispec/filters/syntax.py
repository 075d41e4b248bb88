"""FLT001: say in plain words what the parser expected, and how to fix the usual slips.

The expected terminals come from the LALR state where parsing stopped (Lark's
`expected`/`allowed` sets), never from guesses. The hints cover what people
carry over from other languages and from the old API (see docs/filters.md).
A hint that is a mechanical fix also carries the edits (safe when the meaning
is beyond doubt, unsafe when apispec guesses), so parsing can go on and tools
can apply them.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken

from apispec.filters.diagnostics import Diagnostic, Fix, fix_of, line_column, make
from apispec.filters.grammar import (
    KEYWORDS,
    OPERATOR_TERMINALS,
    RELATION_TERMINALS,
    tables,
)
from apispec.filters.tokens import (
    BARE,
    LONG_FILTER,
    OffsetMap,
    Token,
    accepted_after,
    tokenize,
)

ODATA = {"eq": "=", "ne": "!=", "gt": ">", "lt": "<", "ge": ">=", "le": "<="}
VALUE_TERMINALS = ("TEXT", "NUMBER", "TRUE", "FALSE", "NAME")
# Order in which expected items are listed.
LISTING = ("_AND", "_OR", "_COMMA", "RSQB", "RPAR", "LPAR", "$END")
NOT_SHOWN = ("PLACEHOLDER",)


class _Error:
    """Where parsing stopped and what would have been accepted there."""

    def __init__(self, text: str, error: UnexpectedInput) -> None:
        self.text = text
        self.found_type: str | None
        if isinstance(error, UnexpectedToken):
            token = error.token
            self.expected = set(error.expected)
            if token.type == "$END":
                self.kind = "end"
                self.start = self.end = len(text)
                self.found_type = "$END"
            else:
                self.kind = "token"
                self.start = token.start_pos
                self.end = token.end_pos
                self.found_type = token.type
        else:
            assert isinstance(error, UnexpectedCharacters)
            self.kind = "char"
            self.start = error.pos_in_stream or 0  # always set here; Lark types it None
            self.end = self.start + 1
            self.expected = set(error.allowed or ())
            self.found_type = None
        self.found = text[self.start : self.end]
        tokens, _ = tokenize(text[: self.start])
        self.before: list[Token] = tokens
        self.prev: Token | None = tokens[-1] if tokens else None
        if len(text) <= LONG_FILTER:  # a second full parse is not worth it for huge input
            self.expected = accepted_after(text[: self.start]) or self.expected
        shown = tables().display
        self.expected = {name for name in self.expected if name in shown} - set(NOT_SHOWN)


def explain(
    text: str, error: UnexpectedInput, original: str, masked: str, offsets: OffsetMap
) -> Diagnostic:
    """The FLT001 diagnostic (offsets in `text`), with the fix its hint suggests, if any.

    `text` is what was parsed: `masked` (the user's `original` with placeholders
    marked) after the fixes applied so far, which `offsets` undoes.
    """
    err = _Error(text, error)

    def shown(start: int, end: int) -> str:
        written = original[offsets.original(start) : offsets.original(end)]
        return written or text[start:end]  # text a fix inserted is shown as inserted

    expected = describe(err.expected)
    where = _where(err, original, masked, offsets)
    message = None
    if err.kind == "end":
        if not text.strip():
            message = f"the filter is empty: expected {expected}"
        else:
            message = f"expected {expected} {where}, but the filter ends there"
    elif err.kind == "token":
        message = f"expected {expected} {where}, found `{shown(err.start, err.end)}`"
    hint, fix, override = _hint(err, original, offsets)
    if override:
        message, start, end = override
    else:
        start, end = err.start, err.end
        if message is None:
            message = f"unexpected character {_char(shown(err.start, err.end))} {where}: expected {expected}"
    return make("FLT001", message, start, end, hint, fix)


def _where(err: _Error, original: str, masked: str, offsets: OffsetMap) -> str:
    """`after <the token the user wrote before the error>`, or `at the start of the filter`."""
    start = offsets.original(err.start)
    tokens, stop = tokenize(masked[:start])
    if tokens and stop == start:
        last = tokens[-1]
        return f"after `{original[last.start_pos : last.end_pos]}`"
    if err.prev is not None:
        return f"after `{err.text[err.prev.start_pos : err.prev.end_pos]}`"
    return "at the start of the filter"


def describe(expected: Iterable[str]) -> str:
    """Plain words for a set of terminal names."""
    names = set(expected)
    shown = tables().display
    parts: list[str] = []
    operators = set(OPERATOR_TERMINALS)
    if operators <= names:
        symbols = ", ".join(shown[t].strip("`") for t in OPERATOR_TERMINALS)
        parts.append(f"an operator ({symbols})")
        names -= operators
    if {"TEXT", "NUMBER", "NAME"} <= names:
        kinds = ["a text in double quotes", "a number", "true", "false", "an enumeration value"]
        if "LSQB" in names:
            parts.append(f"a value ({', '.join(kinds)} or a list in `[ ]`)")
        else:
            parts.append(f"a list element ({', '.join(kinds[:-1])} or {kinds[-1]})")
        names -= {*VALUE_TERMINALS, "LSQB"}
    if "NAME" in names:
        parts.append("a property name")
        names.discard("NAME")
    relations = set(RELATION_TERMINALS)
    if relations <= names:
        words = ", ".join(shown[t].strip("`") for t in RELATION_TERMINALS)
        parts.append(f"a relationship word ({words})")
        names -= relations
    if "NOT" in names:
        parts.append("`not(`")
        names.discard("NOT")
    order = {name: i for i, name in enumerate(LISTING)}
    parts.extend(shown[n] for n in sorted(names, key=lambda n: (order.get(n, 99), n)))
    if not parts:
        return "nothing more"
    return parts[0] if len(parts) == 1 else f"{', '.join(parts[:-1])} or {parts[-1]}"


def _char(written: str) -> str:
    """The offending character in words; after a repair it may stand for several (`\"\"\"`)."""
    if written == "`":
        return "'`'"
    if written.isprintable() and not any(ch.isspace() or ch == "`" for ch in written):
        return f"`{written}`"
    if len(written) != 1:
        return " ".join(_char(ch) for ch in written)
    name = unicodedata.name(written, "")
    return f"U+{ord(written):04X}" + (f" ({name.lower()})" if name else "")


Override = tuple[str, int, int] | None


def _hint(
    err: _Error, original: str, offsets: OffsetMap
) -> tuple[str | None, Fix | None, Override]:
    """(hint, edit, replacement message and range) for the slip at the error, if known."""
    text = err.text
    found = err.found
    prev = err.prev
    start, end = err.start, err.end

    # Upper-case keywords: `AND`, `OR`, `NOT(...)`.
    if err.kind != "char" and _shouting(found):
        return (
            f"keywords are lower case: write `{found.lower()}`",
            fix_of("safe", (start, end, found.lower())),
            None,
        )
    if prev is not None and prev.type == "NAME" and _shouting(prev.value):
        word = prev.value
        message = f"`{word}` is read as a property name: keywords are lower case"
        return (
            f"write `{word.lower()}`",
            fix_of("safe", (prev.start_pos, prev.end_pos, word.lower())),
            (message, prev.start_pos, prev.end_pos),
        )
    operator_expected = set(OPERATOR_TERMINALS) <= err.expected
    if err.kind == "token":
        kind = err.found_type
        # `==`
        if kind == "EQ" and prev is not None and prev.type == "EQ" and prev.end_pos == start:
            return "compare with a single `=`", fix_of("safe", (start, end, "")), None
        # `<>`
        if kind == "GT" and prev is not None and prev.type == "LT" and prev.end_pos == start:
            return "write `!=` for not equal", fix_of("safe", (prev.start_pos, end, "!=")), None
        # OData operators.
        if operator_expected and kind == "NAME" and found.lower() in ODATA:
            symbol = ODATA[found.lower()]
            return (
                f"`{found}` is OData notation; this language writes `{symbol}`",
                fix_of("safe", (start, end, symbol)),
                None,
            )
        # Trailing comma, empty list.
        if kind == "RSQB" and prev is not None and prev.type == "_COMMA":
            return (
                "remove the comma before `]`: a list has no trailing comma",
                fix_of("safe", (prev.start_pos, prev.end_pos, "")),
                None,
            )
        if kind == "RSQB" and prev is not None and prev.type == "LSQB":
            return "a list needs at least one element", None, None
        # `not` without parentheses.
        if prev is not None and prev.type == "NOT" and kind != "LPAR":
            return _not_without_parentheses(err, original, offsets)
        if kind in RELATION_TERMINALS:
            return (
                f"a relationship word stands only at the very start of a filter and applies to "
                f"all of it: `{found} <filter>`",
                None,
                None,
            )
        if kind == "RPAR" and _open_parentheses(err.before) == 0:
            return "this `)` has no matching `(`", fix_of("unsafe", (start, end, "")), None
        if kind == "_COMMA" and "_COMMA" not in err.expected:
            return _joined_with_and(text, start, end, ",")
        if kind in ("_AND", "_OR", "NOT", "IN", "CONTAINS", "MATCHES") and "LSQB" in err.expected:
            return f"`{found}` is a keyword, not a value: is the value missing?", None, None
        name = found[1:-1]
        if (
            kind == "TEXT"
            and "NAME" in err.expected
            and not ({"LSQB", "EQ"} & err.expected)
            and BARE.match(name)
            and name not in KEYWORDS
        ):
            return (
                f"property names are written without quotes: `{name}`",
                fix_of("safe", (start, end, name)),
                None,
            )
        if kind == "NAME" and prev is not None and prev.type == "NAME" and "_AND" in err.expected:
            words = text[prev.start_pos : _end_of_words(text, end)]
            return f'a text value with spaces goes in double quotes: `"{words}"`', None, None
        return None, None, None
    if err.kind == "end":
        if "RPAR" in err.expected:
            opened = _unclosed(err.before)
            if opened is not None:
                line, column = line_column(original, offsets.original(opened))
                at = f"column {column}" if line == 1 else f"line {line}, column {column}"
                return (
                    f"the `(` at {at} is not closed: add `)`",
                    fix_of("unsafe", (end, end, ")")),
                    None,
                )
        if prev is not None and prev.type == "NOT":
            return "`not` takes a parenthesized expression: `not(<expression>)`", None, None
        return None, None, None
    return _character_hint(err, original, offsets)


def _shouting(word: str) -> bool:
    """`AND`, `Or`, `NOT`: a keyword written with capitals."""
    return word.lower() in KEYWORDS and word != word.lower()


def _character_hint(
    err: _Error, original: str, offsets: OffsetMap
) -> tuple[str | None, Fix | None, Override]:
    text = err.text
    start = err.start
    ch = text[start]
    run_end = start
    while run_end < len(text) and text[run_end] == ch:
        run_end += 1
    if ch in "&|":
        word = "and" if ch == "&" else "or"
        written = text[start:run_end]
        where = _where(err, original, original, offsets)
        message = f"unexpected `{written}` {where}: expected {describe(err.expected)}"
        return (
            f"join conditions with `{word}`, not `{written}`",
            fix_of("safe", (start, run_end, _spaced(text, start, run_end, word))),
            (message, start, run_end),
        )
    if ch == ";":
        return _joined_with_and(text, start, start + 1, ";")
    if ch == "'":
        close = text.find("'", start + 1)
        if close < 0:
            return "text values use double quotes", None, None
        inner = text[start + 1 : close]
        quoted = '"' + inner.replace("\\", "\\\\").replace('"', '\\"') + '"'
        return (
            f"text values use double quotes: write `{quoted}`",
            fix_of("safe", (start, close + 1, quoted)),
            None,
        )
    if ch in "\u201c\u201d\u201e":
        curly = [(i, i + 1, '"') for i, c in enumerate(text) if c in "\u201c\u201d\u201e"]
        return 'use straight double quotes `"`', fix_of("safe", *curly), None
    if ch in "\u2018\u2019":
        curly = [(i, i + 1, '"') for i, c in enumerate(text) if c in "\u2018\u2019"]
        return 'text values use straight double quotes `"`', fix_of("safe", *curly), None
    if ch == '"':
        return _broken_text(text, start)
    if ch == "@":
        return (
            "`@` functions such as `@sub()` belong to the old API; compare with `=`, `in` or "
            '`contains` and a text in double quotes, for example `name = "x"`',
            None,
            None,
        )
    if ch == "!":
        return "negate with `not(<expression>)`; `!` is only part of `!=`", None, None
    if ch == ":" and set(OPERATOR_TERMINALS) <= err.expected:
        return "compare with `=`", fix_of("safe", (start, start + 1, "=")), None
    if ch.isspace():
        name = unicodedata.name(ch, "a special space").lower()
        return f"this is a {name}; use a plain space", fix_of("safe", (start, start + 1, " ")), None
    if ch.isdigit():
        return "numbers use the ASCII digits 0-9 only", None, None
    if ch == "\0" and original[offsets.original(start)] == "\ue000":
        return "U+E000 marks interpolations only when the caller declares them", None, None
    return None, None, None


def _broken_text(text: str, start: int) -> tuple[str | None, Fix | None, Override]:
    """A `"` the TEXT terminal refused: a bad escape, or no closing quote."""
    i = start + 1
    while i < len(text):
        ch = text[i]
        if ch == '"':
            break
        if ch == "\\":
            nxt = text[i + 1 : i + 2]
            if nxt not in ('"', "\\"):
                escape = text[i : i + 2]
                message = (
                    f'invalid escape `{escape}` in a text value: only `\\"` and `\\\\` are allowed'
                )
                return (
                    "write `\\\\` for a backslash",
                    fix_of("unsafe", (i, i + 1, "\\\\")),
                    (message, i, i + len(escape)),
                )
            i += 2
            continue
        i += 1
    message = "this text has no closing double quote"
    return (
        'add `"` where the text ends',
        fix_of("unsafe", (len(text), len(text), '"')),
        (message, start, start + 1),
    )


def _not_without_parentheses(
    err: _Error, original: str, offsets: OffsetMap
) -> tuple[str | None, Fix | None, Override]:
    """`not status = up` -> `not(status = up)`, when a simple expression follows."""
    text = err.text
    tokens, _ = tokenize(text)
    following = [t for t in tokens if t.start_pos >= err.start]
    end = None
    if len(following) >= 3 and following[1].type in OPERATOR_TERMINALS:
        if following[2].type == "LSQB":
            close = next((t for t in following if t.type == "RSQB"), None)
            end = close.end_pos if close else None
        else:
            end = following[2].end_pos
    if end is None:
        return "`not` takes a parenthesized expression: `not(<expression>)`", None, None
    assert err.prev is not None
    inner = original[offsets.original(err.start) : offsets.original(end)]
    return (
        f"`not` takes a parenthesized expression: write `not({inner})`",
        fix_of("safe", (err.prev.end_pos, err.start, "("), (end, end, ")")),
        None,
    )


def _joined_with_and(
    text: str, start: int, end: int, separator: str
) -> tuple[str | None, Fix | None, Override]:
    joined = _spaced(text, start, end, "and")
    example = (text[:start] + joined + text[end:]).strip()
    if "\ue000" in example or "\0" in example or len(example) > 80:
        example = "type = sensor and status = down"
    return (
        f"join conditions with `and`, not `{separator}` (the old API's style): `{example}`",
        # `;` is the old API's `and`; a comma may also have meant a list.
        fix_of("safe" if separator == ";" else "unsafe", (start, end, joined)),
        None,
    )


def _spaced(text: str, start: int, end: int, word: str) -> str:
    before = "" if start == 0 or text[start - 1].isspace() else " "
    after = "" if end >= len(text) or text[end].isspace() else " "
    return f"{before}{word}{after}"


def _open_parentheses(tokens: list[Token]) -> int:
    depth = 0
    for token in tokens:
        if token.type == "LPAR":
            depth += 1
        elif token.type == "RPAR":
            depth = max(depth - 1, 0)
    return depth


def _unclosed(tokens: list[Token]) -> int | None:
    """Offset of the innermost `(` left open."""
    stack: list[int] = []
    for token in tokens:
        if token.type == "LPAR":
            stack.append(token.start_pos)
        elif token.type == "RPAR" and stack:
            stack.pop()
    return stack[-1] if stack else None


def _end_of_words(text: str, pos: int) -> int:
    """End of a run of bare words (`HQ office building`) that should have been quoted."""
    tokens, _ = tokenize(text[pos:])
    end = pos
    for token in tokens:
        if token.type != "NAME":
            break
        end = pos + token.end_pos
    return end
