"""The lint results cache: a replay is the cold run byte for byte, and nothing stale survives.

Each test lints a small tree on disk with its own cache directory, cold
(`--no-cache`) and warm, and compares the reports. Edits of the registry and
of overlays are linted by real processes, since a process loads a registry once.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from apispec.lint import cache
from apispec.lint.engine import Checker
from apispec.lint.report import FORMATS

ENGINE = Path(__file__).parent / "fixtures" / "lint" / "engine"
REPO = Path(__file__).parent.parent
DEPRECATED = 'BASE = "https://m:1616/api/v2"\nrequests.get(f"{BASE}/sensors/{sid}/overview")\n'
ARGS = ("lint", "--format", "json", "--fail-on", "never", ".")


@pytest.fixture
def tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Fixes, suppressions (one unused), a binary file, and files with nothing to report."""
    work = tmp_path / "tree"
    work.mkdir()
    for name in ("fixable.py", "suppressed.py", "releases.py", "queries.py", "ignored.ps1"):
        shutil.copy(ENGINE / name, work)
    (work / "logo.png").write_bytes(b"\x89PNG\r\n\x1a\n\0\0\0IHDR")
    (work / "notes.txt").write_text("nothing to see\n")
    (work / "deprecated.py").write_text(DEPRECATED)
    monkeypatch.chdir(work)
    monkeypatch.setenv("APISPEC_CACHE_DIR", str(tmp_path / "cache"))
    # The files were written a moment ago, and a status taken within RACY_NS of a change
    # is not trusted (test_a_status_taken_during_a_change_is_not_trusted): without this,
    # every re-run here would take the content-hash path and never the status shortcut.
    monkeypatch.setattr(cache, "RACY_NS", 0)
    return work


def test_a_status_taken_during_a_change_is_not_trusted(tmp_path: Path) -> None:
    path = tmp_path / "client.py"
    path.write_text(DEPRECATED)
    info = path.stat()
    changed = max(info.st_mtime_ns, info.st_ctime_ns)
    assert cache.stamp(info, now_ns=changed + cache.RACY_NS - 1) is None
    assert cache.stamp(info, now_ns=changed + cache.RACY_NS) == (
        info.st_size,
        info.st_mtime_ns,
        info.st_ctime_ns,
        info.st_ino,
    )


def _replay_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """From now on linting any file fails the test: every result must come from the cache."""

    def refuse(self: Checker, text: str, path: str) -> list:
        raise AssertionError(f"{path} was linted, not replayed")

    monkeypatch.setattr(Checker, "lint_text", refuse)


def _shards(tmp_path: Path) -> list[Path]:
    return sorted((tmp_path / "cache").glob("v*/*.bin"))


@pytest.mark.parametrize("form", FORMATS)
def test_a_replay_is_the_cold_run_byte_for_byte(cli, tree: Path, monkeypatch, form: str) -> None:
    args = ("lint", "--format", form, "--target", "24.3.100", ".")
    cold = cli(*args, "--no-cache")
    first = cli(*args)  # fills the cache
    _replay_only(monkeypatch)
    again = cli(*args)
    assert (again.code, again.out, again.err) == (first.code, first.out, first.err)
    assert (again.code, again.out, again.err) == (cold.code, cold.out, cold.err)


def test_the_replayed_report_keeps_skips_fixes_and_fingerprints(cli, tree: Path, monkeypatch):
    cold = json.loads(cli(*ARGS, "--no-cache").out)
    assert [s["path"] for s in cold["skipped"]] == ["logo.png"]
    assert any(f["fix"] for f in cold["findings"])
    assert {"API002", "API012"} <= set(cold["summary"]["by_rule"])
    cli(*ARGS)
    _replay_only(monkeypatch)
    assert json.loads(cli(*ARGS).out) == cold


def test_no_cache_neither_reads_nor_writes(cli, tree: Path, tmp_path: Path, monkeypatch) -> None:
    cli(*ARGS, "--no-cache")
    assert not (tmp_path / "cache").exists()
    monkeypatch.setenv("APISPEC_NO_CACHE", "1")
    cli(*ARGS)
    assert not (tmp_path / "cache").exists()
    monkeypatch.delenv("APISPEC_NO_CACHE")
    cli(*ARGS, "--cache-dir", str(tmp_path / "chosen"))
    assert list((tmp_path / "chosen").glob("v*/*.bin")) and not (tmp_path / "cache").exists()


