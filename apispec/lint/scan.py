"""Stage 1 of extraction: a file's string literals and comments, and brackets between them.

A dialect's token pattern finds the literals and comments in one pass over the
text (the hot loop of the linter); everything later asks this module where a
token is, what a literal says, and which bracket closes which, skipping
strings and comments. Regular expressions over the text rather than a parse
tree, because the linter must keep up with ripgrep on large trees.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from apispec.lint.lines import Lines

PARAM = "\x00"  # stands for one interpolation in the flattened expression

OPENERS = {"(": ")", "[": "]", "{": "}"}
CLOSERS = {")": "(", "]": "[", "}": "{"}
_BRACKET = re.compile(r"[()\[\]{}]")


@dataclass(slots=True)
class Part:
    """A piece of an expression: literal text (unescaped) or one interpolation."""

    text: str
    is_param: bool
    start: int
    end: int
    offs: tuple[int, ...] | None = None  # file offset of each char of a literal's text

    def offset(self, i: int) -> int:
        if self.is_param:
            return self.start
        return self.offs[i] if self.offs is not None else self.start + i


@dataclass(slots=True)
class Lit:
    """One string literal: its whole token span and its content as parts."""

    start: int
    end: int
    parts: list[Part]
    prose: bool = False  # a docstring or other text that is never a call argument
    _raw: str | None = field(default=None, repr=False, compare=False)
    # Code inside the literal (`f"{client.get(f'{base}/x')}"`, `${fetch(`...`)}`): spans
    # that are code, not string, so their brackets and strings are seen as such.
    holes: tuple[tuple[int, int], ...] = ()

    @property
    def raw(self) -> str:
        """The content with PARAM for each interpolation; kept, as it is asked for often."""
        if self._raw is None:
            parts = self.parts
            if len(parts) == 1:  # most literals
                self._raw = PARAM if parts[0].is_param else parts[0].text
            else:
                self._raw = "".join([PARAM if p.is_param else p.text for p in parts])
        return self._raw


def unescape(raw: str, start: int, style: str) -> tuple[str, tuple[int, ...] | None]:
    """Decode escapes of a literal's content; offsets map each char back to the file."""
    if style == "backslash":
        marker = "\\"
    elif style == "backtick":
        marker = "`"
    else:
        marker = ""
    double = style.startswith("double")
    quote = style[-1] if double else ""
    if (not marker or marker not in raw) and not (double and quote * 2 in raw):
        return raw, None
    out: list[str] = []
    offs: list[int] = []
    i = 0
    n = len(raw)
    simple = {"n": "\n", "t": "\t", "r": "\r", "0": "\0"}
    while i < n:
        ch = raw[i]
        if marker and ch == marker and i + 1 < n:
            nxt = raw[i + 1]
            out.append(simple.get(nxt, nxt))
            offs.append(start + i)
            i += 2
            continue
        if double and ch == quote and i + 1 < n and raw[i + 1] == quote:
            out.append(quote)
            offs.append(start + i)
            i += 2
            continue
        out.append(ch)
        offs.append(start + i)
        i += 1
    return "".join(out), tuple(offs)


def split_interpolations(
    raw: str, start: int, interp: re.Pattern[str] | None, style: str
) -> list[Part]:
    """Cut a literal's raw content into literal parts and interpolation parts."""
    if interp is None or interp.search(raw) is None:  # most literals: one part
        text, offs = unescape(raw, start, style)
        return [Part(text, False, start, start + len(raw), offs)]
    parts: list[Part] = []
    pos = 0
    for m in interp.finditer(raw):
        if m.start() == m.end():
            continue
        if m.start() > pos:
            text, offs = unescape(raw[pos : m.start()], start + pos, style)
            parts.append(Part(text, False, start + pos, start + m.start(), offs))
        parts.append(Part(m.group(), True, start + m.start(), start + m.end()))
        pos = m.end()
    if pos < len(raw) or not parts:
        text, offs = unescape(raw[pos:], start + pos, style)
        parts.append(Part(text, False, start + pos, start + len(raw), offs))
    return parts


