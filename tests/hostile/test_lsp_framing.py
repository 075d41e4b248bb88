"""Frames `apispec lsp` cannot read, sent as raw bytes to the real server over stdio.

Each malformed frame is followed by a valid request: the server must skip the
frame (one line in its log and a `window/logMessage`), answer that request,
and keep serving; a `Content-Length` of 10^12 must not allocate it. Then the
memory a document costs: 1,000 documents opened and closed leave nothing of
theirs in the session (counted in the server's own structures, not as RSS).
"""

from __future__ import annotations

import io
import json
import os
import queue
import random
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from typing import IO, Any

import pytest

from apispec.lsp.framing import MAX_MESSAGE, Framer, Skipped

WAIT = 30.0


def frame(message: dict[str, Any], newline: bytes = b"\r\n") -> bytes:
    body = json.dumps(message).encode()
    return b"Content-Length: %d%s%s%s" % (len(body), newline, newline, body)


def hover(ident: int) -> dict[str, Any]:
    return {
        "jsonrpc": "2.0",
        "id": ident,
        "method": "textDocument/hover",
        "params": {
            "textDocument": {"uri": "file:///nowhere/x.py"},
            "position": {"line": 0, "character": 0},
        },
    }


class Answers:
    """Messages the server writes, parsed from its standard output in a thread."""

    def __init__(self, stream: IO[bytes]) -> None:
        self.queue: queue.Queue[dict[str, Any]] = queue.Queue()
        self.seen: list[dict[str, Any]] = []
        threading.Thread(target=self._read, args=(stream,), daemon=True).start()

    def _read(self, stream: IO[bytes]) -> None:
        while True:
            length = None
            while True:
                line = stream.readline()
                if not line:
                    return
                if line in (b"\r\n", b"\n"):
                    break
                name, _, value = line.partition(b":")
                if name.strip().lower() == b"content-length":
                    length = int(value)
            assert length is not None
            self.queue.put(json.loads(stream.read(length)))

    def answer(self, ident: int) -> dict[str, Any]:
        until = time.monotonic() + WAIT
        while True:
            message = self.queue.get(timeout=max(0.1, until - time.monotonic()))
            self.seen.append(message)
            if message.get("id") == ident and "method" not in message:
                return message

    def logged(self) -> list[str]:
        return [m["params"]["message"] for m in self.seen if m.get("method") == "window/logMessage"]


@pytest.fixture
def server() -> Iterator[tuple[subprocess.Popen[bytes], Answers]]:
    process = subprocess.Popen(
        [sys.executable, "-m", "apispec", "lsp"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "APISPEC_NO_CACHE": "1"},
    )
    answers = Answers(process.stdout)  # type: ignore[arg-type]
    send(
        process,
        frame({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"capabilities": {}}}),
    )
    assert "capabilities" in answers.answer(0)["result"]
    send(process, frame({"jsonrpc": "2.0", "method": "initialized", "params": {}}))
    yield process, answers
    process.kill()
    process.wait()


def send(process: subprocess.Popen[bytes], data: bytes) -> None:
    assert process.stdin is not None
    process.stdin.write(data)
    process.stdin.flush()


BODY = json.dumps(hover(7)).encode()
MALFORMED = {
    "length-of-10^12": b"Content-Length: 1000000000000\r\n\r\n" + BODY,
    "no-content-length": b"Content-Type: application/vscode-jsonrpc\r\n\r\n" + BODY,
    "negative-length": b"Content-Length: -5\r\n\r\n" + BODY,
    "non-numeric-length": b"Content-Length: lots\r\n\r\n" + BODY,
    "short-length": b"Content-Length: 20\r\n\r\n" + BODY,
    "garbage-between": b"}\x00\xff not a header at all\r\n\r\n",
    "header-without-end": b"X-Junk: " + b"a" * 70_000,
}


@pytest.mark.parametrize("case", list(MALFORMED))
def test_a_malformed_frame_is_skipped_and_the_next_request_answered(server, case: str) -> None:
    process, answers = server
    send(process, MALFORMED[case] + frame(hover(1)))
    assert answers.answer(1)["result"] is None
    send(process, frame(hover(2)))  # and it goes on serving
    assert answers.answer(2)["result"] is None
    assert any(m.startswith("apispec: skipped ") for m in answers.logged()), answers.logged()
    assert process.poll() is None


def test_headers_ending_in_lf_alone_are_read(server) -> None:
    process, answers = server
    send(process, frame(hover(1), newline=b"\n") + frame(hover(2)))
    assert answers.answer(1)["result"] is None
    assert answers.answer(2)["result"] is None
    assert answers.logged() == []


