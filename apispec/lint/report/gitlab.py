"""`--format gitlab`: a GitLab Code Quality report (a JSON array of issues)."""

from __future__ import annotations

import json

from apispec.lint.engine import LintResult
from apispec.lint.finding import Severity
from apispec.lint.report.view import View
from apispec.support.printable import unicode_safe

_SEVERITY = {Severity.ERROR: "major", Severity.WARNING: "minor", Severity.INFO: "info"}


def render(result: LintResult, view: View | None = None) -> str:
    issues = [
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
    return json.dumps(issues) + "\n"
