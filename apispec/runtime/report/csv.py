"""`--format csv`: one row per endpoint and client, for a spreadsheet.

A cell holding text from the log (a client, a path, a request id) could start
with `=` and run as a formula: such cells read as text (`spreadsheet_cell`).
"""

from __future__ import annotations

import csv
import io

from apispec.runtime.report.model import Report, clients, groups, owner, statuses, successor
from apispec.runtime.seen import iso_time
from apispec.support.printable import spreadsheet_cell

HEADER = (
    "method",
    "endpoint",
    "maturity",
    "verdict",
    "client",
    "requests",
    "first_seen",
    "last_seen",
    "statuses",
    "example_request_id",
    "successor",
    "findings",
    "request_findings",
)


def render(report: Report) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    join = report.join
    writer.writerow([*HEADER, "call_sites"] if join is not None else HEADER)
    for group in groups(report):
        for endpoint in group.endpoints:
            verdict = endpoint.verdict
            method, path = verdict.key
            decided = owner(endpoint)
            codes = " ".join(dict.fromkeys(n.code for n in verdict.notes))
            for client, pair in clients(endpoint):
                row = [
                    method,
                    spreadsheet_cell(path),
                    verdict.maturity,
                    decided.code if decided else "",
                    spreadsheet_cell(client),
                    pair.requests,
                    iso_time(pair.first) or "",
                    iso_time(pair.last) or "",
                    statuses(pair),
                    spreadsheet_cell(pair.request_id or ""),
                    successor(endpoint) or "",
                    codes,
                    " ".join(dict.fromkeys(n.code for n in pair.notes)),
                ]
                if join is not None:
                    row.append(" ".join(s.place for s in join.sites.get(verdict.key, ())))
                writer.writerow(row)
    return out.getvalue()