if TYPE_CHECKING:  # a class made at import would cost every run
    from apispec.lint.reference import QueryValue

    class DialectHooks(Protocol):
        """What the stages read of a dialect (apispec/lint/languages/dialect.py), which
        they receive as an object: this stage its literals and comments, later ones its
        flags and hooks. Hooks whose types belong to later stages (the chain, the call,
        a function definition) are Any here; their callers name the type they get.
        """

        name: str
        concat_re: re.Pattern[str] | None
        operand_re: re.Pattern[str]
        full_urls_only: bool
        decorators: bool
        uri_templates: bool
        builder_calls: bool
        command_calls: bool
        shorthand_keys: bool

        def scan(self, text: str, pos: int, endpos: int) -> tuple[list[Lit], list[tuple[int, int]]]:
            """The literals and the comment spans in text[pos:endpos], in file order."""
            ...

        def functions(self, source: Source) -> list[Any]: ...
        def use_pattern(self, var: str) -> str: ...
        def command_context(self, source: Source, chain: Any) -> Any: ...
        def assigned_by_block(self, source: Source, start: int) -> str | None: ...
        def in_markup(self, source: Source, start: int) -> bool: ...
        def call_query(self, source: Source, info: Any) -> list[QueryValue]: ...
        def method_nearby(self, source: Source, closer: int) -> str | None: ...


class Source:
    """The file text with its literals and comments, and position helpers."""

    def __init__(
        self,
        text: str,
        dialect: DialectHooks,
        pos: int = 0,
        endpos: int | None = None,
        lines: Lines | None = None,  # of `text`, when another source of it made them
    ):
        self.dialect = dialect
        self.pos = pos
        self.endpos = len(text) if endpos is None else endpos
        self.lits, self.comments = dialect.scan(text, self.pos, self.endpos)
        # The later stages read code with patterns over the text: a comment between the
        # parts of a call (`get( /* page */ url`, `{  # the filter`) is as much space to
        # them as it is to the language. Blanked, it keeps its length and line breaks.
        self.text = _without_comments(text, self.comments) if self.comments else text
        spans = self.comments + [
            span
            for lit in self.lits
            for span in (_pieces(lit) if lit.holes else ((lit.start, lit.end),))
        ]
        spans.sort()
        self.token_starts = [s for s, _ in spans]
        self.token_ends = [e for _, e in spans]
        self.lit_by_start = {lit.start: i for i, lit in enumerate(self.lits)}
        self._comment_starts = frozenset(start for start, _ in self.comments)
        self._lines = lines
        self._brackets: _Brackets | None = None
        self._lit_starts: list[int] | None = None
        self.memo: dict[str, object] = {}  # what a dialect computes once per source

    # positions ---------------------------------------------------------------

    @property
    def lines(self) -> Lines:
        if self._lines is None:
            self._lines = Lines(self.text)
        return self._lines

    def line_col(self, offset: int) -> tuple[int, int]:
        return self.lines.position(offset)

    def line_start(self, offset: int) -> int:
        """Where the line holding `offset` starts (not before the scanned range)."""
        return max(self.pos, self.lines.line_start(offset))

    def head_start(self, offset: int) -> int:
        """Where the statement head before `offset` starts: its line's start, or an earlier
        line's where the text before `offset` closes a parenthesis or square bracket opened
        there (`$p = if (\n    $x) {`, `val p = when (\n    kind) {`); a brace that closes
        a block (`} else {`) leaves the head on its own line."""
        brackets = self.brackets
        positions = brackets.positions
        text = self.text
        lo = self.line_start(offset)
        for _ in range(64):  # each step goes back a line at least
            k = bisect.bisect_left(positions, lo)
            earliest = lo
            while k < len(positions) and positions[k] < offset:
                at = positions[k]
                opener = -1 if at in brackets.closer or text[at] == "}" else brackets.opener(at)
                if 0 <= opener < earliest:
                    earliest = opener
                k += 1
            if earliest >= lo:
                return lo
            offset, lo = lo, self.line_start(earliest)
        return lo

    def token_at(self, offset: int) -> tuple[int, int] | None:
        i = bisect.bisect_right(self.token_starts, offset) - 1
        if i >= 0 and offset < self.token_ends[i]:
            return self.token_starts[i], self.token_ends[i]
        return None

    def in_comment(self, offset: int) -> bool:
        token = self.token_at(offset)
        return token is not None and token[0] in self._comment_starts

    def lit_starting(self, offset: int) -> int | None:
        return self.lit_by_start.get(offset)

    @property
    def lit_starts(self) -> list[int]:
        """Where each literal starts, in order (for bisection), made once."""
        if self._lit_starts is None:
            self._lit_starts = [lit.start for lit in self.lits]
        return self._lit_starts

    def first_lit_after(self, offset: int) -> int:
        """The index of the first literal that ends after `offset` (len(lits): none)."""
        k = bisect.bisect_right(self.lit_starts, offset) - 1
        if k < 0 or self.lits[k].end <= offset:
            k += 1
        return k

    def skip_space(self, offset: int) -> int:
        text = self.text
        while offset < self.endpos and text[offset] in " \t\r\n":
            offset += 1
        return offset

    def skip_gap(self, offset: int) -> int:
        """The first offset at or after `offset` that is neither space nor a comment."""
        offset = self.skip_space(offset)
        while offset < self.endpos and offset in self._comment_starts:
            token = self.token_at(offset)
            assert token is not None
            offset = self.skip_space(token[1])
        return offset

    # brackets ----------------------------------------------------------------

    def enclosing_opener(self, offset: int, limit: int = 1500) -> int:
        """The nearest unclosed bracket before `offset`, skipping strings and comments.

        -1 when there is none within `limit` characters before `offset`.
        """
        return self.brackets.enclosing(offset, max(self.pos, offset - limit))

    def matching_closer(self, opener: int, limit: int = 6000) -> int:
        """The bracket that closes `opener`, skipping strings and comments (-1: none).

        -1 as well when the closer is `limit` characters or more after `opener`.
        """
        stop = min(self.endpos, opener + limit)
        if opener >= stop:
            return -1
        closer = self.brackets.closer.get(opener)
        if closer is not None:  # a bracket outside strings and comments
            return closer if closer < stop else -1
        return self._scan_closer(opener, stop)

    @property
    def brackets(self) -> _Brackets:
        if self._brackets is None:
            self._brackets = _Brackets(self)
        return self._brackets

    def _scan_closer(self, opener: int, stop: int) -> int:
        """matching_closer from a position that is not an indexed bracket (inside a string)."""
        text = self.text
        ch = text[opener]
        depth = 1 if ch in OPENERS else -1 if ch in CLOSERS else 0
        starts = self.token_starts
        i = opener + 1
        while i < stop:
            token = self.token_at(i)
            if token is not None:
                i = token[1]
                continue
            k = bisect.bisect_right(starts, i)
            plain_end = starts[k] if k < len(starts) and starts[k] < stop else stop
            m = _BRACKET.search(text, i, plain_end)
            if m is None:
                i = plain_end
                continue
            i = m.start()
            if text[i] in OPENERS:
                depth += 1
            else:
                depth -= 1
                if depth == 0:
                    return i
            i += 1
        return -1


