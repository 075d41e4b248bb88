"""API003 experimental-endpoint: the call names an endpoint without a stability promise."""

from __future__ import annotations

from apispec.lint.finding import Finding, Severity
from apispec.lint.rules.context import Call
from apispec.lint.rules.meta import Rule
from apispec.registry.model import Endpoint, Maturity
from apispec.registry.releases import Release

META = Rule(
    "API003",
    "experimental-endpoint",
    Severity.INFO,
    "The endpoint is experimental and may change incompatibly between releases.",
    """
Endpoints under `/experimental` are not covered by the stability promise: their
paths, parameters and payloads may change in any release. The finding is `info` by
default: it is shown and counted, but never fails a run at the default fail level,
because many tasks have no stable endpoint at all. Pin the server release your
script is tested against, or suppress the finding where you accept the risk
(`# apispec: ignore[API003]`). To make experimental calls fail CI, raise the
severity in the configuration (`[tool.apispec.severity]` `API003 = "warning"`; the
default fail level, `warning`, then fails on them), or lower the fail level
(`--fail-on info`).

An experimental endpoint that the registry names as the successor of a deprecated
one (`GET /experimental/devices` for `GET /devices`) is not reported: it is the way
forward API002 points to, and API002's advice already says that it is experimental.
Following the linter's advice therefore gives a clean run.
""",
    "fetch(`${api}/experimental/objects/${id}/types`)",
    use_instead=(
        "fetch(`${api}/experimental/objects/${id}/types`)  "
        "// apispec: ignore[API003] tested against 25.x.122"
    ),
    per_target=True,
)


def applies(ep: Endpoint, target: Release) -> bool:
    return ep.is_experimental_path or ep.maturity == Maturity.EXPERIMENTAL


def check(call: Call, ep: Endpoint, target: Release) -> Finding | None:
    if ep.key in call.run.successors:
        return None  # API002 recommends it and says it is experimental: once is enough
    message = f"{ep} is experimental and may change incompatibly in any release"
    return call.at(META, message, endpoint=ep.key, target=target.text)
