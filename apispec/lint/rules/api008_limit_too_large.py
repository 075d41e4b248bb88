"""API008 limit-too-large: `limit` asks for more objects than one response holds."""

from __future__ import annotations

from apispec.lint.finding import Applicability, Edit, Finding, Fix, Severity
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
    fix="unsafe: the limit lowered to the maximum",
    fix_safety="""
`--fix --unsafe-fixes` writes the maximum in place of a literal number
(`limit=5000` -> `limit=3000`). It is unsafe because it changes paging: the server
already returned no more than the maximum, but code that takes one response for the
whole list still needs a loop over `offset` to get the rest, which only a person can
write.
""",
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
    fix = _maximum(call.file.text, query, maximum)
    return call.at(META, message, span=query.span, endpoint=endpoint, fix=fix)


def _maximum(text: str, query: QueryValue, maximum: int) -> Fix | None:
    """The number, where the code writes it as digits, replaced with the maximum."""
    span = query.span
    if span is None or not text[span.start : span.end].isdigit():
        return None  # a number built or encoded otherwise: no edit is sure
    edit = Edit(span.start, span.end, str(maximum))
    return Fix(f"lower the limit to {maximum}; page with offset", Applicability.UNSAFE, (edit,))