# How a comment starts (`#`, `//`, `/*`, `<#`, `<!--`, `=begin`); other spans the scan
# keeps as comments (a regular expression literal, a stray quote's line, a heredoc's
# data) stay as they are.
_COMMENT_START = re.compile(r"#|//|/\*|<#|<!--|=begin")
_NOT_NEWLINE = re.compile(r"[^\n]")


def _without_comments(text: str, comments: list[tuple[int, int]]) -> str:
    """`text` with the characters of each comment but its line breaks made spaces."""
    pieces = []
    at = 0
    for start, end in comments:
        if start < at or not _COMMENT_START.match(text, start):
            continue
        pieces += [text[at:start], _NOT_NEWLINE.sub(" ", text[start:end])]
        at = end
    if not pieces:
        return text
    pieces.append(text[at:])
    return "".join(pieces)


def _pieces(lit: Lit) -> list[tuple[int, int]]:
    """A literal's token spans around the code holes inside it."""
    spans = []
    at = lit.start
    for start, end in lit.holes:
        spans.append((at, start))
        at = end
    spans.append((at, lit.end))
    return [(a, b) for a, b in spans if b > a]


class Interpolated:
    """How a language writes code inside a string: `${...}` (JS), `{...}` (Python, C#), `$(...)`.

    `walk` finds where such a string ends and where its code holes are, with
    strings nested in the holes (`${fetch(`${base}/x`)}`) skipped whole,
    which a regular expression cannot do. It jumps from one character that
    matters to the next, so a long string costs a few steps, not one per character.
    """

    __slots__ = ("_code", "_text", "close", "doubled", "escape", "open", "quotes")

    def __init__(self, open_: str, close: str, escape: str, quotes: str, doubled: bool) -> None:
        self.open = open_  # what starts a hole: "${", "{", "$("
        self.close = close  # the bracket that ends it: "}" or ")"
        self.escape = escape  # the escape character of the string ("\\" or "`"), or ""
        self.quotes = quotes  # the quotes a string inside a hole may use
        self.doubled = doubled  # `{{` is a literal brace (Python, C#)
        open_ch = "(" if close == ")" else "{"
        # In a string: an escape, a quote, or a hole's first character.
        self._text = re.compile("[" + re.escape(escape + quotes + open_[0]) + "]")
        # In a hole: a quote, a bracket of the hole's kind, a newline.
        self._code = re.compile("[" + re.escape(quotes + open_ch + close) + "\n]")

    def walk(self, text: str, start: int, stop: int) -> tuple[int, list[tuple[int, int]]]:
        """From the opening quote at `start`: (just past the closing quote, holes); (-1, []) if open."""
        quote = text[start]
        holes: list[tuple[int, int]] = []
        opener = self.open
        search = self._text.search
        i = start + 1
        while True:
            m = search(text, i, stop)
            if m is None:
                return -1, []
            i = m.start()
            ch = text[i]
            if self.escape and ch == self.escape:
                i += 2
                continue
            if ch == quote:
                if quote == '"' and self.escape == "`" and text.startswith('""', i):
                    i += 2  # PowerShell's doubled quote
                    continue
                return i + 1, holes
            if self.doubled and text.startswith(opener * 2, i):
                i += 2
                continue
            if text.startswith(opener, i):
                end = self._hole_end(text, i + len(opener), stop)
                if end < 0:
                    return -1, []
                holes.append((i + len(opener), end))
                i = end + 1
                continue
            i += 1

    def _hole_end(self, text: str, i: int, stop: int) -> int:
        """Where the hole's closing bracket stands; -1 when it is not closed."""
        close = self.close
        depth = 0
        search = self._code.search
        while True:
            m = search(text, i, stop)
            if m is None:
                return -1
            i = m.start()
            ch = text[i]
            if ch in self.quotes:
                end, _ = self.walk(text, i, stop)
                if end < 0:
                    return -1
                i = end
                continue
            if ch == close:
                if depth == 0:
                    return i
                depth -= 1
            elif ch == "\n":
                if self.open == "{" and self.doubled and self.escape == "\\":
                    return -1  # a Python f-string's field never spans lines
            else:
                depth += 1
            i += 1


