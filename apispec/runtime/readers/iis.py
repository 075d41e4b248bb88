"""IIS (and other W3C extended) logs: `#Fields:` names the columns of the lines after it.

    #Fields: date time s-ip cs-method cs-uri-stem cs-uri-query s-port cs-username c-ip cs(User-Agent) sc-status
    2024-10-10 11:55:36 10.0.0.5 GET /api/v2/sensors limit=10 443 - 192.0.2.7 backup.ps1/1.0 200

Fields are separated by spaces, `-` is an empty field, and a User-Agent has its
spaces written as `+`. Times are UTC. A `#Fields:` directive may come again
(IIS writes one after every restart) and changes the columns from there on;
a data line before any is malformed. `--client-field` may name any W3C
field (`cs(X-Client-Id)`, `cs-username`).
"""

from __future__ import annotations

import calendar
from collections.abc import Iterator

from apispec.runtime.readers.options import ADDRESS, AUTO, USER, USER_AGENT, ReadOptions
from apispec.runtime.readers.source import Source, lines
from apispec.runtime.readers.times import LastTime
from apispec.runtime.seen import Bad, Seen, client_name

NAME = "iis"
DESCRIPTION = "IIS W3C extended log"
_FIELDS = b"#Fields:"
_AGENT = "cs(User-Agent)"
_KNOWN = {USER_AGENT: _AGENT, ADDRESS: "c-ip", USER: "cs-username"}


def looks_like(first: bytes) -> bool:
    return first.startswith((b"#Software:", b"#Version:", _FIELDS, b"#Date:"))


def _w3c_time(text: str) -> float | None:
    """`2024-10-10 11:55:36` (the date and time fields joined), UTC."""
    try:
        return calendar.timegm(
            (
                int(text[0:4]),
                int(text[5:7]),
                int(text[8:10]),
                int(text[11:13]),
                int(text[14:16]),
                int(text[17:19]),
            )
        )
    except (ValueError, IndexError, OverflowError):
        return None


def read(source: Source, options: ReadOptions) -> Iterator[Seen | Bad]:
    when = LastTime(_w3c_time)
    columns: dict[str, int] | None = None
    for number, raw in lines(source.chunks()):
        if raw is None:
            yield Bad(number, "line longer than 1 MB")
            continue
        if raw.startswith(b"#"):
            if raw.startswith(_FIELDS):
                names = raw[len(_FIELDS) :].decode("latin-1").split()
                columns = {name: i for i, name in enumerate(names)}
            continue
        if not raw.strip():
            continue
        if columns is None:
            yield Bad(number, "a log line before any #Fields: directive")
            continue
        values = raw.decode("utf-8", "surrogateescape").split(" ")
        if len(values) != len(columns):
            yield Bad(number, f"{len(values)} fields where #Fields: names {len(columns)}")
            continue
        yield _seen(values, columns, options.client, when)


def _seen(values: list[str], columns: dict[str, int], client: str, when: LastTime) -> Seen:
    def field(name: str) -> str | None:
        at = columns.get(name)
        if at is None:
            return None
        value = values[at]
        return None if value == "-" else value

    method, stem = field("cs-method"), field("cs-uri-stem")
    if method is None or stem is None:
        return Seen("-", "", None, None, "-")
    query = field("cs-uri-query")
    status = field("sc-status")
    date, time = field("date"), field("time")
    if client == AUTO:
        agent = field(_AGENT)
        name = agent.replace("+", " ") if agent else field("c-ip")
    else:
        name = field(_KNOWN.get(client, client))
        if name is not None and client in (USER_AGENT, _AGENT):
            name = name.replace("+", " ")
    return Seen(
        method.upper(),
        stem + "?" + query if query else stem,
        int(status) if status and status.isdigit() else None,
        when(f"{date} {time}") if date and time else None,
        client_name(name),
        field("x-request-id") or field("cs(X-Request-Id)") or field("sc(X-Request-Id)"),
    )
