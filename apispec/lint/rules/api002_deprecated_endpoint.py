"""API002 deprecated-endpoint: the call names an endpoint deprecated in its target release."""

from __future__ import annotations

from apispec.lint.finding import Finding, Fix, Severity
from apispec.lint.fix import build_fix
from apispec.lint.rules.context import Call
from apispec.lint.rules.meta import Rule
from apispec.registry.model import Endpoint, Maturity
from apispec.registry.releases import Release

META = Rule(
    "API002",
    "deprecated-endpoint",
    Severity.WARNING,
    "The endpoint is deprecated in the target release.",
    """
Deprecated endpoints are unsupported and will be removed. The message names the
release that deprecated the endpoint, the release that removes it (or that none is
named yet) and its successor: an endpoint, `none planned` or `to be decided`. When
the successor is not yet available in the target release, the message says so:
keep the old call until you upgrade.
""",
    'Invoke-RestMethod -Uri "$base/api/v2/sensors/$id/overview" -Headers $h',
    use_instead='Invoke-RestMethod -Uri "$base/api/v2/sensors/$id" -Headers $h',
    fix="safe when the successor is stable, unsafe when it is experimental",
    fix_safety="""
`--fix` rewrites the path to the successor when the successor is a path available
in every target release, keeping the original interpolations and quoting. The fix
is safe when the successor is stable (`/sensors/{id}/overview` -> `/sensors/{id}`)
and unsafe when it is experimental (`/devices` -> `/experimental/devices`: the
payload may differ), so it applies only with `--unsafe-fixes`. When the successor
has another method the rewrite is display-only: reports show it, `--fix` never
writes it, because the call's method must change too. Successors `none planned`
and `to be decided` are never touched.
""",
    per_target=True,
)


def applies(ep: Endpoint, target: Release) -> bool:
    return ep.maturity == Maturity.DEPRECATED and (
        ep.deprecated_in is None or ep.deprecated_in <= target
    )


def message(ep: Endpoint, note: str) -> str:
    removal = f"removed in {ep.removed_in}" if ep.removed_in else "no removal release named"
    since = f" since {ep.deprecated_in}" if ep.deprecated_in else ""
    return f"{ep} is deprecated{since} ({removal}){note}"


def check(call: Call, ep: Endpoint, target: Release) -> Finding:
    text = message(ep, call.run.successor_note(ep, target))
    return call.at(META, text, endpoint=ep.key, target=target.text, fix=_fix(call, ep))


def _fix(call: Call, ep: Endpoint) -> Fix | None:
    """The path rewrite to the successor, when it exists in every target."""
    run = call.run
    successor = run.registry.successor_of(ep)
    if successor is None or not all(run.registry.available_in(successor, t) for t in run.targets):
        return None
    fixes = call.file.fixes
    key = (id(call.ref), ep.key)  # the same fix for every target: build it once
    if key not in fixes:
        fixes[key] = build_fix(call.file.text, call.ref, ep, successor)
    return fixes[key]
