"""Indexes over one cached list of records: which records can match, and their sort order.

A filter over 100,000 objects spent three quarters of a list request testing
every record. Most filters name a property with a value (`status = down`,
`parentid = "42"`, `basic.tags contains "ping"`, `name in [...]`), so an
index from each value to the positions holding it gives a small set of
*candidates*: every record that can match, possibly a few more. The compiled
filter then decides on the candidates alone, so the answer is exactly the
unindexed one (tests/test_mock_index.py compares both on generated filters).
A sort by a field uses the rank of each record's value, computed once, so
sorting compares small integers instead of natural-order keys.

Indexes are built lazily, field by field, on first use, in the worker thread
that needs them; a list's indexes live as long as the list (until the data
changes, see MockState.changed).
"""

from __future__ import annotations

import threading
from collections.abc import Hashable
from typing import Any

from apispec.filters.ast import And, Boolean, Comparison, EnumToken, Expr, ListValue, Or, Text

Record = dict[str, Any]
Positions = set[int] | None  # None: every record may match

# Lists shorter than this are scanned: an index would cost more than it saves.
INDEX_MIN = 1_000
_SPELLED = {True: "true", False: "false"}  # a boolean also equals its spelling (evaluate.py)


class ListIndex:
    """Lazy value and rank indexes over `records`, which must never change in place."""

    def __init__(self, records: list[Record]) -> None:
        self.records = records
        self._values: dict[str, dict[Hashable, list[int]]] = {}
        self._ranks: dict[str, dict[int, int]] = {}
        self._lock = threading.Lock()

    # -- filtering ----------------------------------------------------------------

    def candidates(self, expr: Expr) -> list[Record] | None:
        """Every record `expr` can match, in list order; None when the index cannot narrow it."""
        found = self._plan(expr)
        if found is None:
            return None
        records = self.records
        return [records[i] for i in sorted(found)]

    def _plan(self, expr: Expr) -> Positions:
        if isinstance(expr, Comparison):
            return self._comparison(expr)
        if isinstance(expr, And):  # any narrowing operand narrows the conjunction
            narrowed = [p for p in map(self._plan, expr.operands) if p is not None]
            if not narrowed:
                return None
            narrowed.sort(key=len)
            return narrowed[0].intersection(*narrowed[1:])
        if isinstance(expr, Or):  # every operand must narrow, or nothing does
            union: set[int] = set()
            for operand in expr.operands:
                found = self._plan(operand)
                if found is None:
                    return None
                union |= found
            return union
        return None  # not(...) and interpolations: every record may match

    def _comparison(self, c: Comparison) -> Positions:
        if c.op in ("=", "contains"):
            items: tuple[Any, ...] = (c.value,)
        elif c.op == "in" and isinstance(c.value, ListValue):
            items = c.value.items
        else:
            return None  # `!=`, ordering, `matches`: complements and ranges are not looked up
        targets: list[Hashable] = []
        for item in items:
            if isinstance(item, Text | EnumToken):
                targets.append(item.value)
            elif isinstance(item, Boolean):
                targets += [item.value, _SPELLED[item.value]]
            else:
                return None  # numbers also equal numeric text: not worth an index
        index = self._value_index(c.prop)
        found: set[int] = set()
        for target in targets:
            found.update(index.get(target, ()))
        return found

    def _value_index(self, field: str) -> dict[Hashable, list[int]]:
        """Value -> positions whose value is it or, for a list value, holds it."""
        index = self._values.get(field)
        if index is not None:
            return index
        with self._lock:
            index = self._values.get(field)
            if index is None:
                index = self._values[field] = _build_values(self.records, field)
        return index

    # -- sorting ------------------------------------------------------------------

    def ranks(self, field: str, key: Any) -> dict[int, int]:
        """id(record) -> the rank of `key(value)` among the list's values, for records with the field.

        Equal keys share a rank, so a stable sort by rank orders exactly as a
        stable sort by the keys themselves, in either direction.
        """
        ranks = self._ranks.get(field)
        if ranks is not None:
            return ranks
        with self._lock:
            ranks = self._ranks.get(field)
            if ranks is None:
                ranks = self._ranks[field] = _build_ranks(self.records, field, key)
        return ranks


def _build_values(records: list[Record], field: str) -> dict[Hashable, list[int]]:
    index: dict[Hashable, list[int]] = {}
    for position, record in enumerate(records):
        value = record.get(field)
        if value is None:
            continue
        if value.__class__ is list:
            for element in set(_hashable(value)):
                index.setdefault(element, []).append(position)
        elif isinstance(value, Hashable):
            index.setdefault(value, []).append(position)
    return index


def _hashable(values: list[Any]) -> list[Hashable]:
    return [v for v in values if isinstance(v, Hashable)]


def _build_ranks(records: list[Record], field: str, key: Any) -> dict[int, int]:
    keyed = {id(r): key(r[field]) for r in records if r.get(field) is not None}
    order = {k: rank for rank, k in enumerate(sorted(set(keyed.values())))}
    return {rid: order[k] for rid, k in keyed.items()}
