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

On an experimental path it is an error: the spec lists every experimental endpoint
with its method. On a stable (or deprecated) path it is a warning, because the spec
says its list of stable endpoints is incomplete (`PATCH /devices/{id}` may well
exist); an overlay that lists the path's methods (`apispec registry import`) makes it
an error again.
""",
    'requests.post(f"{base}/experimental/sensors/{sid}", json=body)',
    use_instead='requests.patch(f"{base}/experimental/sensors/{sid}", json=body)',
)


def check(call: Call) -> Finding | None:
    found, ref = call.found, call.ref
    if found.template is None or not ref.method or found.endpoint is not None or call.chosen:
        return None
    defined = ", ".join(dict.fromkeys(e.method for e in found.endpoints))
    template = found.template
    known = template.startswith("/experimental/") or call.run.registry.methods_authoritative(
        template
    )
    if known:
        message = f"{ref.method} is not defined for {template} (defined: {defined})"
        return call.at(META, message, endpoint=(ref.method, template))
    message = (
        f"{ref.method} is not listed for {template} (listed: {defined}); "
        "the spec's stable list is incomplete, so your server may still answer it"
    )
    return call.at(META, message, severity=Severity.WARNING, endpoint=(ref.method, template))
