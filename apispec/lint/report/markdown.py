"""`--format markdown`: a report to paste into a pull-request comment or a job summary.

Every cell is text from the linted tree (file names, paths, filter values), so
each is escaped to read literally: a `|` cannot end a cell, `<script>` stays
text, a `*` or backtick starts no emphasis or code span.
"""

from __future__ import annotations

from apispec.lint.engine import LintResult
from apispec.lint.finding import Applicability
from apispec.lint.report.grouped import grouped
from apispec.lint.report.text import not_checked, plural
from apispec.lint.report.view import View
from apispec.lint.rules import BY_CODE
from apispec.support.printable import markdown_cell as cell

_FIX = {
    Applicability.SAFE: "safe",
    Applicability.UNSAFE: "unsafe",
    Applicability.DISPLAY_ONLY: "by hand",
}


def render(result: LintResult, view: View | None = None) -> str:
    groups = grouped(result)
    several = len(result.targets) > 1
    checked = f"{plural(result.files, 'file')} checked against {', '.join(result.targets)}"
    if result.upgrade_from:
        checked = (
            f"{plural(result.files, 'file')} checked for an upgrade from "
            f"{result.upgrade_from} to {', '.join(result.targets)}"
        )
    if result.target_default:
        checked += f" (default: {result.target_default})"
    lines = ["## apispec lint", ""]
    unchecked = sum(s.not_checked for s in result.skipped)
    if unchecked:  # never "No findings" over a file nobody checked
        lines += [f"**{plural(unchecked, 'file')} could not be checked** (listed below).", ""]
    if not groups:
        missed = not_checked(result)
        if unchecked:
            done = "The files checked have no findings"
        else:
            done = "No findings in the files checked" if missed else "No findings"
        lines.append(f"{done}; {cell(checked)}{'; ' + missed if missed else ''}.")
    else:
        counts = {s: sum(g.finding.severity == s for g in groups) for s in ("error", "warning")}
        info = len(groups) - counts["error"] - counts["warning"]
        parts = [plural(n, s) for s, n in counts.items() if n] + ([f"{info} info"] if info else [])
        files = len({g.finding.path for g in groups})
        lines.append(
            f"**{plural(len(groups), 'finding')}** ({', '.join(parts)}) in "
            f"{plural(files, 'file')}; {cell(checked)}."
        )
        head = ["Severity", "Rule", "Location", "Message", "Fix"] + (["Targets"] if several else [])
        lines += ["", "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
        for f, targets in groups:
            rule = BY_CODE[f.code]
            row = [
                str(f.severity),
                f"[{f.code} {rule.name}]({rule.help_uri})",
                cell(f"{f.path}:{f.line}:{f.column}"),
                cell(f.message),
                _FIX[f.fix.applicability] if f.fix else "",
            ]
            if several:
                row.append(cell(", ".join(targets)))
            lines.append("| " + " | ".join(row) + " |")
    if result.skipped:
        lines += ["", f"Skipped {plural(len(result.skipped), 'file')}:", ""]
        lines += [f"- {cell(s.path)}: {cell(s.reason)}" for s in result.skipped]
    return "\n".join(lines) + "\n"
