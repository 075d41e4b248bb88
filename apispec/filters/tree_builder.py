"""Turns the parser's reductions straight into AST nodes (no intermediate Lark tree).

Lark calls these methods while it parses (LALR with `transformer=`), and the
fast driver in `parse.py` calls the same methods, so both produce one tree.
Tokens only need `type`, `value`, `start_pos` and `end_pos`. A plain class,
not a Lark `Transformer`, so the fast road never imports Lark.
"""

from __future__ import annotations

from typing import Any

from apispec.filters.ast import (
    And,
    Boolean,
    Comparison,
    EnumToken,
    Expr,
    FilterTree,
    ListValue,
    Not,
    Number,
    Or,
    Scalar,
    Text,
    Unknown,
    UnknownExpr,
)

# The largest number a filter may hold: a signed 64-bit integer, what a server stores.
MAX_NUMBER = 2**63 - 1
_MAX_DIGITS = len(str(MAX_NUMBER))


def unescape(raw: str) -> str:
    """The value of a TEXT token: quotes removed, `\\"` and `\\\\` resolved."""
    inner = raw[1:-1]
    if "\\" not in inner:
        return inner
    out = []
    chars = iter(inner)
    for ch in chars:
        out.append(next(chars) if ch == "\\" else ch)
    return "".join(out)


def number_value(raw: str) -> int | str:
    """The int a NUMBER stands for; beyond MAX_NUMBER, its digits as text (never converted).

    Converting thousands of digits would fail (Python limits int-string
    conversion to 4,300 digits) or take quadratic time; the checker reports
    such a number as out of range.
    """
    digits = raw.lstrip("0") or "0"
    if len(digits) > _MAX_DIGITS:
        return digits
    value = int(digits)
    return value if value <= MAX_NUMBER else digits


def scalar(token: Any) -> Scalar:
    kind = token.type
    raw = token.value
    start = token.start_pos
    end = token.end_pos
    if kind == "TEXT":
        return Text(unescape(raw), start, end, raw)
    if kind == "NAME":
        return EnumToken(raw, start, end, raw)
    if kind == "NUMBER":
        return Number(number_value(raw), start, end, raw)
    if kind == "TRUE" or kind == "FALSE":
        return Boolean(kind == "TRUE", start, end, raw)
    return Unknown(raw, start, end, raw)


class TreeBuilder:
    """One method per grammar rule (or alias) that builds a node."""

    def start(self, children: list[Any]) -> FilterTree:
        if len(children) == 1:
            return FilterTree(children[0])
        token = children[0]
        return FilterTree(children[1], token.value, token.start_pos)

    def relation(self, children: list[Any]) -> Any:
        return children[0]

    def comparison(self, children: list[Any]) -> Comparison:
        subject, op, value = children
        if not isinstance(value, ListValue):
            value = scalar(value)
        return Comparison(
            subject.value,
            op.value,
            value,
            subject.start_pos,
            op.start_pos,
            op.end_pos,
            subject.type == "PLACEHOLDER",
        )

    def disjunction(self, children: list[Expr]) -> Or:
        return Or(_flatten(Or, children))

    def conjunction(self, children: list[Expr]) -> And:
        return And(_flatten(And, children))

    def negation(self, children: list[Any]) -> Not:
        return Not(children[2], children[0].start_pos, children[3].end_pos)

    def group(self, children: list[Any]) -> Expr:
        inner: Expr = children[1]
        return inner

    def unknown_expression(self, children: list[Any]) -> UnknownExpr:
        token = children[0]
        return UnknownExpr(token.value, token.start_pos, token.end_pos)

    # Last: below this method, `list` in the class body names it, not the built-in.
    def list(self, children: list[Any]) -> ListValue:
        return ListValue(
            tuple(scalar(t) for t in children[1:-1]),
            children[0].start_pos,
            children[-1].end_pos,
        )


def _flatten(kind: type[And] | type[Or], children: list[Expr]) -> tuple[Expr, ...]:
    """`a and (b and c)` is `a and b and c`: grouping that changes nothing is dropped."""
    out: list[Expr] = []
    for child in children:
        if type(child) is kind:
            out.extend(child.operands)
        else:
            out.append(child)
    return tuple(out)
