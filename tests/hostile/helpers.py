"""Hostile inputs: shared helpers.

`apispec_run` runs the real `apispec` process with a timeout, so an input that
makes apispec hang fails its test instead of stalling the suite; `clean`
checks the contract of docs/cli.md: the documented exit code, one line per
problem on standard error, never a traceback.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass, field
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
    return _child(["-m", "apispec", *args], cwd, timeout, env)


def _child(argv: list[str], cwd: Path | None, timeout: float, env: dict[str, str]) -> Run:
    """`python ARGV...` with caches off and no APISPEC_DEBUG unless `env` sets it."""
    environment = {**os.environ, "APISPEC_NO_CACHE": "1", **env}
    if "APISPEC_DEBUG" not in env:
        environment.pop("APISPEC_DEBUG", None)
    done = subprocess.run(
        [sys.executable, *argv],
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


# The child of `apispec_audited`: record every file opened, run the CLI, write the list.
_AUDITED = r"""
import json, os, sys
opened = []
def hook(event, args):
    if event == "open" and args and isinstance(args[0], (str, bytes)):
        opened.append(os.fsdecode(args[0]))
sys.addaudithook(hook)
from apispec.cli import main
try:
    code = main(sys.argv[2:])
finally:
    with open(sys.argv[1], "w") as log:
        json.dump(opened[:-1], log)  # the last open is the log itself
sys.exit(code)
"""


def traced_run(
    *args: str, cwd: Path, trace: Path, timeout: float = 60, **env: str
) -> tuple[Run, list[str]]:
    """`apispec ARGS...` (or `--python CODE`) in `cwd`, and every path it opened or listed,
    as lines `open PATH` and `list PATH` (absolute)."""
    run = _child(
        ["-c", _TRACER, *args],
        cwd,
        timeout,
        {**env, "APISPEC_TEST_TRACE": str(trace)},
    )
    return run, trace.read_text(encoding="utf-8", errors="surrogateescape").splitlines()


@dataclass
class AuditedRun(Run):
    opened: list[str] = field(default_factory=list)
    cwd: Path = Path()

    def opened_under(self, directory: Path) -> set[str]:
        """The files under `directory` the run opened (real paths, relative to it)."""
        root = os.path.realpath(directory)
        found = set()
        for name in self.opened:
            real = os.path.realpath(os.path.join(self.cwd, name))
            if real.startswith(root + os.sep):
                found.add(os.path.relpath(real, root))
        return found


def apispec_audited(
    *args: str, cwd: Path, log: Path, timeout: float = 60, **env: str
) -> AuditedRun:
    """`apispec_run` in a child that records every file it opens (written to `log`)."""
    run = _child(["-c", _AUDITED, str(log), *args], cwd, timeout, env)
    return AuditedRun(run.code, run.out, run.err, run.raw_out, json.loads(log.read_text()), cwd)


def one_error_line(result: Run, code: int, *words: str, max_length: int = 400) -> str:
    """Assert exit `code`, a single `apispec: error:` line on stderr holding `words` (notes
    such as the default release's aside); return the line."""
    clean(result, code)
    lines = [line for line in result.err.splitlines() if not line.startswith("apispec: note: ")]
    assert len(lines) == 1 and lines[0].startswith("apispec: error: "), result.err[-2000:]
    for word in words:
        assert word in lines[0], lines[0]
    assert len(lines[0]) < max_length, f"an error line of {len(lines[0])} characters"
    return lines[0]


def tree(directory: Path) -> dict[str, bytes | str]:
    """Every file (its bytes) and symbolic link (its target) under `directory`."""
    found: dict[str, bytes | str] = {}
    for root, dirs, files in os.walk(directory):
        for name in dirs + files:
            path = Path(root, name)
            key = str(path.relative_to(directory))
            if path.is_symlink():
                found[key] = os.readlink(path)
            elif path.is_file():
                found[key] = path.read_bytes()
    return found