def parts_with_holes(
    text: str,
    start: int,
    end: int,
    holes: list[tuple[int, int]],
    style: str,
    open_len: int,
    interp: re.Pattern[str] | None = None,
) -> list[Part]:
    """A literal's content (text[start:end]) as parts: literal text, and one part per hole.

    A hole's part covers its opener and closer (`${...}`), as an interpolation's does;
    the text between holes may hold simpler interpolations (`interp`: `$Id`).
    """
    parts: list[Part] = []
    at = start
    for hole_start, hole_end in [*holes, (end + open_len, -1)]:
        lo = min(hole_start - open_len, end)
        if lo > at or (hole_end < 0 and not parts):
            parts.extend(split_interpolations(text[at:lo], at, interp, style))
        if hole_end < 0:
            break
        parts.append(Part(text[lo : hole_end + 1], True, lo, hole_end + 1))
        at = hole_end + 1
    return parts


class _Brackets:
    """Every bracket outside strings and comments, matched in one pass over the source.

    Any closer closes the innermost open bracket, whatever its kind, as a
    reader counting depth would. Asking which bracket encloses an offset, or
    which closes an opener, is then a look-up instead of a walk through the
    text: per call, extraction asks both, and walks made files with many
    calls quadratic.
    """

    __slots__ = ("_opener", "closer", "open_after", "positions")

    def __init__(self, source: Source) -> None:
        text = source.text
        self.closer: dict[int, int] = {}  # opener: its closer (-1: never closed)
        self.open_after: dict[int, int] = {}  # closer: the innermost bracket open after it
        self._opener: dict[int, int] | None = None
        closer, open_after = self.closer, self.open_after
        finditer = _BRACKET.finditer
        gaps = []  # the text between strings and comments
        prev = source.pos
        for start, end in zip(source.token_starts, source.token_ends, strict=True):
            if start > prev:
                gaps.append((prev, start))
            if end > prev:
                prev = end
        if prev < source.endpos:
            gaps.append((prev, source.endpos))
        self.positions: list[int] = [  # every bracket, in order
            m.start() for lo, hi in gaps for m in finditer(text, lo, hi)
        ]
        stack: list[int] = []
        for at in self.positions:
            if text[at] in OPENERS:
                stack.append(at)
                closer[at] = -1
            elif stack:
                closer[stack.pop()] = at
                open_after[at] = stack[-1] if stack else -1
            else:
                open_after[at] = -1

    def opener(self, closer: int) -> int:
        """The bracket `closer` closes (-1: none); the reverse map is made on first use."""
        if self._opener is None:
            self._opener = {c: o for o, c in self.closer.items() if c >= 0}
        return self._opener.get(closer, -1)

    def enclosing(self, offset: int, floor: int) -> int:
        """The innermost bracket open at `offset` (before it), if it is at `floor` or later."""
        k = bisect.bisect_left(self.positions, offset) - 1
        if k < 0:
            return -1
        last = self.positions[k]
        found = last if last in self.closer else self.open_after[last]
        return found if found >= floor else -1
