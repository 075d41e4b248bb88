"""Whole-tree replay: an unchanged tree's report comes back whole, and any change lints again.

Each test lints a small tree twice through the CLI. A replay must print what
the run before printed (standard output, standard error, exit code, the
`--output` file) without running the linter; any change to what the report
depends on (a file, the file list, .gitignore, configuration, registry,
overlays, target, rules, format, baseline, apispec itself) must lint again and
print what a run without any cache prints. Statuses taken too close to a
change are never trusted: a file edited in the same second, and a whole tree
on a file system that keeps whole seconds (ext2), are caught.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

import apispec.lint.run
from apispec.lint import cache

ENGINE = Path(__file__).parent / "fixtures" / "lint" / "engine"
DEPRECATED = 'BASE = "https://m:1616/api/v2"\nrequests.get(f"{BASE}/sensors/{sid}/overview")\n'
REMOVED = 'BASE = "https://m:1616/api/v2"\nrequests.get(f"{BASE}/sensors/{sid}/details")\n'
ARGS = ("lint", "--format", "json", "--fail-on", "never", ".")
REAL_RACY_S = cache.RACY_NS / 1e9  # before any test sets it to 0


@pytest.fixture
def tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    work = tmp_path / "tree"
    work.mkdir()
    for name in ("fixable.py", "suppressed.py", "queries.py"):
        shutil.copy(ENGINE / name, work)
    (work / "logo.png").write_bytes(b"\x89PNG\r\n\x1a\n\0\0\0IHDR")
    (work / "deprecated.py").write_text(DEPRECATED)
    monkeypatch.chdir(work)
    monkeypatch.setenv("APISPEC_CACHE_DIR", str(tmp_path / "cache"))
    # Written a moment ago: with the real margin no status here would be trusted before
    # two seconds pass (the tests of that margin below restore it).
    monkeypatch.setattr(cache, "RACY_NS", 0)
    return work


class Linted:
    """Counts the runs that reached the linter (not answered from a manifest)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.count = 0
        real = apispec.lint.run.execute

        def counting(*args: object, **kwargs: object) -> object:
            self.count += 1
            return real(*args, **kwargs)  # type: ignore[arg-type]

        monkeypatch.setattr(apispec.lint.run, "execute", counting)


@pytest.fixture
def linted(monkeypatch: pytest.MonkeyPatch) -> Linted:
    return Linted(monkeypatch)


def _manifests(tree: Path) -> list[Path]:
    return sorted((tree.parent / "cache" / "replay").glob("*.bin"))


def _same_as_uncached(cli, result, *args: str) -> None:
    cold = cli(*args, "--no-cache")
    assert (result.code, result.out, result.err) == (cold.code, cold.out, cold.err)


def test_an_unchanged_tree_is_replayed_whole_without_linting(cli, tree: Path, linted) -> None:
    (tree / ".gitignore").write_text("[z-a]\n")  # a warning on standard error, replayed too
    args = ("lint", "--format", "full", "--target", "24.3.100", ".")
    first = cli(*args)
    assert first.code == 1 and "invalid pattern" in first.err
    assert len(_manifests(tree)) == 1
    again = cli(*args)
    assert linted.count == 1  # the second run never reached the linter
    assert (again.code, again.out, again.err) == (first.code, first.out, first.err)


def test_the_output_file_and_statistics_are_replayed(cli, tree: Path, linted) -> None:
    args = ("lint", "--format", "sarif", "--statistics", "-o", "../report.sarif", ".")
    first = cli(*args)
    written = (tree.parent / "report.sarif").read_text()
    (tree.parent / "report.sarif").unlink()
    again = cli(*args)
    assert linted.count == 1
    assert (again.code, again.out) == (first.code, first.out) and "API002" in again.out
    assert (tree.parent / "report.sarif").read_text() == written


