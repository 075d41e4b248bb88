"""Points 1-3 of issue 11: `lint --fix` never writes a file twice, over a change, or in part.

Every test compares the files byte for byte afterwards. The source has a fix
that shortens a line, so a fix applied twice, or at stale offsets, visibly
cuts into the lines after it.
"""

from __future__ import annotations

import contextlib
import errno
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

import apispec.lint.rewrite
import apispec.support.outputs
from tests.hostile.helpers import apispec_run, clean

SOURCE = (
    "import requests\n"
    'BASE = "https://monitor.example.com:1616/api/v2"\n'
    "\n"
    "\n"
    "def overview(sensor_id):\n"
    '    return requests.get(f"{BASE}/sensors/{sensor_id}/overview", headers=AUTH)\n'
) + "".join(f"# line {n} after the call: kept byte for byte\n" for n in range(40))
FIXED = SOURCE.replace("/sensors/{sensor_id}/overview", "/sensors/{sensor_id}")


def _tree(root: Path, *names: str) -> list[Path]:
    paths = []
    for name in names:
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(SOURCE)
        paths.append(path)
    return paths


def test_a_plain_fix_is_what_the_other_tests_compare_against(tmp_path: Path) -> None:
    (a,) = _tree(tmp_path, "src/a.py")
    clean(apispec_run("lint", "--fix", "src", cwd=tmp_path), 0)
    assert a.read_bytes() == FIXED.encode()
    assert FIXED != SOURCE


def test_symlink_and_target_are_fixed_once(tmp_path: Path) -> None:
    (a,) = _tree(tmp_path, "src/a.py")
    os.symlink("a.py", tmp_path / "src" / "link.py")
    os.symlink("src/a.py", tmp_path / "top.py")
    result = clean(apispec_run("lint", "--fix", "src", "top.py", cwd=tmp_path), 0)
    assert a.read_bytes() == FIXED.encode()
    assert os.readlink(tmp_path / "src" / "link.py") == "a.py"  # still a link, not a copy
    assert "Fixed 1 finding." in result.out


def test_two_hard_links_are_fixed_once_and_stay_one_file(tmp_path: Path) -> None:
    (a,) = _tree(tmp_path, "src/a.py")
    os.link(a, tmp_path / "src" / "b.py")
    clean(apispec_run("lint", "--fix", "src", cwd=tmp_path), 0)
    for name in ("a.py", "b.py"):
        assert (tmp_path / "src" / name).read_bytes() == FIXED.encode()
    assert os.stat(a).st_ino == os.stat(tmp_path / "src" / "b.py").st_ino
    assert os.stat(a).st_nlink == 2


def test_a_symlink_to_a_file_outside_the_linted_paths_is_not_written(tmp_path: Path) -> None:
    (outside,) = _tree(tmp_path, "elsewhere/t.py")
    (tmp_path / "src").mkdir()
    os.symlink(outside, tmp_path / "src" / "link.py")
    # followed only when asked (--follow-links), and even then never written
    result = clean(apispec_run("lint", "--fix", "--follow-links", "src", cwd=tmp_path), 1)
    assert outside.read_bytes() == SOURCE.encode()
    assert "apispec: warning: src/link.py: not fixed: a symlink to" in result.err


def test_a_hard_link_with_a_name_outside_the_linted_paths_is_not_split(tmp_path: Path) -> None:
    (outside,) = _tree(tmp_path, "elsewhere/t.py")
    os.makedirs(tmp_path / "src")
    os.link(outside, tmp_path / "src" / "a.py")
    result = clean(apispec_run("lint", "--fix", "src", cwd=tmp_path), 1)  # the finding stays
    assert outside.read_bytes() == SOURCE.encode()
    assert (tmp_path / "src" / "a.py").read_bytes() == SOURCE.encode()
    assert "has 2 hard links and only 1 of them" in result.err


