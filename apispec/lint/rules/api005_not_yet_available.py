"""API005 not-yet-available: the call names an endpoint newer than its target release."""

from __future__ import annotations

from apispec.lint.finding import Finding, Severity
from apispec.lint.rules.context import Call
from apispec.lint.rules.meta import Rule
from apispec.registry.model import Endpoint
from apispec.registry.releases import Release

META = Rule(
    "API005",
    "not-yet-available",
    Severity.ERROR,
    "The endpoint does not exist yet in the target release.",
    """
The endpoint first appears in a later release than the target (its `since`). A
server of the target release answers 404. Upgrade the server, or pass the release
your server runs with `--target` to see what your code may use.
""",
    'client.post(f"experimental/devices/{dev}/metascan")  # needs 25.x.112',
    use_instead="apispec lint --target 25.x.112 .  # the release your server runs",
    per_target=True,
)


def applies(ep: Endpoint, target: Release) -> bool:
    return ep.since is not None and target < ep.since


def check(call: Call, ep: Endpoint, target: Release) -> Finding:
    message = f"{ep} is not available yet: it appears in {ep.since}"
    return call.at(META, message, endpoint=ep.key, target=target.text)
