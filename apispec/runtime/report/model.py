"""What every traffic report shows, computed once: the groups by verdict, successors, counts.

Each output format is a function of a `Report`; the grouping (by the rule that
owns each endpoint's verdict, worst first) and the successor text are made
here, so the formats cannot disagree about them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple

from apispec.lint.finding import Severity
from apispec.lint.rules import BY_CODE
from apispec.registry.model import Registry
from apispec.runtime.aggregate import EndpointStats, Pair, Tally
from apispec.runtime.calls import Join
from apispec.runtime.matching import Note
from apispec.runtime.seen import iso_time


@dataclass
class Report:
    tally: Tally
    registry: Registry
    targets: tuple[str, ...]
    join: Join | None = None
    target_default: str | None = None  # why the target was chosen, when nobody named it
    command: str = "apispec traffic"  # whose report it is (the proxy prints one when it stops)


class Group(NamedTuple):
    """Endpoints whose verdict one rule owns (code None: no finding about the endpoint)."""

    code: str | None
    endpoints: list[EndpointStats]

    @property
    def title(self) -> str:
        if self.code is None:
            return "no finding"
        return f"{self.code} {BY_CODE[self.code].name}"

    @property
    def requests(self) -> int:
        return sum(e.requests for e in self.endpoints)


def owner(endpoint: EndpointStats) -> Note | None:
    """The endpoint's finding that decides its group: the most severe, then the lowest code."""
    notes = endpoint.verdict.notes
    if not notes:
        return None
    return min(notes, key=lambda n: (-Severity(n.severity).rank, n.code))


def groups(report: Report) -> list[Group]:
    """Endpoints grouped by verdict, the most severe group first; in a group, busiest first."""
    by_code: dict[str | None, list[EndpointStats]] = {}
    for endpoint in report.tally.endpoints.values():
        note = owner(endpoint)
        by_code.setdefault(note.code if note else None, []).append(endpoint)
    ordered = []
    for code, endpoints in by_code.items():
        endpoints.sort(key=lambda e: (-e.requests, e.verdict.key))
        ordered.append(Group(code, endpoints))

    def rank(group: Group) -> tuple[int, str]:
        if group.code is None:
            return (1, "")
        notes = [note for e in group.endpoints if (note := owner(e)) is not None]
        worst = max(Severity(note.severity).rank for note in notes)
        return (-worst, group.code)

    return sorted(ordered, key=rank)


def successor(endpoint: EndpointStats) -> str | None:
    """The endpoint's successor as the registry states it (an endpoint, or `none planned`)."""
    found = endpoint.verdict.endpoint
    if found is None or found.successor is None:
        return None
    return found.successor.text


def clients(endpoint: EndpointStats) -> list[tuple[str, Pair]]:
    """The endpoint's clients, the busiest first."""
    return sorted(endpoint.pairs.items(), key=lambda item: (-item[1].requests, item[0]))


def statuses(pair: Pair) -> str:
    """`200:30 404:2`: each status and its count, the most frequent first (`-`: not logged)."""
    ordered = sorted(pair.statuses.items(), key=lambda item: (-item[1], item[0] or 0))
    return " ".join(f"{status if status is not None else '-'}:{n}" for status, n in ordered)


# The columns of a verdict table (the full and markdown reports), in order; CALL SITES
# only with --calls.
COLUMNS = (
    "METHOD",
    "ENDPOINT",
    "CLIENT",
    "REQUESTS",
    "FIRST SEEN",
    "LAST SEEN",
    "STATUSES",
    "REQUEST ID",
    "SUCCESSOR",
)
CALL_SITES = "CALL SITES"


def table(
    report: Report, group: Group, escape: Callable[[str], str]
) -> tuple[list[str], list[list[str]], list[tuple[str, str]]]:
    """A verdict table: column names, one row per endpoint and client (`-` for nothing,
    text from the log through `escape`), and the endpoints' findings as (code, message)
    with the target in the code's place when there are several targets."""
    join = report.join
    several = len(report.targets) > 1
    rows = []
    notes: dict[tuple[str, str], None] = {}
    for endpoint in group.endpoints:
        method, path = endpoint.verdict.key
        for client, pair in clients(endpoint):
            row = [
                method,
                escape(path),
                escape(client),
                f"{pair.requests:,}",
                iso_time(pair.first) or "-",
                iso_time(pair.last) or "-",
                statuses(pair),
                escape(pair.request_id or "-"),
                escape(successor(endpoint) or "-"),
            ]
            if join is not None:
                row.append(str(len(join.sites.get(endpoint.verdict.key, ()))))
            rows.append(row)
        for note in endpoint.verdict.notes:
            code = f"{note.code} ({note.target})" if several and note.target else note.code
            notes[(code, escape(note.message))] = None
    columns = [*COLUMNS, CALL_SITES] if join is not None else list(COLUMNS)
    return columns, rows, list(notes)


def request_notes(report: Report) -> list[tuple[EndpointStats, str, Note, int]]:
    """(endpoint, client, finding, requests) for every finding on requests, worst first."""
    found = []
    for endpoint in report.tally.endpoints.values():
        for client, pair in endpoint.pairs.items():
            for note, count in pair.notes.items():
                found.append((endpoint, client, note, count))
    found.sort(key=lambda r: (-r[2].rank, r[2].code, r[0].verdict.key, -r[3], r[1]))
    return found


def plural(count: int, word: str) -> str:
    return f"{count:,} {word}{'' if count == 1 else 's'}"


def headline(report: Report) -> str:
    """One sentence: requests read, how many were API v2, what was skipped."""
    tally = report.tally
    inputs = ", ".join(f"{i.name} ({i.format})" for i in tally.inputs)
    text = (
        f"{plural(tally.requests, 'request')} read from {inputs or 'no input'}: "
        f"{tally.api:,} API v2, {tally.not_api:,} not API v2"
    )
    if tally.malformed:
        text += f"; {plural(tally.malformed, 'malformed line')} skipped"
    return text


def bounds(report: Report) -> list[str]:
    """What the memory bounds folded together, if anything (see apispec.runtime.aggregate)."""
    tally = report.tally
    notes = []
    if tally.clients_capped:
        notes.append("more clients than the report keeps: the rest are counted as (other clients)")
    if tally.paths_capped:
        notes.append(
            "more unknown paths than the report keeps: the rest are counted as "
            "(other unknown paths)"
        )
    return notes
