"""Point 16 of issue 11: every lint format renders any file name.

POSIX file names are bytes: not UTF-8, with newlines, escape sequences or
bidirectional overrides. Output must stay valid UTF-8 (JSON without lone
surrogates, well-formed XML), one line per finding in line formats, and never
pass a control character through to a terminal.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from xml.etree import ElementTree

import pytest

from tests.hostile.helpers import apispec_run, clean

NAMES = [b"caf\xe9.py", b"new\nline.py", b"esc\x1b[31m.py", b"bidi\xe2\x80\xae.py", b"tab\t.py"]
CALL = b'x = "https://h:1616/api/v2/devices"\n'
CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


@pytest.fixture
def odd_tree(tmp_path: Path) -> Path:
    root = os.fsencode(tmp_path / "src")
    os.mkdir(root)
    for name in NAMES:
        with open(os.path.join(root, name), "wb") as file:
            file.write(CALL)
    with open(os.path.join(root, b"bin\xff\n.py"), "wb") as file:
        file.write(b"\0binary")  # skipped: its name shows in the skipped list
    return tmp_path


def _lint(root: Path, fmt: str, *options: str) -> str:
    # 1: every file's deprecated call is a warning, which fails by default
    result = clean(apispec_run("lint", "src", "--format", fmt, *options, cwd=root), 1)
    return result.raw_out.decode("utf-8")  # strict: any lone surrogate would fail here


@pytest.mark.parametrize("fmt", ["full", "concise"])
def test_text(odd_tree: Path, fmt: str) -> None:
    lines = _lint(odd_tree, fmt, "--show-skipped").splitlines()
    findings = [line for line in lines if ": API002 [warning] " in line]
    assert sorted(line.split(":1:27:")[0] for line in findings) == sorted(
        [
            "src/caf\\xe9.py",
            "src/new\\nline.py",
            "src/esc\\x1b[31m.py",
            "src/bidi\\u202e.py",
            "src/tab\\t.py",
        ]
    )
    assert "  src/bin\\xff\\n.py: binary" in lines
    assert not any(CONTROL.search(line) for line in lines)


@pytest.mark.parametrize("fmt", ["json", "gitlab"])
def test_json_formats(odd_tree: Path, fmt: str) -> None:
    out = _lint(odd_tree, fmt)
    assert "\\ud" not in out.lower()  # no escaped lone surrogate
    document = json.loads(out)
    paths = (
        [f["path"] for f in document["findings"]]
        if fmt == "json"
        else [i["location"]["path"] for i in document]
    )
    assert "src/caf\\xe9.py" in paths and "src/new\nline.py" in paths
    if fmt == "json":
        assert document["skipped"] == [{"path": "src/bin\\xff\n.py", "reason": "binary"}]


def test_sarif_uris_carry_the_real_bytes(odd_tree: Path) -> None:
    sarif = json.loads(_lint(odd_tree, "sarif"))
    uris = sorted(
        r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
        for r in sarif["runs"][0]["results"]
    )
    assert uris == sorted(
        [
            "src/caf%E9.py",
            "src/new%0Aline.py",
            "src/esc%1B%5B31m.py",
            "src/bidi%E2%80%AE.py",
            "src/tab%09.py",
        ]
    )


def test_github_one_line_per_finding(odd_tree: Path) -> None:
    lines = _lint(odd_tree, "github").splitlines()
    assert len(lines) == len(NAMES)
    assert all(line.startswith("::warning file=src/") for line in lines)
    assert not any(CONTROL.search(line) for line in lines)


def test_junit_is_well_formed(odd_tree: Path) -> None:
    out = _lint(odd_tree, "junit")
    root = ElementTree.fromstring(out.encode("utf-8"))
    names = sorted(suite.get("name") for suite in root.iter("testsuite"))
    assert "src/caf\\xe9.py" in names and "src/new\\nline.py" in names
    assert not CONTROL.search(out)


def test_markdown_cells_hold_any_name(odd_tree: Path) -> None:
    from markdown_it import MarkdownIt

    out = _lint(odd_tree, "markdown")
    assert not CONTROL.search(out)
    tokens = MarkdownIt("commonmark").enable("table").parse(out)
    cells = [t.content for t in tokens if t.type == "inline"]
    locations = sorted(c for c in cells if c.startswith("src/") and c.endswith(":1:27"))
    assert len(locations) == len(NAMES)
    # each name reads back literally: the escapes are Markdown's, not lost characters
    html = MarkdownIt("commonmark").enable("table").render(out)
    assert "src/esc\\x1b[31m.py:1:27" in html and "src/new\\nline.py:1:27" in html


def test_csv_rows_hold_any_name(odd_tree: Path) -> None:
    import csv
    import io

    rows = list(csv.DictReader(io.StringIO(_lint(odd_tree, "csv"))))
    assert sorted(r["path"] for r in rows) == sorted(
        [
            "src/caf\\xe9.py",
            "src/new\nline.py",
            "src/esc\x1b[31m.py",
            "src/bidi\u202e.py",
            "src/tab\t.py",
        ]
    )
