"""Real servers for the proxy's tests: `apispec mock` and `apispec proxy` as processes, and
small upstreams on raw sockets that misbehave in one way each.
"""

from __future__ import annotations

import contextlib
import os
import re
import select
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

PYTHON = sys.executable


@dataclass
class Process:
    url: str
    process: subprocess.Popen
    out: str = ""
    err: str = ""
    already: dict[str, str] = field(default_factory=dict)  # read before the URL was seen

    @property
    def api(self) -> str:
        return self.url + "/api/v2"

    def stop(self, timeout: float = 20) -> int:
        """SIGINT (Ctrl-C), then what it printed; the exit status. Once only: later calls
        return the status again."""
        if self.process.returncode is not None:
            return self.process.returncode
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
        out, err = self.process.communicate(timeout=timeout)
        self.out = self.already.get("stdout", "") + out.decode(errors="replace")
        self.err = self.already.get("stderr", "") + err.decode(errors="replace")
        return self.process.returncode


def _start(args: list[str], stream: str, pattern: str, env: dict | None = None) -> Process:
    """Start `apispec ARGS` and wait for `pattern` on `stream`; what was read before is kept.

    The stream is read from its descriptor, not through a buffered file object, so
    that `communicate()` later (which reads the descriptors too) loses nothing.
    """
    process = subprocess.Popen(
        [PYTHON, "-m", "apispec", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, **(env or {})},
    )
    source = process.stdout if stream == "stdout" else process.stderr
    assert source is not None
    fd = source.fileno()
    seen = b""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.5)
        if not ready:
            continue
        chunk = os.read(fd, 65536)
        if not chunk:
            break
        seen += chunk
        for line in seen.decode(errors="replace").splitlines():
            found = re.search(pattern, line)
            if found:
                return Process(found[1], process, already={stream: seen.decode(errors="replace")})
    process.kill()
    out, err = process.communicate()
    raise AssertionError(f"{args[0]} did not start: {seen!r}{out!r}{err!r}")


@contextlib.contextmanager
def mock(*args: str) -> Iterator[Process]:
    running = _start(
        ["mock", "--port", "0", "--objects", "200", *args],
        "stdout",
        r"at (http://127\.0\.0\.1:\d+)/api/v2$",
    )
    try:
        yield running
    finally:
        running.stop()


@contextlib.contextmanager
def proxy(upstream: str, *args: str) -> Iterator[Process]:
    running = _start(
        ["proxy", "--upstream", upstream, "--port", "0", *args],
        "stderr",
        r"^apispec proxy: (http://127\.0\.0\.1:\d+) -> ",
    )
    try:
        yield running
    finally:
        running.stop()


class RawUpstream:
    """A server on a loopback port whose every connection is handled by `serve(conn)`."""

    def __init__(self, serve: Callable[[socket.socket], None]) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(64)
        self.url = f"http://127.0.0.1:{self.sock.getsockname()[1]}"
        self.requests: list[bytes] = []  # the head of every request received
        self._serve = serve
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._accept, daemon=True)
        self._thread.start()

    def _accept(self) -> None:
        self.sock.settimeout(0.2)
        while not self._stop.is_set():
            try:
                conn, _ = self.sock.accept()
            except (TimeoutError, OSError):
                continue
            threading.Thread(target=self._handle, args=(conn,), daemon=True).start()

    def _handle(self, conn: socket.socket) -> None:
        with conn, contextlib.suppress(OSError):
            self._serve(conn)

    def read_head(self, conn: socket.socket) -> bytes:
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = conn.recv(65536)
            if not chunk:
                break
            data += chunk
        head = data.split(b"\r\n\r\n", 1)[0]
        self.requests.append(head)
        return head

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=2)
        self.sock.close()


@contextlib.contextmanager
def raw_upstream(serve: Callable[[RawUpstream, socket.socket], None]) -> Iterator[RawUpstream]:
    holder: list[RawUpstream] = []
    upstream = RawUpstream(lambda conn: serve(holder[0], conn))
    holder.append(upstream)
    try:
        yield upstream
    finally:
        upstream.close()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]
