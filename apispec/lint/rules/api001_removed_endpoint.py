"""API001 removed-endpoint: the call names an endpoint its target release no longer has."""

from __future__ import annotations

from apispec.lint.finding import Finding, Severity
from apispec.lint.rules.context import Call
from apispec.lint.rules.meta import Rule
from apispec.registry.model import Endpoint
from apispec.registry.releases import Release

META = Rule(
    "API001",
    "removed-endpoint",
    Severity.ERROR,
    "The endpoint has been removed in the target release.",
    """
The registry names a release from which the endpoint is gone (its `removed_in`).
A server of that release or newer answers the call with an error. The message
names the removal release and the successor, if any: call that instead.
""",
    'requests.get(f"{base}/experimental/sensors/{sid}/settings", headers=auth)',
    use_instead='requests.get(f"{base}/sensors/{sid}", headers=auth)  # the successor, if any',
    per_target=True,
)


def applies(ep: Endpoint, target: Release) -> bool:
    return ep.removed_in is not None and ep.removed_in <= target


def check(call: Call, ep: Endpoint, target: Release) -> Finding:
    note = call.run.successor_note(ep, target)
    message = f"{ep} was removed in {ep.removed_in}{note}"
    return call.at(META, message, endpoint=ep.key, target=target.text)