def test_a_length_of_10_12_allocates_nothing_and_is_one_log_line(server) -> None:
    process, answers = server
    send(process, MALFORMED["length-of-10^12"] + frame(hover(1)))
    assert answers.answer(1)["result"] is None
    (said,) = answers.logged()
    assert said == (
        "apispec: skipped a message of 1,000,000,000,000 bytes, over the limit of 64 MB"
    )
    process.stdin.close()  # type: ignore[union-attr]
    process.wait(timeout=WAIT)
    log = process.stderr.read().decode()  # type: ignore[union-attr]
    assert "MemoryError" not in log and "Traceback" not in log
    assert log.splitlines() == [
        "apispec lsp: warning: skipped a message of 1,000,000,000,000 bytes, "
        "over the limit of 64 MB"
    ]


# -- the framer alone: any cut of the stream into reads gives the same messages ----


def _ids(items: list[bytes | Skipped]) -> list[int]:
    """The ids of the bodies that are JSON (a body cut short by its length is not)."""
    ids = []
    for item in items:
        if not isinstance(item, Skipped):
            try:
                ids.append(json.loads(item)["id"])
            except ValueError:
                continue
    return ids


def test_the_framer_gives_the_same_messages_however_the_stream_is_cut() -> None:
    stream = b"".join(
        [frame(hover(1)), *MALFORMED.values(), frame(hover(2), newline=b"\n"), frame(hover(3))]
    )
    assert _ids(Framer().feed(stream)) == [1, 2, 3]
    rng = random.Random(22)
    for _ in range(50):
        framer, got, at = Framer(), [], 0
        while at < len(stream):
            step = rng.randint(1, 5000)
            got += framer.feed(stream[at : at + step])
            at += step
        assert _ids(got) == [1, 2, 3]


def test_the_framer_holds_at_most_one_message() -> None:
    framer = Framer(max_message=1000)
    (skip,) = framer.feed(b"Content-Length: 1001\r\n\r\n")
    assert isinstance(skip, Skipped)
    for _ in range(100):  # a flood of the oversized body is discarded as it comes
        assert framer.feed(b"x" * 100_000) == []
        assert len(framer._buffer) < 100
    assert MAX_MESSAGE == 64 * 1024 * 1024


# -- what a closed document leaves behind --------------------------------------------


def _in_process_server() -> tuple[Any, IO[bytes], Answers]:
    """The real server, started as `apispec lsp` starts it, on pipes of this process."""
    from apispec.lsp.server import create_server
    from apispec.lsp.transport import start_io

    to_server_r, to_server_w = os.pipe()
    from_server_r, from_server_w = os.pipe()
    server = create_server()
    stdin = io.BufferedReader(io.FileIO(to_server_r, "rb"))
    stdout = io.FileIO(from_server_w, "wb")
    threading.Thread(
        target=start_io, args=(server, server.skipped, stdin, stdout), daemon=True
    ).start()
    answers = Answers(io.FileIO(from_server_r, "rb"))
    return server, io.FileIO(to_server_w, "wb"), answers


def retained(server: Any) -> dict[str, int]:
    """Everything the session keeps per document, counted."""
    return {
        "documents": len(server.documents.all()),
        "results": len(server.results),
        "pending": len(server.pending),
        "started": len(server.started),
        "lint memo": len(server.analyzer._memo),
        "workspace memo": len(server.workspace_analyzer._memo),
        "open helpers": len(server.helper_index._open),
        "handler futures": len(server.protocol._request_futures),
    }


def test_closed_documents_leave_nothing_behind() -> None:
    server, pipe, answers = _in_process_server()

    def write(message: dict[str, Any]) -> None:
        pipe.write(frame(message))

    write({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"capabilities": {}}})
    answers.answer(0)
    write({"jsonrpc": "2.0", "method": "initialized", "params": {}})
    text = 'import requests\nBASE = "https://h/api/v2"\n' + (
        'r = requests.get(f"{BASE}/sensors/{sid}/overview")\n' * 350
    )
    assert 17_000 < len(text) < 19_000
    for n in range(1000):
        uri = f"file:///nowhere/doc{n}.py"
        document = {"uri": uri, "languageId": "python", "version": 1, "text": text}
        write(
            {
                "jsonrpc": "2.0",
                "method": "textDocument/didOpen",
                "params": {"textDocument": document},
            }
        )
        if n % 100 == 0:  # some are linted before they close, as in an editor
            write(hover(10_000 + n))
            answers.answer(10_000 + n)
        write(
            {
                "jsonrpc": "2.0",
                "method": "textDocument/didClose",
                "params": {"textDocument": {"uri": uri}},
            }
        )
    write(hover(1))
    answers.answer(1)
    server.lint_pool.submit(lambda: None).result(timeout=WAIT)  # the lint thread is idle
    until = time.monotonic() + WAIT
    while any(retained(server).values()) and time.monotonic() < until:
        time.sleep(0.1)
    assert retained(server) == dict.fromkeys(retained(server), 0)