def test_an_edited_file_is_linted_again(cli, tree: Path) -> None:
    cli(*ARGS)
    client = tree / "deprecated.py"
    client.write_text(DEPRECATED.replace("overview", "overvue"))
    edited = cli(*ARGS)
    assert "overvue" in edited.out and edited.out == cli(*ARGS, "--no-cache").out


def test_same_size_same_time_other_bytes_is_caught_by_the_content_hash(cli, tree: Path) -> None:
    cli(*ARGS)
    client = tree / "deprecated.py"
    before = client.stat()
    client.write_text(DEPRECATED.replace("/sensors/", "/devices/"))  # same length
    os.utime(client, ns=(before.st_atime_ns, before.st_mtime_ns))  # and the same mtime
    assert client.stat().st_size == before.st_size
    edited = cli(*ARGS)
    assert "GET /devices/{id}/overview" in edited.out
    assert edited.out == cli(*ARGS, "--no-cache").out


def test_a_touched_file_is_replayed_after_its_hash_matches(cli, tree: Path, monkeypatch) -> None:
    first = cli(*ARGS)
    os.utime(tree / "deprecated.py")  # a new time, the same bytes
    _replay_only(monkeypatch)
    assert cli(*ARGS).out == first.out


def test_configuration_and_target_key_the_results(cli, tree: Path) -> None:
    plain = cli(*ARGS)
    (tree / ".apispec.toml").write_text('ignore = ["API002"]\n')
    configured = cli(*ARGS)
    assert '"API002"' in plain.out and '"API002"' not in configured.out
    assert configured.out == cli(*ARGS, "--no-cache").out
    older = cli(*ARGS, "--target", "24.3.100")
    assert older.out == cli(*ARGS, "--target", "24.3.100", "--no-cache").out
    assert older.out != configured.out
    (tree / ".apispec.toml").unlink()
    assert cli(*ARGS).out == plain.out


def _run(*args: str, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "apispec", *args],
        cwd=cwd,
        env={**os.environ, "PYTHONPATH": str(REPO), **env},
        capture_output=True,
        text=True,
        check=False,
    )


def test_an_edited_registry_or_overlay_is_a_new_key(tree: Path, registry_copy: Path, tmp_path):
    env = {"APISPEC_CACHE_DIR": str(tmp_path / "cache")}
    args = (*ARGS, "--registry", str(registry_copy))
    before = _run(*args, cwd=tree, env=env)
    assert "/sensors/{id}/overview is deprecated" in before.stdout
    endpoints = registry_copy / "endpoints.yaml"
    text = endpoints.read_text()
    start = text.index("path: /sensors/{id}/overview")
    block = text[start : text.index("\n  - ", start)]
    endpoints.write_text(
        text.replace(block, block.replace("maturity: deprecated", "maturity: stable"))
    )
    after = _run(*args, cwd=tree, env=env)
    assert "/sensors/{id}/overview is deprecated" not in after.stdout
    assert after.stdout == _run(*args, "--no-cache", cwd=tree, env=env).stdout

    overlay = tmp_path / "overlay"
    overlay.mkdir()
    patch = "overlay: {}\nendpoints:\n  - {method: GET, path: %s, maturity: stable}\n"
    (overlay / "overlay.yaml").write_text(patch % '"/sensors/{id}/overview"')
    with_overlay = (*ARGS, "--overlay", str(overlay))
    stable = _run(*with_overlay, cwd=tree, env=env)
    assert "deprecated.py" not in stable.stdout
    (overlay / "overlay.yaml").write_text(patch % "/users")
    deprecated = _run(*with_overlay, cwd=tree, env=env)
    assert "/sensors/{id}/overview is deprecated" in deprecated.stdout
    assert deprecated.stdout == _run(*with_overlay, "--no-cache", cwd=tree, env=env).stdout


