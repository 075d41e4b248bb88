"""The default output: `path:line:col: CODE message`, then a grouped summary."""

from __future__ import annotations

from collections import Counter

from apispec.lint.engine import LintResult
from apispec.lint.finding import Applicability, Severity
from apispec.lint.rules import BY_CODE
from apispec.printable import printable


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def finding_line(finding, multiple_targets: bool) -> str:
    target = f" [{finding.target}]" if multiple_targets and finding.target else ""
    message = printable(" ".join(finding.message.splitlines()))  # one finding, one line
    path = printable(finding.path)  # any file name: control characters, undecodable bytes
    return f"{path}:{finding.line}:{finding.column}: {finding.code} {message}{target}"


def render(result: LintResult) -> str:
    lines = [finding_line(f, len(result.targets) > 1) for f in result.findings]
    if lines:
        lines.append("")
    lines.extend(summary(result))
    return "\n".join(lines) + "\n"


def summary(result: LintResult) -> list[str]:
    findings = result.findings
    targets = ", ".join(result.targets)
    scanned = f"{_plural(result.files, 'file')} checked against {targets}"
    if not findings:
        lines = [f"No findings: {scanned}."]
    else:
        severities = Counter(f.severity for f in findings)
        parts = [
            _plural(severities[s], str(s)) if s != Severity.INFO else f"{severities[s]} info"
            for s in (Severity.ERROR, Severity.WARNING, Severity.INFO)
            if severities[s]
        ]
        files = len({f.path for f in findings})
        lines = [
            f"Found {_plural(len(findings), 'finding')} ({', '.join(parts)}) "
            f"in {_plural(files, 'file')}; {scanned}."
        ]
        for code, count in sorted(Counter(f.code for f in findings).items()):
            lines.append(f"  {code}  {count:>5}  {BY_CODE[code].name}")
        safe = sum(1 for f in findings if f.fix and f.fix.applicability is Applicability.SAFE)
        unsafe = sum(1 for f in findings if f.fix and f.fix.applicability is Applicability.UNSAFE)
        if safe:
            more = f" ({unsafe} more with --unsafe-fixes)" if unsafe else ""
            lines.append(f"{_plural(safe, 'finding')} fixable with --fix{more}.")
        elif unsafe:
            lines.append(f"{_plural(unsafe, 'finding')} fixable with --fix --unsafe-fixes.")
    if result.fixed:
        lines.append(f"Fixed {_plural(result.fixed, 'finding')}.")
    if result.skipped:
        lines.append(f"Skipped {_plural(len(result.skipped), 'file')}:")
        lines.extend(f"  {printable(s.path)}: {printable(s.reason)}" for s in result.skipped)
    return lines


def statistics(result: LintResult) -> str:
    """`--statistics`: counts per rule and per endpoint, most frequent first."""
    lines = ["Findings per rule:"]
    for code, count in Counter(f.code for f in result.findings).most_common():
        rule = BY_CODE[code]
        lines.append(f"  {count:>6}  {code}  {rule.name} ({rule.severity})")
    lines.append("Findings per endpoint:")
    per_endpoint = Counter(
        f"{f.endpoint[0]} {f.endpoint[1]}" if f.endpoint else "(no registry endpoint)"
        for f in result.findings
    )
    for endpoint, count in per_endpoint.most_common():
        lines.append(f"  {count:>6}  {endpoint}")
    return "\n".join(lines) + "\n"
