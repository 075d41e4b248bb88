"""API007 method-not-defined: the path is known, but not with the call's method."""

from __future__ import annotations

from apispec.lint.finding import Finding, Severity
from apispec.lint.rules.context import Call
from apispec.lint.rules.meta import Rule

META = Rule(
    "API007",
    "method-not-defined",
    Severity.ERROR,
    "The HTTP method is not defined for this path.",
    """
The path is known but not with this method, for example `POST
/experimental/sensors/{id}`. The message lists the methods the path has.
""",
    'requests.post(f"{base}/experimental/sensors/{sid}", json=body)',
    use_instead='requests.patch(f"{base}/experimental/sensors/{sid}", json=body)',
)


def check(call: Call) -> Finding | None:
    found, ref = call.found, call.ref
    if found.template is None or not ref.method or found.endpoint is not None:
        return None
    defined = ", ".join(e.method for e in found.endpoints)
    message = f"{ref.method} is not defined for {found.template} (defined: {defined})"
    return call.at(META, message, endpoint=(ref.method, found.template))
