"""Fuzzing registry loading (issue 11, acceptance 2): the bundled registry, mutated.

Each example copies the bundled registry and damages one file the way a hand
edit or a hostile pull request might: lines dropped, repeated or cut, YAML
syntax (anchors, aliases, tags, flow brackets, tabs) inserted, text replaced.
`registry check` must answer with exit 0, 1 or 2 and a command that merely
uses the registry with 0 or 2, never a traceback.
"""

from __future__ import annotations

import contextlib
import io
import shutil
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from apispec.cli import main
from apispec.registry.files import default_directory

SETTINGS = settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
FILES = sorted(p.name for p in default_directory().glob("*.yaml"))
TOKENS = [
    "&a ",
    "*a",
    "<<: *a",
    "[",
    "]",
    "{",
    "}",
    ": ",
    "- ",
    "\t",
    "!!python/object:os.system ",
    "!!binary ",
    "? ",
    '"',
    "'",
    "#",
    "---\n",
    "...\n",
    "\x00",
    "\ufeff",
    "~",
    "null",
    "1e999",
    "9" * 5000,
    "x" * 300,
    "/experimental/{id}",
    "99.x.1xx",
]


def _run(*args: str) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(args))
    return code, out.getvalue() + err.getvalue()


@st.composite
def _mutation(draw: st.DrawFn) -> tuple[str, str]:
    name = draw(st.sampled_from(FILES))
    lines = (default_directory() / name).read_text(encoding="utf-8").splitlines(keepends=True)
    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.integers(0, max(len(lines) - 1, 0)))
        kind = draw(st.sampled_from(["drop", "repeat", "insert", "replace", "truncate"]))
        if kind == "drop" and lines:
            del lines[at]
        elif kind == "repeat" and lines:
            lines.insert(at, lines[at])
        elif kind == "truncate":
            lines = lines[:at]
        else:
            line = lines[at] if lines else ""
            column = draw(st.integers(0, len(line)))
            token = draw(st.sampled_from(TOKENS) | st.text(max_size=8))
            end = column + (draw(st.integers(0, 6)) if kind == "replace" else 0)
            lines[at : at + 1] = [line[:column] + token + line[end:]]
    return name, "".join(lines)


@SETTINGS
@given(mutation=_mutation())
def test_a_mutated_registry_is_a_finding_or_an_error_never_a_crash(
    mutation: tuple[str, str],
) -> None:
    name, text = mutation
    with tempfile.TemporaryDirectory() as root:
        directory = Path(root) / "registry"
        shutil.copytree(default_directory(), directory)
        (directory / name).write_text(text, encoding="utf-8", errors="surrogatepass")
        code, output = _run("registry", "check", "--registry", str(directory))
        assert code in (0, 1, 2), output
        assert "Traceback" not in output
        code, output = _run("releases", "--registry", str(directory))
        assert code in (0, 2), output
        assert "Traceback" not in output
