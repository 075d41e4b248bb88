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
Positions = frozenset[int] | set[int]
# What an expression leaves to test once the index has spoken: the positions
# that can match (None: any), and the part still to evaluate on them (None:
# nothing; the positions are exactly the matches).
Plan = tuple[Positions | None, Expr | None]

# Lists shorter than this are scanned: an index would cost more than it saves.
INDEX_MIN = 1_000
# Rank a field for sorting at its second sort, or at once for a result of 1/8 of the list.
RANK_AFTER = 2
RANK_SHARE = 8
_SPELLED = {True: "true", False: "false"}  # a boolean also equals its spelling (evaluate.py)
_IN_LIST = "in-list"  # keys of list elements: ("in-list", element)


class ListIndex:
    """Lazy value and rank indexes over `records`, which must never change in place."""

    def __init__(self, records: list[Record]) -> None:
        self.records = records
        self._values: dict[str, dict[Hashable, frozenset[int]]] = {}
        self._ranks: dict[str, dict[int, int]] = {}
        self._sorts: dict[str, int] = {}  # sorts asked for per field, before ranking it
        self._lock = threading.Lock()

    # -- filtering ----------------------------------------------------------------

    def plan(self, expr: Expr) -> tuple[list[Record] | None, Expr | None]:
        """The records `expr` can match, in list order (None: all of them), and what is left to
        test on them (None: nothing, they are the matches)."""
        found, rest = self._plan(expr)
        if found is None:
            return None, rest
        records = self.records
        return [records[i] for i in sorted(found)], rest

    def _plan(self, expr: Expr) -> Plan:
        if isinstance(expr, Comparison):
            found = self._comparison(expr)
            return (found, None) if found is not None else (None, expr)
        if isinstance(expr, And):  # narrowed by each operand that narrows; tested on the rest
            parts = [self._plan(operand) for operand in expr.operands]
            narrowed = sorted((p for p, _ in parts if p is not None), key=len)
            left = [rest for _, rest in parts if rest is not None]
            found = narrowed[0].intersection(*narrowed[1:]) if narrowed else None
            if not left:
                return found, None
            return found, left[0] if len(left) == 1 else And(tuple(left))
        if isinstance(expr, Or):  # every operand must narrow, or nothing does
            parts = [self._plan(operand) for operand in expr.operands]
            if any(p is None for p, _ in parts):
                return None, expr
            union = set().union(*(p for p, _ in parts if p is not None))
            exact = all(rest is None for _, rest in parts)
            return union, None if exact else expr
        return None, expr  # not(...) and interpolations: every record may match

    def _comparison(self, c: Comparison) -> Positions | None:
        """Exactly the positions where `c` holds (the semantics of evaluate.py), or None."""
        if c.op in ("=", "contains"):
            items: tuple[Any, ...] = (c.value,)
        elif c.op == "in" and isinstance(c.value, ListValue):
            items = c.value.items
        else:
            return None  # `!=`, ordering, `matches`: complements and ranges are not looked up
        keys: list[Hashable] = []
        for item in items:
            if isinstance(item, Text | EnumToken):
                keys += [item.value, (_IN_LIST, item.value)]
            elif isinstance(item, Boolean):
                keys += [(bool, item.value), _SPELLED[item.value], (_IN_LIST, item.value)]
            else:
                return None  # numbers also equal numeric text: not worth an index
        index = self._value_index(c.prop)
        found = [index[k] for k in keys if k in index]
        if len(found) == 1:
            return found[0]
        return frozenset().union(*found)

    def _value_index(self, field: str) -> dict[Hashable, frozenset[int]]:
        index = self._values.get(field)
        if index is not None:
            return index
        with self._lock:
            index = self._values.get(field)
            if index is None:
                index = self._values[field] = _build_values(self.records, field)
        return index

    # -- sorting ------------------------------------------------------------------

    def ranks(self, field: str, key: Any, selected: int) -> dict[int, int] | None:
        """id(record) -> the rank of `key(value)` among the list's values, for records with the field.

        Equal keys share a rank, so a stable sort by rank orders exactly as a
        stable sort by the keys themselves, in either direction. Ranking the
        whole list costs about as much as sorting it, so it is done for a sort
        of a large share of the list or for the second sort by the same field;
        until then None (sort by the keys).
        """
        ranks = self._ranks.get(field)
        if ranks is not None:
            return ranks
        self._sorts[field] = asked = self._sorts.get(field, 0) + 1
        if asked < RANK_AFTER and selected * RANK_SHARE < len(self.records):
            return None
        with self._lock:
            ranks = self._ranks.get(field)
            if ranks is None:
                ranks = self._ranks[field] = _build_ranks(self.records, field, key)
        return ranks


def _build_values(records: list[Record], field: str) -> dict[Hashable, frozenset[int]]:
    """Key -> positions: a text value under itself, a boolean under (bool, value), each
    element of a list value under ("in-list", element) (so 1 and True share a key, as
    `True in [1]` holds); other values can equal no text or boolean and are left out."""
    index: dict[Hashable, list[int]] = {}
    for position, record in enumerate(records):
        value = record.get(field)
        if value.__class__ is list:
            for element in {e for e in value if isinstance(e, Hashable)}:
                index.setdefault((_IN_LIST, element), []).append(position)
        elif isinstance(value, str):
            index.setdefault(value, []).append(position)
        elif isinstance(value, bool):
            index.setdefault((bool, value), []).append(position)
    return {key: frozenset(positions) for key, positions in index.items()}


def _build_ranks(records: list[Record], field: str, key: Any) -> dict[int, int]:
    keyed = {id(r): key(r[field]) for r in records if r.get(field) is not None}
    order = {k: rank for rank, k in enumerate(sorted(set(keyed.values())))}
    return {rid: order[k] for rid, k in keyed.items()}
