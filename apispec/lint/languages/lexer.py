"""The scan loop every dialect shares: one pass over a text that never reads a part twice.

A dialect's token pattern names each kind of token by a group: `c` a comment, `x`
(or any name starting with `x`) text that is neither code nor a literal (a regular expression literal, a character
literal, a stray quote and the rest of its line; kept as a comment, so its
brackets and quotes never count as code), any other name a string literal. A construct that may
span lines (a block comment, a heredoc, a triple-quoted or multi-line string) is
matched by its opener only; a `Span` row of the dialect finds where it ends.

Why openers and spans rather than one pattern per construct:

- Speed. A pattern for a whole block comment reads to the end of the file when
  the closer is missing, fails, and the next opener reads it all again: a file
  of `/* /* /* ...` took quadratic time. A span remembers what the scan learnt
  (where the file's last closer stands, up to where openers of its kind cannot
  close), so each part of the text is read a bounded number of times.
- Recovery. A construct that cannot close costs its opener only: the scan goes
  on right after it. A string that closes on a later line is taken only when
  the rest of its closing line holds an even number of its quotes; an odd number
  says the closer really opens a string on that line (a construct the dialect
  does not know left a stray quote before it), and the scan resynchronises
  after the stray opener instead of reading every later string inside out.
  Single-line strings that do not close take the rest of their line (the
  dialect's `x` pattern for a stray quote), so they cost that line at most.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Protocol

from apispec.lint.patterns import lazy
from apispec.lint.scan import Lit, split_interpolations

if TYPE_CHECKING:  # a class made at import would cost every run

    class Dialect(Protocol):
        """What the loop needs of a dialect (apispec/lint/languages/dialect.py)."""

        token_re: re.Pattern[str]
        spans: Mapping[str, Span]
        code_groups: frozenset[str]
        code_opener: str

        def literal(self, m: re.Match[str]) -> Lit | None: ...

        def spanned(
            self, kind: str, m: re.Match[str], start: int, end: int, stop: int, span: Span
        ) -> Lit | None: ...

        def holds_code(self, m: re.Match[str]) -> bool: ...

        def with_code(self, text: str, m: re.Match[str], endpos: int) -> Lit | None: ...


# A heredoc's terminator line: the word alone, maybe indented, maybe followed by
# `;`, `,` or `)` (PHP's `EOT;`, a heredoc passed as an argument).
_TERMINATOR = lazy(r"^[ \t]*([A-Za-z_]\w*)[ \t]*[;,)]*[ \t]*\r?$", re.M)


class Memo:
    """What one scan of a text has learnt, so that no opener reads the same text twice."""

    __slots__ = ("dead", "endpos", "last", "lines", "rejected", "terminators", "text")

    def __init__(self, text: str, endpos: int) -> None:
        self.text = text
        self.endpos = endpos
        self.last: dict[str, int] = {}  # closer text: where its last occurrence starts
        self.dead: dict[str, int] = {}  # span name: openers before this offset cannot close
        self.rejected: dict[str, int] = {}  # span name: openers before this offset close badly
        self.lines: dict[re.Pattern[str], tuple[list[int], list[int]]] = {}
        self.terminators: dict[str, list[int]] | None = None

    def last_of(self, closer: str) -> int:
        found = self.last.get(closer)
        if found is None:
            found = self.last[closer] = self.text.rfind(closer, 0, self.endpos)
        return found

    def lines_matching(self, pattern: re.Pattern[str]) -> tuple[list[int], list[int]]:
        """Starts and ends of every match of a line pattern, found once per scan."""
        found = self.lines.get(pattern)
        if found is None:
            starts: list[int] = []
            ends: list[int] = []
            for m in pattern.finditer(self.text, 0, self.endpos):
                starts.append(m.start())
                ends.append(m.end())
            found = self.lines[pattern] = (starts, ends)
        return found

    def terminator_lines(self, word: str) -> list[int]:
        """Starts of the lines holding `word` alone: one pass over the text for every word."""
        if self.terminators is None:
            self.terminators = {}
            for m in _TERMINATOR.finditer(self.text, 0, self.endpos):
                self.terminators.setdefault(m.group(1), []).append(m.start())
        return self.terminators.get(word, [])

    def eol(self, offset: int) -> int:
        nl = self.text.find("\n", offset, self.endpos)
        return self.endpos if nl < 0 else nl


class Span:
    """How a construct that starts with an opener of the token pattern ends.

    `close` returns (content start, content end, end); None when the
    construct cannot close (the opener alone is then skipped); or an offset
    where the scan goes on without a token (an unclosed string: its line).
    """

    comment = False
    interp: re.Pattern[str] | None = None
    style = "none"

    def close(self, memo: Memo, m: re.Match[str], name: str) -> tuple[int, int, int] | int | None:
        raise NotImplementedError


class Closer(Span):
    """A fixed closing text: `*/`, `#>`; or the opener's own text (C#'s `\"\"\"\"` raw string).

    With `closer` empty, the opener's text less any of the characters in
    `prefix` closes the construct.
    """

    def __init__(
        self,
        closer: str = "",
        comment: bool = False,
        interp: re.Pattern[str] | None = None,
        style: str = "none",
        prefix: str = "",
    ) -> None:
        self.closer = closer
        self.comment = comment
        self.interp = interp
        self.style = style
        self.prefix = prefix

    def close(self, memo: Memo, m: re.Match[str], name: str) -> tuple[int, int, int] | int | None:
        start = m.end()
        closer = self.closer or m.group().lstrip(self.prefix)
        if memo.last_of(closer) < start:
            return None
        at = memo.text.find(closer, start, memo.endpos)
        return start, at, at + len(closer)


class LineCloser(Span):
    """A closer that stands at the start of a later line: `=end`, PowerShell's `"@`."""

    def __init__(
        self,
        pattern: re.Pattern[str],
        comment: bool = False,
        interp: re.Pattern[str] | None = None,
        style: str = "none",
    ) -> None:
        self.pattern = pattern
        self.comment = comment
        self.interp = interp
        self.style = style

    def close(self, memo: Memo, m: re.Match[str], name: str) -> tuple[int, int, int] | int | None:
        starts, ends = memo.lines_matching(self.pattern)
        k = bisect.bisect_left(starts, m.end())
        if k == len(starts):
            return None
        return m.end(), starts[k], ends[k]


