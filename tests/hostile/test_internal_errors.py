"""Point 19 of issue 11: a bug in apispec is exit 3 and one line, never exit 1 or a traceback.

Exit 1 means findings, so a crash reported as 1 passes for a lint result in
CI, and `--fail-on never` would even turn it into a pass. The fault is
injected into a real process (a registry loader that raises), as a user
would meet it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import apispec.lint.engine
from tests.hostile.helpers import Run, clean

LINE = (
    "apispec: internal error: RuntimeError: the registry exploded on line two "
    "(set APISPEC_DEBUG=1 for the traceback; please report it)\n"
)
INJECT = """
import sys
import apispec.registry.load
def explode(*args, **kwargs):
    raise RuntimeError("the registry exploded\\non line two")
apispec.registry.load.load_registry = explode
from apispec.cli import main
raise SystemExit(main(sys.argv[1:]))
"""


def _faulty(*args: str, cwd: Path, debug: bool = False) -> Run:
    env = {"APISPEC_NO_CACHE": "1", "PATH": "/usr/bin:/bin"}
    if "PYTHONPATH" in os.environ:
        env["PYTHONPATH"] = os.environ["PYTHONPATH"]
    if debug:
        env["APISPEC_DEBUG"] = "1"
    done = subprocess.run(
        [sys.executable, "-c", INJECT, *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    return Run(done.returncode, done.stdout, done.stderr)


@pytest.mark.parametrize(
    "args",
    [
        ["lint", "."],
        ["lint", ".", "--fail-on", "never"],
        ["registry", "list"],
        ["releases"],
        ["openapi"],
        ["docs", "-o", "site"],
        ["changelog", "25.x.122"],
        ["mcp-tools"],
    ],
)
def test_any_command_crashing_is_exit_3_and_one_line(tmp_path: Path, args: list[str]) -> None:
    (tmp_path / "a.py").write_text("x = 1\n")
    result = clean(_faulty(*args, cwd=tmp_path), 3)
    assert result.err == LINE
    assert result.out == ""


def test_apispec_debug_prints_the_traceback(tmp_path: Path) -> None:
    result = _faulty("releases", cwd=tmp_path, debug=True)
    assert result.code == 3
    assert result.err.startswith("Traceback (most recent call last):")
    assert result.err.endswith(LINE)


def test_a_crash_on_one_file_is_reported_and_the_run_goes_on(
    cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("a.py", "boom.py", "c.py"):
        (tmp_path / name).write_text('x = "https://h:1616/api/v2/devices"\n')
    original = apispec.lint.engine.Checker.lint_text

    def crash_on_boom(self, text: str, path: str) -> list:
        if path.endswith("boom.py"):
            raise ValueError("unexpected shape")
        return original(self, text, path)

    monkeypatch.setattr(apispec.lint.engine.Checker, "lint_text", crash_on_boom)
    monkeypatch.chdir(tmp_path)
    text = clean(cli("lint", ".", "--fail-on", "never"), 3)
    assert text.err == (
        "apispec: internal error: boom.py: not linted: internal error (ValueError: unexpected "
        "shape); please report it (set APISPEC_DEBUG=1 for the traceback)\n"
    )
    assert "a.py:1:27: API002" in text.out and "c.py:1:27: API002" in text.out
    report = json.loads(clean(cli("lint", ".", "--format", "json"), 3).out)
    assert report["skipped"][0]["internal_error"] is True
    sarif = json.loads(clean(cli("lint", ".", "--format", "sarif"), 3).out)
    invocation = sarif["runs"][0]["invocations"][0]
    assert invocation["executionSuccessful"] is False
    assert invocation["toolExecutionNotifications"][0]["level"] == "error"
