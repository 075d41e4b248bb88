"""Hostile caches: damaged, forged or odd shard files, and a cache directory that is a file.

A cache is data apispec wrote itself, but a disk, a crash, another tool or
another version may leave anything there: it must be ignored, never trusted,
and never hang or stop a run.
"""

from __future__ import annotations

import hashlib
import marshal
import os
import shutil
from pathlib import Path

import pytest

from apispec.lint import cache

ENGINE = Path(__file__).parent.parent / "fixtures" / "lint" / "engine"
ARGS = ("lint", "--format", "json", "--fail-on", "never", ".")


@pytest.fixture
def tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    work = tmp_path / "tree"
    work.mkdir()
    for name in ("fixable.py", "suppressed.py", "releases.py", "queries.py"):
        shutil.copy(ENGINE / name, work)
    monkeypatch.chdir(work)
    monkeypatch.setenv("APISPEC_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(cache, "RACY_NS", 0)  # trust the status of files written just now
    return work


def _shards(tmp_path: Path) -> list[Path]:
    return sorted((tmp_path / "cache").glob("v*/*.bin"))


def test_damaged_shards_are_ignored_never_trusted(cli, tree: Path, tmp_path: Path) -> None:
    cold = cli(*ARGS, "--no-cache")
    cli(*ARGS)
    shards = _shards(tmp_path)
    assert shards
    for number, shard in enumerate(shards):
        data = bytearray(shard.read_bytes())
        if number % 3 == 0:
            data[-5] ^= 0xFF  # a flipped bit
        elif number % 3 == 1:
            del data[len(data) // 2 :]  # cut short
        else:
            data[:4] = b"junk"  # another format
        shard.write_bytes(bytes(data))
    assert cli(*ARGS).out == cold.out
    assert cli(*ARGS).out == cold.out  # and the rewritten shards are sound


def test_an_entry_that_lies_about_its_result_shape_is_linted_again(cli, tree: Path, tmp_path):
    cold = cli(*ARGS, "--no-cache")
    cli(*ARGS)
    for shard in _shards(tmp_path):
        head = len(b"apispec lint cache %d\n" % cache.FORMAT)
        entries = marshal.loads(shard.read_bytes()[head + 16 :])
        forged = {
            path: (status, digest, ("not", "a", "result"))
            for path, (status, digest, _) in entries.items()
        }
        payload = marshal.dumps(forged)
        shard.write_bytes(
            shard.read_bytes()[:head] + hashlib.sha256(payload).digest()[:16] + payload
        )
    assert cli(*ARGS).out == cold.out


def test_a_shard_that_is_a_fifo_or_a_directory_neither_hangs_nor_fails(cli, tree: Path, tmp_path):
    cold = cli(*ARGS, "--no-cache")
    cli(*ARGS)
    shards = _shards(tmp_path)
    shards[0].unlink()
    os.mkfifo(shards[0])
    shards[1].unlink()
    shards[1].mkdir()
    assert cli(*ARGS).out == cold.out


def test_an_unusable_cache_directory_costs_speed_and_says_so(cli, tree: Path, tmp_path: Path):
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    result = cli(*ARGS, "--cache-dir", str(blocker))
    assert result.out == cli(*ARGS, "--no-cache").out
    assert result.err.count("\n") == 1 and "lint results not cached" in result.err
