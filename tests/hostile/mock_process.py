"""The real `apispec mock` process on a loopback port, for tests that need the whole
server as a user runs it: uvicorn's own protocol handling, the command line, the exit."""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path


@dataclass
class MockProcess:
    process: subprocess.Popen[str]
    api: str  # http://127.0.0.1:PORT/api/v2
    host: str
    port: int


@contextmanager
def mock_process(*args: str, cwd: Path | None = None) -> Iterator[MockProcess]:
    """Start `apispec mock --port 0 ARGS...`, wait for its banner, stop it at the end."""
    process = subprocess.Popen(
        [sys.executable, "-m", "apispec", "mock", "--port", "0", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        text=True,
        cwd=cwd,
    )
    try:
        assert process.stdout is not None
        first = process.stdout.readline()
        found = re.search(r"(http://([0-9.]+):([0-9]+)/api/v2)", first)
        assert found, (first, process.stderr.read() if process.poll() is not None else "")
        yield MockProcess(process, found[1], found[2], int(found[3]))
    finally:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
