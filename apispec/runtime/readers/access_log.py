"""nginx and Apache access logs: the combined and the common log format.

    192.0.2.7 - alice [10/Oct/2024:13:55:36 +0200] "GET /api/v2/sensors?limit=10 HTTP/1.1" 200 512 "-" "backup.ps1/1.0"

Common is the first seven fields; combined adds the referrer and the
User-Agent. Fields a site appends after those (request time, upstream address,
`$request_id`) are allowed and ignored. Quotes inside a quoted field are
escaped as `\\"` (Apache) or `\\x22` (nginx). A line whose request is not
`METHOD TARGET PROTOCOL` (`"-"` for a connection closed without a request, a
TLS handshake sent to the plain port) is a request that is not API v2, not a
malformed line: the server wrote it on purpose.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from apispec.runtime.readers.options import ADDRESS, AUTO, USER, USER_AGENT, ReadOptions
from apispec.runtime.readers.source import Source, lines
from apispec.runtime.readers.times import LastTime, common_log
from apispec.runtime.seen import Bad, Seen, client_name
from apispec.support.exceptions import UsageError

NAME = "combined"
DESCRIPTION = "access log (combined or common format)"
_QUOTED = rb'"((?:[^"\\]|\\.)*)"'
LINE = re.compile(
    rb"(\S+) \S+ (\S+) \[([^\]]*)\] " + _QUOTED + rb" (\d{3}|-) (\S+)"
    rb"(?: " + _QUOTED + rb" " + _QUOTED + rb")?"
)
_REQUEST = re.compile(r"([A-Za-z]+) (\S+)(?: \S+)?")


def looks_like(first: bytes) -> bool:
    return LINE.match(first) is not None


def _client_group(client: str) -> int:
    """The regex group of the client field (0: the User-Agent, else the address)."""
    groups = {USER_AGENT: 8, ADDRESS: 1, USER: 2, AUTO: 0}
    if client not in groups:
        raise UsageError(
            f"--client-field {client}: an access log names clients by {USER_AGENT}, "
            f"{ADDRESS} or {USER}"
        )
    return groups[client]


def read(source: Source, options: ReadOptions) -> Iterator[Seen | Bad]:
    group = _client_group(options.client)
    when = LastTime(common_log)
    for number, raw in lines(source.chunks()):
        if raw is None:
            yield Bad(number, "line longer than 1 MB")
            continue
        if not raw:
            continue
        found = LINE.match(raw)
        if found is None:
            yield Bad(number, "not an access log line (combined or common format)")
            continue
        request = _text(found[4])
        parts = _REQUEST.fullmatch(request)
        if parts is None:  # "-", or bytes that were never HTTP: not a request of the API
            yield Seen("-", "", None, None, "-")
            continue
        status = found[5]
        if group == 0:
            agent = found[8]
            chosen = agent if agent and agent != b"-" else found[1]
        else:
            chosen = found[group]
        yield Seen(
            parts[1].upper(),
            parts[2],
            int(status) if status != b"-" else None,
            when(found[3].decode("latin-1")),
            client_name(_text(chosen) if chosen is not None else None),
        )


def _text(raw: bytes) -> str:
    """A quoted field as text: escapes undone, bytes that are not UTF-8 kept (surrogates)."""
    if b"\\" in raw:
        raw = re.sub(rb"\\x([0-9A-Fa-f]{2})", lambda m: bytes([int(m[1], 16)]), raw)
        raw = re.sub(rb"\\(.)", rb"\1", raw)
    return raw.decode("utf-8", "surrogateescape")
