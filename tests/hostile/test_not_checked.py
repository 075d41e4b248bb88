"""Issue 22, point 9: a file the linter could not check fails the run in every format.

A file over the time budget or one apispec crashed on was once listed as "not linted"
with the exit code unchanged: CI passed on a file nobody checked, and the text report
said "No findings". Now every format says which file was not checked and why, and the
run exits 2 (over the budget: the linter's limit, not a verdict on the code) or 3 (an
internal error), also under `--fail-on never`, which concerns findings only.
"""

from __future__ import annotations

import csv
import io
import json
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path

import pytest

import apispec.lint.engine
from apispec.lint import budget
from tests.hostile.helpers import apispec_run, clean, tree_bytes

CLEAN = 'import requests\nrequests.get("https://h:1616/api/v2/experimental/devices")\n'
BUDGET = "not linted: took longer than the time budget of 10 s (--file-timeout)"
CRASH = "not linted: internal error (ValueError: unexpected shape); please report it"


@pytest.fixture
def tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """fine.py is clean; slow.py runs over its time budget; boom.py crashes the linter."""
    for name in ("fine.py", "slow.py", "boom.py"):
        (tmp_path / name).write_text(CLEAN)
    original = apispec.lint.engine.Checker.lint_text

    def faulty(self: object, text: str, path: str) -> list:
        if path.endswith("slow.py"):
            raise budget.TimeBudgetExceeded
        if path.endswith("boom.py"):
            raise ValueError("unexpected shape")
        return original(self, text, path)  # type: ignore[arg-type]

    monkeypatch.setattr(apispec.lint.engine.Checker, "lint_text", faulty)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _full(out: str) -> None:
    assert "No findings" not in out
    assert "1 file could not be checked (listed below); the files checked have no findings." in out
    assert f"  slow.py: {BUDGET}" in out


def _json(out: str) -> None:
    report = json.loads(out)
    assert report["skipped"] == [
        {"path": "slow.py", "reason": BUDGET, "not_checked": True},
    ]
    assert report["summary"]["not_checked"] == 1


def _sarif(out: str) -> None:
    invocation = json.loads(out)["runs"][0]["invocations"][0]
    assert invocation["executionSuccessful"] is False
    [note] = invocation["toolExecutionNotifications"]
    assert note["level"] == "error" and note["message"]["text"] == f"skipped: {BUDGET}"
    assert note["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "slow.py"


def _junit(out: str) -> None:
    root = ET.fromstring(out)
    assert root.get("errors") == "1" and root.get("failures") == "0"
    [error] = root.iter("error")
    assert error.get("message") == BUDGET and error.get("type") == "not-checked"
    assert [case.get("classname") for case in root.iter("testcase")] == ["slow.py"]


def _github(out: str) -> None:
    assert out == f"::error file=slow.py,title=not checked::slow.py: {BUDGET}\n"


def _gitlab(out: str) -> None:
    [issue] = json.loads(out)
    assert issue["check_name"] == "not-checked" and issue["severity"] == "critical"
    assert issue["description"] == f"slow.py: {BUDGET}"
    assert issue["location"] == {"path": "slow.py", "lines": {"begin": 1, "end": 1}}


def _csv(out: str) -> None:
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [(r["path"], r["severity"], r["rule"], r["message"]) for r in rows] == [
        ("slow.py", "error", "not-checked", BUDGET)
    ]


def _markdown(out: str) -> None:
    assert "No findings" not in out
    assert "The files checked have no findings;" in out
    assert "**1 file could not be checked**" in out
    assert f"- slow.py: {BUDGET}" in out


FORMATS: dict[str, Callable[[str], None]] = {
    "full": _full,
    "concise": _full,
    "json": _json,
    "sarif": _sarif,
    "junit": _junit,
    "github": _github,
    "gitlab": _gitlab,
    "csv": _csv,
    "markdown": _markdown,
}


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_file_over_its_time_budget_fails_the_run_in_every_format(
    cli: Callable, tree: Path, fmt: str
) -> None:
    before = tree_bytes(tree)
    result = clean(cli("lint", "--format", fmt, "--fail-on", "never", "fine.py", "slow.py"), 2)
    assert result.err == f"apispec: error: slow.py: {BUDGET}\n"
    FORMATS[fmt](result.out)
    assert tree_bytes(tree) == before


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_crash_and_a_budget_overrun_exit_3_in_every_format(
    cli: Callable, tree: Path, fmt: str
) -> None:
    result = clean(cli("lint", "--format", fmt, "--fail-on", "never", "."), 3)
    assert result.err.splitlines() == [
        f"apispec: internal error: boom.py: {CRASH} (set APISPEC_DEBUG=1 for the traceback)",
        f"apispec: error: slow.py: {BUDGET}",
    ]
    assert "boom.py" in result.out and "slow.py" in result.out
    assert "No findings" not in result.out


def test_a_real_file_over_its_time_budget_is_exit_2(tmp_path: Path) -> None:
    """End to end, in a real process: 40,000 calls take seconds, the budget is 0.2 s."""
    calls = "".join(f'curl "$B/api/v2/experimental/devices/{i}"\n' for i in range(40_000))
    (tmp_path / "slow.sh").write_text("#!/bin/sh\n# monitor.example.com:1616\n" + calls)
    (tmp_path / "fine.py").write_text(CLEAN)
    result = clean(
        apispec_run("lint", "--file-timeout=0.2", "--fail-on=never", ".", cwd=tmp_path), 2
    )
    reason = "not linted: took longer than the time budget of 0.2 s (--file-timeout)"
    assert result.err == f"apispec: error: slow.sh: {reason}\n"
    assert "1 file could not be checked (listed below); the files checked have no" in result.out
