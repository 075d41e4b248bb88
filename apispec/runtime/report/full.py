"""`--format full`: a table per verdict, one row per endpoint and client, for people.

    API002 deprecated-endpoint: 1 endpoint, 40 requests
    METHOD  ENDPOINT                CLIENT          REQUESTS  FIRST SEEN            LAST SEEN             STATUSES  REQUEST ID  SUCCESSOR
    ------  ----------------------  --------------  --------  --------------------  --------------------  --------  ----------  ---------------
    GET     /sensors/{id}/overview  backup.ps1/1.0  30        2024-10-10T11:55:36Z  2024-10-10T12:01:02Z  200:30    8c1e...     GET /sensors/{id}
      API002 GET /sensors/{id}/overview is deprecated since 24.3.100 (...); use GET /sensors/{id}

Everything from the log (clients, paths, request ids) is escaped for the
terminal: a log line can hold any byte.
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
from apispec.support.printable import printable
from apispec.support.text_table import render_table


def render(report: Report) -> str:
    lines = [f"{report.command}: {headline(report)}"]
    target = ", ".join(report.targets)
    lines.append(
        f"target: {target}"
        + (f" (default: {report.target_default})" if report.target_default else "")
    )
    lines += [f"note: {note}" for note in bounds(report)]
    for group in groups(report):
        lines += ["", f"{group.title}: {plural(len(group.endpoints), 'endpoint')}, "
                  f"{plural(group.requests, 'request')}"]  # fmt: skip
        columns, rows, notes = table(report, group, printable)
        lines.append(render_table(columns, rows))
        lines += [f"  {code} {message}" for code, message in notes]
    found = request_notes(report)
    if found:
        lines += ["", f"findings on requests: {plural(len(found), 'finding')}"]
        rows = [
            [
                note.code,
                note.severity,
                endpoint.verdict.key[0],
                printable(endpoint.verdict.key[1]),
                printable(client),
                f"{count:,}",
                printable(note.message),
            ]
            for endpoint, client, note, count in found
        ]
        lines.append(
            render_table(
                ("CODE", "SEVERITY", "METHOD", "ENDPOINT", "CLIENT", "REQUESTS", "MESSAGE"), rows
            )
        )
    if report.join is not None:
        lines += _gap(report)
    return "\n".join(lines) + "\n"


def _gap(report: Report) -> list[str]:
    join = report.join
    assert join is not None
    endpoints = report.tally.endpoints
    lines = [
        "",
        f"calls in code ({printable(join.source)}): "
        f"{plural(sum(len(s) for s in join.sites.values()), 'call site')} explain "
        f"{plural(len(join.sites), 'endpoint')} seen at runtime",
        "",
        f"seen at runtime, no call site explains them: {len(join.unexplained):,}",
    ]
    for key in join.unexplained:
        stats = endpoints[key]
        lines.append(
            f"  {key[0]} {printable(key[1])} ({plural(stats.requests, 'request')}, "
            f"{plural(len(stats.pairs), 'client')})"
        )
    lines += ["", f"call sites never seen at runtime: {len(join.never_seen):,}"]
    for site in join.never_seen:
        shown = site.endpoint or site.call
        lines.append(f"  {printable(site.place)} {site.method or '-'} {printable(shown)}")
    return lines