class Body(Span):
    """A body matched by a pattern from the opener on, the closer included.

    `pattern` may map the opener's last character to the pattern of its body
    (`\"\"\"` and `'''` of one token group). With `quote`, a body that spans lines
    must leave an even number of unescaped `quote` characters on the rest of
    its closing line (see the module's docstring).
    """

    def __init__(
        self,
        pattern: re.Pattern[str] | Mapping[str, re.Pattern[str]],
        closer_length: int = 1,
        quote: str = "",
        interp: re.Pattern[str] | None = None,
        style: str = "none",
    ) -> None:
        self.pattern = pattern
        self.closer_length = closer_length
        self.quote = quote
        self.interp = interp
        self.style = style

    def close(self, memo: Memo, m: re.Match[str], name: str) -> tuple[int, int, int] | int | None:
        start = m.end()
        pattern = self.pattern
        if not isinstance(pattern, re.Pattern):
            last = m.group()[-1]
            pattern, name = pattern[last], name + last
        if m.start() < memo.dead.get(name, -1):
            return memo.eol(start)
        if m.start() < memo.rejected.get(name, -1):
            return None
        body = pattern.match(memo.text, start, memo.endpos)
        if body is None:
            # No closer after this opener, nor after any later one of its kind
            # that this body would have read as an escaped character: the
            # string runs to the end of its line, as an unclosed one-line string does.
            memo.dead[name] = memo.endpos
            return memo.eol(start)
        end = body.end()
        closer = end - self.closer_length
        if self.quote and memo.text.find("\n", start, closer) >= 0:
            rest = memo.text[end : memo.eol(end)]
            if _unescaped(rest, self.quote) & 1:
                memo.rejected[name] = closer
                return None
        return start, closer, end


class Heredoc(Span):
    """A heredoc: the body runs from the next line to a line holding the opener's word.

    The opener's group `word` names the terminator; group `quoted` (when it
    took part) says the body is not interpolated. The rest of the opener's
    line is code, scanned before the body is taken.
    """

    def __init__(
        self, interp: re.Pattern[str] | None, style: str = "none", comment: bool = False
    ) -> None:
        self.interp = interp
        self.style = style
        self.comment = comment

    def close(self, memo: Memo, m: re.Match[str], name: str) -> tuple[int, int, int] | int | None:
        eol = memo.eol(m.end())
        if eol >= memo.endpos:
            return None
        lines = memo.terminator_lines(m.group("word"))
        k = bisect.bisect_right(lines, eol)
        if k == len(lines):
            return None
        at = lines[k]
        return eol + 1, max(eol + 1, at - 1), memo.eol(at)


