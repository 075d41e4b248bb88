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
The path does not match any endpoint the registry knows. Where a registry path is
a close match (a likely typo) the message offers it and the finding is a warning;
otherwise it is reported as info. It is never an error by default: the spec says its
list of stable endpoints is incomplete, and real servers answer paths it does not
name (`/health`, `/version`, `/devices/{id}/scan`, ...).
""",
    'curl -H "Authorization: Bearer $TOKEN" "https://mon:1616/api/v2/experimental/device"',
    use_instead='curl -H "Authorization: Bearer $TOKEN" "https://mon:1616/api/v2/experimental/devices"',
)


def check(call: Call) -> Finding | None:
    found = call.found
    if found.template is not None:
        return None
    ref = call.ref
    shown = f"{ref.method} {ref.path}" if ref.method else ref.path
    hint = f" (did you mean {found.suggestions[0]}?)" if found.suggestions else ""
    if found.likely_typo:
        return call.at(META, f"{shown} is not in the registry{hint}")
    message = f"{shown} is not in the registry{hint}; your server may still answer it"
    return call.at(META, message, severity=Severity.INFO)
