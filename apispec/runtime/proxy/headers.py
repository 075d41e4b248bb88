"""Which headers cross the proxy, and the ones it adds.

Hop-by-hop headers (RFC 9110, section 7.6.1) belong to one connection and are
never forwarded, in either direction, nor is any header the `Connection`
header names. `Host` is the upstream's. `Expect` is answered by the proxy's
own server (it reads the body before forwarding). Everything else crosses
unchanged, in order.

The proxy adds, on API v2 answers only: the lifecycle headers the mock sends
(apispec.mock.lifecycle), unless the server sent its own, and one
`Apispec-Finding` header per finding (`CODE message`), as Prism's
`sl-violations` does. Header values are ASCII: a message quoting a filter is
escaped, and cut at MAX_VALUE characters.
"""

from __future__ import annotations

from collections.abc import Iterable

from apispec.mock.lifecycle import SUCCESSOR_RELATION
from apispec.runtime.matching import Note
from apispec.support.printable import printable

Header = tuple[bytes, bytes]
FINDING_HEADER = b"apispec-finding"
MAX_VALUE = 1000
HOP_BY_HOP = frozenset(
    {
        b"connection",
        b"keep-alive",
        b"proxy-authenticate",
        b"proxy-authorization",
        b"proxy-connection",
        b"te",
        b"trailer",
        b"transfer-encoding",
        b"upgrade",
    }
)
_REQUEST_ONLY = frozenset({b"host", b"expect"})


def _named_by_connection(headers: Iterable[Header]) -> set[bytes]:
    named: set[bytes] = set()
    for name, value in headers:
        if name.lower() == b"connection":
            named.update(v.strip().lower() for v in value.split(b",") if v.strip())
    return named


def end_to_end(headers: list[Header], request: bool) -> list[Header]:
    """The headers that cross the proxy: hop-by-hop ones (and `Host`, `Expect`) left out."""
    dropped = HOP_BY_HOP | _named_by_connection(headers)
    if request:
        dropped |= _REQUEST_ONLY
    return [(name, value) for name, value in headers if name.lower() not in dropped]


def added(
    answer: list[Header], lifecycle: list[tuple[str, str]], notes: Iterable[Note], several: bool
) -> list[Header]:
    """The headers the proxy adds to an API v2 answer (those the server already sent are not)."""
    names = {name.lower() for name, _ in answer}
    extra: list[Header] = []
    has_successor = any(
        name.lower() == b"link" and SUCCESSOR_RELATION.encode() in value for name, value in answer
    )
    for name, value in lifecycle:
        key = name.lower().encode()
        if key in names or (key == b"link" and has_successor):
            continue
        extra.append((key, value.encode("latin-1", "replace")))
    for note in notes:
        where = f" ({note.target})" if several and note.target else ""
        text = printable(f"{note.code}{where} {note.message}")
        if len(text) > MAX_VALUE:
            text = text[: MAX_VALUE - 1] + "~"
        extra.append((FINDING_HEADER, text.encode("ascii", "backslashreplace")))
    return extra
