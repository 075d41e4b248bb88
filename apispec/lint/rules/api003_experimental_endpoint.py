"""API003 experimental-endpoint: the call names an endpoint without a stability promise."""

from __future__ import annotations

from apispec.lint.finding import Finding, Severity
from apispec.lint.rules.context import Call
from apispec.lint.rules.meta import Rule
from apispec.model import Endpoint, Maturity
from apispec.releases import Release

META = Rule(
    "API003",
    "experimental-endpoint",
    Severity.WARNING,
    "The endpoint is experimental and may change incompatibly between releases.",
    """
Endpoints under `/experimental` are not covered by the stability promise: their
paths, parameters and payloads may change in any release. Pin the server release
your script is tested against, or suppress the finding where you accept the risk
(`# apispec: ignore[API003]`).
""",
    "fetch(`${api}/experimental/devices?limit=100`)",
    use_instead=(
        "fetch(`${api}/experimental/devices?limit=100`)  "
        "// apispec: ignore[API003] tested against 25.x.122"
    ),
    per_target=True,
)


def applies(ep: Endpoint, target: Release) -> bool:
    return ep.is_experimental_path or ep.maturity == Maturity.EXPERIMENTAL


def check(call: Call, ep: Endpoint, target: Release) -> Finding:
    message = f"{ep} is experimental and may change incompatibly in any release"
    return call.at(META, message, endpoint=ep.key, target=target.text)
