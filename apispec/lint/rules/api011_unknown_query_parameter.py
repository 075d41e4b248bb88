"""API011 unknown-query-parameter: a list endpoint does not take this query parameter."""

from __future__ import annotations

from apispec.lint.finding import Finding, Severity
from apispec.lint.reference import QueryValue
from apispec.lint.rules.context import Call
from apispec.lint.rules.meta import Rule
from apispec.support.exceptions import did_you_mean

META = Rule(
    "API011",
    "unknown-query-parameter",
    Severity.WARNING,
    "The list endpoint has no such query parameter.",
    """
List endpoints take `limit`, `offset`, `include`, `filter` and `sort_by` (the
registry's common query parameters). Parameters from other APIs or from the old v1
API (`take`, `sort`, `includes`, `filter_objid`) are ignored by the server, so the
call silently does something else than intended. The message suggests the parameter
you probably meant.
""",
    'requests.get(f"{base}/experimental/sensors", params={"take": 50})',
    use_instead='requests.get(f"{base}/experimental/sensors", params={"limit": 50})',
)

# Query parameter names other APIs and the v1 API use, mapped to what the
# registry's list endpoints take; only used when the mapped name is a registry
# parameter, so a registry without it simply gets no suggestion.
QUERY_ALIASES = {
    "take": "limit",
    "count": "limit",
    "top": "limit",
    "skip": "offset",
    "sort": "sort_by",
    "sortby": "sort_by",
    "orderby": "sort_by",
    "order_by": "sort_by",
    "includes": "include",
    "filter_objid": "filter",
    "columns": "include",
}


def applies(query: QueryValue) -> bool:
    return True  # every value another rule did not take


def check(call: Call, query: QueryValue) -> Finding | None:
    """Unknown when no endpoint the call may be takes the name (an overlay's list is whole)."""
    name = query.name
    verdicts = [(call.run.registry.accepts_query(e, name), e) for e in call.chosen]
    refused = [e for verdict, e in verdicts if verdict is False]
    if not refused or any(verdict for verdict, _ in verdicts):
        return None
    endpoint = refused[0]
    names = endpoint.query if endpoint.query is not None else call.run.query_names
    alias = QUERY_ALIASES.get(name.lower())
    hint = f" (did you mean {alias}?)" if alias in names else did_you_mean(name, names)
    message = f"unknown query parameter {name!r} for {endpoint}{hint}"
    return call.at(META, message, span=query.span, endpoint=endpoint.key)
