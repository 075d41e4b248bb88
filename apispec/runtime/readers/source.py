"""Bytes of one input: a regular file or standard input, gzip or not, in bounded chunks.

Logs are large: the reading is one pass in chunks of CHUNK bytes, never the
whole file, and a gzip stream (recognised by its magic bytes, whatever the
file is called) is inflated with a bound on each output chunk, so a
decompression bomb costs time, not memory. A gzip stream that ends early is
reported once the lines before the cut are counted (`TruncatedInput`). Named
pipes and devices are refused as every apispec input is (docs/cli.md); a
stream is read from standard input (`-`).
"""

from __future__ import annotations

import json
import os
import zlib
from collections.abc import Iterator
from typing import Any, BinaryIO

from apispec.runtime.seen import Bad
from apispec.support.exceptions import UsageError
from apispec.support.inputs import InputError, file_kind

CHUNK = 1 << 20
HEAD = 64 * 1024  # what format recognition looks at
MAX_LINE = 1 << 20  # a longer line is reported, not kept
_GZIP_MAGIC = b"\x1f\x8b"
_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)


class TruncatedInput(UsageError):
    """The gzip stream ended before its end marker (a copy cut short): exit 2, after the report."""


class Source:
    """One input: its name, its chunks (inflated), and how far the reading got."""

    def __init__(self, name: str, stream: BinaryIO, size: int | None) -> None:
        self.name = name
        self.size = size  # bytes on disk, for progress; None for standard input
        self.consumed = 0  # bytes read from disk (compressed bytes for gzip)
        self._stream = stream
        first = self._read()
        self.compressed = first.startswith(_GZIP_MAGIC)
        self._chunks = self._inflated(first) if self.compressed else self._plain(first)
        self._head: bytes | None = None
        self._cut: TruncatedInput | None = None  # the head already reached a truncation

    def _read(self) -> bytes:
        try:
            data = self._stream.read(CHUNK)
        except OSError as exc:
            raise InputError(self.name, f"cannot read: {exc.strerror or exc}") from None
        self.consumed += len(data)
        return data

    def _plain(self, first: bytes) -> Iterator[bytes]:
        data = first
        while data:
            yield data
            data = self._read()

    def _inflated(self, first: bytes) -> Iterator[bytes]:
        inflater = zlib.decompressobj(wbits=31)
        data = first
        while data:
            try:
                out = inflater.decompress(data, CHUNK)
                while out:
                    yield out
                    out = inflater.decompress(inflater.unconsumed_tail, CHUNK)
                if inflater.eof:  # another gzip member may follow (concatenated files)
                    rest = inflater.unused_data
                    inflater = zlib.decompressobj(wbits=31)
                    if rest:
                        data = rest
                        continue
                    data = self._read()
                    if not data:
                        return
                    continue
            except zlib.error as exc:
                raise InputError(self.name, f"not a valid gzip stream ({exc})") from None
            data = self._read()
        raise TruncatedInput(
            f"{self.name}: the gzip stream ends early (truncated); the lines before the cut "
            "were counted"
        )

    def head(self) -> bytes:
        """The first HEAD bytes (or fewer) of the content, for recognising the format."""
        if self._head is None:
            parts: list[bytes] = []
            size = 0
            try:
                for chunk in self._chunks:
                    parts.append(chunk)
                    size += len(chunk)
                    if size >= HEAD:
                        break
            except TruncatedInput as cut:  # raised after the lines before it are read
                self._cut = cut
            self._head = b"".join(parts)
        return self._head

    def chunks(self) -> Iterator[bytes]:
        """The content in chunks, from its first byte (the head included)."""
        head = self.head()
        if head:
            yield head
        if self._cut is not None:
            raise self._cut
        yield from self._chunks

    def close(self) -> None:
        if self.size is not None:  # a file apispec opened; standard input stays open
            self._stream.close()


def lines(chunks: Iterator[bytes]) -> Iterator[tuple[int, bytes | None]]:
    """(number, line) for each line, without its end; a line over MAX_LINE bytes as None."""
    number = 0
    rest = b""
    overlong = False
    for chunk in chunks:
        if rest:
            chunk = rest + chunk
        parts = chunk.split(b"\n")
        rest = parts.pop()
        for part in parts:
            number += 1
            if overlong:
                overlong = False
                yield number, None
            else:
                yield number, part[:-1] if part.endswith(b"\r") else part
        if len(rest) > MAX_LINE:  # keep only that it is too long, never the line
            overlong = True
            rest = b""
        elif overlong:
            rest = b""
    if rest or overlong:
        number += 1
        yield number, None if overlong else rest.removesuffix(b"\r")


def json_objects(source: Source) -> Iterator[tuple[int, dict[str, Any]] | Bad]:
    """(number, object) for each line holding a JSON object; Bad for any other line that is
    not blank (too long, not JSON, nested past the parser's stack, not an object)."""
    for number, raw in lines(source.chunks()):
        if raw is None:
            yield Bad(number, "line longer than 1 MB")
            continue
        if not raw.strip():
            continue
        try:
            data = json.loads(raw)
        except (ValueError, RecursionError):
            data = None
        if isinstance(data, dict):
            yield number, data
        else:
            yield Bad(number, "not a JSON object")


def open_source(name: str, stdin: BinaryIO) -> Source:
    """The input `name` (`-`: standard input); InputError naming it when it cannot be read."""
    if name == "-":
        return Source("standard input", stdin, None)
    try:
        kind = file_kind(os.stat(name).st_mode)
        if kind is not None:
            raise _not_regular(name, kind)
        fd = os.open(name, _OPEN_FLAGS)
    except FileNotFoundError:
        raise InputError(name, "cannot read: no such file") from None
    except OSError as exc:
        raise InputError(name, f"cannot read: {exc.strerror or exc}") from None
    info = os.fstat(fd)
    kind = file_kind(info.st_mode)
    if kind is not None:  # swapped for something else after the stat above
        os.close(fd)
        raise _not_regular(name, kind)
    os.set_blocking(fd, True)
    return Source(name, os.fdopen(fd, "rb", buffering=0), info.st_size)


def _not_regular(name: str, kind: str) -> InputError:
    if kind == "a directory":
        return InputError(name, "is a directory, expected a log file")
    return InputError(name, f"not a regular file ({kind}); pipe a stream to `apispec traffic -`")
