"""Issue 22, point 11: files whose lines end in a lone CR (classic Mac OS, some exports).

Every offset was counted in lines of `\\n` only: such a file was one line, every
finding was reported on line 1, a `#` comment swallowed the rest of the file, and
`--add-suppressions` wrote its comment at the end of the file. A lone CR ends a line,
as it does for Python, editors and the Language Server Protocol.
"""

from __future__ import annotations

import json
from pathlib import Path

from tests.hostile.helpers import apispec_run, clean

LINES = [
    "# a client with classic Mac line ends",
    "import requests",
    'BASE = "https://prtg.example.com:1616/api/v2"',
    'requests.get(f"{BASE}/experimental/objects")  # a comment before the next call',
    "",
    'requests.get(f"{BASE}/sensors/1/overview")',
]


def _write(path: Path, end: str) -> bytes:
    data = end.join(LINES).encode() + end.encode()
    path.write_bytes(data)
    return data


def test_findings_of_a_cr_only_file_are_on_their_own_lines(tmp_path: Path) -> None:
    data = _write(tmp_path / "mac.py", "\r")
    result = clean(
        apispec_run("lint", "--format=json", "--fail-on=never", "mac.py", cwd=tmp_path), 0
    )
    found = [(f["code"], f["line"], f["column"]) for f in json.loads(result.out)["findings"]]
    assert found == [("API003", 4, 22), ("API002", 6, 22)]
    assert (tmp_path / "mac.py").read_bytes() == data


def test_add_suppressions_writes_on_the_finding_lines_and_keeps_the_line_ends(
    tmp_path: Path,
) -> None:
    _write(tmp_path / "mac.py", "\r")
    result = clean(apispec_run("lint", "--add-suppressions", "mac.py", cwd=tmp_path), 0)
    assert result.out == "Added 2 suppressions to 1 file.\n"
    lines = (tmp_path / "mac.py").read_bytes().decode().split("\r")
    assert lines[:-1] == [
        *LINES[:3],
        LINES[3] + "  # apispec: ignore[API003]",
        "",
        LINES[5] + "  # apispec: ignore[API002]",
    ]
    assert lines[-1] == ""  # the last line still ends in its CR, and no LF came in
    again = clean(apispec_run("lint", "--format=json", "--fail-on=info", "mac.py", cwd=tmp_path), 0)
    assert json.loads(again.out)["findings"] == []
