"""The typed syntax tree of a filter.

Every node carries its character offsets into the source (0-based, end
exclusive) so the checker can point at the exact token; offsets and the raw
source text take no part in equality, so two filters that differ only in
spacing or redundant parentheses compare equal.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TypeAlias


@dataclass(frozen=True, slots=True)
class Text:
    """A double-quoted text value; `value` has the escapes resolved."""

    value: str
    start: int = field(default=0, compare=False)
    end: int = field(default=0, compare=False)
    raw: str = field(default="", compare=False)


@dataclass(frozen=True, slots=True)
class Number:
    value: int
    start: int = field(default=0, compare=False)
    end: int = field(default=0, compare=False)
    raw: str = field(default="", compare=False)


@dataclass(frozen=True, slots=True)
class Boolean:
    value: bool
    start: int = field(default=0, compare=False)
    end: int = field(default=0, compare=False)
    raw: str = field(default="", compare=False)


@dataclass(frozen=True, slots=True)
class EnumToken:
    """A bare token: an enumeration value (or unquoted text, which the checker reports)."""

    value: str
    start: int = field(default=0, compare=False)
    end: int = field(default=0, compare=False)
    raw: str = field(default="", compare=False)


@dataclass(frozen=True, slots=True)
class Unknown:
    """Content the caller marked as unknown (an interpolation in source code)."""

    value: str
    start: int = field(default=0, compare=False)
    end: int = field(default=0, compare=False)
    raw: str = field(default="", compare=False)


Scalar: TypeAlias = Text | Number | Boolean | EnumToken | Unknown


@dataclass(frozen=True, slots=True)
class ListValue:
    items: tuple[Scalar, ...]
    start: int = field(default=0, compare=False)
    end: int = field(default=0, compare=False)


Value: TypeAlias = Scalar | ListValue


@dataclass(frozen=True, slots=True)
class Comparison:
    """`<property> <operator> <value>`; `prop_unknown` when the name is an interpolation."""

    prop: str
    op: str
    value: Value
    prop_start: int = field(default=0, compare=False)
    op_start: int = field(default=0, compare=False)
    op_end: int = field(default=0, compare=False)
    prop_unknown: bool = False

    @property
    def prop_end(self) -> int:
        return self.prop_start + len(self.prop)

    @property
    def start(self) -> int:
        return self.prop_start

    @property
    def end(self) -> int:
        return self.value.end


@dataclass(frozen=True, slots=True)
class And:
    operands: tuple[Expr, ...]

    @property
    def start(self) -> int:
        return self.operands[0].start

    @property
    def end(self) -> int:
        return self.operands[-1].end


@dataclass(frozen=True, slots=True)
class Or:
    operands: tuple[Expr, ...]

    @property
    def start(self) -> int:
        return self.operands[0].start

    @property
    def end(self) -> int:
        return self.operands[-1].end


@dataclass(frozen=True, slots=True)
class Not:
    operand: Expr
    start: int = field(default=0, compare=False)
    end: int = field(default=0, compare=False)


@dataclass(frozen=True, slots=True)
class UnknownExpr:
    """A whole condition that is an interpolation: nothing about it can be checked."""

    value: str
    start: int = field(default=0, compare=False)
    end: int = field(default=0, compare=False)


Expr: TypeAlias = Comparison | And | Or | Not | UnknownExpr


@dataclass(frozen=True, slots=True)
class FilterTree:
    """A whole filter: an optional leading relationship word and the expression."""

    expr: Expr
    relation: str | None = None
    relation_start: int = field(default=0, compare=False)

    @property
    def relation_end(self) -> int:
        return self.relation_start + len(self.relation or "")


def comparisons(expr: Expr) -> list[Comparison]:
    """The simple expressions of `expr` in source order."""
    found: list[Comparison] = []
    stack = [expr]
    while stack:
        node = stack.pop()
        if isinstance(node, Comparison):
            found.append(node)
        elif isinstance(node, And | Or):
            stack.extend(reversed(node.operands))
        elif isinstance(node, Not):
            stack.append(node.operand)
    return found
