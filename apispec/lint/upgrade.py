"""`--upgrade-from A --target B`: only what changes for the code when the server moves from A to B.

The question kubent answers before a cluster upgrade: what breaks, what to plan
for. The run lints every call against both releases; a finding in B that A did
not have at the same place, with the same rule and message, is a change (newly
removed, newly deprecated, advice that changed because a successor appeared). A
call that A could not make (API005) and B can is newly available, reported as
info under API005's code (saying so when the endpoint is experimental, instead of
a separate API003). Findings that do not depend on the release are the same on both sides and
are left out.
"""

from __future__ import annotations

from hashlib import sha256

from apispec.lint.finding import Finding, Severity
from apispec.registry.model import Registry

_NOT_YET = "API005"
_REMOVED = "API001"
_EXPERIMENTAL = "API003"


def changes(findings: list[Finding], before: str, after: str, registry: Registry) -> list[Finding]:
    """The findings of target `after` that target `before` did not have, and the calls
    that become available; each with target `after`, in report order."""
    known = {_same(f) for f in findings if f.target == before}
    unavailable = {_site(f): f for f in findings if f.target == before and f.code == _NOT_YET}
    blocked_after = {
        _site(f) for f in findings if f.target == after and f.code in (_NOT_YET, _REMOVED)
    }
    available = {site for site in unavailable if site not in blocked_after}
    changed = [
        f
        for f in findings
        if f.target == after
        and _same(f) not in known
        # the news about a call that starts to work is that it works (and is experimental)
        and not (f.code == _EXPERIMENTAL and _site(f) in available)
    ]
    changed += [_available(unavailable[site], after, registry) for site in available]
    return sorted(changed, key=lambda f: f.sort_key)


def _site(f: Finding) -> tuple[object, ...]:
    return (f.path, f.line, f.column, f.endpoint)


def _same(f: Finding) -> tuple[object, ...]:
    return (f.path, f.line, f.column, f.endpoint, f.code, f.message)


def _available(old: Finding, after: str, registry: Registry) -> Finding:
    """The API005 finding of the old release turned into news: the call works in `after`."""
    assert old.endpoint is not None
    endpoint = registry.find(*old.endpoint)
    since = endpoint.since.text if endpoint and endpoint.since else None
    # the release it appears in, which may lie between the two: never "becomes available
    # in the target" for an endpoint an earlier step of the upgrade brings
    if since is None or since == after:
        when = f"in {after}"
    else:
        when = f"in {since}, on the way to {after}"
    risky = "; it is experimental" if endpoint and endpoint.is_experimental_path else ""
    method, path = old.endpoint
    new = old.with_(
        severity=Severity.INFO,
        message=f"{method} {path} becomes available {when}{risky}",
        target=after,
        fix=None,
    )
    new.line_text = old.line_text
    new.fingerprint = sha256(f"{old.fingerprint}\0available\0{after}".encode()).hexdigest()[:32]
    return new
