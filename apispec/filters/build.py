"""Build filter strings from Python with the quoting done right.

    (prop("status") == Enum("up")) & prop("basic.tags").contains('a "b"')
    -> status = up and basic.tags contains "a \\"b\\""

Python values map to filter values: str -> text in double quotes, int ->
number, bool -> true/false, Enum("x") -> a bare enumeration token, a list or
tuple -> a list (with `is_in`). `&`, `|` and `~` give `and`, `or`, `not(...)`;
`str()` gives the canonical text (see `format`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
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
)
from apispec.filters.format import format_expr, format_tree
from apispec.filters.grammar import KEYWORDS
from apispec.filters.result import MAX_NESTING

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*\Z")


def _checked_name(word: str, what: str) -> str:
    if not isinstance(word, str) or not _NAME.match(word) or word in KEYWORDS:
        raise ValueError(f"{word!r} cannot be written as {what}")
    return word


@dataclass(frozen=True)
class Enum:
    """An enumeration value, written bare: `Enum("up")` -> `up`."""

    value: str

    def __post_init__(self) -> None:
        _checked_name(self.value, "an enumeration value")


def _scalar(value: Any) -> Scalar:
    if isinstance(value, Enum):
        return EnumToken(value.value)
    if isinstance(value, bool):
        return Boolean(value)
    if isinstance(value, int):
        if value < 0:
            raise ValueError(
                "numbers in filters are digits only; negative numbers cannot be written"
            )
        return Number(value)
    if isinstance(value, str):
        return Text(value)
    raise TypeError(f"cannot write {type(value).__name__} as a filter value")


class Condition:
    """A built expression; combine with `&`, `|`, `~`.

    `depth` is how deep operators nest; past the parser's bound (MAX_NESTING)
    combining raises ValueError, as parsing such a text gives FLT001.
    """

    def __init__(self, expr: Expr, depth: int = 0) -> None:
        if depth > MAX_NESTING:
            raise ValueError(f"the condition would nest operators more than {MAX_NESTING} deep")
        self.expr = expr
        self.depth = depth

    def _joined(self, kind: type[And] | type[Or], other: Condition) -> Condition:
        # joining into a chain of the same operator adds no level
        depth = max(c.depth + (type(c.expr) is not kind) for c in (self, other))
        return Condition(kind(_merge(kind, self.expr, other.expr)), depth)

    def __and__(self, other: Condition) -> Condition:
        return self._joined(And, other)

    def __or__(self, other: Condition) -> Condition:
        return self._joined(Or, other)

    def __invert__(self) -> Condition:
        return Condition(Not(self.expr), self.depth + 1)

    def __str__(self) -> str:
        return format_expr(self.expr)

    def __repr__(self) -> str:
        return f"Condition({str(self)!r})"

    def related(self, word: str) -> str:
        """The filter with a leading relationship word: `children`, `descendants`, ..."""
        if word not in ("ancestors", "descendants", "parents", "children"):
            raise ValueError(f"{word!r} is not a relationship word")
        return format_tree(FilterTree(self.expr, word))


def _merge(kind: type[And] | type[Or], *parts: Expr) -> tuple[Expr, ...]:
    out: list[Expr] = []
    for part in parts:
        out.extend(part.operands if type(part) is kind else (part,))
    return tuple(out)


class Prop:
    """A property on the left of a comparison: `prop("status") == Enum("up")`."""

    __hash__ = None  # type: ignore[assignment]  # unhashable: == builds a condition

    def __init__(self, name: str) -> None:
        self.name = _checked_name(name, "a property name")

    def _compare(self, op: str, value: Any) -> Condition:
        return Condition(Comparison(self.name, op, _scalar(value)))

    def __eq__(self, value: Any) -> Condition:  # type: ignore[override]  # builds a condition, not a bool
        return self._compare("=", value)

    def __ne__(self, value: Any) -> Condition:  # type: ignore[override]  # builds a condition, not a bool
        return self._compare("!=", value)

    def __lt__(self, value: Any) -> Condition:
        return self._compare("<", value)

    def __le__(self, value: Any) -> Condition:
        return self._compare("<=", value)

    def __gt__(self, value: Any) -> Condition:
        return self._compare(">", value)

    def __ge__(self, value: Any) -> Condition:
        return self._compare(">=", value)

    def contains(self, value: Any) -> Condition:
        return self._compare("contains", value)

    def matches(self, value: Any) -> Condition:
        return self._compare("matches", value)

    def is_in(self, values: Iterable[Any]) -> Condition:
        items = tuple(_scalar(v) for v in values)
        if not items:
            raise ValueError("a filter list needs at least one element")
        return Condition(Comparison(self.name, "in", ListValue(items)))


def prop(name: str) -> Prop:
    return Prop(name)
