"""Baselines: a legacy repository fails only on new findings, even after lines move."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

ENGINE = Path(__file__).parent / "fixtures" / "lint" / "engine"


@pytest.fixture
def legacy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    shutil.copy(ENGINE / "releases.py", tmp_path)
    return tmp_path


def test_baseline_accepts_old_findings_and_reports_new_ones(cli, legacy: Path) -> None:
    written = cli("lint", "--target", "24.3.100", "--write-baseline", "baseline.json")
    assert written.code == 0 and written.out == "Wrote 3 findings to baseline.json.\n"
    document = json.loads((legacy / "baseline.json").read_text())
    assert document["apispec_baseline"] == 1
    assert [e["code"] for e in document["findings"]] == ["API001", "API005", "API002"]

    assert cli("lint", "--target", "24.3.100", "--baseline", "baseline.json").code == 0

    source = legacy / "releases.py"
    text = source.read_text()
    moved = '"""Moved down by a new header."""\n\n\n' + text.replace(
        "def channels():", "def more():\n    return None\n\n\ndef channels():"
    )
    moved += '\n\ndef settings_again(sid):\n    return requests.get(f"{BASE}/experimental/sensors/{sid}/settings", headers=HEADERS)\n'
    source.write_text(moved)
    result = cli("lint", "--target", "24.3.100", "--baseline", "baseline.json")
    assert result.code == 1
    listed = [line for line in result.out.splitlines() if ": API" in line]
    assert len(listed) == 1 and listed[0].startswith("releases.py:35:")  # only the new call


def test_identical_lines_are_counted(cli, legacy: Path) -> None:
    cli("lint", "--target", "24.3.100", "--write-baseline", "baseline.json")
    source = legacy / "releases.py"
    text = source.read_text()
    line = '    return requests.get(f"{BASE}/channels", headers=HEADERS)\n'
    source.write_text(text.replace(line, line + line))  # the same call once more
    result = cli(
        "lint", "--target", "24.3.100", "--baseline", "baseline.json", "--fail-on", "warning"
    )
    assert result.code == 1
    assert [x for x in result.out.splitlines() if ": API" in x] == [
        "releases.py:21:33: API002 [warning] GET /channels is deprecated since 24.3.100 (no "
        "removal release named); use GET /experimental/channels (experimental: there is no "
        "stable successor yet)"
    ]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{not json", "not a baseline file (invalid JSON"),
        ('{"findings": []}', "not an apispec baseline"),
        ('{"apispec_baseline": 1, "findings": [{"code": "API001"}]}', "malformed baseline entry"),
    ],
)
def test_bad_baseline_is_a_usage_error(cli, legacy: Path, content: str, message: str) -> None:
    (legacy / "b.json").write_text(content)
    result = cli("lint", "--baseline", "b.json")
    assert result.code == 2 and message in result.err
