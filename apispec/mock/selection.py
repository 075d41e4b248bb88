"""Filtering and sorting a list, off the event loop, within bounds and the request's time limit.

A filter over 100,000 objects can cost seconds of CPU (a 900-term `or` took
37 s), and the mock serves every client from one event loop: evaluated there,
it froze every other client. So the work runs in a worker thread, reading
only snapshots the loop handed over (the cached candidate lists, which are
never changed in place), while the loop goes on serving. A thread still holds
Python's GIL while it evaluates, but the interpreter hands the GIL to the
loop's thread every switch interval (5 ms) when that thread asks for it, so a
small request waits milliseconds, not seconds (docs/mock.md gives the
figures). The evaluation tests records in slices and gives up at the
request's deadline, so a timed-out request stops costing CPU soon after its
408 answer.

Bounds, each answered 400 `INVALID_FILTER` naming the bound: the filter's
length, its number of conditions, and the nesting the filter engine reads.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from apispec.filters.evaluate import predicate as compile_expr
from apispec.filters.grammar import RELATION_TERMINALS
from apispec.mock.errors import ApiError, execution_timeout
from apispec.mock.index import ListIndex
from apispec.mock.lists import ListQuery, sort_key, sort_records

if TYPE_CHECKING:
    from apispec.filters.ast import Expr
    from apispec.filters.evaluate import Filter, Predicate
    from apispec.mock.context import Call

Record = dict[str, Any]

MAX_FILTER_LENGTH = 32_768  # characters: a 1,000-term filter of realistic terms fits
MAX_FILTER_TERMS = 1_000  # simple expressions (`<property> <operator> <value>`)
SLICE = 1_024  # records tested between two looks at the clock
_RELATION_START = re.compile(
    r"\s*(?:" + "|".join(t.lower() for t in RELATION_TERMINALS) + r")(?![A-Za-z0-9_.])"
)


@lru_cache(maxsize=256)
def compiled_filter(text: str) -> Filter:
    """The filter engine's compiled filter; ApiError 400 `INVALID_FILTER` naming the problem."""
    from apispec.filters import FilterError, compile
    from apispec.filters.ast import comparisons

    if len(text) > MAX_FILTER_LENGTH:
        raise ApiError(
            "INVALID_FILTER",
            f"invalid filter: {len(text):,} characters; the mock reads filters of at most "
            f"{MAX_FILTER_LENGTH:,} characters",
        )
    try:
        flt = compile(text)
    except FilterError as exc:
        first = next(d for d in exc.diagnostics if d.is_error)
        line, column = first.line_column(text)
        where = f"column {column}" if line == 1 else f"line {line}, column {column}"
        hint = f"; hint: {first.hint}" if first.hint else ""
        raise ApiError(
            "INVALID_FILTER",
            f"invalid filter at {where}: {first.message}{hint}",
            diagnostic=first.code,
        ) from None
    terms = len(comparisons(flt.tree.expr))
    if terms > MAX_FILTER_TERMS:
        raise ApiError(
            "INVALID_FILTER",
            f"invalid filter: {terms:,} conditions; the mock evaluates at most "
            f"{MAX_FILTER_TERMS:,} per filter",
        )
    return flt


@dataclass(frozen=True)
class Selection:
    """One list's filtering and sorting, as handed to a worker thread."""

    query: ListQuery
    records: list[Record]  # the endpoint's own records
    universe: list[Record] | None  # the whole tree, for a filter with a relationship word
    admits: Callable[[Record], bool] | None  # narrows the universe to the endpoint's kinds
    deadline: float  # time.monotonic() value at which the request's time is up
    time_limit: float
    stopped: Callable[[], bool]  # the server is shutting down
    index: ListIndex | None = None  # over `records`
    universe_index: ListIndex | None = None  # over `universe`

    def run(self) -> list[Record]:
        """The records the filter keeps, sorted; ApiError on a bad filter or when time is up.

        With an index, the filter is tested only on the candidates it gives
        (a superset of the matches, in list order), so the answer is the same.
        """
        query = self.query
        records, index = self.records, self.index
        if query.filter is not None:
            flt = compiled_filter(query.filter)
            pool = records
            if flt.relation is not None and self.universe is not None:
                pool, index = self.universe, self.universe_index
            matched = self._matching(flt.predicate, pool, index, flt.tree.expr)
            selected = flt.related(pool, matched)
            if pool is not records and self.admits is not None:
                selected = [r for r in selected if self.admits(r)]
            records = selected
        self._check_time()
        if query.sort_by is not None:
            ranks = index.ranks(query.sort_by, sort_key, len(records)) if index else None
            records = sort_records(records, query.sort_by, query.descending, ranks)
        return records

    def _matching(
        self, predicate: Predicate, pool: list[Record], index: ListIndex | None, expr: Expr
    ) -> list[Record]:
        """The records of `pool` the expression matches, in order, tested in slices."""
        if index is not None:
            candidates, rest = index.plan(expr)
            if candidates is not None:
                pool = candidates
            if rest is None:
                return pool  # the index answered exactly
            if rest is not expr:
                predicate = compile_expr(rest)  # only what the index could not decide
        matched: list[Record] = []
        for start in range(0, len(pool), SLICE):
            self._check_time()
            matched += [r for r in pool[start : start + SLICE] if predicate(r)]
        return matched

    def _check_time(self) -> None:
        if time.monotonic() > self.deadline:
            raise execution_timeout(self.time_limit)
        if self.stopped():
            raise ApiError("SERVICE_UNAVAILABLE", "the mock is stopping")


async def select(
    call: Call,
    query: ListQuery,
    candidates: Callable[[], list[Record]],
    universe: Callable[[], list[Record]] | None,
    admits: Callable[[Record], bool] | None,
) -> list[Record]:
    """The records the filter keeps, sorted, computed in a worker thread.

    `candidates` and `universe` run here, on the event loop, because they read
    the live tree; the worker gets the lists they return, and their indexes
    when they are the state's cached lists (index.py).
    """
    state = call.state
    needs_universe = (
        universe is not None and query.filter is not None and _RELATION_START.match(query.filter)
    )
    records = candidates()
    whole = universe() if needs_universe and universe is not None else None
    selection = Selection(
        query=query,
        records=records,
        universe=whole,
        admits=admits,
        deadline=call.deadline,
        time_limit=call.time_limit,
        stopped=lambda: state.closed,
        index=state.index_of(records),
        universe_index=state.index_of(whole) if whole is not None else None,
    )
    return await state.off_loop(selection.run)
