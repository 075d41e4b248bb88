"""List endpoints: limit, offset, filter, sort_by and include, and the pagination headers.

Parameter names, the response-size limit and the header names come from the
registry; the filter is evaluated by apispec's own filter engine, so the mock
rejects exactly the filters `apispec filter check` rejects, with its message.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from starlette.requests import Request

from apispec.mock.errors import ApiError
from apispec.registry.model import Registry
from apispec.support.exceptions import did_you_mean

ALL_SECTIONS = ("*", "all_sections")  # the spec's words for "every section available"
INHERITANCE = "inheritance"
DESCENDING = "-"
MAX_RESPONSE_LIMIT = "max_objects_per_response"
_RUNS = re.compile(r"(\d+)")
# Out of range for `limit` (capped at the maximum) and `offset` (past the end).
BEYOND_ANY_LIST = 10**18
# A digit run longer than this sorts after every shorter number, unconverted.
_LONGEST_RUN = 4_000
_HUGE_RUN = 10**_LONGEST_RUN


@dataclass(frozen=True)
class Include:
    sections: frozenset[str] = frozenset()
    every_section: bool = False
    inheritance: bool = False

    def wanted(self, available: Sequence[str]) -> list[str]:
        if self.every_section:
            return list(available)
        return [s for s in available if s in self.sections]


@dataclass(frozen=True)
class ListQuery:
    limit: int
    offset: int
    filter: str | None
    sort_by: str | None
    descending: bool
    include: Include


def _integer(request: Request, name: str) -> int | None:
    """A non-negative integer parameter; any value past BEYOND_ANY_LIST counts as that much."""
    raw = request.query_params.get(name)
    if raw is None or raw == "":
        return None
    if not raw.isascii() or not raw.isdigit():
        shown = raw if len(raw) <= 40 else raw[:37] + "..."
        raise ApiError(
            "BAD_REQUEST", f"query parameter {name} must be a non-negative integer, not {shown!r}"
        )
    digits = raw.lstrip("0")
    # never converted when longer: Python refuses int() past 4,300 digits
    return BEYOND_ANY_LIST if len(digits) >= len(str(BEYOND_ANY_LIST)) else int(digits or "0")


def parse_include(registry: Registry, raw: str | None) -> Include:
    words = [w.strip() for w in (raw or "").split(",") if w.strip()]
    known = [s.name for s in registry.setting_sections]
    for word in words:
        if word not in known and word not in ALL_SECTIONS and word != INHERITANCE:
            choices = [*known, *ALL_SECTIONS, INHERITANCE]
            raise ApiError(
                "BAD_REQUEST",
                f"unknown include value {word!r}{did_you_mean(word, choices)}; "
                f"known: {', '.join(choices)}",
            )
    return Include(
        sections=frozenset(w for w in words if w in known),
        every_section=any(w in ALL_SECTIONS for w in words),
        inheritance=INHERITANCE in words,
    )


def sortable_fields(registry: Registry) -> tuple[str, ...]:
    """Record fields with one value per object (lists such as tags have no order)."""
    return tuple(f.name for f in registry.record_fields if not f.type.startswith("list"))


def parse_query(request: Request, registry: Registry) -> ListQuery:
    """The list parameters of a request; ApiError 400 `BAD_REQUEST` on a bad value."""
    maximum = registry.limit(MAX_RESPONSE_LIMIT)
    limit = _integer(request, "limit") or maximum  # omitted or 0: the maximum
    offset = _integer(request, "offset") or 0
    sort_by = request.query_params.get("sort_by") or None
    descending = False
    if sort_by is not None:
        descending = sort_by.startswith(DESCENDING)
        sort_by = sort_by.removeprefix(DESCENDING)
        fields = sortable_fields(registry)
        if sort_by not in fields:
            raise ApiError(
                "BAD_REQUEST",
                f"cannot sort by {sort_by!r}{did_you_mean(sort_by, fields)}; "
                f"sortable: {', '.join(fields)}",
            )
    text = request.query_params.get("filter")
    return ListQuery(
        limit=min(limit, maximum),
        offset=offset,
        filter=text if text and text.strip() else None,
        sort_by=sort_by,
        descending=descending,
        include=parse_include(registry, request.query_params.get("include")),
    )


@lru_cache(maxsize=65536)
def natural_key(text: str) -> tuple[tuple[int, Any], ...]:
    """Numeric-then-alphabetic order: digit runs compare as numbers and sort before letters."""
    parts = []
    for index, run in enumerate(_RUNS.split(text)):
        if not run:
            continue
        if index % 2:
            parts.append((0, int(run) if len(run) <= _LONGEST_RUN else _HUGE_RUN))
        else:
            parts.append((1, run.casefold()))
    return tuple(parts)


def sort_key(value: Any) -> Any:
    """The key `sort_by` orders a field's values by (numeric-then-alphabetic for text)."""
    if isinstance(value, str):
        return (natural_key(value), value)
    return (((0, int(value)),), "") if isinstance(value, bool | int) else ((), str(value))


def sort_records(
    records: list[dict[str, Any]],
    field: str,
    descending: bool,
    ranks: dict[int, int] | None = None,
) -> list[dict[str, Any]]:
    """Sort by one field; records without the field come last in both directions.

    `ranks` (id(record) -> rank of its sort key, from an index) give the same
    order faster; without a rank for every record the keys are computed.
    """
    present = [r for r in records if r.get(field) is not None]
    missing = [r for r in records if r.get(field) is None]
    if ranks is not None and all(id(r) in ranks for r in present):
        present.sort(key=lambda r: ranks[id(r)], reverse=descending)
    else:
        present.sort(key=lambda r: sort_key(r[field]), reverse=descending)
    return present + missing


def page_headers(
    request: Request, query: ListQuery, total: int, count: int
) -> list[tuple[str, str]]:
    """Link (one header per relation, RFC 8288), X-Result-Count and X-Total-Count."""
    headers = []
    if query.offset > 0:
        previous = max(0, query.offset - query.limit)
        url = request.url.include_query_params(offset=previous)
        headers.append(("Link", f'<{url}>; rel="previous"'))
    if query.offset + query.limit < total:
        url = request.url.include_query_params(offset=query.offset + query.limit)
        headers.append(("Link", f'<{url}>; rel="next"'))
    headers.append(("X-Result-Count", str(count)))
    headers.append(("X-Total-Count", str(total)))
    return headers
