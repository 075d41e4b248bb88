"""`apispec mock --log`: `GET /api/v2/sensors?limit=10 200 1.3 ms [CODE [FLT...]]`.

The lines have no time and no client (the mock is one person's test server), so
every request's client is `-`. The mock's banner (`apispec mock: ...`, the
indented lines under it, `apispec mock: stopped`) is skipped, not malformed:
`apispec mock --log > mock.log` writes both.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from apispec.runtime.readers.options import ReadOptions
from apispec.runtime.readers.source import Source, lines
from apispec.runtime.seen import Bad, Seen, client_name

NAME = "mock"
DESCRIPTION = "apispec mock --log output"
LINE = re.compile(rb"([A-Z]+) (\S+) (\d{3}) \d+(?:\.\d+)? ms(?: \S+){0,2}")
_BANNER = (b"apispec mock:", b"  ")


def looks_like(first: bytes) -> bool:
    return first.startswith(_BANNER[0]) or LINE.fullmatch(first) is not None


def read(source: Source, options: ReadOptions) -> Iterator[Seen | Bad]:
    client = client_name(None)
    for number, raw in lines(source.chunks()):
        if raw is None:
            yield Bad(number, "line longer than 1 MB")
            continue
        if not raw or raw.startswith(_BANNER):
            continue
        found = LINE.fullmatch(raw)
        if found is None:
            yield Bad(number, "not a line of apispec mock --log")
            continue
        target = found[2].decode("ascii", "backslashreplace")
        yield Seen(found[1].decode("ascii"), target, int(found[3]), None, client)
