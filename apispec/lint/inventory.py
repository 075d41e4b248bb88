"""`apispec lint --show-calls`: the inventory of API v2 calls the linter found.

A user who wonders why a call is (or is not) reported needs to see what the
linter saw: every call with its method, the path as written, the registry
endpoint it matched and that endpoint's maturity in the target, and why the
text counts as a call. Like ruff's `--show-files` or pluto's file list, it
replaces the findings report; text for people, JSON for scripts.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from apispec.support.printable import printable, unicode_safe

if TYPE_CHECKING:
    from apispec.lint.engine import LintResult

FORMATS = ("text", "json")


def render(fmt: str, result: LintResult) -> str:
    """The calls of `result` (linted with `show_calls`) in `fmt` (text or json), and the
    files that could not be checked: an inventory that left one out would look complete."""
    unchecked = [s for s in result.skipped if s.not_checked]
    if fmt == "json":
        calls: list[dict[str, Any]] = [
            {
                "path": unicode_safe(c.path),
                "line": c.line,
                "column": c.column,
                "method": c.method,
                "call": c.call,
                "endpoint": c.endpoint,
                "maturity": c.maturity,
                "evidence": c.evidence,
            }
            for c in result.calls
        ]
        summary = {"files": result.files, "targets": list(result.targets), "calls": len(calls)}
        not_checked = [
            {"path": unicode_safe(s.path), "reason": unicode_safe(s.reason)} for s in unchecked
        ]
        document = {"calls": calls, "not_checked": not_checked, "summary": summary}
        return json.dumps(document, indent=2) + "\n"
    lines = []
    for c in result.calls:
        method = c.method or "-"
        matched = f"{c.endpoint} ({c.maturity})" if c.endpoint else c.maturity
        lines.append(
            f"{printable(c.path)}:{c.line}:{c.column}: {method} {c.call} -> {matched}"
            f"  [{c.evidence}]"
        )
    files = len({c.path for c in result.calls})
    target = result.targets[0] if result.targets else ""
    lines.append(
        f"{len(result.calls)} call{'s' if len(result.calls) != 1 else ''} in {files} "
        f"file{'s' if files != 1 else ''} ({result.files} linted; maturity for {target})"
    )
    lines.extend(f"{printable(s.path)}: not checked: {printable(s.reason)}" for s in unchecked)
    return "\n".join(lines) + "\n"
