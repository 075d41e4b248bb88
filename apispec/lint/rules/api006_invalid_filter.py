"""API006 invalid-filter: the `filter` query value does not pass the filter checker."""

from __future__ import annotations

from collections.abc import Iterator

from apispec.lint.finding import Finding, Severity
from apispec.lint.reference import QueryValue, Span
from apispec.lint.rules.context import Call
from apispec.lint.rules.filter_fixes import fix_for
from apispec.lint.rules.meta import Rule
from apispec.registry.model import Registry

META = Rule(
    "API006",
    "invalid-filter",
    Severity.ERROR,
    "The `filter` query value is not a valid filter expression.",
    """
The filter is checked with the same checker as `apispec filter check`: grammar,
property names, operators allowed per property and value types. The message carries
the checker's code and message, and the column points at the offending part inside
the file. An interpolation inside the filter counts as a value of unknown content, so
`parentid = "{sid}"` is fine while `parentid = ${id}` (an unquoted id where text is
required) is reported. The server answers an invalid filter with 400 `INVALID_FILTER`.

Severity follows the checker's code: FLT001-FLT004 (the server refuses the filter) are
errors; FLT006 (a property that does not apply to the endpoint) is a warning. FLT005,
an enumeration value nobody lists (`status = paused`), is info: the spec lists only
some values (`status`: up, down; `type`: sensor, channel, to which the registry adds
probe, group and device, the values real filters use, with their source) and real
servers know more. When an overlay or registry lists the property's values completely
(`values_complete`), an unknown value is known to be wrong and FLT005 is a warning.
""",
    'params = {"filter": "status eq Down"}',
    use_instead='params = {"filter": "status = down"}',
    fix="the filter checker's fix-it, when the string in the code can hold it",
    fix_safety="""
The fix is the one `apispec filter fix` makes, with the checker's applicability
(docs/filters.md#command-line): safe where the filter's meaning is beyond doubt (`==` to `=`,
`AND` to `and`, quoting an id), unsafe where it guesses (a did-you-mean property or
value), so it applies only with `--unsafe-fixes`. The edit is made inside the string
literal that holds the filter, and only when that literal can hold it as written: the
file, once edited, must give exactly the repaired filter where the old one stood. A
filter written with escapes, URL encoding or interpolation around the edit, or a fix
whose text would need escaping in that literal (a `"` inside a double-quoted string),
gets no fix: the message still says what to change.
""",
)


def applies(query: QueryValue) -> bool:
    return query.name == "filter" and query.value is not None


def check(call: Call, query: QueryValue) -> Iterator[Finding]:
    from apispec.filters.check import check as check_filter  # only files with a filter pay

    assert query.value is not None
    endpoint = call.chosen[0] if call.chosen else None
    diagnostics = check_filter(
        query.value,
        endpoint=endpoint,
        registry=call.run.registry,
        placeholder_spans=query.placeholder_spans,
    )
    where = endpoint or call.shown_path
    registry = call.run.registry
    for diagnostic in diagnostics:
        start = _file_offset(query, diagnostic.start)
        last = _file_offset(query, max(diagnostic.end - 1, diagnostic.start))
        span = Span(start, last + 1) if start is not None and last is not None else None
        hint = f" ({diagnostic.hint})" if diagnostic.hint else ""
        yield call.at(
            META,
            f"invalid filter for {where}: {diagnostic.code} {diagnostic.message}{hint}",
            severity=_severity(diagnostic.code, diagnostic.severity, diagnostic.subject, registry),
            span=span,
            endpoint=endpoint.key if endpoint else None,
            fix=fix_for(call.file, query, diagnostic),
        )


def _severity(code: str, checker: str, subject: str | None, registry: Registry) -> Severity:
    """The finding's severity for one checker diagnostic (rule page above)."""
    if checker == "error":
        return Severity.ERROR
    if code == "FLT005":
        prop = registry.property(subject) if subject else None
        return Severity.WARNING if prop is not None and prop.values_complete else Severity.INFO
    return Severity.WARNING


def _file_offset(query: QueryValue, index: int) -> int | None:
    """Where character `index` of a query value stands in the file (None: unknown)."""
    if query.offset_map is not None:
        if 0 <= index < len(query.offset_map):
            return query.offset_map[index]
        if query.offset_map and index == len(query.offset_map):
            return query.offset_map[-1] + 1
        return None
    if query.span is None:
        return None
    return query.span.start + index
