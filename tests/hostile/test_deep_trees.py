"""Point 17 of issue 11 (directories; nested configuration is in test_document_limits.py).

Discovery walked directories recursively and raised RecursionError about a
thousand levels down; it must walk any depth the file system allows.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.hostile.helpers import apispec_run, clean


@pytest.fixture
def deep(tmp_path: Path) -> Iterator[Path]:
    """tmp_path, emptied by `rm -rf` afterwards: shutil.rmtree itself recurses too deep."""
    yield tmp_path
    subprocess.run(["rm", "-rf", str(tmp_path / "d")], check=True)


def _nest(root: Path, levels: int) -> str:
    """`root/d/d/.../d`, made one level at a time (os.makedirs recurses as well)."""
    path = str(root)
    for _ in range(levels):
        path = os.path.join(path, "d")
        os.mkdir(path)
    return path


def test_a_tree_1200_directories_deep(deep: Path) -> None:
    tmp_path = deep
    deepest = _nest(tmp_path, 1200)
    with open(os.path.join(deepest, "a.py"), "w") as file:
        file.write('x = "https://h:1616/api/v2/devices"\n')
    result = clean(apispec_run("lint", ".", cwd=tmp_path), 1)  # the deprecated call fails
    assert result.out.startswith("d/" * 1200 + "a.py:1:27: API002 ")


def test_a_symlink_loop_deep_down_ends_the_walk(deep: Path) -> None:
    tmp_path = deep
    deepest = _nest(tmp_path, 300)
    os.symlink(tmp_path, os.path.join(deepest, "up"))
    (tmp_path / "a.py").write_text("x = 1\n")  # a file to lint: `lint .` of nothing is exit 2
    result = clean(apispec_run("lint", ".", cwd=tmp_path), 0)
    assert "d/" * 300 + "up: symlink loop" in result.out
