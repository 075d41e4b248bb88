"""Text -> syntax tree, or FLT001 diagnostics; never raises for bad input.

Valid filters take the fast road: one regular expression splits the text
into the grammar's terminals (ordered as Lark's lexer orders them) and a
tight loop runs the LALR tables Lark computed (cached, see `grammar.py`),
shaping children as Lark does, without importing Lark.
Anything that road cannot take is handed to Lark's parser with the
contextual lexer, whose error (the parser state's accepted terminals) is
explained in `syntax.py`. After a syntax error whose hint is a mechanical
fix, the fix is applied and parsing goes on, so one run reports several
slips; offsets of later findings, and of their fixes, are mapped back to the
original text.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from apispec.filters.ast import FilterTree, nesting
from apispec.filters.diagnostics import Diagnostic, make, moved
from apispec.filters.grammar import PLACEHOLDER_CHAR, Tables, lark_parser, tables

Span = tuple[int, int]

MAX_REPAIRS = 8
# Operators nested inside operators (`not(...)`, `and` inside `or` inside ...):
# deeper trees are refused with FLT001, so that evaluating, printing and
# comparing a tree never comes near Python's recursion limit.
MAX_NESTING = 100
# Each repair re-parses the whole text with Lark; past this length (no URL
# carries such a filter) only the first syntax error is explained.
LONG_FILTER = 10_000


class Token:
    """The fields of a Lark token that the tree builder reads, without Lark's overhead."""

    __slots__ = ("end_pos", "start_pos", "type", "value")

    def __init__(self, type: str, value: str, start_pos: int, end_pos: int) -> None:
        self.type = type
        self.value = value
        self.start_pos = start_pos
        self.end_pos = end_pos

    def __repr__(self) -> str:
        return f"Token({self.type}, {self.value!r}, {self.start_pos})"


@dataclass(frozen=True)
class OffsetMap:
    """Maps offsets in a repaired text back to the text the user wrote."""

    edits: tuple[tuple[int, int, int], ...] = ()  # (start, old length, new length), in order

    def then(self, start: int, end: int, new_length: int) -> OffsetMap:
        return OffsetMap((*self.edits, (start, end - start, new_length)))

    def original(self, offset: int) -> int:
        for start, old, new in reversed(self.edits):
            if offset >= start + new:
                offset += old - new
            elif offset > start:
                offset = start + min(offset - start, old)
        return offset


@dataclass(frozen=True)
class ParseResult:
    """`tree` is the syntax tree when the filter has no syntax error, else None.

    `recovered` is the tree of the text with every suggested fix applied (when
    that parses), so the checker can still report independent defects;
    `offsets` maps its offsets back to `text`.
    """

    text: str
    tree: FilterTree | None
    diagnostics: list[Diagnostic]
    recovered: FilterTree | None = None
    offsets: OffsetMap = field(default_factory=OffsetMap)
    recovered_text: str = ""

    @property
    def ok(self) -> bool:
        return self.tree is not None


def parse(text: str, placeholder_spans: Sequence[Span] = ()) -> ParseResult:
    """Parse a filter; `placeholder_spans` mark character ranges of unknown content."""
    masked = mask(text, placeholder_spans)
    tree = fast_parse(masked)
    if tree is not None:
        return _bounded(text, tree, masked)
    return _parse_with_repairs(text, masked)


def _bounded(text: str, tree: FilterTree, parsed: str) -> ParseResult:
    """A valid filter's result, or FLT001 when it nests deeper than MAX_NESTING.

    The deep tree stays available as `recovered`, so the checker still reports
    property and type defects (its walk is iterative).
    """
    if text.count("(") < MAX_NESTING - 1:  # each level past the second needs a `(`
        return ParseResult(text, tree, [], tree, recovered_text=parsed)
    depth, node = nesting(tree.expr, MAX_NESTING)
    if node is None:
        return ParseResult(text, tree, [], tree, recovered_text=parsed)
    diagnostic = make(
        "FLT001",
        f"the filter nests operators {depth} levels deep; apispec reads at most {MAX_NESTING}",
        node.start,
        node.end,
        "simplify it: `not(not(x))` is `x`, and `not(a or b)` is `not(a) and not(b)`",
    )
    return ParseResult(text, None, [diagnostic], tree, recovered_text=parsed)


def mask(text: str, spans: Sequence[Span]) -> str:
    """Each placeholder character becomes U+E000, which the grammar lexes as PLACEHOLDER.

    A U+E000 the caller did not mark is not a placeholder: it becomes NUL, an
    unexpected character, so plain text can never smuggle one in.
    """
    if PLACEHOLDER_CHAR in text:
        text = text.replace(PLACEHOLDER_CHAR, "\0")
    if not spans:
        return text
    chars = list(text)
    for start, end in spans:
        for i in range(max(start, 0), min(end, len(chars))):
            chars[i] = PLACEHOLDER_CHAR
    return "".join(chars)