def spans(**rows: Span) -> Mapping[str, Span]:
    """A dialect's spans by token group name, read-only (a class attribute all share)."""
    return MappingProxyType(rows)


def _unescaped(text: str, quote: str) -> int:
    count = 0
    at = text.find(quote)
    while at >= 0:
        slashes = 0
        while at - slashes > 0 and text[at - slashes - 1] == "\\":
            slashes += 1
        if not slashes & 1:
            count += 1
        at = text.find(quote, at + 1)
    return count


def scan(
    dialect: Dialect,
    text: str,
    pos: int,
    endpos: int,
    memo: Memo | None = None,
    nested: bool = False,
) -> tuple[list[Lit], list[tuple[int, int]]]:
    """The literals and comment spans of text[pos:endpos], in file order."""
    lits: list[Lit] = []
    comments: list[tuple[int, int]] = []
    spans: Mapping[str, Span] = dialect.spans
    finditer = dialect.token_re.finditer
    literal = dialect.literal
    groups = dialect.code_groups  # string kinds that may hold code, and what opens it
    opener = dialect.code_opener
    at = pos
    while at < endpos:
        # finditer while the tokens are single matches; a span that ends past its
        # opener's match restarts it after the span
        for m in finditer(text, at, endpos):
            kind: str = m.lastgroup  # type: ignore[assignment]  # a token pattern names every alternative
            if kind not in spans:
                if kind == "c" or kind[0] == "x":  # not code: brackets, quotes are text
                    comments.append((m.start(), m.end()))
                    continue
                lit = None
                if kind in groups and opener in m.group() and dialect.holds_code(m):
                    lit = dialect.with_code(text, m, endpos)
                if lit is None:
                    lit = literal(m)
                if lit is None:
                    continue
                lits.append(lit)
                if lit.holes:
                    _holes(dialect, text, lit, lits, comments)
                if lit.end > m.end():  # the string went on past a quote nested in its code
                    at = lit.end
                    break
                continue
            if memo is None:
                memo = Memo(text, endpos)
            end = _span(dialect, spans[kind], kind, m, memo, nested, lits, comments)
            if end > m.end():
                at = end
                break
        else:
            break
    return lits, comments


def _holes(
    dialect: Dialect, text: str, lit: Lit, lits: list[Lit], comments: list[tuple[int, int]]
) -> None:
    """The code inside a string's holes (`${fetch(`${base}/x`)}`) is scanned as code."""
    for start, end in lit.holes:
        inner, notes = scan(dialect, text, start, end)
        lits.extend(inner)
        comments.extend(notes)


def _span(
    dialect: Dialect,
    span: Span,
    kind: str,
    m: re.Match[str],
    memo: Memo,
    nested: bool,
    lits: list[Lit],
    comments: list[tuple[int, int]],
) -> int:
    """Close the span `m` opens, keep its token; where the scan goes on."""
    heredoc = isinstance(span, Heredoc)
    found = None if heredoc and nested else span.close(memo, m, kind)
    if found is None:
        return m.end()  # the opener alone is skipped
    if isinstance(found, int):
        comments.append((m.start(), found))  # skipped text, not code
        return found
    content_start, content_end, end = found
    token_start = m.start()
    if heredoc:  # the rest of the opener's line first: it is code
        text = m.string
        more, notes = scan(dialect, text, m.end(), content_start, memo, True)
        lits.extend(more)
        comments.extend(notes)
        token_start = content_start  # the token is the body: tokens stay in order
    if span.comment:
        comments.append((token_start, end))
    else:
        lit = dialect.spanned(kind, m, content_start, content_end, end, span)
        if lit is not None:
            lit.start = token_start
            lits.append(lit)
            if lit.holes:
                _holes(dialect, m.string, lit, lits, comments)
    return end


def span_literal(
    m: re.Match[str], content_start: int, content_end: int, end: int, span: Span
) -> Lit:
    """The literal a span makes by default: its content, interpolated as the span says."""
    content = m.string[content_start:content_end]
    return Lit(
        m.start(), end, split_interpolations(content, content_start, span.interp, span.style)
    )