def test_two_concurrent_runs_sharing_a_cache_both_finish_correctly(tree: Path, tmp_path: Path):
    for i in range(40):
        shutil.copy(ENGINE / "releases.py", tree / f"copy{i:02}.py")
    env = {"APISPEC_CACHE_DIR": str(tmp_path / "cache")}
    expected = _run(*ARGS, "--no-cache", cwd=tree, env=env)
    command = [sys.executable, "-m", "apispec", *ARGS]
    environment = {**os.environ, "PYTHONPATH": str(REPO), **env}
    for _ in range(2):  # cold, both writing; then warm, both reading
        runs = [
            subprocess.Popen(
                command,
                cwd=tree,
                env=environment,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
            for _ in range(2)
        ]
        for run in runs:
            out, err = run.communicate(timeout=120)
            assert (run.returncode, err) == (0, "")
            assert out == expected.stdout
    assert _run(*ARGS, cwd=tree, env=env).stdout == expected.stdout


def test_pruning_removes_the_least_recently_used_store_first(cli, tree: Path, tmp_path: Path):
    cli(*ARGS, "--target", "24.3.100")
    cli(*ARGS)
    root = tmp_path / "cache"
    older, newer = sorted(root.glob("v*"), key=lambda p: p.stat().st_mtime)
    os.utime(older, (1, 1))
    size = sum(f.stat().st_size for f in newer.iterdir())
    cache.prune(root, keep=newer, limit=size)
    assert [p.name for p in root.glob("v*")] == [newer.name]
    cache.prune(root, keep=newer, limit=size - 1)  # the store in use alone is over the bound
    assert not list(root.glob("v*"))


def test_what_only_picks_files_or_the_exit_code_keeps_the_cache(cli, tree: Path, monkeypatch):
    plain = cli("lint", "--format", "json", ".")
    _replay_only(monkeypatch)
    assert cli("lint", "--format", "json", "--fail-on", "never", ".").out == plain.out
    assert cli("lint", "--format", "sarif", "--exclude", "nothing-*", ".").code == plain.code


def test_repository_context_keys_results_apart(tmp_path: Path) -> None:
    """What a run learns across files (the repository's own helpers) joins the run key."""
    client = tmp_path / "client.py"
    client.write_text(DEPRECATED)
    key = cache.RunKey(hashlib.sha256(b"a run").digest())
    store = cache.Store(tmp_path / "cache", key)
    store.put(str(client), None, cache.content_hash(client.read_bytes()), None)
    store.save()
    assert cache.Store(tmp_path / "cache", key).entry(str(client)) is not None
    helped = key.joined(b"helpers: api_get, fetch_all")
    assert helped == key.joined(b"helpers: api_get, fetch_all") != key.joined(b"helpers: none")
    assert cache.Store(tmp_path / "cache", helped).entry(str(client)) is None


HELPER = (
    'BASE = "https://prtg.example.com:1616/api/v2"\n\n'
    "def _get(path, **params):\n"
    "    return requests.get(BASE + path, params=params)\n"
)


def test_callers_of_another_files_helper_are_replayed_and_relinted_when_it_changes(
    cli, tree: Path, monkeypatch
) -> None:
    """The second pass (a helper one file defines, called from another) is cached too."""
    (tree / "prtg_api.py").write_text(HELPER)
    (tree / "report.py").write_text("from prtg_api import _get\n\n_get('/sensor-status-summary')\n")
    cold = json.loads(cli(*ARGS, "--no-cache").out)
    assert [(f["path"], f["code"]) for f in cold["findings"] if f["path"] == "report.py"] == [
        ("report.py", "API004")
    ]
    assert json.loads(cli(*ARGS).out) == cold  # fills both passes' stores
    with pytest.MonkeyPatch.context() as patched:
        _replay_only(patched)
        assert json.loads(cli(*ARGS).out) == cold
    # the helper's definition changes: its base is no longer this API's, so the call is gone
    (tree / "prtg_api.py").write_text(HELPER.replace("BASE + path", "OTHER + path"))
    edited = json.loads(cli(*ARGS).out)
    assert not [f for f in edited["findings"] if f["path"] == "report.py"]
    assert edited == json.loads(cli(*ARGS, "--no-cache").out)
