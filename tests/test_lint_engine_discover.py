"""Discovery: which files `apispec lint` reads, and which it skips with a reason."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from apispec.lint.discover import DEFAULT_MAX_SIZE, decode, discover, read_text
from apispec.lint.finding import Skipped


def names(candidates, root: Path) -> list[str]:
    return sorted(Path(c.path).relative_to(root).as_posix() for c in candidates)


@pytest.fixture
def tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / ".git").mkdir()
    (tmp_path / ".gitignore").write_text("build/\n*.log\n")
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "client.py").write_text("x = 1\n")
    (tmp_path / "src" / ".gitignore").write_text("secret.py\n")
    (tmp_path / "src" / "secret.py").write_text("x = 2\n")
    (tmp_path / "build").mkdir()
    (tmp_path / "build" / "gen.py").write_text("x = 3\n")
    (tmp_path / "run.log").write_text("log\n")
    (tmp_path / "node_modules").mkdir()
    (tmp_path / "node_modules" / "lib.js").write_text("x\n")
    (tmp_path / "vendor").mkdir()
    (tmp_path / "vendor" / "lib.ps1").write_text("x\n")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_walk_honours_nested_gitignore_and_default_excludes(tree: Path) -> None:
    files, skipped = discover([Path(".")])
    assert names(files, tree) == [".gitignore", "src/.gitignore", "src/client.py", "vendor/lib.ps1"]
    assert skipped == []


def test_gitignore_of_the_repository_applies_below_its_root(tree: Path) -> None:
    (tree / "src" / "debug.log").write_text("x\n")
    files, _ = discover([tree / "src"])
    assert "src/debug.log" not in names(files, tree)


def test_no_gitignore_reads_ignored_files(tree: Path) -> None:
    files, _ = discover([Path(".")], respect_gitignore=False)
    assert {"build/gen.py", "run.log", "src/secret.py"} <= set(names(files, tree))
    assert "node_modules/lib.js" not in names(files, tree)


def test_exclude_globs_match_names_and_relative_paths(tree: Path) -> None:
    files, _ = discover([Path(".")], excludes=["vendor/", "*.py"])
    assert names(files, tree) == [".gitignore", "src/.gitignore"]


def test_a_file_named_explicitly_is_linted_even_if_ignored(tree: Path) -> None:
    files, _ = discover([Path("build/gen.py")])
    assert names(files, tree) == ["build/gen.py"]


def test_missing_path_is_skipped_with_its_reason(tree: Path) -> None:
    files, skipped = discover([Path("nope"), Path("src")])
    assert skipped == [Skipped("nope", "no such file or directory")]
    assert files  # the other path is still walked


def test_file_over_the_size_limit_is_skipped_with_its_size(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    with open("big.txt", "wb") as handle:
        handle.truncate(DEFAULT_MAX_SIZE + 1)
    (tmp_path / "small.txt").write_text("ok\n")
    files, skipped = discover([Path(".")])
    assert names(files, tmp_path) == ["small.txt"]
    assert [(s.path, s.reason) for s in skipped] == [("big.txt", "larger than 5 MB (5 MB)")]
    _, few = discover([Path(".")], max_size=2)
    assert [(s.path, s.reason) for s in few] == [
        ("big.txt", "larger than 2 bytes (5 MB)"),
        ("small.txt", "larger than 2 bytes (3 bytes)"),
    ]
    _, kilo = discover([Path("big.txt")], max_size=1536)
    assert kilo[0].reason == "larger than 1.5 KB (5 MB)"


def test_symlink_loop_is_reported_once_and_the_walk_ends(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "f.py").write_text("x\n")
    os.symlink("..", tmp_path / "a" / "up")
    os.symlink("missing", tmp_path / "dangling")
    files, skipped = discover([Path(".")])
    assert names(files, tmp_path) == ["a/f.py"]
    assert sorted((s.path, s.reason) for s in skipped) == [
        ("a/up", "symlink loop"),
        ("dangling", "broken symlink"),
    ]


def test_binary_and_non_utf8_files(tmp_path: Path) -> None:
    (tmp_path / "img.png").write_bytes(b"\x89PNG\r\n\x1a\n\0\0\0rest")
    assert read_text(tmp_path / "img.png") == (None, "binary")
    (tmp_path / "latin1.ps1").write_bytes("$u = 'caf\xe9/api/v2/devices'\n".encode("latin-1"))
    text, reason = read_text(tmp_path / "latin1.ps1")
    assert reason is None and text == "$u = 'caf\ufffd/api/v2/devices'\n"
    assert decode("\ufeffa = 1".encode()) == ("a = 1", None)
    assert decode("a = 1".encode("utf-16")) == ("a = 1", None)


UNREADABLE = """
import sys
from pathlib import Path
from apispec.lint.discover import discover, read_text
root = Path(sys.argv[1])
files, skipped = discover([root])
print(sorted((s.path.rsplit('/', 1)[-1], s.reason) for s in skipped))
print(read_text(root / "locked.py"))
"""


def test_unreadable_file_and_directory_are_skipped(request: pytest.FixtureRequest) -> None:
    root = Path(tempfile.mkdtemp())
    request.addfinalizer(lambda: shutil.rmtree(root, ignore_errors=True))
    (root / "locked.py").write_text("x\n")
    (root / "locked.py").chmod(0)
    (root / "closed").mkdir()
    (root / "closed").chmod(0)
    command = [sys.executable, "-c", UNREADABLE, str(root)]
    if os.geteuid() == 0:  # root reads everything: drop the capabilities that let it
        if shutil.which("setpriv") is None:
            pytest.skip("running as root without setpriv")
        caps = "-dac_override,-dac_read_search"
        command = ["setpriv", f"--inh-caps={caps}", f"--bounding-set={caps}", *command]
    proc = subprocess.run(command, capture_output=True, text=True, check=True)
    skipped, read = proc.stdout.splitlines()
    assert skipped == "[('closed', 'unreadable: Permission denied')]"
    assert read == "(None, 'unreadable: Permission denied')"


def test_a_file_named_twice_is_linted_once(tree: Path) -> None:
    files, _ = discover([Path("src/client.py"), Path("src"), Path("./src/client.py")])
    assert names(files, tree) == ["src/.gitignore", "src/client.py"]
