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
    return _run([sys.executable, "-m", "apispec", *args], cwd, timeout, env)


def _run(command: list[str], cwd: Path | None, timeout: float, env: dict[str, str]) -> Run:
    environment = {**os.environ, "APISPEC_NO_CACHE": "1", **env}
    if "APISPEC_DEBUG" not in env:
        environment.pop("APISPEC_DEBUG", None)
    done = subprocess.run(
        command,
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


# Run as `python -c TRACER ARGS...`: apispec's CLI with an audit hook that records every
# path opened or listed (Python's own `open` and `os.scandir`/`os.listdir` audit events,
# which every read of apispec goes through) into the file named by APISPEC_TEST_TRACE.
_TRACER = """
import os, sys
_seen = []
def _hook(event, args):
    if event in ("open", "os.scandir", "os.listdir") and args and isinstance(args[0], (str, bytes)):
        _seen.append(("open " if event == "open" else "list ") + os.fsdecode(args[0]))
sys.addaudithook(_hook)
_trace = os.environ["APISPEC_TEST_TRACE"]
code = 3
try:
    if sys.argv[1] == "--python":
        exec(sys.argv[2])
        code = 0
    else:
        from apispec.cli import main
        code = main(sys.argv[1:])
finally:
    with open(_trace, "w", encoding="utf-8", errors="surrogateescape") as out:
        out.write("\\n".join(e[:5] + os.path.abspath(e[5:]) for e in _seen))
sys.exit(code)
"""


def traced_run(
    *args: str, cwd: Path, trace: Path, timeout: float = 60, **env: str
) -> tuple[Run, list[str]]:
    """`apispec ARGS...` (or `--python CODE`) in `cwd`, and every path it opened or listed,
    as lines `open PATH` and `list PATH` (absolute)."""
    run = _run(
        [sys.executable, "-c", _TRACER, *args],
        cwd,
        timeout,
        {**env, "APISPEC_TEST_TRACE": str(trace)},
    )
    return run, trace.read_text(encoding="utf-8", errors="surrogateescape").splitlines()
