"""Standard output or standard error on a full device (`/dev/full`, every write ENOSPC).

A report that cannot be written is exit 2 with one line on standard error, on
every command, whether the device refuses the first print or only the last
flush. When standard error is the full one, the exit code still says what
happened: a crash stays 3 (an exception escaping `main` would be exit 1, which
CI reads as findings), findings stay 1, a usage error stays 2.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import IO

import pytest

from tests.hostile.helpers import tree

pytestmark = pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
CRASH = """
import sys
import apispec.registry.load
def explode(*args, **kwargs):
    raise RuntimeError("the registry exploded")
apispec.registry.load.load_registry = explode
from apispec.cli import main
raise SystemExit(main(sys.argv[1:]))
"""


def _stream(where: str) -> int | IO[str]:
    return subprocess.PIPE if where == "pipe" else open(where, "w")


def _run(
    args: list[str], cwd: Path, *, stdout: str, stderr: str, crash: bool = False
) -> subprocess.CompletedProcess[str]:
    """Run apispec with standard output and error sent where named (a path or `pipe`)."""
    command = [sys.executable, *(["-c", CRASH] if crash else ["-m", "apispec"]), *args]
    env = {**os.environ, "APISPEC_NO_CACHE": "1"}
    env.pop("APISPEC_DEBUG", None)
    out, err = _stream(stdout), _stream(stderr)
    try:
        return subprocess.run(
            command,
            cwd=cwd,
            stdout=out,
            stderr=err,
            stdin=subprocess.DEVNULL,
            env=env,
            timeout=120,
            text=True,
        )
    finally:
        for stream in (out, err):
            if not isinstance(stream, int):
                stream.close()


COMMANDS = {
    "releases": ["releases"],
    "openapi": ["openapi", "--release", "25.x.122"],
    "registry-list": ["registry", "list"],
    "registry-show": ["registry", "show", "GET", "/sensors"],
    "filter-check": ["filter", "check", "status == up"],
    "lint-full": ["lint", str(EXAMPLES)],
    "lint-json": ["lint", "--format", "json", str(EXAMPLES)],
    "lint-one-line": ["lint", "--format", "concise", "a.py"],
    "mcp-tools": ["mcp-tools", "--release", "25.x.122"],
    "version": ["--version"],
    "help": ["--help"],
    "mock-banner": ["mock", "--port", "0"],
}


@pytest.mark.parametrize("command", list(COMMANDS))
def test_standard_output_on_a_full_device_is_exit_2_and_one_line(
    tmp_path: Path, command: str
) -> None:
    (tmp_path / "a.py").write_text("x = 1\n")
    before = tree(tmp_path)
    done = _run(COMMANDS[command], tmp_path, stdout="/dev/full", stderr="pipe")
    lines = [line for line in done.stderr.splitlines() if not line.startswith("apispec: note:")]
    assert lines == ["apispec: error: standard output: cannot write: No space left on device"], (
        done.returncode,
        done.stderr,
    )
    assert done.returncode == 2
    assert tree(tmp_path) == before


@pytest.mark.parametrize(
    ("args", "crash", "code"),
    [
        (["releases"], True, 3),
        (["lint", "."], True, 3),
        (["lint", str(EXAMPLES)], False, 1),
        (["releases", "--nope"], False, 2),
        (["registry", "show", "GET", "/nowhere"], False, 2),
        (["releases"], False, 0),
    ],
    ids=["crash-releases", "crash-lint", "findings", "usage", "input", "success"],
)
def test_standard_error_on_a_full_device_keeps_the_exit_code(
    tmp_path: Path, args: list[str], crash: bool, code: int
) -> None:
    (tmp_path / "a.py").write_text("x = 1\n")
    done = _run(args, tmp_path, stdout="pipe", stderr="/dev/full", crash=crash)
    assert done.returncode == code, done.stdout[-500:]


def test_both_streams_full_a_crash_is_still_3(tmp_path: Path) -> None:
    done = _run(["releases"], tmp_path, stdout="/dev/full", stderr="/dev/full", crash=True)
    assert done.returncode == 3
