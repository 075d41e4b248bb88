"""Paths the operating system refuses: exit 2 and one line naming them, on every command.

A file name over 255 bytes is ENAMETOOLONG, a NUL in a configured path is a
ValueError before any system call, a symbolic link to itself is ELOOP (and a
RuntimeError from pathlib's resolve), a size of 320 digits is infinity as a
float. None of them is a bug in apispec, so none may end in exit 3.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.hostile.helpers import apispec_run, clean, one_error_line, tree

LONG = "n" * 300  # one component over NAME_MAX (255 bytes)
HUGE = "9" * 320  # more than a float holds: float(HUGE) is inf

# Every command that reads the registry, as a user would run it (`DIR` is replaced).
REGISTRY_COMMANDS = {
    "lint": ["lint", "--registry", "DIR", "code.py"],
    "registry-list": ["registry", "list", "--registry", "DIR"],
    "registry-show": ["registry", "show", "GET", "/sensors", "--registry", "DIR"],
    "registry-check": ["registry", "check", "--registry", "DIR"],
    "registry-import": ["registry", "import", "doc.yaml", "-o", "out", "--registry", "DIR"],
    "registry-diff": ["registry", "diff", "doc.yaml", "--registry", "DIR"],
    "releases": ["releases", "--registry", "DIR"],
    "openapi": ["openapi", "--registry", "DIR"],
    "mcp-tools": ["mcp-tools", "--registry", "DIR"],
    "docs": ["docs", "-o", "site", "--registry", "DIR"],
    "changelog": ["changelog", "--registry", "DIR"],
    "filter-check": ["filter", "check", "status == up", "--registry", "DIR"],
    "filter-fix": ["filter", "fix", "status == up", "--registry", "DIR"],
    "filter-complete": ["filter", "complete", "stat", "--registry", "DIR"],
    "mock": ["mock", "--port", "0", "--registry", "DIR"],
}

DOC = """\
openapi: 3.1.0
info: {title: t, version: 25.1.104}
paths:
  /api/v2/things/:
    get: {operationId: listThings, responses: {'200': {description: ok}}}
"""


@pytest.fixture
def work(tmp_path: Path) -> Path:
    (tmp_path / "code.py").write_text('requests.get(f"{BASE}/sensors")\n')
    (tmp_path / "doc.yaml").write_text(DOC)
    (tmp_path / "loop").symlink_to("loop")
    return tmp_path


def _refused(work: Path, args: list[str], *words: str) -> str:
    before = tree(work)
    run = apispec_run(*args, cwd=work, timeout=60)
    line = one_error_line(run, 2, *words, max_length=1000)
    assert tree(work) == before, "a refused command changed files"
    return line


@pytest.mark.parametrize("option", ["--registry", "--overlay"])
@pytest.mark.parametrize("command", list(REGISTRY_COMMANDS))
def test_a_registry_or_overlay_name_over_255_bytes(work: Path, command: str, option: str) -> None:
    args = REGISTRY_COMMANDS[command]
    args = [LONG if a == "DIR" else option if a == "--registry" else a for a in args]
    _refused(work, args, LONG, "too long")


@pytest.mark.parametrize("command", ["lint", "registry-check", "openapi", "registry-diff"])
def test_an_overlay_naming_a_symlink_loop(work: Path, command: str) -> None:
    args = [
        "loop" if a == "DIR" else "--overlay" if a == "--registry" else a
        for a in REGISTRY_COMMANDS[command]
    ]
    _refused(work, args, "loop", "symbolic links")


@pytest.mark.parametrize(
    "args",
    [
        ["registry", "import", LONG, "-o", "out"],
        ["registry", "import", "doc.yaml", "-o", LONG],
        ["registry", "import", "doc.yaml", "-o", f"{LONG}/deeper"],
        ["registry", "diff", LONG],
        ["registry", "diff", "doc.yaml", LONG],
        ["docs", "-o", LONG],
        ["docs", "-o", f"site/{LONG}"],
        ["openapi", "-o", LONG],
        ["openapi", "--check", LONG],
        ["lint", "--config", LONG, "code.py"],
        ["lint", "-o", LONG, "code.py"],
    ],
    ids=lambda args: " ".join(a if a != LONG else "LONG" for a in args),
)
def test_a_named_file_over_255_bytes(work: Path, args: list[str]) -> None:
    _refused(work, args, LONG, "too long")


@pytest.mark.parametrize(
    ("key", "value", "words"),
    [
        ("registry", f'"{LONG}"', [LONG, "too long"]),
        ("overlays", f'["{LONG}"]', [LONG, "too long"]),
        ("registry", '"reg\\u0000istry"', [".apispec.toml", "registry", "NUL"]),
        ("overlays", '["over\\u0000lay"]', [".apispec.toml", "overlays", "NUL"]),
        ("overlays", '["loop"]', ["loop", "symbolic links"]),
        ("max-file-size", f'"{HUGE}"', [".apispec.toml", "max-file-size", "at most"]),
    ],
    ids=["registry-long", "overlays-long", "registry-nul", "overlays-nul", "overlay-loop", "size"],
)
def test_a_configured_path_or_size_the_system_refuses(
    work: Path, key: str, value: str, words: list[str]
) -> None:
    (work / ".apispec.toml").write_text(f"{key} = {value}\n")
    _refused(work, ["lint", "code.py"], *words)


def test_a_max_file_size_of_320_digits(work: Path) -> None:
    _refused(work, ["lint", "--max-file-size", HUGE, "code.py"], "--max-file-size", "at most")


def test_a_max_file_size_of_1024_gb_is_taken_at_its_word(work: Path) -> None:
    run = apispec_run("lint", "--max-file-size", "1024GB", "code.py", cwd=work)
    assert "Checked 1 file" in clean(run, 0).out
