"""`apispec rule FLT003`: a documentation page per filter diagnostic code.

The linter's API006 findings carry these codes, so a reader of a lint report
asks `apispec rule` about them as about any rule. The example on each page is
the checker's own diagnostic for the example filter, so it cannot drift.
"""

from __future__ import annotations

from apispec.filters.diagnostics import CODES

# code -> (why it matters and what to do, example filter, endpoint the example is checked for)
EXPLANATIONS: dict[str, tuple[str, str, str | None]] = {
    "FLT001": (
        "The filter does not follow the grammar: an unknown operator (`==`, `eq`, `&&`), an "
        "upper-case keyword, single quotes, an unclosed parenthesis or quote, a trailing "
        "comma. The server answers 400 `INVALID_FILTER`.",
        "status == up",
        None,
    ),
    "FLT002": (
        "The property is not one the spec lists as filterable. The server rejects the "
        "filter; the hint names the closest property (`tags` is `basic.tags`).",
        'tags contains "ping"',
        None,
    ),
    "FLT003": (
        "The spec allows only some operators per property: `basic.tags` takes `contains`, "
        "`status` takes `=` and `!=`. Any other operator is rejected.",
        'basic.tags = "ping"',
        None,
    ),
    "FLT004": (
        "The value has the wrong type for the property: enumerations are bare tokens "
        "(`status = up`), text is in double quotes, `in` takes a list of the property's "
        "type.",
        'status = "up"',
        None,
    ),
    "FLT005": (
        "The enumeration value is not one the spec shows. The spec's value lists are "
        "partial, so this is a warning (info in the linter); values are case-sensitive. "
        "An overlay imported from your server supplies the complete list.",
        "status = Up",
        None,
    ),
    "FLT006": (
        "The property applies to other objects than the endpoint lists (`primary` applies "
        "to channels), so the filter matches nothing there.",
        "primary = true",
        "/experimental/sensors",
    ),
}


def page(code: str) -> str:
    """The page of one FLT code (markdown), as `apispec rule FLT003` prints it."""
    from apispec.filters.check import check

    severity, title = CODES[code]
    explanation, example, endpoint = EXPLANATIONS[code]
    shown = next(d for d in check(example, endpoint) if d.code == code)
    where = f" (on `{endpoint}`)" if endpoint else ""
    lines = [
        f"### {code} {title}",
        "",
        "A filter diagnostic of `apispec filter check`; the linter reports it inside API006.",
        "",
        f"- Severity: {severity}",
        "",
        explanation,
        "",
        f"Reported, for example{where}:",
        "",
        "```",
        example,
        f"{code} {shown.message}",
        *([f"hint: {shown.hint}"] if shown.hint else []),
        "```",
        "",
        "Every diagnostic with real output: docs/filters.md.",
        "",
    ]
    return "\n".join(lines)