def test_a_replay_imports_no_part_of_the_linter(tree: Path, tmp_path: Path) -> None:
    env = {**os.environ, "APISPEC_CACHE_DIR": str(tmp_path / "cache")}
    env.pop("APISPEC_NO_CACHE", None)
    time.sleep(REAL_RACY_S + 0.1)  # a real process keeps the real margin
    code = (
        "import sys\nfrom apispec.cli import main\ncode = main(sys.argv[1:])\n"
        "loaded = [m for m in sys.modules if m.startswith(('apispec.lint.rules', "
        "'apispec.lint.engine', 'apispec.lint.extract', 'apispec.registry.load', "
        "'apispec.filters.check'))]\nprint('LOADED', sorted(loaded), file=sys.stderr)\n"
        "sys.exit(code)\n"
    )
    runs = [
        subprocess.run(
            [sys.executable, "-c", code, *ARGS], cwd=tree, env=env, capture_output=True, text=True
        )
        for _ in range(2)
    ]
    assert runs[0].returncode == runs[1].returncode == 0
    assert runs[0].stdout == runs[1].stdout and '"API002"' in runs[1].stdout
    assert "LOADED []" not in runs[0].stderr  # the first run linted
    assert "LOADED []" in runs[1].stderr


def _edit(path: Path) -> None:
    """Other bytes of the same size, with the modification time put back."""
    before = path.stat()
    path.write_text(path.read_text().replace("/sensors/", "/devices/"))
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert path.stat().st_size == before.st_size


CHANGES = {
    "a file's bytes": lambda t: _edit(t / "deprecated.py"),
    "a new file": lambda t: (t / "new.py").write_text(REMOVED),
    "a removed file": lambda t: (t / "deprecated.py").unlink(),
    "a renamed file": lambda t: (t / "deprecated.py").rename(t / "renamed.py"),
    "a new .gitignore": lambda t: (t / ".gitignore").write_text("deprecated.py\n"),
    "a new configuration file": lambda t: (t / ".apispec.toml").write_text('ignore = ["API002"]\n'),
    "a file made binary": lambda t: (t / "deprecated.py").write_bytes(DEPRECATED.encode() + b"\0"),
}


@pytest.mark.parametrize("change", list(CHANGES))
def test_a_change_to_the_tree_lints_again(cli, tree: Path, linted, change: str) -> None:
    first = cli(*ARGS)
    CHANGES[change](tree)
    again = cli(*ARGS)
    assert linted.count == 2
    assert again.out != first.out
    _same_as_uncached(cli, again, *ARGS)


def test_an_edited_configuration_and_gitignore_lint_again(cli, tree: Path, linted) -> None:
    (tree / "pyproject.toml").write_text("[tool.apispec]\nselect = []\n")
    (tree / ".gitignore").write_text("nothing-here\n")
    first = cli(*ARGS)
    (tree / "pyproject.toml").write_text('[tool.apispec]\nselect = ["API002"]\n')
    second = cli(*ARGS)
    (tree / ".gitignore").write_text("deprecated.py\n")
    third = cli(*ARGS)
    assert linted.count == 3
    assert first.out != second.out != third.out
    _same_as_uncached(cli, third, *ARGS)


def test_a_configuration_file_above_the_tree_lints_again(cli, tree: Path, linted) -> None:
    first = cli(*ARGS)
    (tree.parent / ".apispec.toml").write_text('select = ["API012"]\n')
    again = cli(*ARGS)
    assert linted.count == 2 and again.out != first.out
    _same_as_uncached(cli, again, *ARGS)


@pytest.mark.parametrize(
    "options",
    [
        ("--target", "24.3.100"),
        ("--select", "API002"),
        ("--ignore", "API012"),
        ("--format", "concise"),
        ("--max-file-size", "100"),
        ("--exclude", "fixable.py"),
        ("--no-gitignore",),
    ],
)
def test_other_options_are_another_manifest(cli, tree: Path, linted, options: tuple) -> None:
    (tree / ".gitignore").write_text("queries.py\n")
    plain = cli(*ARGS)
    other = cli(*ARGS, *options)
    assert linted.count == 2 and other.out != plain.out
    assert cli(*ARGS).out == plain.out and cli(*ARGS, *options).out == other.out
    assert linted.count == 2  # each replayed from its own manifest
    _same_as_uncached(cli, other, *ARGS, *options)


