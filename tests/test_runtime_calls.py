"""`apispec traffic --calls`: the calls in code against the calls on the wire, both ways.

The repository (tests/fixtures/runtime/repo) calls two endpoints; the log shows
one of them, and another that no code in the repository explains (a script
kept elsewhere). Both directions of the gap must be named.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.conftest import FIXTURES

REPO = FIXTURES / "runtime" / "repo"
LOG = """\
192.0.2.7 - - [10/Oct/2024:13:55:36 +0200] "GET /api/v2/sensors/2048/overview HTTP/1.1" 200 512 "-" "inventory.py"
192.0.2.7 - - [10/Oct/2024:13:55:37 +0200] "GET /api/v2/sensors/2049/overview HTTP/1.1" 200 512 "-" "inventory.py"
192.0.2.9 - - [10/Oct/2024:14:00:00 +0200] "GET /api/v2/settings/public HTTP/1.1" 200 80 "-" "nightly-report.sh"
"""


def _calls(tmp_path: Path) -> Path:
    """What the linter found in the repository, as a user produces it: the CLI, by subprocess."""
    run = subprocess.run(
        [sys.executable, "-m", "apispec", "lint", ".", "--show-calls", "--format", "json"],
        cwd=REPO,
        capture_output=True,
        timeout=120,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    calls = tmp_path / "calls.json"
    calls.write_bytes(run.stdout)
    return calls


def test_both_directions_of_the_gap(cli, tmp_path: Path) -> None:
    calls = _calls(tmp_path)
    log = tmp_path / "access.log"
    log.write_text(LOG)
    result = cli(
        "traffic", str(log), "--calls", str(calls), "--format", "json", "--fail-on", "never"
    )
    assert result.code == 0, result.err
    report = json.loads(result.out)
    sites = {
        (e["method"], e["endpoint"]): [(s["path"], s["line"]) for s in e["call_sites"]]
        for e in report["endpoints"]
    }
    assert sites == {
        ("GET", "/sensors/{id}/overview"): [("scripts/inventory.py", 9)],
        ("GET", "/settings/public"): [],
    }
    assert report["calls"]["unexplained"] == [{"method": "GET", "endpoint": "/settings/public"}]
    never = report["calls"]["never_seen"]
    assert [(s["path"], s["line"], s["endpoint"]) for s in never] == [
        ("scripts/inventory.py", 13, "/groups")
    ]
    full = cli("traffic", str(log), "--calls", str(calls), "--fail-on", "never")
    assert (
        "seen at runtime, no call site explains them: 1\n  GET /settings/public (1 request, 1 client)"
        in full.out
    )
    assert (
        "call sites never seen at runtime: 1\n  scripts/inventory.py:13:32 GET /groups" in full.out
    )


def test_a_calls_file_of_another_kind_is_refused(cli, tmp_path: Path) -> None:
    log = tmp_path / "access.log"
    log.write_text(LOG)
    findings = tmp_path / "findings.json"
    findings.write_text(json.dumps({"findings": [], "summary": {}}))
    result = cli("traffic", str(log), "--calls", str(findings))
    assert (result.code, result.out) == (2, "")
    assert result.err == (
        f"apispec: error: {findings}: not the output of `apispec lint --show-calls --format json` "
        "(no calls list)\n"
    )
