"""`apispec lint --add-suppressions`: adopt the linter in a legacy tree in one step
(issue 13 point 12), as ruff's `--add-noqa` does. Through the real command."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.hostile.helpers import apispec_run, clean

PY = (
    'BASE = "https://prtg:1616/api/v2"\n'
    'a = requests.get(f"{BASE}/sensors/{sid}/overview")\n'
    'b = requests.get(f"{BASE}/experimental/objects", params={"filter": "status eq down"})\n'
    'c = requests.get(f"{BASE}/sensors/{sid}/overview", headers={"Authorization": key})'
    "  # apispec: ignore[API002]\n"
)
PY_AFTER = (
    'BASE = "https://prtg:1616/api/v2"\n'
    'a = requests.get(f"{BASE}/sensors/{sid}/overview")  # apispec: ignore[API002]\n'
    'b = requests.get(f"{BASE}/experimental/objects", params={"filter": "status eq down"})'
    "  # apispec: ignore[API003, API006]\n"
    'c = requests.get(f"{BASE}/sensors/{sid}/overview", headers={"Authorization": key})'
    "  # apispec: ignore[API002, API009]\n"
)
SH = (
    "#!/bin/sh\n"
    'curl -X DELETE "https://prtg:1616/api/v2/experimental/probes/$ID" \\\n'
    "  -H 'Authorization: Bearer x'\n"
    'curl "https://prtg:1616/api/v2/sensors/$ID/overview"\n'
)
MD = (
    "# Runbook\n"
    "\n"
    "```powershell\n"
    'Invoke-RestMethod "https://prtg:1616/api/v2/sensors/$Id/overview"\n'
    "```\n"
)


def tree(root: Path) -> None:
    (root / "client.py").write_text(PY)
    (root / "run.sh").write_text(SH)
    (root / "runbook.md").write_text(MD)
    (root / "collection.json").write_text(
        '{"host": "prtg", "url": "https://prtg:1616/api/v2/sensors/1/overview"}\n'
    )


def test_comments_in_each_language_and_a_warning_where_none_fits(tmp_path: Path) -> None:
    tree(tmp_path)
    result = clean(apispec_run("lint", "--add-suppressions", cwd=tmp_path), 0)
    assert result.out == "Added 6 suppressions to 3 files.\n"
    assert result.err.splitlines() == [
        "apispec: warning: collection.json:1: API002 not suppressed: no comment can be "
        "written on this line",
        "apispec: warning: run.sh:2: API003 not suppressed: no comment can be written on this line",
    ]
    assert (tmp_path / "client.py").read_text() == PY_AFTER
    assert (tmp_path / "run.sh").read_text() == SH.replace(
        '/overview"\n', '/overview"  # apispec: ignore[API002]\n'
    )
    assert (tmp_path / "runbook.md").read_text() == MD.replace(
        '/overview"\n', '/overview"  # apispec: ignore[API002]\n'
    )
    # the tree now lints with only what could not be suppressed
    # 1: collection.json's API002 could not be suppressed and fails by default
    after = clean(apispec_run("lint", "--format", "concise", "--quiet", cwd=tmp_path), 1)
    assert [line.split(" [")[0] for line in after.out.splitlines()] == [
        "collection.json:1:50: API002",
        "run.sh:2:41: API003",
    ]
    again = clean(apispec_run("lint", "--add-suppressions", cwd=tmp_path), 0)
    assert again.out == "Added 0 suppressions to 0 files.\n"  # nothing twice


def test_only_the_findings_the_run_reports_are_suppressed(tmp_path: Path) -> None:
    (tmp_path / "client.py").write_text(PY)
    clean(apispec_run("lint", "--add-suppressions", "--select", "API006", cwd=tmp_path), 0)
    text = (tmp_path / "client.py").read_text()
    assert text == PY.replace(
        '"status eq down"})\n', '"status eq down"})  # apispec: ignore[API006]\n'
    )


def test_standard_input_comes_back_with_the_comments(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "apispec", "lint", "--add-suppressions", "--stdin-filename", "c.py"],
        input=PY,
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=60,
    )
    assert (done.returncode, done.stdout, done.stderr) == (0, PY_AFTER, "")


def test_not_with_fix(tmp_path: Path) -> None:
    (tmp_path / "client.py").write_text(PY)
    result = clean(apispec_run("lint", "--add-suppressions", "--fix", cwd=tmp_path), 2)
    assert result.err == (
        "apispec: error: --add-suppressions writes comments, not fixes or a baseline: "
        "give it alone\n"
    )
    assert (tmp_path / "client.py").read_text() == PY


def test_a_symlink_out_of_the_tree_is_not_written(tmp_path: Path) -> None:
    outside = tmp_path / "outside.py"
    outside.write_text(PY)
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "link.py").symlink_to(outside)
    # followed only when asked (--follow-links), and even then never written
    result = clean(
        apispec_run("lint", "--add-suppressions", "--follow-links", "src", cwd=tmp_path), 0
    )
    assert outside.read_text() == PY
    assert result.out == "Added 0 suppressions to 0 files.\n"
    assert "src/link.py: no suppressions added: a symlink to" in result.err