def _process(tree: Path, *args: str) -> tuple[int, str]:
    """A run in its own process (a process loads a registry once), and whether it linted."""
    code = (
        "import sys\nfrom apispec.cli import main\ncode = main(sys.argv[1:])\n"
        "print('LINTED' if 'apispec.lint.engine' in sys.modules else 'REPLAYED', file=sys.stderr)\n"
        "sys.exit(code)\n"
    )
    env = {**os.environ, "APISPEC_CACHE_DIR": str(tree.parent / "cache")}
    env.pop("APISPEC_NO_CACHE", None)
    done = subprocess.run(
        [sys.executable, "-c", code, *args], cwd=tree, env=env, capture_output=True, text=True
    )
    return done.returncode, done.stdout + done.stderr.splitlines()[-1]


def test_an_edited_registry_or_overlay_lints_again(tree: Path, registry_copy: Path) -> None:
    overlay = tree.parent / "overlay"
    overlay.mkdir()
    (overlay / "overlay.yaml").write_text("overlay: {}\n")
    args = (*ARGS, "--registry", str(registry_copy), "--target", "25.x.122")
    with_overlay = (*args, "--overlay", str(overlay))
    time.sleep(REAL_RACY_S + 0.1)  # a real process keeps the real margin
    first = _process(tree, *args)
    assert first[1].endswith("LINTED") and _process(tree, *args)[1].endswith("REPLAYED")
    _process(tree, *with_overlay)
    assert _process(tree, *with_overlay)[1].endswith("REPLAYED")
    endpoints = registry_copy / "endpoints.yaml"
    text = endpoints.read_text()
    assert "/sensors/{id}/overview" in text
    endpoints.write_text(text.replace("/sensors/{id}/overview", "/sensors/{id}/overviews"))
    (overlay / "overlay.yaml").write_text(
        "overlay: {}\nproperties:\n  - name: status\n    values: [up, down, paused]\n"
    )
    edited = _process(tree, *args)
    assert edited[1].endswith("LINTED") and edited[1] != first[1]
    assert _process(tree, *with_overlay)[1].endswith("LINTED")
    assert edited[1].replace("LINTED", "") == _process(tree, *args, "--no-cache")[1].replace(
        "LINTED", ""
    )


def test_an_edited_baseline_lints_again(cli, tree: Path, linted) -> None:
    baseline = tree.parent / "baseline.json"
    cli("lint", "--write-baseline", str(baseline), ".")
    args = (*ARGS, "--baseline", str(baseline))
    quiet = cli(*args)
    baseline.write_text('{"version": 1, "findings": []}\n')
    loud = cli(*args)
    assert linted.count == 3 and loud.out != quiet.out
    _same_as_uncached(cli, loud, *args)


def test_another_apispec_lints_again(cli, tree: Path, linted, monkeypatch) -> None:
    cli(*ARGS)
    real = cache.package_signature
    monkeypatch.setattr(cache, "package_signature", lambda: real() + b"upgraded")
    cli(*ARGS)
    assert linted.count == 2


def test_colour_settings_are_another_manifest(cli, tree: Path, linted, monkeypatch) -> None:
    args = ("lint", "--format", "full", ".")
    plain = cli(*args)
    monkeypatch.setenv("FORCE_COLOR", "1")
    coloured = cli(*args)
    assert linted.count == 2 and "\x1b[" in coloured.out and "\x1b[" not in plain.out


def test_runs_that_write_or_fail_keep_no_manifest(cli, tree: Path, linted) -> None:
    cli("lint", "--diff", ".")
    cli("lint", "--no-cache", ".")
    cli("lint", "nothing-here")  # exit 2
    assert _manifests(tree) == []


