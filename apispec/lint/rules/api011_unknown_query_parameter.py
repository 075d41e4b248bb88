"""API011 unknown-query-parameter: a list endpoint does not take this query parameter."""

from __future__ import annotations

import difflib
import functools
import re
from collections.abc import Iterable

from apispec.lint.finding import Applicability, Edit, Finding, Fix, Severity
from apispec.lint.reference import QueryValue
from apispec.lint.rules.context import Call
from apispec.lint.rules.meta import Rule

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
    fix="unsafe: the parameter renamed to the one the message suggests",
    fix_safety="""
`--fix --unsafe-fixes` renames the parameter where the code writes it, just before
its value (`?sort=name` -> `?sort_by=name`, `"take": 50` -> `"limit": 50`), when the
message suggests a name. It is unsafe because the server ignored the old name and
honours the new one: the call starts to sort, page or filter, which is the intent but
changes what it returns, and the value may need another form.
""",
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
    meant = alias if alias in names else _closest(name, names)
    hint = f" (did you mean {meant}?)" if meant else ""
    message = f"unknown query parameter {name!r} for {endpoint}{hint}"
    fix = _rename(call.file.text, query, meant) if meant else None
    return call.at(META, message, span=query.span, endpoint=endpoint.key, fix=fix)


def _closest(name: str, names: Iterable[str]) -> str | None:
    """The parameter a typo most likely meant, as `did_you_mean` picks it."""
    return _closest_of(name, tuple(names))


@functools.lru_cache(maxsize=4096)
def _closest_of(name: str, names: tuple[str, ...]) -> str | None:
    """Once per name and list: a URL of 32,000 `a=1&` asked it 32,000 times (10 s)."""
    close = difflib.get_close_matches(name, names, n=1, cutoff=0.6)
    return close[0] if close else None


# Between a parameter's name and its value: a closing quote, `=`, `:`, `=>` or `,`
# (Go's `q.Set("sort", ...)`), and the value's opening quote.
_GAP = r"""["'`]?\s*(?:=>|[:=,])\s*(?:[@$]?["'`])?\Z"""


def _rename(text: str, query: QueryValue, new: str) -> Fix | None:
    """The edit that renames the parameter where it is written: right before its value on
    the same line; None when the name is not found there exactly once."""
    span = query.span
    if span is None:
        return None
    line_start = text.rfind("\n", 0, span.start) + 1
    pattern = re.compile(rf"(?<![\w-]){re.escape(query.name)}(?={_GAP})")
    found = list(pattern.finditer(text, line_start, span.start))
    if len(found) != 1:
        return None
    edit = Edit(found[0].start(), found[0].end(), new)
    return Fix(f"rename {query.name} to {new}", Applicability.UNSAFE, (edit,))
