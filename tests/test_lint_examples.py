"""Acceptance 1: `apispec lint examples/` reports exactly these findings, file by file.

The examples are realistic client scripts in eleven formats; each row is
(line, column, code) with the default target (the newest concrete release). A change to
extraction, matching or the rules that moves any of them shows up here.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent
EXPECTED: dict[str, list[tuple[int, int, str]]] = {
    "examples/ansible/prtg-decommission.yml": [
        (10, 29, "API001"),
        (18, 29, "API003"),
    ],
    "examples/csharp/PrtgReport.cs": [
        (19, 31, "API003"),  # `type = device`: a type value the registry assumes (issue 23)
        (21, 81, "API003"),
        (23, 70, "API002"),  # a lone word under HttpClient.BaseAddress (issue 18 point 2)
        (29, 41, "API002"),
        (35, 64, "API007"),
    ],
    "examples/go/main.go": [
        (39, 33, "API003"),
        (43, 33, "API002"),
        (47, 21, "API003"),
        (52, 33, "API006"),
        (53, 17, "API011"),
        (58, 53, "API003"),
    ],
    "examples/java/PrtgAudit.java": [
        (13, 58, "API003"),
        (28, 58, "API002"),
        (35, 37, "API003"),
    ],
    "examples/php/prtg_status.php": [
        (12, 95, "API006"),
        (12, 104, "API006"),
        (16, 36, "API002"),
        (20, 30, "API003"),
    ],
    "examples/postman/prtg-api-v2.postman_collection.json": [
        (24, 28, "API002"),
        (32, 28, "API003"),
        (40, 28, "API003"),
    ],
    "examples/powershell/Sync-PrtgGroups.ps1": [
        (21, 39, "API003"),
        (22, 41, "API002"),
        (25, 34, "API003"),
        (26, 50, "API002"),
        (29, 30, "API006"),
        (29, 52, "API006"),
        (32, 33, "API004"),
        (33, 33, "API003"),
    ],
    "examples/python/prtg_inventory.py": [
        (25, 33, "API006"),
        (25, 36, "API006"),
        (25, 52, "API008"),
        (34, 32, "API001"),
        (38, 32, "API002"),
        (42, 32, "API002"),
        (42, 59, "API011"),
        (50, 32, "API004"),
        (54, 32, "API004"),
        (58, 26, "API003"),
        (62, 26, "API007"),
        (66, 28, "API006"),
    ],
    "examples/ruby/prtg_cleanup.rb": [
        (16, 21, "API003"),
        (22, 50, "API006"),
        (23, 18, "API002"),
        (24, 15, "API002"),
    ],
    "examples/shell/prtg-maintenance.sh": [
        (11, 46, "API010"),
        (13, 49, "API005"),
        (16, 61, "API003"),
        (19, 37, "API009"),
        (21, 9, "API003"),
        (23, 95, "API006"),
        (25, 49, "API002"),
        (27, 71, "API007"),
        (29, 76, "API011"),
        (29, 88, "API008"),
    ],
    "examples/typescript/prtgClient.ts": [
        (8, 60, "API006"),
        (18, 35, "API002"),
        (24, 24, "API006"),
        (24, 60, "API011"),
        (30, 23, "API003"),
        (34, 31, "API004"),
        (38, 31, "API003"),
    ],
}


@pytest.fixture(scope="module")
def findings() -> dict[str, list[tuple[int, int, str]]]:
    import os

    from apispec.lint.run import LintRequest, execute

    here = os.getcwd()
    os.chdir(ROOT)
    try:
        outcome = execute(LintRequest(paths=[Path("examples")]))
    finally:
        os.chdir(here)
    found: dict[str, list[tuple[int, int, str]]] = {}
    for f in outcome.result.findings:
        found.setdefault(f.path, []).append((f.line, f.column, f.code))
    return found


@pytest.mark.parametrize("path", sorted(EXPECTED))
def test_findings_per_example_file(findings, path: str) -> None:
    assert findings.get(path) == EXPECTED[path]


def test_every_example_file_is_covered(findings) -> None:
    files = sorted(
        p.relative_to(ROOT).as_posix() for p in (ROOT / "examples").rglob("*") if p.is_file()
    )
    assert sorted(findings) == sorted(EXPECTED) == files


def test_examples_cover_every_kind_of_problem() -> None:
    codes = {code for rows in EXPECTED.values() for _, _, code in rows}
    assert {"API001", "API002", "API003", "API004", "API006"} <= codes
    languages = {Path(p).parts[1] for p in EXPECTED}
    assert len(languages) >= 6


def test_readme_command_exits_0_with_fail_on_never_and_1_by_default(cli, monkeypatch) -> None:
    """The README's main-job command is `apispec lint --fail-on never examples/`."""
    monkeypatch.chdir(ROOT)
    readme = cli("lint", "--fail-on", "never", "examples/")
    assert readme.code == 0, readme.err
    total = sum(map(len, EXPECTED.values()))
    assert f"Found {total} findings (" in readme.out
    assert cli("lint", "examples/").code == 1
    result = cli("lint", "--fail-on", "never", "--format", "json", "examples/")
    assert result.code == 0
    assert json.loads(result.out)["summary"]["findings"] == total
