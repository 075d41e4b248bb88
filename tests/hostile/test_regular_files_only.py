"""Point 7 of issue 11: a FIFO or device where a file is expected is refused, never read.

Opening a FIFO to read blocks until a writer comes (none will), and a device
such as /dev/zero never ends; both hung apispec for ever. Every run below has
a timeout: a regression fails the test instead of stalling the suite.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.hostile.helpers import apispec_run, clean

FIFO = "not a regular file (a named pipe)"
DEVICE = "not a regular file (a character device)"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "a.py").write_text('x = "https://h:1616/api/v2/devices"\n')
    return tmp_path


@pytest.mark.parametrize("special", ["fifo", "device"])
def test_registry_file(registry_copy: Path, fifo, special: str) -> None:
    target = registry_copy / "zz.yaml"
    if special == "fifo":
        fifo(target)
    else:
        target.symlink_to("/dev/zero")
    for command in (["registry", "check"], ["registry", "list"], ["releases"]):
        result = clean(apispec_run(*command, "--registry", str(registry_copy), timeout=30), 2)
        kind = FIFO if special == "fifo" else DEVICE
        assert result.err == f"apispec: error: {target}: {kind}\n"


@pytest.mark.parametrize("name", ["pyproject.toml", ".apispec.toml"])
def test_discovered_configuration(project: Path, fifo, name: str) -> None:
    fifo(project / name)
    result = clean(apispec_run("lint", ".", cwd=project, timeout=30), 2)
    assert result.err == f"apispec: error: {project / name}: {FIFO}\n"


@pytest.mark.parametrize(
    ("args", "shown"),
    [
        (["lint", ".", "--config", "{}"], "{}: " + FIFO),
        (["lint", ".", "--baseline", "{}"], "cannot read baseline {}: " + FIFO),
        (["openapi", "--check", "{}"], "{}: " + FIFO),
        (["mock", "--port", "0", "--data", "{}"], "--data {}: " + FIFO),
        (["mock", "--port", "0", "--users", "{}"], "--users {}: " + FIFO),
    ],
    ids=["config", "baseline", "openapi", "mock-data", "mock-users"],
)
def test_named_inputs(project: Path, fifo, args: list[str], shown: str) -> None:
    pipe = str(fifo(project / "pipe.in"))
    result = clean(apispec_run(*[a.format(pipe) for a in args], cwd=project, timeout=30), 2)
    assert result.err.startswith("apispec: error: ")
    assert shown.format(pipe) in result.err
    assert len(result.err.splitlines()) == 1


@pytest.mark.parametrize(
    "args",
    [
        ["lint", ".", "--config", "/dev/zero"],
        ["openapi", "--check", "/dev/zero"],
        ["lint", ".", "--baseline", "/dev/urandom"],
    ],
)
def test_devices_that_never_end(project: Path, args: list[str]) -> None:
    result = clean(apispec_run(*args, cwd=project, timeout=30), 2)
    assert DEVICE in result.err


def test_a_gitignore_fifo_is_a_warning_and_the_walk_goes_on(project: Path, fifo) -> None:
    fifo(project / "sub" / ".gitignore")
    (project / "sub" / "b.py").write_text('y = "https://h:1616/api/v2/groups"\n')
    result = clean(apispec_run("lint", ".", cwd=project, timeout=30), 1)  # two deprecated calls
    assert f"apispec: warning: sub/.gitignore: {FIFO}; ignored\n" == result.err
    assert "a.py:1:" in result.out and "sub/b.py:1:" in result.out


def test_a_fifo_named_as_a_lint_path_is_skipped(project: Path, fifo) -> None:
    fifo(project / "pipe.py")
    result = clean(apispec_run("lint", "pipe.py", "a.py", cwd=project, timeout=30), 2)
    assert f"pipe.py: {FIFO}" in result.out
    assert "a.py:1:" in result.out  # the other file is still linted and reported
    assert result.err == f"apispec: error: pipe.py: skipped: {FIFO}\n"


def test_a_file_swapped_for_a_fifo_after_discovery_is_skipped(project: Path) -> None:
    """The lint read itself refuses a FIFO (in a child process: a regression would block)."""
    os.mkfifo(project / "late.py")
    code = "from apispec.lint.discover import read_text; print(read_text('late.py'))"
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=project, capture_output=True, text=True, timeout=30
    )
    assert done.stdout == f"(None, 'unreadable: {FIFO}')\n"
