"""apispec.support.terminal: when colour is on, and the progress line of long runs (issue 13 points 6, 9)."""

from __future__ import annotations

import io
import os

import pytest

from apispec.support.terminal import Progress, color_for


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize(
    ("env", "tty", "expected"),
    [
        ({}, True, True),
        ({}, False, False),
        ({"NO_COLOR": "1"}, True, False),
        ({"FORCE_COLOR": "1"}, False, True),
        ({"FORCE_COLOR": "0"}, False, True),  # present and not empty: forced (force-color.org)
        ({"NO_COLOR": "1", "FORCE_COLOR": "1"}, True, False),  # the opt-out wins
        ({"NO_COLOR": ""}, True, True),  # empty: not set (no-color.org)
        ({"TERM": "dumb"}, True, False),
        ({"TERM": "dumb", "FORCE_COLOR": "1"}, True, True),
    ],
)
def test_colour_follows_no_color_force_color_and_the_terminal(
    monkeypatch: pytest.MonkeyPatch, env: dict[str, str], tty: bool, expected: bool
) -> None:
    for key in ("NO_COLOR", "FORCE_COLOR", "TERM"):
        monkeypatch.delenv(key, raising=False)
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    assert color_for(Terminal() if tty else io.StringIO()) is expected


def test_progress_waits_then_redraws_one_line_and_clears_it() -> None:
    stream = Terminal()
    quiet = Progress(stream, delay=3600)
    quiet(10, 100)
    quiet.clear()
    assert stream.getvalue() == ""  # a quick run prints nothing at all
    progress = Progress(stream, delay=0, interval=0)
    progress(1, 4)
    progress(4, 4)
    progress.clear()
    drawn = stream.getvalue().split("\r\x1b[2K")
    assert drawn[0] == "" and drawn[-1] == ""
    assert drawn[1].startswith("Linting: 1/4 files (") and drawn[1].endswith(" files/s)")
    assert drawn[2].startswith("Linting: 4/4 files (")
    assert "\n" not in stream.getvalue()


def test_no_progress_in_a_pipe(tmp_path) -> None:
    """Only a terminal gets the progress line: a CI log or a pipe never does."""
    import subprocess
    import sys

    for i in range(300):  # enough files for the process pool
        (tmp_path / f"f{i}.py").write_text('x = "https://m:1616/api/v2/experimental/objects"\n')
    done = subprocess.run(
        [sys.executable, "-m", "apispec", "lint", "--jobs", "2", "."],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "TERM": "xterm"},
    )
    assert done.returncode == 0 and done.stderr == ""
    assert "Checked 300 files" in done.stdout
