"""`--format json`: every endpoint with its verdict and its clients, for scripts.

    {"summary": {...}, "targets": [...], "endpoints": [{"method", "endpoint",
     "maturity", "successor", "findings": [...], "requests", "clients": [{"client",
     "requests", "first_seen", "last_seen", "statuses", "example_request_id",
     "findings": [...]}], "call_sites": [...]}], "calls": {...}}

Endpoints come in the order of the full report (worst verdict first). Text from
the log is kept as it was (undecodable bytes escaped, so the output is strict
UTF-8 JSON).
"""

from __future__ import annotations

import json
from typing import Any

from apispec.runtime.aggregate import EndpointStats
from apispec.runtime.calls import CallSite
from apispec.runtime.matching import Note
from apispec.runtime.report.model import Report, bounds, clients, groups, successor
from apispec.runtime.seen import iso_time
from apispec.support.printable import unicode_safe


def render(report: Report) -> str:
    tally = report.tally
    join = report.join
    data: dict[str, Any] = {
        "summary": {
            "requests": tally.requests,
            "api_requests": tally.api,
            "not_api_requests": tally.not_api,
            "malformed_lines": tally.malformed,
            "endpoints": len(tally.endpoints),
            "pairs": tally.pairs,
            "inputs": [
                {
                    "name": unicode_safe(i.name),
                    "format": i.format,
                    "requests": i.requests,
                    "malformed_lines": i.malformed,
                    "damaged": i.damaged,
                }
                for i in tally.inputs
            ],
            "bounds": bounds(report),
        },
        "targets": list(report.targets),
        "endpoints": [
            _endpoint(endpoint, report) for group in groups(report) for endpoint in group.endpoints
        ],
    }
    if join is not None:
        data["calls"] = {
            "source": unicode_safe(join.source),
            "unexplained": [
                {"method": method, "endpoint": unicode_safe(path)}
                for method, path in join.unexplained
            ],
            "never_seen": [_site(site) for site in join.never_seen],
        }
    return json.dumps(data, indent=2) + "\n"


def _endpoint(endpoint: EndpointStats, report: Report) -> dict[str, Any]:
    verdict = endpoint.verdict
    method, path = verdict.key
    found: dict[str, Any] = {
        "method": method,
        "endpoint": unicode_safe(path),
        "known": verdict.endpoint is not None,
        "maturity": verdict.maturity,
        "successor": successor(endpoint),
        "findings": [_note(n) for n in verdict.notes],
        "requests": endpoint.requests,
        "clients": [
            {
                "client": unicode_safe(client),
                "requests": pair.requests,
                "first_seen": iso_time(pair.first),
                "last_seen": iso_time(pair.last),
                "statuses": {
                    str(status) if status is not None else "-": count
                    for status, count in sorted(
                        pair.statuses.items(), key=lambda item: item[0] or 0
                    )
                },
                "example_request_id": unicode_safe(pair.request_id) if pair.request_id else None,
                "findings": [
                    {**_note(note), "requests": count} for note, count in pair.notes.items()
                ],
                "more_findings": pair.more_notes,
            }
            for client, pair in clients(endpoint)
        ],
    }
    if report.join is not None:
        found["call_sites"] = [_site(s) for s in report.join.sites.get(verdict.key, ())]
    return found


def _note(note: Note) -> dict[str, Any]:
    return {
        "code": note.code,
        "severity": note.severity,
        "message": unicode_safe(note.message),
        "target": note.target,
    }


def _site(site: CallSite) -> dict[str, Any]:
    return {
        "path": unicode_safe(site.path),
        "line": site.line,
        "column": site.column,
        "method": site.method,
        "call": unicode_safe(site.call),
        "endpoint": site.endpoint,
    }
