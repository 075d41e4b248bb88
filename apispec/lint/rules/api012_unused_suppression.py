"""API012 unused-suppression: an `apispec: ignore` comment that suppresses nothing."""

from __future__ import annotations

from apispec.lint.finding import Finding, Severity
from apispec.lint.rules.context import FileContext
from apispec.lint.rules.meta import Rule
from apispec.lint.suppress import Suppressions

META = Rule(
    "API012",
    "unused-suppression",
    Severity.WARNING,
    "A suppression comment suppresses nothing.",
    """
An `apispec: ignore` or `apispec: ignore[CODE,...]` comment on a line without a
matching finding, or a code in the list that is not reported there. Remove it, so
that it does not hide a future finding by accident.
""",
    "r = requests.get(url)  # apispec: ignore[API003]",
    use_instead="r = requests.get(url)",
)


def check(
    file: FileContext, suppressions: Suppressions, used: dict[int, set[str]]
) -> list[Finding]:
    """One finding per suppression line that suppressed nothing (or names an unknown code)."""
    if suppressions.whole_file:  # nothing of the file is reported, this rule included
        return []
    findings = []
    known = file.run.codes
    for line, suppression in suppressions.lines.items():
        hit = used.get(line, set())
        if suppression.codes is None:
            if hit:
                continue
            message = "unused suppression: no finding on this line"
        else:
            unknown = sorted(c for c in suppression.codes if c not in known)
            idle = sorted(c for c in suppression.codes if c in known and c not in hit)
            if not unknown and not idle:
                continue
            parts = []
            if idle:
                parts.append(f"unused suppression of {', '.join(idle)}")
            if unknown:
                parts.append(f"unknown rule code {', '.join(unknown)}")
            message = "; ".join(parts)
        findings.append(
            Finding(
                file.path,
                line,
                suppression.column,
                line,
                suppression.end_column,
                META.code,
                META.severity,
                message,
            )
        )
    return findings
