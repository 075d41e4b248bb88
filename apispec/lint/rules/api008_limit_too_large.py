"""API008 limit-too-large: `limit` asks for more objects than one response holds."""

from __future__ import annotations

from apispec.lint.finding import Finding, Severity
from apispec.lint.reference import QueryValue
from apispec.lint.rules.context import Call
from apispec.lint.rules.meta import Rule

META = Rule(
    "API008",
    "limit-too-large",
    Severity.WARNING,
    "The `limit` query value is above the maximum objects per response.",
    """
The server never returns more than the registry's maximum objects per response, so a
larger `limit` silently returns fewer objects than asked for. Page with `offset`
instead.
""",
    'params={"limit": 5000}',
    use_instead='params={"limit": 3000, "offset": 3000}',
)


def applies(query: QueryValue) -> bool:
    return query.name == "limit" and query.value is not None and query.value.strip().isdigit()


def check(call: Call, query: QueryValue) -> Finding | None:
    assert query.value is not None
    digits = query.value.strip().lstrip("0") or "0"
    maximum = call.run.max_limit
    # Compared as text first: int() refuses numbers of more than 4,300 digits.
    if len(digits) < len(str(maximum)) or (
        len(digits) == len(str(maximum)) and int(digits) <= maximum
    ):
        return None
    message = (
        f"limit={query.value.strip()} is above the maximum of {maximum} "
        "objects per response; page with offset"
    )
    endpoint = call.chosen[0].key if call.chosen else None
    return call.at(META, message, span=query.span, endpoint=endpoint)
