"""The source line and caret of the `full` format: aligned on screen, safe for a terminal."""

from __future__ import annotations

import re
from pathlib import Path

from apispec.lint.report.snippet import WIDTH, snippet
from tests.hostile.helpers import apispec_run, clean


def caret_under(line: str, column: int, end: int | None) -> str:
    shown, start, length = snippet(line, column, end)
    return f"{shown}\n{' ' * start}{'^' * length}"


def test_plain_line() -> None:
    assert caret_under('get("/devices")', 6, 14) == 'get("/devices")\n     ^^^^^^^^'


def test_tabs_expand_to_the_next_stop_in_line_and_caret() -> None:
    assert caret_under('\tget("/devices")', 7, 15) == '    get("/devices")\n         ^^^^^^^^'


def test_wide_characters_take_two_cells() -> None:
    assert caret_under('名前 = "/devices"', 7, 15) == '名前 = "/devices"\n        ^^^^^^^^'


def test_control_and_bidi_characters_are_shown_escaped() -> None:
    shown, start, length = snippet('\x1b[31m"/devices"\u202e', 7, 15)
    assert shown == '\\x1b[31m"/devices"\\u202e'
    assert shown[start : start + length] == "/devices"
    assert not re.search("[\x00-\x1f\u202e]", shown)


def test_a_span_to_the_end_of_the_line_and_an_empty_span() -> None:
    assert caret_under("x = 1\r", 5, None) == "x = 1\n    ^"
    assert caret_under("abc", 2, 2) == "abc\n ^"


def test_a_long_line_is_cut_around_the_span() -> None:
    line = "x" * 5000 + '"/devices"' + "y" * 5000
    shown, start, length = snippet(line, 5002, 5010)
    assert len(shown) <= WIDTH + 6 and shown.startswith("...") and shown.endswith("...")
    assert shown[start : start + length] == "/devices"


def test_a_hostile_source_line_never_reaches_the_terminal_raw(tmp_path: Path) -> None:
    (tmp_path / "evil.py").write_bytes(
        b'\x1b]0;pwned\x07x = "https://h:1616/api/v2/devices"  # \xe2\x80\xae\x1b[2J\n'
    )
    out = clean(apispec_run("lint", "evil.py", cwd=tmp_path), 1).out
    assert not re.search("[\x00-\x09\x0b-\x1f\x7f\u202e]", out)
    assert "\\x1b]0;pwned\\x07" in out and "\\u202e\\x1b[2J" in out