def test_a_run_with_a_file_not_linted_keeps_no_manifest(cli, tree: Path, monkeypatch) -> None:
    """A file over its time budget is tried again by the next run, never replayed as skipped."""
    from apispec.lint import pool
    from apispec.lint.engine import FileResult
    from apispec.lint.finding import Skipped

    reason = "not linted: took longer than the time budget of 10 s (--file-timeout)"
    monkeypatch.setattr(
        pool, "lint_in_budget", lambda _c, _t, path: FileResult(path, skipped=Skipped(path, reason))
    )
    result = cli(*ARGS)
    assert result.code == 0 and reason in result.out
    assert _manifests(tree) == []


def test_the_least_recently_used_manifests_are_removed(cli, tree: Path, monkeypatch) -> None:
    from apispec.lint import replay

    monkeypatch.setattr(replay, "KEEP", 2)
    for target in ("24.3.100", "25.x.122", "24.3.102", "25.x.112"):
        cli(*ARGS, "--target", target)
        time.sleep(0.01)  # modification times in use order
    kept = _manifests(tree)
    assert len(kept) == 2
    monkeypatch.setattr(replay, "MAX_BYTES", 1)
    cli(*ARGS)
    assert len(_manifests(tree)) == 1  # the newest is kept, whatever its size


def test_a_damaged_manifest_is_never_trusted(cli, tree: Path, linted) -> None:
    first = cli(*ARGS)
    (manifest,) = _manifests(tree)
    data = bytearray(manifest.read_bytes())
    data[-3] ^= 0xFF
    manifest.write_bytes(bytes(data))
    again = cli(*ARGS)
    assert linted.count == 2 and again.out == first.out


# -- time stamps that cannot be trusted --------------------------------------------


def test_a_file_edited_in_the_same_second_is_caught(cli, tree: Path, linted, monkeypatch) -> None:
    monkeypatch.setattr(cache, "RACY_NS", 2_000_000_000)  # the real margin
    client = tree / "deprecated.py"
    first = cli(*ARGS)
    assert _manifests(tree) == []  # the files changed a moment ago: their status proves nothing
    _edit(client)
    again = cli(*ARGS)
    assert "GET /devices/{id}/overview" in again.out and again.out != first.out
    _same_as_uncached(cli, again, *ARGS)


def _mount_coarse(image: Path, mount: Path) -> bool:
    """An ext2 file system with 128-byte inodes: its time stamps are whole seconds."""
    if os.geteuid() != 0 or not shutil.which("mke2fs"):
        return False
    with open(image, "wb") as stream:
        stream.truncate(8 * 1024 * 1024)
    made = subprocess.run(
        ["mke2fs", "-q", "-F", "-I", "128", "-t", "ext2", str(image)], capture_output=True
    )
    mount.mkdir()
    done = subprocess.run(["mount", "-o", "loop", str(image), str(mount)], capture_output=True)
    return made.returncode == 0 and done.returncode == 0


@pytest.fixture
def coarse(tmp_path: Path) -> Iterator[Path]:
    mount = tmp_path / "coarse"
    if not _mount_coarse(tmp_path / "ext2.img", mount):
        pytest.skip("needs root and a loop device to mount an ext2 image")
    try:
        yield mount
    finally:
        subprocess.run(["umount", str(mount)], check=False)


def test_a_tree_with_whole_second_time_stamps_is_never_replayed_stale(
    cli, coarse: Path, linted, monkeypatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(cache, "RACY_NS", 2_000_000_000)  # the real margin
    monkeypatch.setenv("APISPEC_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.chdir(coarse)
    client = coarse / "client.py"
    client.write_text(DEPRECATED)
    assert client.stat().st_mtime_ns % 1_000_000_000 == 0  # the file system keeps seconds
    cli(*ARGS)
    _edit(client)  # within the same second: the status is the same as before
    caught = cli(*ARGS)
    assert "GET /devices/{id}/overview" in caught.out
    time.sleep(REAL_RACY_S + 1)
    settled = cli(*ARGS)  # old enough now: kept, and replayed next
    assert cli(*ARGS).out == settled.out and linted.count == 3
    client.write_text(client.read_text().replace("/devices/", "/sensors/"))  # same size
    fresh = cli(*ARGS)
    assert linted.count == 4 and "GET /sensors/{id}/overview" in fresh.out
    _same_as_uncached(cli, fresh, *ARGS)
