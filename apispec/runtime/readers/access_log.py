"""nginx and Apache access logs: the combined and the common log format.

    192.0.2.7 - alice [10/Oct/2024:13:55:36 +0200] "GET /api/v2/sensors?limit=10 HTTP/1.1" 200 512 "-" "backup.ps1/1.0"

Common is the first seven fields; combined adds the referrer and the
User-Agent. Fields a site appends after those (request time, upstream address,
`$request_id`) are allowed and ignored. Quotes inside a quoted field are
escaped as `\\"` (Apache) or `\\x22` (nginx). A line whose request is not
`METHOD TARGET PROTOCOL` (`"-"` for a connection closed without a request, a
TLS handshake sent to the plain port) is a request that is not API v2, not a
malformed line: the server wrote it on purpose.

Quoted fields are cut with `bytes.find`, not a regular expression: a referrer
of kilobytes (tracking URLs) is common, and a regex walks it character by
character while `find` runs at memory speed.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from apispec.runtime.readers.options import ADDRESS, AUTO, USER, USER_AGENT, ReadOptions
from apispec.runtime.readers.source import Source, lines
from apispec.runtime.readers.times import CommonLogClock
from apispec.runtime.seen import Bad, Seen, client_name
from apispec.support.exceptions import UsageError

NAME = "combined"
DESCRIPTION = "access log (combined or common format)"
_HEAD = re.compile(rb'(\S+) \S+ (\S+) \[([^\]]*)\] "')
_STATUS = re.compile(rb'" (\d{3}|-) \S+')
_REQUEST = re.compile(rb"([A-Za-z]+) (\S+)(?: \S+)?")
_CLIENTS = 10_000  # client names kept decoded (a log repeats a few User-Agents)
_FIELDS = {ADDRESS: 0, USER: 1, USER_AGENT: 5}  # indexes into what `fields` returns


def fields(raw: bytes) -> tuple[bytes, bytes, bytes, bytes, bytes, bytes | None] | None:
    """(address, user, time, request, status, User-Agent or None) of one line; None when it
    is not an access log line."""
    head = _HEAD.match(raw)
    if head is None:
        return None
    end = _closing(raw, head.end())
    if end < 0:
        return None
    status = _STATUS.match(raw, end)
    if status is None:
        return None
    agent = None
    at = status.end()
    if raw.startswith(b' "', at):  # combined: the referrer, then the User-Agent
        referrer_end = _closing(raw, at + 2)
        if referrer_end >= 0 and raw.startswith(b' "', referrer_end + 1):
            agent_end = _closing(raw, referrer_end + 3)
            if agent_end >= 0:
                agent = raw[referrer_end + 3 : agent_end]
    return head[1], head[2], head[3], raw[head.end() : end], status[1], agent


def _closing(raw: bytes, start: int) -> int:
    """Where the quoted field starting at `start` ends (its closing quote), or -1."""
    end = raw.find(b'"', start)
    while end > 0 and raw[end - 1] == 0x5C:  # an escaped quote, if its backslashes are odd
        backslashes = len(raw[start:end]) - len(raw[start:end].rstrip(b"\\"))
        if backslashes % 2 == 0:
            break
        end = raw.find(b'"', end + 1)
    return end


def looks_like(first: bytes) -> bool:
    return fields(first) is not None


def _field_index(client: str) -> int | None:
    """Which field names the client (None: the User-Agent, else the address)."""
    if client == AUTO:
        return None
    if client not in _FIELDS:
        raise UsageError(
            f"--client-field {client}: an access log names clients by {USER_AGENT}, "
            f"{ADDRESS} or {USER}"
        )
    return _FIELDS[client]


def read(source: Source, options: ReadOptions) -> Iterator[Seen | Bad]:
    index = _field_index(options.client)
    when = CommonLogClock()
    names: dict[bytes | None, str] = {}
    for number, raw in lines(source.chunks()):
        if raw is None:
            yield Bad(number, "line longer than 1 MB")
            continue
        if not raw:
            continue
        found = fields(raw)
        if found is None:
            yield Bad(number, "not an access log line (combined or common format)")
            continue
        request, status = found[3], found[4]
        if b"\\" in request:
            request = _text(request).encode("utf-8", "surrogateescape")
        parts = _REQUEST.fullmatch(request)
        if parts is None:  # "-", or bytes that were never HTTP: not a request of the API
            yield Seen("-", "", None, None, "-")
            continue
        chosen: bytes | None
        if index is None:
            agent = found[5]
            chosen = agent if agent and agent != b"-" else found[0]
        else:
            chosen = found[index]
        name = names.get(chosen)
        if name is None:
            if len(names) > _CLIENTS:
                names.clear()
            name = names[chosen] = client_name(_text(chosen) if chosen is not None else None)
        yield Seen(
            parts[1].decode("ascii").upper(),
            parts[2].decode("utf-8", "surrogateescape"),
            int(status) if status != b"-" else None,
            when(found[2]),
            name,
        )


def _text(raw: bytes) -> str:
    """A quoted field as text: escapes undone, bytes that are not UTF-8 kept (surrogates)."""
    if b"\\" in raw:
        raw = re.sub(rb"\\x([0-9A-Fa-f]{2})", lambda m: bytes([int(m[1], 16)]), raw)
        raw = re.sub(rb"\\(.)", rb"\1", raw)
    return raw.decode("utf-8", "surrogateescape")
