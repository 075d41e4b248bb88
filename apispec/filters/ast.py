"""The typed syntax tree of a filter.

Every node carries its character offsets into the source (0-based, end
exclusive) so the checker can point at the exact token; offsets and the raw
source text take no part in equality, so two filters that differ only in
spacing or redundant parentheses compare equal.

Nodes are small immutable classes written out by hand rather than
dataclasses: generating a dozen dataclasses took a tenth of the start-up
time of `apispec filter check`.
"""

from __future__ import annotations

from typing import Any, TypeAlias

_set = object.__setattr__


class _Node:
    """Immutable, compared and hashed by the fields in `_key` and the node's type."""

    __slots__ = ()
    _fields: tuple[str, ...] = ()  # every field, in constructor order
    _key: tuple[str, ...] = ()  # the fields that take part in equality

    def _values(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name in self._key)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, _Node) or other.__class__ is not self.__class__:
            return NotImplemented
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash((self.__class__.__name__, *self._values()))

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._fields)
        return f"{self.__class__.__name__}({shown})"

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"cannot assign to field {name!r}: syntax tree nodes are immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r}: syntax tree nodes are immutable")


class _Scalar(_Node):
    _fields = ("value", "start", "end", "raw")
    __slots__ = _fields
    _key = ("value",)
    value: Any  # each kind of scalar narrows it
    start: int
    end: int
    raw: str

    def __init__(self, value: Any, start: int = 0, end: int = 0, raw: str = "") -> None:
        _set(self, "value", value)
        _set(self, "start", start)
        _set(self, "end", end)
        _set(self, "raw", raw)


class Text(_Scalar):
    """A double-quoted text value; `value` has the escapes resolved."""

    __slots__ = ()
    value: str


class Number(_Scalar):
    """Digits; `value` is their int, or the digits as text when beyond the range (see tree_builder)."""

    __slots__ = ()
    value: int | str


class Boolean(_Scalar):
    __slots__ = ()
    value: bool


class EnumToken(_Scalar):
    """A bare token: an enumeration value (or unquoted text, which the checker reports)."""

    __slots__ = ()
    value: str


class Unknown(_Scalar):
    """Content the caller marked as unknown (an interpolation in source code)."""

    __slots__ = ()
    value: str


Scalar: TypeAlias = Text | Number | Boolean | EnumToken | Unknown


class ListValue(_Node):
    _fields = ("items", "start", "end")
    __slots__ = _fields
    _key = ("items",)
    items: tuple[Scalar, ...]
    start: int
    end: int

    def __init__(self, items: tuple[Scalar, ...], start: int = 0, end: int = 0) -> None:
        _set(self, "items", items)
        _set(self, "start", start)
        _set(self, "end", end)


Value: TypeAlias = Scalar | ListValue


class Comparison(_Node):
    """`<property> <operator> <value>`; `prop_unknown` when the name is an interpolation."""

    _fields = ("prop", "op", "value", "prop_start", "op_start", "op_end", "prop_unknown")
    __slots__ = _fields
    _key = ("prop", "op", "value", "prop_unknown")
    prop: str
    op: str
    value: Value
    prop_start: int
    op_start: int
    op_end: int
    prop_unknown: bool

    def __init__(
        self,
        prop: str,
        op: str,
        value: Value,
        prop_start: int = 0,
        op_start: int = 0,
        op_end: int = 0,
        prop_unknown: bool = False,
    ) -> None:
        _set(self, "prop", prop)
        _set(self, "op", op)
        _set(self, "value", value)
        _set(self, "prop_start", prop_start)
        _set(self, "op_start", op_start)
        _set(self, "op_end", op_end)
        _set(self, "prop_unknown", prop_unknown)

    @property
    def prop_end(self) -> int:
        return self.prop_start + len(self.prop)

    @property
    def start(self) -> int:
        return self.prop_start

    @property
    def end(self) -> int:
        return self.value.end


class _Operands(_Node):
    _fields = ("operands",)
    __slots__ = _fields
    _key = ("operands",)
    operands: tuple[Expr, ...]

    def __init__(self, operands: tuple[Expr, ...]) -> None:
        _set(self, "operands", operands)

    # Followed down without recursion: the tree may be deeper than the stack.
    @property
    def start(self) -> int:
        node = self.operands[0]
        while isinstance(node, _Operands):
            node = node.operands[0]
        return node.start

    @property
    def end(self) -> int:
        node = self.operands[-1]
        while isinstance(node, _Operands):
            node = node.operands[-1]
        return node.end


class And(_Operands):
    __slots__ = ()


class Or(_Operands):
    __slots__ = ()


class Not(_Node):
    _fields = ("operand", "start", "end")
    __slots__ = _fields
    _key = ("operand",)
    operand: Expr
    start: int
    end: int

    def __init__(self, operand: Expr, start: int = 0, end: int = 0) -> None:
        _set(self, "operand", operand)
        _set(self, "start", start)
        _set(self, "end", end)


class UnknownExpr(_Node):
    """A whole condition that is an interpolation: nothing about it can be checked."""

    _fields = ("value", "start", "end")
    __slots__ = _fields
    _key = ("value",)
    value: str
    start: int
    end: int

    def __init__(self, value: str, start: int = 0, end: int = 0) -> None:
        _set(self, "value", value)
        _set(self, "start", start)
        _set(self, "end", end)


Expr: TypeAlias = Comparison | And | Or | Not | UnknownExpr


class FilterTree(_Node):
    """A whole filter: an optional leading relationship word and the expression."""

    _fields = ("expr", "relation", "relation_start")
    __slots__ = _fields
    _key = ("expr", "relation")
    expr: Expr
    relation: str | None
    relation_start: int

    def __init__(self, expr: Expr, relation: str | None = None, relation_start: int = 0) -> None:
        _set(self, "expr", expr)
        _set(self, "relation", relation)
        _set(self, "relation_start", relation_start)


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


def nesting(expr: Expr, limit: int) -> tuple[int, Expr | None]:
    """How deep operators nest in `expr` (a comparison is 0, `a and b` is 1), and the
    leftmost operator nested deeper than `limit` (None when there is none).

    Iterative, so that the bound which keeps every other walk safe can be
    measured on a tree of any depth.
    """
    deepest, first = 0, None
    stack: list[tuple[Expr, int]] = [(expr, 0)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, And | Or | Not):
            depth += 1
            deepest = max(deepest, depth)
            if depth > limit and first is None:
                first = node
            children = node.operands if isinstance(node, And | Or) else (node.operand,)
            stack.extend((child, depth) for child in reversed(children))
    return deepest, first
