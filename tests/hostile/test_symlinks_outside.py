"""Symlinks that lead out of the paths given to `apispec lint` are not followed.

A committed link to `../outside`, `/etc`, `/` or `/proc` once made a walk lint
(and print the secrets of) files nobody named, read `/etc/shadow` as root, or
walk the whole machine until it was killed; the language server's workspace
diagnostics walked the same way. Each test proves what was not read with an
audit hook in the linting process that records every path opened or listed.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

import apispec
from tests.hostile.helpers import clean, traced_run

SECRET = "sk_live_OUTSIDE_0123456789abcdef"
CALL = (
    'import requests\nBASE = "https://monitor.example.com:1616/api/v2"\n'
    f'requests.get(BASE + "/sensors/5/overview", headers={{"Authorization": "Bearer {SECRET}"}})\n'
)
OUTSIDE_REASON = "symlink leading outside the paths given to apispec"
# A run that reads CALL exits 1 (a deprecated endpoint is a warning, and `--fail-on`'s
# default is `warning`); one that does not read it exits 0.


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """tree/ with an ordinary file and links out of it; outside/ holds a call and a secret."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.py").write_text(CALL)
    root = tmp_path / "tree"
    root.mkdir()
    (root / "app.py").write_text("x = 1\n")
    os.symlink("../outside", root / "leak")
    os.symlink("../outside/secret.py", root / "leak.py")
    return root


def _below(lines: list[str], directory: str) -> list[str]:
    return [line for line in lines if line[5:].startswith(directory.rstrip("/") + "/")]


def test_links_out_of_the_tree_are_listed_and_never_read(tree: Path, tmp_path: Path) -> None:
    result, seen = traced_run("lint", ".", cwd=tree, trace=tmp_path / "trace")
    clean(result, 0)
    assert f"leak: {OUTSIDE_REASON}" in result.out
    assert f"leak.py: {OUTSIDE_REASON}" in result.out
    assert SECRET not in result.out + result.err
    assert _below(seen, str(tmp_path / "outside")) == []
    assert f"open {tree / 'app.py'}" in seen  # the trace does see what is read


@pytest.mark.parametrize("target", ["/etc", "/", "/proc"])
def test_a_link_to_a_system_directory_is_not_walked(
    tree: Path, tmp_path: Path, target: str
) -> None:
    os.symlink(target, tree / "system")
    result, seen = traced_run("lint", ".", cwd=tree, trace=tmp_path / "trace", timeout=30)
    clean(result, 0)
    assert f"system: {OUTSIDE_REASON}" in result.out
    # apispec lists its own package (its rules) and Python its library: nothing else
    own = (str(tree), str(Path(apispec.__file__).parent), sys.prefix, sys.base_prefix)
    listed = [line[5:] for line in seen if line.startswith("list ")]
    assert [p for p in listed if not p.startswith(own)] == []
    assert "open /etc/shadow" not in seen


def test_a_link_that_stays_inside_is_followed(tree: Path, tmp_path: Path) -> None:
    (tree / "src").mkdir()
    (tree / "src" / "client.py").write_text(CALL.replace(SECRET, "x"))
    os.symlink("src", tree / "alias")
    result, _seen = traced_run("lint", ".", cwd=tree, trace=tmp_path / "trace")
    clean(result, 1)
    assert "alias/client.py:3:" in result.out  # reached through the link, linted
    assert "alias: " not in result.out


def test_a_link_into_another_named_path_is_followed(tree: Path, tmp_path: Path) -> None:
    """`outside` is named too, so the link into it stays inside what the user named."""
    result, _seen = traced_run("lint", "tree", "outside", cwd=tmp_path, trace=tmp_path / "trace")
    clean(result, 1)
    assert "tree/leak.py:3:" in result.out
    assert OUTSIDE_REASON not in result.out


def test_a_named_link_is_read(tree: Path, tmp_path: Path) -> None:
    """A path the user names is theirs to name, also when it is a link out of the tree."""
    result, _seen = traced_run("lint", "leak.py", cwd=tree, trace=tmp_path / "trace")
    clean(result, 1)
    assert "leak.py:3:" in result.out


def test_follow_links_opts_in_with_loop_detection(tree: Path, tmp_path: Path) -> None:
    os.symlink("../tree", tmp_path / "outside" / "back")  # out of the tree, then back in
    result, seen = traced_run("lint", ".", "--follow-links", cwd=tree, trace=tmp_path / "trace")
    clean(result, 1)
    assert "leak/secret.py:3:" in result.out
    assert "leak/back: symlink loop" in result.out
    assert OUTSIDE_REASON not in result.out
    assert f"open {tmp_path / 'outside' / 'secret.py'}" in seen or any(
        line.endswith("leak/secret.py") for line in seen
    )


def test_the_language_server_walk_stays_inside(tree: Path, tmp_path: Path) -> None:
    """Workspace diagnostics list the files the linter's walk gives: none outside."""
    os.symlink("/etc", tree / "system")
    code = (
        "from pathlib import Path\n"
        "from apispec.lsp import adapter\n"
        "from apispec.lint.config import Config\n"
        "found = adapter.workspace_files(Path('.').resolve(), Config())\n"
        "found += list(adapter.workspace_candidates(Path('.').resolve(), Config()))\n"
        "print('\\n'.join(sorted(found)))\n"
    )
    result, seen = traced_run("--python", code, cwd=tree, trace=tmp_path / "trace")
    clean(result, 0)
    assert result.out.split() == [str(tree / "app.py")] * 2
    assert _below(seen, str(tmp_path / "outside")) == []
    assert [line for line in seen if line.startswith("list /etc")] == []
