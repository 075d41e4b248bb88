"""API004 unknown-path: the call's path matches no endpoint of the registry."""

from __future__ import annotations

from apispec.lint.finding import Finding, Severity
from apispec.lint.rules.context import Call
from apispec.lint.rules.meta import Rule

META = Rule(
    "API004",
    "unknown-path",
    Severity.WARNING,
    "The API v2 path is not in the registry.",
    """
The path does not match any endpoint the registry knows. Where the path is a likely
typo of a registry path the message offers it ("did you mean") and the finding is a
warning; otherwise it is reported as info, without a suggestion. A likely typo is one
segment written slightly wrong (`devcies`), a singular for a plural or the reverse
(`metascans`, `template`), or the `/experimental` prefix added or left out
(`/groups/{id}/devices`); an unrelated path (`/experimental/schemas/{id}` is not
`/experimental/users/{id}`) is never suggested. It is never an error by default: the
spec says its list of stable endpoints is incomplete, and real servers answer paths it
does not name (`/health`, `/version`, `/devices/{id}/scan`, ...).
""",
    'curl -H "Authorization: Bearer $TOKEN" "https://mon:1616/api/v2/experimental/device"',
    use_instead='curl -H "Authorization: Bearer $TOKEN" "https://mon:1616/api/v2/experimental/devices"',
)


def check(call: Call) -> Finding | None:
    found = call.found
    if found.template is not None:
        return None
    ref = call.ref
    path = call.shown_path
    shown = f"{ref.method} {path}" if ref.method else path
    if found.likely_typo:
        hint = " or ".join(found.suggestions)
        return call.at(META, f"{shown} is not in the registry (did you mean {hint}?)")
    message = f"{shown} is not in the registry; your server may still answer it"
    return call.at(META, message, severity=Severity.INFO)
