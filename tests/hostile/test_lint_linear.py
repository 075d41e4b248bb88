"""Inputs that made extraction super-linear (issue 11, points 8 and 9; issue 15, point 3).

Each test lints, in a real `apispec lint` process, a file of a size where the
code before the fix took 12 s to over a minute of CPU (measured in one
process, noted per test), and asserts the exit code, the report, no
traceback, and a time bound generous enough for a loaded machine. `benchmarks/hostile.py` measures
the growth of the same inputs at 1x, 4x and 16x.
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from apispec.lint.pool import PARALLEL_MIN_FILES

BOUND = 15.0  # seconds of wall time; each input takes well under 2 s of CPU now

SH = "#!/bin/sh\n# monitor.example.com:1616\n"
PY = 'import requests\nBASE = "https://monitor.example.com:1616/api/v2"\n'


def lint(path: Path, *options: str) -> tuple[subprocess.CompletedProcess[str], float, dict]:
    start = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "apispec", "lint", "--format", "json", *options, str(path)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    took = time.monotonic() - start
    assert "Traceback" not in done.stderr, done.stderr
    return done, took, json.loads(done.stdout) if done.stdout else {}


def codes(report: dict) -> dict[str, int]:
    return report["summary"]["by_rule"]


# (name, file name, text, expected findings by rule, CPU before the fix). The calls name
# experimental endpoints that are nobody's successor, so that API003 reports each.
CASES = [
    (
        "yaml-long-blank-run-in-a-line",
        "play.yml",
        "# prtg\nurl: /api/v2/devices x" + " " * 80_000 + "y\n",
        {},  # a path followed by prose is not a call
        "33 s",
    ),
    (
        "yaml-long-indentation-run",
        "play.yml",
        "# prtg\nurl: /api/v2/experimental/objects\n" + " " * 80_000 + "x: 1\n",
        {"API003": 1},
        "over 60 s",
    ),
    (
        "shell-run-of-dollar-brace-quoted",
        "run.sh",
        SH + 'curl "$B/api/v2/experimental/devices/' + "${" * 60_000 + '"\n',
        # `${${...` unclosed: an unknown segment; curl GETs it, which the registry does not
        # list for /experimental/devices/{id}
        {"API007": 1},
        "20 s",
    ),
    (
        "shell-run-of-dollar-brace",
        "run.sh",
        SH + "curl x" + "${" * 40_000 + "\n",
        {},
        "25 s",
    ),
    (
        "url-with-a-long-query",
        "client.py",
        PY + 'requests.get(f"{BASE}/experimental/objects?' + "a=1&" * 32_000 + '")\n',
        {"API003": 1, "API011": 32_000},
        "12 s",
    ),
    (
        "markdown-run-of-quoted-api-v2",
        "notes.md",
        "prtg\n```\n" + '"/api/v2' * 30_000 + "\n```\n",
        {},
        "37 s",
    ),
    (
        "markdown-fences",
        "notes.md",
        "prtg\n" + "```\n" * 80_000,
        {},
        "21 s",
    ),
    (
        "terraform-strings-nested-in-interpolations",
        "main.tf",
        '# prtg :1616\nx = "' + '${"' * 60_000 + '"\n',
        {},
        "a RecursionError (exit 3) at 1,000 levels",
    ),
    (
        "terraform-heredocs-never-closed",
        "main.tf",
        "# prtg :1616\n"
        + "x = <<EOT\n" * 60_000
        + 'y = "https://prtg:1616/api/v2/experimental/objects"\n',
        {"API003": 1},  # each unclosed heredoc costs its own line: the URL after them counts
        "the URL was swallowed",
    ),
    (
        "go-many-resty-clients",
        "client.go",
        "package x\n// prtg :1616\n" + "r := resty.New()\n" * 20_000 + 'r.R().Get("health")\n',
        {},
        "9 s at 5,000 clients",
    ),
    (
        "yaml-script-keys-each-deeper",
        ".gitlab-ci.yml",
        "# prtg :1616\n"
        + "".join(" " * k + "script:\n" for k in range(1_500))
        + "x:\n  script: curl https://prtg:1616/api/v2/experimental/objects\n",
        {"API003": 1},  # a key inside a script is its text: each line is read once
        "new shape (CI scripts)",
    ),
    (
        "yaml-script-line-of-unclosed-expressions",
        "ci.yml",
        "run: curl https://prtg:1616/api/v2/experimental/objects " + "${{ a " * 40_000 + "\n",
        {"API003": 1},
        "new shape (CI scripts)",
    ),
    (
        "json-array-of-paths",
        "paths.json",
        '{"host": "prtg", "paths": [' + '"/api/v2/experimental/objects", ' * 6_000 + '""]}\n',
        {"API003": 6_000},
        "26 s",
    ),
]


@pytest.mark.parametrize(
    ("name", "filename", "text", "expected", "before"), CASES, ids=[c[0] for c in CASES]
)
def test_super_linear_pattern_lints_fast(
    tmp_path: Path, name: str, filename: str, text: str, expected: dict, before: str
) -> None:
    path = tmp_path / filename
    path.write_text(text)
    done, took, report = lint(path)
    failing = {"warning", "error"} & set(report["summary"]["by_severity"])
    assert done.returncode == (1 if failing else 0), done.stderr
    assert codes(report) == expected and report["skipped"] == []
    assert took < BOUND, f"{name}: {took:.1f} s (before the fix: {before} of CPU)"


def test_shell_script_with_6400_calls(tmp_path: Path) -> None:
    """Command words and headers are read per call, not by a pass over the script.

    Before: 28 s in a real process on a loaded machine (11 s of CPU); now well under 2 s.
    """
    lines = [SH, 'T="$(cat token)"\n']
    lines += [
        f'curl -s -H "Authorization: Bearer $T" "$B/api/v2/experimental/devices/{i}?limit=10"\n'
        for i in range(6400)
    ]
    lines += ['curl -H "Authorization: Token $T" "$B/api/v2/experimental/devices/1"\n']
    path = tmp_path / "calls.sh"
    path.write_text("".join(lines))
    done, took, report = lint(path)
    assert done.returncode == 1  # the last call's header lacks `Bearer `: an error
    # curl GETs each, which the registry lists for /experimental/devices/{id} only as DELETE
    assert codes(report) == {"API007": 6401, "API009": 1}
    last = [f for f in report["findings"] if f["code"] == "API009"]
    assert last[0]["line"] == len("".join(lines).splitlines())
    assert took < BOUND, f"{took:.1f} s"


def test_python_calls_each_with_a_header(tmp_path: Path) -> None:
    """Each header goes to its own call without comparing it with every call (12 s before)."""
    calls = 12_800
    text = PY + "".join(
        f'requests.get(f"{{BASE}}/experimental/objects?offset={i}", headers={{"Authorization": t}})\n'
        for i in range(calls)
    )
    path = tmp_path / "calls.py"
    path.write_text(text)
    done, took, report = lint(path)
    assert done.returncode == 1
    assert codes(report) == {"API003": calls, "API009": calls}
    headers = [f["line"] for f in report["findings"] if f["code"] == "API009"]
    assert headers == list(range(3, calls + 3))  # one per call, on the call's own line
    assert took < BOUND, f"{took:.1f} s"


def test_a_filter_whose_fixes_the_string_cannot_hold(tmp_path: Path) -> None:
    """API006's fixes are verified by extracting the file again, a bounded number of times.

    150 ids to quote in a double-quoted string (which cannot hold the `"`): each fix
    tried alone on a 10,000-line file took 12 s of CPU before the bound; now under 1 s.
    """
    filler = "".join(f'x{n} = compute({n}, "label {n}")\n' for n in range(5000))
    bad = " or ".join(["parentid = 5"] * 150)
    call = f'requests.get(f"{{BASE}}/experimental/objects", params={{"filter": "{bad}"}})\n'
    path = tmp_path / "ids.py"
    path.write_text(PY + filler + call + filler)
    done, took, report = lint(path)
    assert done.returncode == 1, done.stderr
    assert codes(report) == {"API003": 1, "API006": 150} and report["skipped"] == []
    assert [f["fix"] for f in report["findings"] if f["code"] == "API006"] == [None] * 150
    assert took < BOUND, f"{took:.1f} s"


# -- the per-file time budget -------------------------------------------------------

SLOW_CALLS = 40_000  # a real input that takes seconds of CPU to lint: 40,000 calls


def slow_script(path: Path) -> Path:
    path.write_text(
        SH + "".join(f'curl "$B/api/v2/experimental/devices/{i}"\n' for i in range(SLOW_CALLS))
    )
    return path


def test_file_over_its_time_budget_is_skipped_and_the_run_goes_on(tmp_path: Path) -> None:
    slow = slow_script(tmp_path / "slow.sh")
    (tmp_path / "fine.py").write_text(PY + 'requests.get(f"{BASE}/experimental/objects")\n')
    done, took, report = lint(tmp_path, "--file-timeout", "0.5")
    assert done.returncode == 2, done.stderr  # a file nobody checked fails the run (issue 22)
    assert codes(report) == {"API003": 1} and report["findings"][0]["path"].endswith("fine.py")
    assert report["skipped"] == [
        {
            "path": report["skipped"][0]["path"],
            "reason": "not linted: took longer than the time budget of 0.5 s (--file-timeout)",
            "not_checked": True,
        }
    ]
    assert report["skipped"][0]["path"].endswith(slow.name)
    assert report["summary"]["files"] == 1 and took < BOUND


def test_time_budget_in_the_process_pool(tmp_path: Path) -> None:
    """Workers of the pool interrupt a slow file the same way (as many files as start two)."""
    slow_script(tmp_path / "slow.sh")
    for i in range(PARALLEL_MIN_FILES):
        (tmp_path / f"f{i:03}.py").write_text(
            PY + f'requests.get(f"{{BASE}}/experimental/objects?limit={i + 1}")\n'
        )
    done, took, report = lint(tmp_path, "--file-timeout", "0.5", "--jobs", "2")
    assert done.returncode == 2, done.stderr
    assert codes(report) == {"API003": PARALLEL_MIN_FILES}
    assert [s["path"].rsplit("/", 1)[-1] for s in report["skipped"]] == ["slow.sh"]
    assert "time budget of 0.5 s" in report["skipped"][0]["reason"] and took < 60


def test_time_budget_from_the_configuration_file(tmp_path: Path) -> None:
    slow_script(tmp_path / "slow.sh")
    (tmp_path / ".apispec.toml").write_text("file-timeout = 0.5\n")
    done = subprocess.run(
        [sys.executable, "-m", "apispec", "lint", "--format", "json", "."],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "time budget of 0.5 s" in json.loads(done.stdout)["skipped"][0]["reason"]


@pytest.mark.parametrize("value", ["-1", "soon", "nan", "inf", "1e999"])
def test_a_time_budget_that_is_not_a_number_of_seconds_is_a_usage_error(
    tmp_path: Path, value: str
) -> None:
    (tmp_path / "a.py").write_text("x = 1\n")
    done = subprocess.run(
        [sys.executable, "-m", "apispec", "lint", f"--file-timeout={value}", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        f"apispec: error: --file-timeout: expected a number of seconds such as 10 or 2.5, "
        f"got {value!r}"
    ]


def test_time_budget_outside_the_main_thread(tmp_path: Path) -> None:
    """Where no alarm can be set (a language server's thread) the scan loop checks the deadline."""
    from apispec.lint import budget
    from apispec.lint.config import Config
    from apispec.lint.engine import Checker, Options
    from apispec.registry.load import load_registry

    registry = load_registry()
    checker = Checker(registry, Options(Config(), (registry.newest_release.text,)))
    text = slow_script(tmp_path / "slow.sh").read_text()
    outcome: dict[str, object] = {}

    def work() -> None:
        start = time.monotonic()
        try:
            with budget.deadline(0.3):
                outcome["findings"] = checker.lint_text(text, "slow.sh")
        except budget.TimeBudgetExceeded:
            outcome["stopped after"] = time.monotonic() - start

    thread = threading.Thread(target=work)
    thread.start()
    thread.join(120)
    assert "findings" not in outcome and outcome["stopped after"] < 10  # type: ignore[operator]
    assert len(checker.lint_text(text[:2000], "slow.sh")) > 0  # the checker still works


def test_time_budget_on_standard_input(tmp_path: Path) -> None:
    text = slow_script(tmp_path / "slow.sh").read_text()
    command = ["lint", "--format=json", "--file-timeout=0.5", "--stdin-filename=slow.sh", "-"]
    done = subprocess.run(
        [sys.executable, "-m", "apispec", *command],
        input=text,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2 and "Traceback" not in done.stderr
    report = json.loads(done.stdout)
    assert report["findings"] == [] and report["summary"]["files"] == 0
    assert report["skipped"] == [
        {
            "path": "slow.sh",
            "reason": "not linted: took longer than the time budget of 0.5 s (--file-timeout)",
            "not_checked": True,
        }
    ]
