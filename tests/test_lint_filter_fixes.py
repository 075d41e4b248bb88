"""API006 carries the filter checker's fix-its as edits of the file, where the string can hold them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from apispec.lint.config import Config
from apispec.lint.engine import Options, lint_text
from apispec.lint.finding import Applicability
from apispec.lint.fix import apply_fixes

OPTIONS = Options(Config(), ("25.x.122",))
HEAD = 'import requests\nB = "https://prtg:1616/api/v2"\n'


def _apispec(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "apispec", *args], cwd=cwd, capture_output=True, text=True
    )


def _filter_findings(text: str, name: str = "a.py"):
    return [f for f in lint_text(text, name, OPTIONS) if f.code == "API006"]


def _fixed(text: str, name: str = "a.py", unsafe: bool = False) -> str:
    return apply_fixes(text, lint_text(text, name, OPTIONS), unsafe)[0]


def test_lint_fix_repairs_the_filter_in_a_client_file_byte_exact(tmp_path):
    source = (
        "import requests\r\n"
        "\r\n"
        'BASE = "https://prtg.example.com:1616/api/v2"\r\n'
        'AUTH = {"Authorization": "Bearer " + TOKEN}  # café\r\n'
        'up = requests.get(f"{BASE}/experimental/devices", '
        'params={"filter": "status == up"}, headers=AUTH)\r\n'
    )
    client = tmp_path / "client.py"
    client.write_bytes(source.encode("utf-8"))
    report = _apispec("lint", "--format", "json", "client.py", cwd=tmp_path)
    assert report.returncode == 1, report.stderr
    (finding,) = [f for f in json.loads(report.stdout)["findings"] if f["code"] == "API006"]
    at = source.index("status == up") + len("status =")
    assert finding["fix"] == {
        "applicability": "safe",
        "message": "compare with a single `=`",
        "edits": [
            {
                "start": at,
                "end": at + 1,
                "content": "",
                "line": 5,
                "column": finding["column"],
                "end_line": 5,
                "end_column": finding["column"] + 1,
            }
        ],
    }
    fixed = _apispec("lint", "--fix", "client.py", cwd=tmp_path)
    assert "Fixed 1 finding." in fixed.stdout, fixed.stdout + fixed.stderr
    assert client.read_bytes() == source.replace("status == up", "status = up").encode("utf-8")
    again = _apispec("lint", "--format", "json", "client.py", cwd=tmp_path)
    # nothing left: /experimental/devices is GET /devices' named successor (no API003)
    assert json.loads(again.stdout)["findings"] == []


def test_an_unsafe_filter_fix_needs_unsafe_fixes(tmp_path):
    source = (
        HEAD
        + 'requests.get(f"{B}/experimental/devices", params={"filter": "tags contains \\"x\\""})\n'
    )
    client = tmp_path / "client.py"
    client.write_text(source)
    _apispec("lint", "--fix", "client.py", cwd=tmp_path)
    assert client.read_text() == source  # a guessed property: not without --unsafe-fixes
    _apispec("lint", "--fix", "--unsafe-fixes", "client.py", cwd=tmp_path)
    assert client.read_text() == source.replace("tags", "basic.tags")


def test_the_fix_is_mapped_through_escapes_and_url_encoding():
    text = HEAD + (
        'requests.get(f"{B}/experimental/sensors", params={"filter": "status == \\"up\\""})\n'
        'requests.get(f"{B}/experimental/sensors?filter=status%20%3D%3D%20up")\n'
    )
    assert all(f.fix is not None for f in _filter_findings(text))
    fixed = _fixed(text)
    assert '"filter": "status = up"' in fixed
    assert "?filter=status%20%3D%20up" in fixed
    assert _filter_findings(fixed) == []


def test_no_fix_where_the_string_cannot_hold_it_as_written():
    # Quoting the id needs `"` inside an f-string that `"` delimits: no edit is offered.
    double = HEAD + 'requests.get(f"{B}/experimental/sensors?filter=parentid = 5")\n'
    (finding,) = _filter_findings(double)
    assert finding.fix is None and "FLT004" in finding.message
    single = HEAD + "requests.get(f'{B}/experimental/sensors?filter=parentid = 5')\n"
    (finding,) = _filter_findings(single)
    assert finding.fix is not None and finding.fix.applicability is Applicability.SAFE
    assert 'filter=parentid = "5"\')' in _fixed(single)


def test_no_edit_reaches_across_the_code_between_two_literals():
    text = HEAD + (
        'requests.get(f"{B}/experimental/sensors", params={"filter": "status ==" + " up"})\n'
    )
    assert _fixed(text).endswith('{"filter": "status =" + " up"})\n')


@pytest.mark.parametrize(
    ("name", "text", "expected"),
    [
        (
            "get.ps1",
            "Invoke-RestMethod -Uri \"$base/api/v2/experimental/devices\" -Body @{ filter = 'status == up AND type = sensor' }\n",
            "Invoke-RestMethod -Uri \"$base/api/v2/experimental/devices\" -Body @{ filter = 'status = up and type = sensor' }\n",
        ),
        (
            "get.sh",
            'curl -G -H "Authorization: Bearer $T" "https://prtg:1616/api/v2/experimental/devices" '
            "--data-urlencode 'filter=parentid = 123'\n",
            'curl -G -H "Authorization: Bearer $T" "https://prtg:1616/api/v2/experimental/devices" '
            "--data-urlencode 'filter=parentid = \"123\"'\n",
        ),
        (
            "README.md",
            "Devices that are up:\n\n```python\n"
            'requests.get(f"{B}/api/v2/experimental/devices", params={"filter": "status == up"})\n'
            "```\n",
            "Devices that are up:\n\n```python\n"
            'requests.get(f"{B}/api/v2/experimental/devices", params={"filter": "status = up"})\n'
            "```\n",
        ),
    ],
)
def test_every_safe_fix_of_a_filter_in_each_language_applies_at_once(name, text, expected):
    assert _fixed(text, name) == expected
    assert _filter_findings(expected, name) == []


def test_a_guessed_value_is_an_unsafe_fix_with_the_hint_as_its_message():
    text = HEAD + 'requests.get(f"{B}/experimental/devices", params={"filter": "status = Up"})\n'
    (finding,) = _filter_findings(text)
    assert finding.fix is not None and finding.fix.applicability is Applicability.UNSAFE
    assert finding.fix.message == "did you mean `up`? Values are case-sensitive"
    assert _fixed(text) == text
    assert '"status = up"' in _fixed(text, unsafe=True)