def test_a_file_changed_between_read_and_write_is_left_alone(
    cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    a, b = _tree(tmp_path, "src/a.py", "src/b.py")
    edited = SOURCE.replace("line 3 after", "line 3 EDITED meanwhile after")
    original = apispec.lint.rewrite.apply_fixes

    def another_editor_saves_a(text: str, findings: list, unsafe: bool) -> tuple[str, int]:
        if findings and findings[0].path.endswith("a.py"):
            a.write_text(edited)  # after apispec read the file, before it writes it
        return original(text, findings, unsafe)

    monkeypatch.setattr(apispec.lint.rewrite, "apply_fixes", another_editor_saves_a)
    monkeypatch.chdir(tmp_path)
    result = clean(cli("lint", "--fix", "src"), 2)
    assert a.read_bytes() == edited.encode()  # the other editor's text, not the stale fix
    assert b.read_bytes() == FIXED.encode()  # the run went on
    assert result.err == (
        "apispec: error: src/a.py: not written: it changed on disk since apispec read it\n"
    )


def test_enospc_mid_write_keeps_every_byte_and_the_run_goes_on(
    cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    a, b = _tree(tmp_path, "src/a.py", "src/b.py")
    (a.parent / "b.py").chmod(0o640)
    real_write = os.write
    calls: list[int] = []

    def full_disk_while_writing_a(fd: int, data: bytes) -> int:
        if not os.readlink(f"/proc/self/fd/{fd}").split("/")[-1].startswith(".a.py."):
            return real_write(fd, data)
        calls.append(fd)
        if len(calls) == 1:  # half of the first chunk lands, then the disk is full
            return real_write(fd, bytes(data)[: len(data) // 2])
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(apispec.support.outputs.os, "write", full_disk_while_writing_a)
    monkeypatch.chdir(tmp_path)
    result = clean(cli("lint", "--fix", "src"), 2)
    assert result.err == "apispec: error: src/a.py: cannot write: No space left on device\n"
    assert len(calls) == 2
    assert a.read_bytes() == SOURCE.encode()
    assert b.read_bytes() == FIXED.encode()
    assert (b.stat().st_mode & 0o777) == 0o640  # the mode survives the replace
    assert sorted(p.name for p in a.parent.iterdir()) == ["a.py", "b.py"]  # no temp file left


@contextlib.contextmanager
def _unwritable(directory: Path) -> Iterator[None]:
    """A directory nobody may create files in: read-only mode, or immutable for root."""
    if os.geteuid() != 0:
        directory.chmod(0o555)
        try:
            yield
        finally:
            directory.chmod(0o755)
        return
    if subprocess.run(["chattr", "+i", str(directory)], capture_output=True).returncode:
        pytest.skip("running as root without chattr +i: no directory is unwritable")
    try:
        yield
    finally:
        subprocess.run(["chattr", "-i", str(directory)], check=True)


def test_an_unwritable_directory_is_one_line_per_file_and_exit_2(tmp_path: Path) -> None:
    locked, fine = _tree(tmp_path, "locked/a.py", "open/b.py")
    with _unwritable(locked.parent):
        result = clean(apispec_run("lint", "--fix", ".", cwd=tmp_path), 2)
    assert result.err.startswith("apispec: error: locked/a.py: cannot write: ")
    assert len(result.err.splitlines()) == 1
    assert locked.read_bytes() == SOURCE.encode()
    assert fine.read_bytes() == FIXED.encode()


@pytest.mark.parametrize(
    "args",
    [
        ["lint", "src", "-o", "report.txt/out.json"],
        ["lint", "src", "--write-baseline", "report.txt/baseline.json"],
        ["openapi", "-o", "report.txt/openapi.yaml"],
        ["docs", "-o", "report.txt/site"],
    ],
)
def test_every_output_option_reports_an_unwritable_path_in_one_line(
    tmp_path: Path, args: list[str]
) -> None:
    _tree(tmp_path, "src/a.py")
    (tmp_path / "report.txt").write_text("a file, not a directory\n")
    result = clean(apispec_run(*args, cwd=tmp_path), 2)
    assert "report.txt/" in result.err
    assert "cannot write: Not a directory" in result.err or "exists and is not" in result.err
    assert (tmp_path / "report.txt").read_text() == "a file, not a directory\n"


def test_outputs_are_replaced_atomically_and_keep_their_mode(tmp_path: Path) -> None:
    _tree(tmp_path, "src/a.py")
    report = tmp_path / "report.json"
    report.write_text("old report\n")
    report.chmod(0o604)
    os.symlink("report.json", tmp_path / "latest.json")
    clean(apispec_run("lint", "src", "--format", "json", "-o", "latest.json", cwd=tmp_path), 1)
    assert report.read_text().startswith('{\n  "findings": [')
    assert (report.stat().st_mode & 0o777) == 0o604
    assert os.readlink(tmp_path / "latest.json") == "report.json"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["latest.json", "report.json", "src"]


def test_docs_never_write_through_a_symlink_planted_in_the_output(tmp_path: Path) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    site = tmp_path / "site"
    (tmp_path / "elsewhere").mkdir()
    site.mkdir()
    (site / "README.md").symlink_to(victim)
    (site / "24.3.100").symlink_to(tmp_path / "elsewhere")
    clean(apispec_run("docs", "-o", "site", cwd=tmp_path), 0)
    assert victim.read_text() == "precious\n"
    assert not (site / "README.md").is_symlink()
    assert "# Monitoring API v2 reference" in (site / "README.md").read_text()
    result = clean(apispec_run("docs", "-o", "site", "--all-releases", cwd=tmp_path), 2)
    assert (
        "site/24.3.100/README.md: cannot write: its folder is a symlink out of site" in result.err
    )
    assert list((tmp_path / "elsewhere").iterdir()) == []
