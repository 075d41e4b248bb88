"""HAR 1.2 (browsers' developer tools, Postman, mitmproxy, Charles): `log.entries[]`.

A HAR file is one JSON document, often hundreds of megabytes of answer bodies,
so it is never parsed whole: `_Scanner` walks the bytes, keeping only which
container it is in and the key it is under, and hands over each element of
`log.entries` as soon as its closing brace arrives, parsed alone. Strings
longer than MAX_STRING (bodies) are emptied while they are read, and an entry
still larger than MAX_ENTRY is reported and skipped, so memory stays bounded
by one entry's small fields. Strings are skipped with a regex, so large
bodies cost a scan, not a parse.

A browser's entry has no client address: the browser is the client, named by
its User-Agent header; `--client-field NAME` names a request header.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

from apispec.runtime.readers.options import ADDRESS, AUTO, USER, USER_AGENT, ReadOptions
from apispec.runtime.readers.source import Source, TruncatedInput
from apispec.runtime.readers.times import iso
from apispec.runtime.seen import Bad, Seen, authorization_kind, client_name
from apispec.support.inputs import InputError

NAME = "har"
DESCRIPTION = "HAR"
MAX_ENTRY = 16 << 20
MAX_STRING = 1 << 20
MAX_DEPTH = 10_000
_TOKEN = re.compile(rb'[{}\[\]",:]')
_IN_STRING = re.compile(rb'[\\"]')
_START = re.compile(rb'\s*\{\s*"log"\s*:')
_ENTRIES_PATH = ("log", "entries")


def looks_like(head: bytes) -> bool:
    return _START.match(head.removeprefix(b"\xef\xbb\xbf")) is not None


class _Scanner:
    """Just enough of a JSON tokenizer to find `log.entries` and cut out its elements.

    A string inside an entry that grows past MAX_STRING (an answer body, a
    base64 image) is emptied as it is read: only what a request needs (method,
    URL, headers, status, times) is kept, so an entry costs kilobytes whatever
    its bodies weigh. An entry still larger than MAX_ENTRY is skipped.
    """

    def __init__(self) -> None:
        self.buf = b""
        self.pos = 0
        self.stack: list[list[Any]] = []  # [b"{" or b"[", key of the child being read]
        self.expect_key = False
        self.in_string = False
        self.string_start = -1  # the opening quote of the string being read, when kept
        self.is_key = False  # the string being read is a key outside the entries
        self.emptied = False  # the string being read passed MAX_STRING: it will be ""
        self.element_start = -1  # where the entry being read starts
        self.element_depth = 0
        self.dropped = False  # the entry being read passed MAX_ENTRY: not kept
        self.found = False  # log.entries was seen
        self.done = False  # log.entries was closed

    def feed(self, data: bytes) -> Iterator[bytes | None]:
        """The entries complete in the data so far; None for each one too large to keep."""
        if self.in_string and self.string_start >= 0 and self.pos - self.string_start > MAX_STRING:
            if self.is_key:  # no key of a HAR is that long: read on as an unknown key
                self.string_start = -1
            else:  # drop what was read of it; the rest is dropped as it comes
                self.buf = self.buf[: self.string_start + 1] + self.buf[self.pos :]
                self.pos = self.string_start + 1
                self.emptied = True
        keep = self.pos
        if self.string_start >= 0:
            keep = min(keep, self.string_start)
        if self.element_start >= 0 and not self.dropped:
            keep = min(keep, self.element_start)
        self.buf = self.buf[keep:] + data
        self.pos -= keep
        if self.string_start >= 0:
            self.string_start -= keep
        if self.element_start >= 0:
            self.element_start = self.element_start - keep if not self.dropped else 0
        yield from self._scan()
        if self.element_start >= 0 and len(self.buf) - self.element_start > MAX_ENTRY:
            self.dropped = True

    def _scan(self) -> Iterator[bytes | None]:
        stack = self.stack
        while not self.done:
            buf = self.buf
            if self.in_string:
                found = _IN_STRING.search(buf, self.pos)
                if found is None:
                    self.pos = len(buf)
                    return
                at = found.start()
                if buf[at] == 0x5C:  # a backslash escapes the next byte
                    if at + 1 >= len(buf):
                        self.pos = at
                        return
                    self.pos = at + 2
                    continue
                self.pos = at + 1
                self._string_ends(at)
                continue
            found = _TOKEN.search(buf, self.pos)
            if found is None:
                self.pos = len(buf)
                return
            at = found.start()
            char = buf[at]
            self.pos = at + 1
            if char == 0x22:  # "
                self.in_string = True
                self.is_key = self.expect_key and self.element_start < 0
                inside = self.element_start >= 0 and not self.dropped
                self.string_start = at if self.is_key or inside else -1
            elif char in b"{[":
                if char == 0x7B and self.element_start < 0 and self._in_entries():
                    self.element_start, self.element_depth, self.dropped = at, len(stack), False
                if len(stack) >= MAX_DEPTH:
                    raise ValueError(f"nested deeper than {MAX_DEPTH} levels")
                stack.append([char, None])
                self.expect_key = char == 0x7B
            elif char in b"}]":
                if not stack:
                    raise ValueError("a closing bracket without an opening one")
                stack.pop()
                self.expect_key = False
                if self.element_start >= 0 and len(stack) == self.element_depth:
                    yield None if self.dropped else buf[self.element_start : self.pos]
                    self.element_start, self.dropped = -1, False
                elif self._in_entries_parent() and char == 0x5D:
                    self.done = True
            elif char == 0x2C:  # ,
                self.expect_key = bool(stack) and stack[-1][0] == 0x7B
            else:  # :
                self.expect_key = False

    def _string_ends(self, at: int) -> None:
        """The string being read ends with the quote at `at` (self.pos is just after it)."""
        self.in_string = False
        start = self.string_start
        if self.is_key and start >= 0:
            self.stack[-1][1] = _key(self.buf[start : self.pos])
            self.expect_key = False
        elif self.emptied:  # what is left of a long string goes too: it is ""
            self.buf = self.buf[: start + 1] + self.buf[at:]
            self.pos = start + 2
        self.string_start, self.is_key, self.emptied = -1, False, False

    def _in_entries(self) -> bool:
        stack = self.stack
        found = (
            len(stack) == 3
            and stack[0][1] == "log"
            and stack[1][1] == "entries"
            and stack[2][0] == 0x5B
        )
        self.found = self.found or found
        return found

    def _in_entries_parent(self) -> bool:
        return len(self.stack) == 2 and self.stack[0][1] == "log" and self.stack[1][1] == "entries"

    @property
    def complete(self) -> bool:
        return self.done or (not self.stack and not self.in_string and self.pos > 0)


def _key(raw: bytes) -> str | None:
    try:
        key = json.loads(raw)
    except ValueError:
        return None
    return key if isinstance(key, str) else None


def read(source: Source, options: ReadOptions) -> Iterator[Seen | Bad]:
    scanner = _Scanner()
    number = 0
    try:
        for chunk in source.chunks():
            for entry in scanner.feed(chunk):
                number += 1
                if entry is None:
                    yield Bad(number, f"entry larger than {MAX_ENTRY >> 20} MB")
                    continue
                yield _entry(entry, number, options.client)
            if scanner.done:
                break
    except ValueError as exc:
        raise InputError(source.name, f"not a HAR document ({exc})") from None
    if not scanner.complete:
        raise TruncatedInput(
            f"{source.name}: the HAR document ends early (truncated); the entries before the "
            "cut were counted"
        )
    if not scanner.found and not scanner.done:
        raise InputError(source.name, "not a HAR document (no log.entries)")


def _entry(raw: bytes, number: int, client: str) -> Seen | Bad:
    try:
        entry = json.loads(raw)
    except (ValueError, RecursionError):
        return Bad(number, "entry is not valid JSON")
    request = entry.get("request") if isinstance(entry, dict) else None
    if not isinstance(request, dict):
        return Bad(number, "entry without a request")
    method, url = request.get("method"), request.get("url")
    if not isinstance(method, str) or not isinstance(url, str):
        return Bad(number, "entry without request.method and request.url")
    headers = _headers(request.get("headers"))
    response = entry.get("response")
    status = response.get("status") if isinstance(response, dict) else None
    if not isinstance(status, int) or isinstance(status, bool) or status <= 0:
        status = None  # 0: the browser got no answer (blocked, aborted)
    answer_headers = _headers(response.get("headers") if isinstance(response, dict) else None)
    started = entry.get("startedDateTime")
    if client in (AUTO, USER_AGENT):
        name = headers.get("user-agent")
    elif client in (ADDRESS, USER):
        name = None  # a HAR records neither: the browser is the client
    else:
        name = headers.get(client.lower())
    return Seen(
        method.upper(),
        url,
        status,
        iso(started) if isinstance(started, str) else None,
        client_name(name),
        answer_headers.get("x-request-id") or headers.get("x-request-id"),
        authorization_kind(headers.get("authorization")),
    )


def _headers(listed: object) -> dict[str, str]:
    """A HAR header list as a dict of lower-case names (the first value of each name)."""
    found: dict[str, str] = {}
    if isinstance(listed, list):
        for item in listed:
            if isinstance(item, dict):
                name, value = item.get("name"), item.get("value")
                if isinstance(name, str) and isinstance(value, str):
                    found.setdefault(name.lower(), value)
    return found
