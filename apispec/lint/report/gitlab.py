"""`--format gitlab`: a GitLab Code Quality report (a JSON array of issues)."""

from __future__ import annotations

import json
from hashlib import sha256

from apispec.lint.engine import LintResult
from apispec.lint.finding import Severity, Skipped
from apispec.lint.report.view import View
from apispec.support.printable import unicode_safe

_SEVERITY = {Severity.ERROR: "major", Severity.WARNING: "minor", Severity.INFO: "info"}


def render(result: LintResult, view: View | None = None) -> str:
    issues: list[dict[str, object]] = [
        {
            "type": "issue",
            "check_name": f.code,
            "description": unicode_safe(
                f"{f.code} {f.message}" + (f" [{f.target}]" if f.target else "")
            ),
            "categories": ["Compatibility"],
            "severity": _SEVERITY[f.severity],
            "fingerprint": f.fingerprint,
            "location": {
                "path": unicode_safe(f.path),
                "lines": {"begin": f.line, "end": f.end_line},
            },
        }
        for f in result.findings
    ]
    issues.extend(_not_checked(s) for s in result.skipped if s.not_checked)
    return json.dumps(issues) + "\n"


def _not_checked(s: Skipped) -> dict[str, object]:
    """A file nobody checked: an issue of its own, so the merge request shows it."""
    path = unicode_safe(s.path)
    return {
        "type": "issue",
        "check_name": "not-checked",
        "description": unicode_safe(f"{s.path}: {s.reason}"),
        "categories": ["Compatibility"],
        "severity": "critical",
        "fingerprint": sha256(f"not-checked\0{path}".encode()).hexdigest()[:32],
        "location": {"path": path, "lines": {"begin": 1, "end": 1}},
    }
