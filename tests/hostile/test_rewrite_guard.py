"""Issue 22, point 3: `--fix` and `--add-suppressions` never stop half way.

Both lint each file again before changing it (the changes must match exactly the
bytes read) and after writing it (the report shows what is left). Those re-lints had
no crash guard and no time budget: one file's crash ended the run with some files
written and no report. Now that file is reported (not checked: exit 3 for a crash, 2
for the budget) and every other file is still done.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

import apispec.lint.engine
from apispec.lint import budget
from tests.hostile.helpers import clean, tree_bytes

SOURCE = (
    "import requests\n"
    'BASE = "https://monitor.example.com:1616/api/v2"\n'
    'requests.get(f"{BASE}/sensors/{sid}/overview", headers=AUTH)\n'
)
FIXED = SOURCE.replace("/sensors/{sid}/overview", "/sensors/{sid}")
SUPPRESSED = SOURCE.replace("AUTH)\n", "AUTH)  # apispec: ignore[API002]\n")
CRASH = "not linted: internal error (ValueError: unexpected shape); please report it"
BUDGET = "not linted: took longer than the time budget of 10 s (--file-timeout)"


def _failing_on(monkeypatch: pytest.MonkeyPatch, call: int, error: BaseException) -> None:
    """b.py fails the `call`-th time it is linted (1: the run, 2: before its rewrite,
    3: after it); every other file and call is linted as usual."""
    original = apispec.lint.engine.Checker.lint_text
    calls: dict[str, int] = {}

    def faulty(self: object, text: str, path: str) -> list:
        calls[path] = calls.get(path, 0) + 1
        if path.endswith("b.py") and calls[path] == call:
            raise error
        return original(self, text, path)  # type: ignore[arg-type]

    monkeypatch.setattr(apispec.lint.engine.Checker, "lint_text", faulty)


# A crash is exit 3, the time budget exit 2; each with its one line on standard error.
FAILURES = pytest.mark.parametrize(
    ("error", "code", "line"),
    [
        (
            ValueError("unexpected shape"),
            3,
            f"apispec: internal error: b.py: {CRASH} (set APISPEC_DEBUG=1 for the traceback)",
        ),
        (budget.TimeBudgetExceeded(), 2, f"apispec: error: b.py: {BUDGET}"),
    ],
    ids=["crash", "budget"],
)


@pytest.fixture
def tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for name in ("a.py", "b.py", "c.py"):
        (tmp_path / name).write_text(SOURCE)
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize(("option", "done"), [("--fix", FIXED), ("--add-suppressions", SUPPRESSED)])
@FAILURES
def test_a_file_failing_before_its_rewrite_is_left_alone_and_the_others_are_done(
    cli: Callable,
    tree: Path,
    monkeypatch: pytest.MonkeyPatch,
    option: str,
    done: str,
    error: BaseException,
    code: int,
    line: str,
) -> None:
    before = tree_bytes(tree)
    _failing_on(monkeypatch, 2, error)
    result = clean(cli("lint", option, "--fail-on", "never", "."), code)
    assert line in result.err.splitlines()
    assert tree_bytes(tree) == {**before, "a.py": done.encode(), "c.py": done.encode()}


@FAILURES
def test_a_file_failing_after_its_fix_is_reported_not_checked(
    cli: Callable,
    tree: Path,
    monkeypatch: pytest.MonkeyPatch,
    error: BaseException,
    code: int,
    line: str,
) -> None:
    _failing_on(monkeypatch, 3, error)
    result = clean(cli("lint", "--fix", "--fail-on", "never", "."), code)
    assert line in result.err.splitlines()
    assert tree_bytes(tree) == {name: FIXED.encode() for name in ("a.py", "b.py", "c.py")}
    assert "Fixed 3 findings." in result.out
    assert f"b.py: {CRASH if code == 3 else BUDGET}" in result.out  # listed, never "No findings."
    assert "No findings" not in result.out