def tokenize(text: str, tbl: Tables | None = None) -> tuple[list[Token], int]:
    """Split `text` into terminals; returns the tokens and the offset where lexing stopped."""
    tbl = tbl or tables()
    match = tbl.token_re.match
    ignore = tbl.ignore
    tokens: list[Token] = []
    pos = 0
    length = len(text)
    while pos < length:
        m = match(text, pos)
        if m is None:
            break
        end = m.end()
        kind = m.lastgroup
        if kind not in ignore:
            tokens.append(Token(kind, m.group(), pos, end))  # type: ignore[arg-type]
        pos = end
    return tokens, pos


def fast_parse(text: str) -> FilterTree | None:
    """Run the LALR tables directly; None when the text needs the full parser."""
    tbl = tables()
    tokens, stop = tokenize(text, tbl)
    if stop < len(text):
        return None
    states = tbl.states
    reductions = tbl.reductions
    state_stack = [tbl.start_state]
    value_stack: list[object] = []
    tokens.append(Token("$END", "", len(text), len(text)))
    end_state = tbl.end_state
    for token in tokens:
        kind = token.type
        while True:
            action = states[state_stack[-1]].get(kind)
            if action is None:
                return None
            if action >= 0:  # shift
                state_stack.append(action)
                value_stack.append(token)
                break
            size, origin, callback = reductions[~action]
            if size:
                children = value_stack[-size:]
                del value_stack[-size:]
                del state_stack[-size:]
            else:
                children = []
            value_stack.append(callback(children))
            state_stack.append(states[state_stack[-1]][origin])
            if kind == "$END" and state_stack[-1] == end_state:
                return value_stack[-1]  # type: ignore[return-value]
    return None


def accepted_after(prefix: str) -> set[str]:
    """Terminals the LALR parser accepts after `prefix`, after every reduction it may defer.

    An LALR state shared by several contexts (a value inside or outside a list)
    lists the union of their lookaheads; trying each candidate on a copy of the
    state stack tells them apart. Empty when `prefix` is not the start of a filter.
    """
    tbl = tables()
    tokens, stop = tokenize(prefix, tbl)
    if stop < len(prefix):
        return set()
    stack = [tbl.start_state]
    for token in tokens:
        if not _feed(stack, token.type, tbl):
            return set()
    candidates = [name for name in tbl.states[stack[-1]] if name.isupper()]  # terminals
    return {name for name in candidates if _feed(list(stack), name, tbl)}


def _feed(stack: list[int], kind: str, tbl: Tables) -> bool:
    """Advance the state stack over one terminal; False when the parser rejects it."""
    states = tbl.states
    while True:
        action = states[stack[-1]].get(kind)
        if action is None:
            return False
        if action >= 0:
            stack.append(action)
            return True
        size, origin, _ = tbl.reductions[~action]
        if size:
            del stack[-size:]
        stack.append(states[stack[-1]][origin])
        if kind == "$END" and stack[-1] == tbl.end_state:
            return True


def _parse_with_repairs(text: str, masked: str) -> ParseResult:
    from lark.exceptions import UnexpectedInput

    from apispec.filters.syntax import explain

    current = masked
    offsets = OffsetMap()
    diagnostics: list[Diagnostic] = []
    last_start = -1
    for _ in range(MAX_REPAIRS if len(text) <= LONG_FILTER else 1):
        try:
            tree = lark_parser().parse(current)
        except UnexpectedInput as error:
            diagnostic = explain(current, error, text, masked, offsets)
            start = offsets.original(diagnostic.start)
            if start <= last_start and diagnostics:
                break  # the previous fix did not get past this point
            diagnostics.append(moved(diagnostic, offsets.original))
            last_start = start
            if diagnostic.fix is None:
                break
            # Last edit first: each edit's offsets stay valid in the text it changes.
            for edit in reversed(diagnostic.fix.edits):
                current = current[: edit.start] + edit.content + current[edit.end :]
                offsets = offsets.then(edit.start, edit.end, len(edit.content))
            continue
        recovered = tree if diagnostics else None
        if not diagnostics:  # the fast road refused a valid filter: still a valid filter
            return _bounded(text, tree, current)
        return ParseResult(text, None, diagnostics, recovered, offsets, current)
    return ParseResult(text, None, diagnostics, None, offsets)
