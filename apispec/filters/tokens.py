"""The filter's terminals: the lexer, offsets across repairs, and what the tables accept next.

A leaf module, with the driver that runs the tables (`fast_parse`): the parser,
the repairs, the syntax explainer, completion and the language server all read
tokens, and none of them needs the others to do so.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import cast

from apispec.filters.ast import FilterTree
from apispec.filters.grammar import PLACEHOLDER_CHAR, Tables, tables

Span = tuple[int, int]

# A property name or an enumeration value: dotted identifiers.
BARE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*\Z")

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


def tokenize(text: str, tbl: Tables | None = None) -> tuple[list[Token], int]:
    """Split `text` into terminals; returns the tokens and the offset where lexing stopped."""
    tbl = tbl or tables()
    match = (tbl.token_re if PLACEHOLDER_CHAR in text else tbl.plain_re).match
    ignore = tbl.ignore
    tokens: list[Token] = []
    pos = 0
    length = len(text)
    while pos < length:
        m = match(text, pos)
        if m is None:
            break
        end = m.end()
        kind = m.lastgroup  # never None: each alternative of the pattern is a named group
        if kind is not None and kind not in ignore:
            tokens.append(Token(kind, m.group(), pos, end))
        pos = end
    return tokens, pos


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


def fast_parse(text: str) -> FilterTree | None:
    """Run the LALR tables directly; None when the text needs the full parser.

    Here rather than in parse.py because the repairs (recover.py) parse a
    repaired text with it too, and parse.py imports them.
    """
    tbl = tables()
    tokens, stop = tokenize(text, tbl)
    if stop < len(text):
        return None
    states = tbl.states
    reductions = tbl.reductions
    state = tbl.start_state
    state_stack = [state]
    value_stack: list[object] = []
    tokens.append(Token("$END", "", len(text), len(text)))
    end_state = tbl.end_state
    for token in tokens:
        kind = token.type
        while True:
            action = states[state].get(kind)
            if action is None:
                return None
            if action >= 0:  # shift
                state = action
                state_stack.append(state)
                value_stack.append(token)
                break
            size, origin, callback = reductions[~action]
            if callback is None:  # one child passed through (`?rule`): only the state moves
                state = states[state_stack[-2]][origin]
                state_stack[-1] = state
            else:
                if size:
                    children = value_stack[-size:]
                    del value_stack[-size:]
                    del state_stack[-size:]
                else:
                    children = []
                value_stack.append(callback(children))
                state = states[state_stack[-1]][origin]
                state_stack.append(state)
            if kind == "$END" and state == end_state:
                # the start rule's callback built it: the accepted text's tree
                return cast(FilterTree, value_stack[-1])
    return None
