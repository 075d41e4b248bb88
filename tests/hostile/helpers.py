"""Hostile inputs: shared helpers.

`apispec_run` runs the real `apispec` process with a timeout, so an input that
makes apispec hang fails its test instead of stalling the suite; `clean`
checks the contract of docs/cli.md: the documented exit code, one line per
problem on standard error, never a traceback.
"""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path


@dataclass
class Run:
    code: int
    out: str
    err: str
    raw_out: bytes = b""  # standard output as written, for strict decoding


def clean(result: Run, code: int) -> Run:
    """Assert exit `code` and no traceback (nor a stack frame of one) in any output."""
    text = result.out + result.err
    assert "Traceback" not in text and '  File "' not in text, result.err
    assert result.code == code, (result.code, result.out[-2000:], result.err[-2000:])
    return result


def apispec_run(*args: str, cwd: Path | None = None, timeout: float = 60, **env: str) -> Run:
    """Run `python -m apispec ARGS...` in `cwd`; caches off, so every run reads its inputs."""
    environment = {**os.environ, "APISPEC_NO_CACHE": "1", **env}
    if "APISPEC_DEBUG" not in env:
        environment.pop("APISPEC_DEBUG", None)
    done = subprocess.run(
        [sys.executable, "-m", "apispec", *args],
        cwd=cwd,
        capture_output=True,
        timeout=timeout,
        env=environment,
        stdin=subprocess.DEVNULL,
    )
    return Run(
        done.returncode,
        done.stdout.decode("utf-8", "backslashreplace"),
        done.stderr.decode("utf-8", "backslashreplace"),
        done.stdout,
    )


def tree_bytes(root: Path) -> dict[str, bytes]:
    """Every file under `root` (links not followed) and its bytes: compared after a run, it
    shows that the run changed, added or removed no file it should not have."""
    return {
        path.relative_to(root).as_posix(): path.read_bytes()
        for path in sorted(root.rglob("*"))
        if path.is_file() and not path.is_symlink()
    }
