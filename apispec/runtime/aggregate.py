"""Counting requests per endpoint and client, in one pass, in bounded memory.

Memory grows with the number of distinct (endpoint, client) pairs, never with
the number of requests: each pair keeps a count, the first and last time, a
count per status, one example request id, and at most MAX_NOTES distinct
request findings (more are counted, not kept). Hostile or merely odd logs
could still make pairs without end (a random User-Agent per request, a
different unknown path per request), so there are two more bounds: past
MAX_PAIRS pairs a new client is counted as OTHER_CLIENTS, and past
MAX_UNKNOWN unknown paths a new one is counted as OTHER_PATHS; the report says
when either happened.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from apispec.runtime.matching import UNKNOWN, Judge, Note, Verdict
from apispec.runtime.seen import Bad, Seen

MAX_PAIRS = 100_000
MAX_UNKNOWN = 1_000
MAX_NOTES = 20  # distinct request findings kept per pair
MAX_EXAMPLES = 10  # malformed lines shown per input
OTHER_CLIENTS = "(other clients)"
OTHER_PATHS = "(other unknown paths)"


class Pair:
    """One client's requests of one endpoint."""

    __slots__ = ("first", "last", "more_notes", "notes", "request_id", "requests", "statuses")

    def __init__(self) -> None:
        self.requests = 0
        self.first: float | None = None
        self.last: float | None = None
        self.statuses: dict[int | None, int] = {}
        self.request_id: str | None = None
        self.notes: dict[Note, int] = {}
        self.more_notes = 0  # request findings past MAX_NOTES, counted only

    def add(self, seen: Seen, notes: tuple[Note, ...]) -> None:
        self.requests += 1
        when = seen.time
        if when is not None:
            if self.first is None or when < self.first:
                self.first = when
            if self.last is None or when > self.last:
                self.last = when
        status = seen.status
        self.statuses[status] = self.statuses.get(status, 0) + 1
        if self.request_id is None and seen.request_id:
            self.request_id = seen.request_id[:100]
        for note in notes:
            if note in self.notes:
                self.notes[note] += 1
            elif len(self.notes) < MAX_NOTES:
                self.notes[note] = 1
            else:
                self.more_notes += 1


@dataclass
class EndpointStats:
    """Every client of one endpoint, and what the rules say about the endpoint."""

    verdict: Verdict
    pairs: dict[str, Pair] = field(default_factory=dict)

    @property
    def requests(self) -> int:
        return sum(p.requests for p in self.pairs.values())


@dataclass
class InputStats:
    """What was read from one input."""

    name: str
    format: str  # the reader's description
    requests: int = 0
    malformed: int = 0
    examples: list[Bad] = field(default_factory=list)  # the first MAX_EXAMPLES malformed lines
    damaged: str | None = None  # why the input ended early (a truncated gzip), if it did


@dataclass
class Tally:
    """Everything counted over all inputs."""

    endpoints: dict[tuple[str, str], EndpointStats] = field(default_factory=dict)
    inputs: list[InputStats] = field(default_factory=list)
    requests: int = 0
    not_api: int = 0
    pairs: int = 0
    unknown_paths: int = 0
    clients_capped: bool = False
    paths_capped: bool = False
    clients_seen: bool = False  # a request named its client (else --client-field found nothing)
    worst: int = -1  # the highest severity rank of any finding

    @property
    def api(self) -> int:
        return self.requests - self.not_api

    @property
    def malformed(self) -> int:
        return sum(i.malformed for i in self.inputs)


class Aggregator:
    """Feeds `Seen` records through a judge into a `Tally`."""

    def __init__(self, judge: Judge) -> None:
        self.judge = judge
        self.tally = Tally()

    def start(self, name: str, fmt: str) -> InputStats:
        stats = InputStats(name, fmt)
        self.tally.inputs.append(stats)
        return stats

    def bad(self, stats: InputStats, bad: Bad) -> None:
        stats.malformed += 1
        if len(stats.examples) < MAX_EXAMPLES:
            stats.examples.append(bad)

    def add(self, stats: InputStats, seen: Seen) -> None:
        self.add_judged(stats, seen, self.judge.judge(seen.method, seen.target, seen.authorization))

    def add_judged(self, stats: InputStats, seen: Seen, verdict: Verdict | None) -> None:
        """Count a request already judged (None: not an API v2 call)."""
        tally = self.tally
        tally.requests += 1
        stats.requests += 1
        if verdict is None:
            tally.not_api += 1
            return
        if verdict.rank > tally.worst:
            tally.worst = verdict.rank
        endpoint = tally.endpoints.get(verdict.key)
        if endpoint is None:
            endpoint = self._new_endpoint(verdict)
        client = seen.client
        if client != "-":
            tally.clients_seen = True
        pair = endpoint.pairs.get(client)
        if pair is None:
            if tally.pairs >= MAX_PAIRS:
                tally.clients_capped = True
                client = OTHER_CLIENTS
                pair = endpoint.pairs.get(client)
            if pair is None:
                pair = endpoint.pairs[client] = Pair()
                tally.pairs += 1
        pair.add(seen, verdict.request_notes)

    def _new_endpoint(self, verdict: Verdict) -> EndpointStats:
        tally = self.tally
        key = verdict.key
        if verdict.maturity == UNKNOWN:
            if tally.unknown_paths >= MAX_UNKNOWN:
                tally.paths_capped = True
                key = (key[0], OTHER_PATHS)
                verdict = verdict._replace(key=key, notes=(), request_notes=())
                if key in tally.endpoints:
                    return tally.endpoints[key]
            else:
                tally.unknown_paths += 1
        stats = tally.endpoints[key] = EndpointStats(verdict)
        return stats
