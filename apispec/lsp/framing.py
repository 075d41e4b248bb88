"""LSP messages read off a byte stream, bounded, and never at the cost of the next one.

pygls's own reader trusts every frame: it reads whatever a `Content-Length`
says in one piece (10^12 bytes: MemoryError, and the server is gone), and a
frame it cannot read (no, a negative or a non-numeric `Content-Length`, a
length shorter than the body, header lines ending in LF alone) leaves it
reading the following request's header as part of the garbage, so that
request is never answered and the client waits for ever.

`Framer` is fed bytes as they arrive and holds at most one message:

- header lines end in CRLF or in LF alone; names are case-insensitive; a
  `Content-Length` is ASCII digits;
- a body longer than `MAX_MESSAGE` bytes, or a header block without a usable
  `Content-Length`, is skipped: input is discarded up to the next
  `Content-Length:` header, which is where the next message starts;
- bytes before a header block that are not headers (the rest of a body whose
  length was given too short) are skipped the same way.

Each skip is reported once, as a `Skipped` with a one-line reason; a body is
a `bytes` for the caller to decode.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

MAX_MESSAGE = 64 * 1024 * 1024  # bytes of one message's body (docs/editors.md)
MAX_HEADER_BLOCK = 64 * 1024  # bytes of one message's headers
_BLANK_LINE = re.compile(rb"\r?\n\r?\n")
_CONTENT_LENGTH = re.compile(rb"content-length[ \t]*:", re.IGNORECASE)
_HEADER_LINE = re.compile(rb"[!#$%&'*+.^_`|~0-9A-Za-z-]+[ \t]*:[^\r\n]*")
_DIGITS = re.compile(rb"[0-9]{1,20}")
_KEEP = 32  # bytes kept while discarding: a `Content-Length:` cut in two by a read


@dataclass(frozen=True)
class Skipped:
    """Input that was not a message the server can read, and why (one line)."""

    reason: str


class Framer:
    """Splits a byte stream into message bodies; see the module's docstring."""

    def __init__(self, max_message: int = MAX_MESSAGE) -> None:
        self.max_message = max_message
        self._buffer = bytearray()
        self._length: int | None = None  # the body being waited for
        self._discarding = False  # until the next `Content-Length:` header

    def feed(self, data: bytes) -> list[bytes | Skipped]:
        """The complete bodies and skips `data` finishes, in stream order."""
        self._buffer += data
        found: list[bytes | Skipped] = []
        while self._step(found):
            pass
        return found

    def _step(self, found: list[bytes | Skipped]) -> bool:
        """Take one thing off the buffer; False when more input is needed."""
        buffer = self._buffer
        if self._length is not None:
            if len(buffer) < self._length:
                return False
            found.append(bytes(buffer[: self._length]))
            del buffer[: self._length]
            self._length = None
            return True
        if self._discarding:
            match = _CONTENT_LENGTH.search(buffer)
            if match is None:
                del buffer[: max(0, len(buffer) - _KEEP)]
                return False
            del buffer[: match.start()]
            self._discarding = False
            return True
        end = _BLANK_LINE.search(buffer)
        if end is None:
            if len(buffer) > MAX_HEADER_BLOCK:
                self._skip(found, f"a header block longer than {MAX_HEADER_BLOCK // 1024} KB", 1)
            return False
        if end.start() == 0:  # blank lines between messages: harmless
            del buffer[: end.end()]
            return True
        return self._headers(bytes(buffer[: end.start()]), end.end(), found)

    def _headers(self, block: bytes, body_start: int, found: list[bytes | Skipped]) -> bool:
        lines = re.split(rb"\r?\n", block)
        if not _HEADER_LINE.fullmatch(lines[0]):
            # not headers: the rest of a body; a message may start inside the block
            match = _CONTENT_LENGTH.search(block)
            cut = max(match.start(), 1) if match is not None else body_start
            found.append(Skipped(f"{cut} bytes that are not a message"))
            del self._buffer[:cut]
            return True
        length: bytes | None = None
        for line in lines:
            name, _, value = line.partition(b":")
            if name.strip().lower() == b"content-length":
                length = value.strip(b" \t")
        if length is None:
            glued = _CONTENT_LENGTH.search(block, 1)
            if glued is not None:  # a message's header glued to the end of a broken line
                found.append(Skipped(f"{glued.start()} bytes that are not a message"))
                del self._buffer[: glued.start()]
                return True
            del self._buffer[:body_start]
            return self._skip(found, "a message without a Content-Length header")
        del self._buffer[:body_start]
        if not _DIGITS.fullmatch(length):
            shown = length[:20].decode("ascii", "backslashreplace")
            return self._skip(found, f"a message whose Content-Length {shown!r} is not a number")
        size = int(length)
        if size > self.max_message:
            limit = self.max_message // (1024 * 1024)
            return self._skip(found, f"a message of {size:,} bytes, over the limit of {limit} MB")
        self._length = size
        return True

    def _skip(self, found: list[bytes | Skipped], reason: str, start: int = 0) -> bool:
        """Discard input from `start` up to the next `Content-Length:` header."""
        found.append(Skipped(reason))
        del self._buffer[:start]
        self._discarding = True
        return True
