"""`apispec lint`'s worker processes never outlive the run (issue 22 point 18).

A CI job cancelled or a `timeout` sends SIGTERM to apispec; the OOM killer or a
runner sends SIGKILL. Workers used to be adopted by init and go on linting their
chunk, then wait for work for ever. Each case runs the real command on a tree
large enough for two workers, finds the workers in /proc, and signals the parent.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from tests.hostile.helpers import tree

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")

CALLS = "".join(
    f'r{n} = requests.get(f"{{BASE}}/sensors/{{sid}}/overview", params={{"filter": "status == down"}})\n'
    for n in range(300)
)
SOURCE = 'import requests\nBASE = "https://h/api/v2"\n' + CALLS


def _state(pid: int) -> str | None:
    """The process's state letter, or None when it is gone (a zombie counts as gone: `Z`)."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return text.rsplit(")", 1)[1].split()[0]


def _children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                text = (entry / "stat").read_text()
            except OSError:
                continue
            if int(text.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry.name))
    return found


def _gone(pids: list[int], within: float) -> bool:
    until = time.monotonic() + within
    while time.monotonic() < until:
        if all(_state(pid) in (None, "Z", "X") for pid in pids):
            return True
        time.sleep(0.1)
    return False


@pytest.fixture
def big_tree(tmp_path: Path) -> Path:
    folder = tmp_path / "tree"
    folder.mkdir()
    for n in range(1200):
        (folder / f"f{n}.py").write_text(SOURCE)
    return folder


def _start(folder: Path) -> tuple[subprocess.Popen[str], list[int]]:
    process = subprocess.Popen(
        [sys.executable, "-m", "apispec", "lint", str(folder), "--no-cache", "--jobs", "2"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        cwd=folder.parent,
    )
    until = time.monotonic() + 120
    workers: list[int] = []
    while len(workers) < 2 and time.monotonic() < until and process.poll() is None:
        time.sleep(0.1)
        workers = _children(process.pid)
    assert len(workers) == 2, "the run ended before two workers were seen"
    time.sleep(0.5)  # linting, not starting
    assert process.poll() is None
    return process, workers


def _end(pids: list[int]) -> None:
    """Kill what a failing test left running, so that it does not run on for ever."""
    for pid in pids:
        if _state(pid) not in (None, "Z", "X"):
            os.kill(pid, signal.SIGKILL)


def test_sigterm_stops_the_workers_and_exits_143_with_one_line(big_tree: Path) -> None:
    before = tree(big_tree.parent)
    process, workers = _start(big_tree)
    try:
        process.send_signal(signal.SIGTERM)
        code = process.wait(timeout=30)
        assert _gone(workers, 5), [(pid, _state(pid)) for pid in workers]
        _, err = process.communicate(timeout=30)  # workers alive would hold the pipe open
        assert err.splitlines() == ["apispec: terminated (SIGTERM); worker processes stopped"]
        assert code == 143
        assert tree(big_tree.parent) == before
    finally:
        _end(workers)


def test_sigkill_of_the_parent_ends_the_workers(big_tree: Path) -> None:
    process, workers = _start(big_tree)
    try:
        process.kill()
        process.wait(timeout=30)
        assert _gone(workers, 5), [(pid, _state(pid)) for pid in workers]
    finally:
        _end(workers)


# Where the kernel cannot be asked (not Linux), the worker's own thread notices.
ORPHAN = textwrap.dedent(
    """
    import ctypes, os, sys
    from apispec.lint import pool

    def no_libc(*args, **kwargs):
        raise OSError("no prctl here")

    ctypes.CDLL = no_libc
    parent = os.getpid()
    ready, told = os.pipe()
    child = os.fork()
    if child == 0:
        pool._die_with(parent)
        os.write(told, b"watching")
        while True:  # busy, as a worker linting a chunk
            pass
    os.close(told)
    print(child, os.read(ready, 8).decode() or "gone", flush=True)
    os._exit(0)  # the parent dies; init adopts the worker
    """
)


def test_without_the_kernel_a_worker_notices_its_parent_is_gone() -> None:
    done = subprocess.run(
        [sys.executable, "-c", ORPHAN], capture_output=True, text=True, timeout=60
    )
    pid, state = done.stdout.split()
    orphan = int(pid)
    assert state == "watching"
    try:
        assert _gone([orphan], 5 + 4 * 0.5)
    finally:
        _end([orphan])
