"""`--format markdown` (or `md`): the full report's tables for a pull request or a job summary.

Every cell from the log is escaped to read literally (`markdown_cell`).
"""

from __future__ import annotations

from apispec.runtime.report.model import (
    Report,
    bounds,
    groups,
    headline,
    plural,
    request_notes,
    table,
)
from apispec.support.printable import markdown_cell as cell


def _table(headers: list[str], rows: list[list[str]]) -> list[str]:
    lines = ["| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return lines


def render(report: Report) -> str:
    lines = [f"## {report.command}", "", cell(headline(report)) + ".", ""]
    lines.append(f"Target: {cell(', '.join(report.targets))}.")
    lines += [f"\n> {cell(note)}" for note in bounds(report)]
    join = report.join
    for group in groups(report):
        lines += [
            "",
            f"### {cell(group.title)}: {plural(len(group.endpoints), 'endpoint')}, "
            f"{plural(group.requests, 'request')}",
            "",
        ]
        columns, rows, notes = table(report, group, cell)
        lines += _table([c.capitalize() for c in columns], rows)
        if notes:
            lines += ["", *(f"- **{code}** {message}" for code, message in notes)]
    found = request_notes(report)
    if found:
        lines += ["", f"### Findings on requests: {plural(len(found), 'finding')}", ""]
        lines += _table(
            ["Code", "Severity", "Method", "Endpoint", "Client", "Requests", "Message"],
            [
                [
                    note.code,
                    note.severity,
                    endpoint.verdict.key[0],
                    cell(endpoint.verdict.key[1]),
                    cell(client),
                    f"{count:,}",
                    cell(note.message),
                ]
                for endpoint, client, note, count in found
            ],
        )
    if join is not None:
        lines += [
            "",
            f"### Seen at runtime, no call site explains them: {len(join.unexplained):,}",
            "",
        ]
        lines += [f"- {method} {cell(path)}" for method, path in join.unexplained]
        lines += ["", f"### Call sites never seen at runtime: {len(join.never_seen):,}", ""]
        lines += [
            f"- {cell(site.place)} {site.method or '-'} {cell(site.endpoint or site.call)}"
            for site in join.never_seen
        ]
    return "\n".join(lines) + "\n"
