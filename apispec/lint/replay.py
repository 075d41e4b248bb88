"""Whole-tree replay: an unchanged tree's report printed again without linting a file.

CI and pre-commit lint the same tree all day. After a run that may be
replayed, a manifest is kept: the walk as it went (its parameters, and the
path, size, modification and change time and inode of every file it found,
with the skipped and ignored paths and its warnings), the status of every
other file the report depends on (the configuration files looked for from
the current directory up, whether found or not; the registry and overlay
directories and each file in them; the baseline), and the output of the run:
report, `--output` file, standard error lines and exit code. The manifest is
named by a hash of the invocation: every option, the current directory,
apispec's own files (an upgrade or an edit), Python's version and the
environment variables that change the output.

The next run with the same invocation stats those files and walks the tree
again (the walk is all it costs: about what reading the tree's names costs),
and when everything equals the manifest it prints the stored output before
any part of the linter is imported. Anything else (a file edited, added,
removed or renamed, a changed `.gitignore`, configuration, registry, overlay
or baseline) is a normal run, in which the per-file cache (apispec.lint.cache)
still replays the files that did not change, and then a new manifest.

A status is trusted only when it was old when the run began: a file changed
within RACY_NS of the run's start (or during the run) may change again
without its time stamps moving, on a file system that keeps seconds or two
(ext2, FAT) as on one whose clock ticks coarsely, so such a run keeps no
manifest and the next run lints (see docs/linter.md, "The cache").

Runs that are not replayed: those that write files or depend on more than the
tree (`--fix`, `--diff`, `--add-suppressions`, `--write-baseline`, `--since`,
standard input), a report to a terminal (it shows the elapsed time), and runs
that end in an error (exit 2 or 3), which must be seen to happen each time.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import marshal
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NamedTuple

from apispec.lint import cache
from apispec.lint.discover import Candidate, discover
from apispec.lint.finding import Skipped

FORMAT = 1
_MAGIC = b"apispec lint replay %d\n" % FORMAT
_CHECK = 16  # bytes of SHA-256 over the payload
KEEP = 64  # manifests kept, least recently used removed first,
MAX_BYTES = 64 * 1024 * 1024  # and at most this much of them (a report can be megabytes)
# Variables that change what a run prints (colour, a traceback) without being options.
_ENVIRONMENT = ("NO_COLOR", "FORCE_COLOR", "TERM", "APISPEC_DEBUG", "PYTHONIOENCODING")
# Options that make a run write files or read more than the tree: never replayed.
_NOT_REPLAYED = ("fix", "diff", "add_suppressions", "write_baseline", "since", "stdin_filename")

FileStamp = tuple[int, int, int, int] | tuple[str] | None  # status, ("link",) or absent


class Walked(NamedTuple):
    """A run's walk: its parameters, what it found, and the other files the run read."""

    paths: list[str]
    excludes: list[str]
    respect_gitignore: bool
    max_size: int
    follow_links: bool
    candidates: list[Candidate]
    skipped: list[Skipped]
    ignored: list[str]
    warnings: list[str]
    inputs: list[Path]  # configuration file, registry and overlay directories, baseline


class Output(NamedTuple):
    """What a run printed and wrote: replayed as it was."""

    stdout: str
    stderr: list[str]  # whole lines, without their line end
    report_file: str | None  # the text `--output FILE` received
    exit_code: int


def replayable(args: argparse.Namespace, to_terminal: bool) -> bool:
    """Whether this invocation may be answered from a manifest and may keep one."""
    if to_terminal or args.no_cache or os.environ.get("APISPEC_NO_CACHE"):
        return False
    if any(getattr(args, name, None) for name in _NOT_REPLAYED):
        return False
    return "-" not in args.paths


class Manifest:
    """The manifest of one invocation: looked up before linting, written after."""

    def __init__(self, args: argparse.Namespace, started_ns: int) -> None:
        self.args = args
        self.started_ns = started_ns  # before anything was read: what "old enough" means
        root = cache.directory(args.cache_dir)
        self.path = None if root is None else root / "replay" / f"{_key(args)}.bin"
        self.probes = _config_probes(args)

    def replay(self) -> Output | None:
        """The stored output when nothing it depends on changed, else None."""
        if self.path is None:
            return None
        stored = _read(self.path)
        if stored is None:
            return None
        try:
            walk, dependencies, output = stored
            if not _unchanged(dependencies) or _walk(walk) != walk[1]:
                return None
            replayed = Output(*output)
        except (TypeError, ValueError, KeyError, IndexError):
            return None  # damaged or of another shape: never trusted
        with contextlib.suppress(OSError):
            os.utime(self.path)  # used now: the last one pruning removes
        return replayed

    def save(self, walked: Walked, output: Output) -> None:
        """Keep the run's manifest, unless a status it rests on is too recent to trust."""
        if self.path is None or output.exit_code not in (0, 1):
            return
        found = _found(walked)
        if any(_racy(c.mtime_ns, c.ctime_ns, self.started_ns) for c in walked.candidates):
            return
        dependencies = [(p, _stamp(p)) for p in self.probes]
        for path in walked.inputs:
            dependencies.extend(_directory_stamps(path))
        if any(_racy_stamp(s, self.started_ns) for _, s in dependencies):
            return
        parameters = (
            walked.paths,
            walked.excludes,
            walked.respect_gitignore,
            walked.max_size,
            walked.follow_links,
        )
        _write(self.path, ((parameters, found), dependencies, tuple(output)))


def _key(args: argparse.Namespace) -> str:
    """The manifest's name: everything about the invocation that is not a file's content."""
    options = sorted(
        (name, _plain(value)) for name, value in vars(args).items() if name != "handler"
    )
    environment = [(name, os.environ.get(name)) for name in _ENVIRONMENT]
    digest = hashlib.sha256(_MAGIC)
    for part in (
        options,
        environment,
        os.getcwd(),
        sys.version,
        sys.executable,
        getattr(sys.stdout, "encoding", None),
    ):
        digest.update(b"\0" + repr(part).encode("utf-8", "surrogateescape"))
    digest.update(cache.package_signature())
    return digest.hexdigest()[:32]


def _plain(value: object) -> object:
    if isinstance(value, Path):
        return str(value)
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


def _config_probes(args: argparse.Namespace) -> list[str]:
    """Every configuration file a run may read: the named one, or each name looked for
    from the current directory up (apispec.lint.config.find_config), found or not."""
    if args.config is not None:
        return [os.path.abspath(args.config)]
    cwd = Path(os.path.realpath(os.getcwd()))
    return [
        str(d / name) for d in (cwd, *cwd.parents) for name in (".apispec.toml", "pyproject.toml")
    ]


def _stamp(path: str | os.PathLike[str]) -> FileStamp:
    try:
        info = os.stat(path)
    except OSError:
        return ("link",) if os.path.islink(path) else None
    return (info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino)


def _directory_stamps(path: Path) -> list[tuple[str, FileStamp]]:
    """A file's status; a directory's own and that of every entry in it (the registry and
    overlay directories are read as every `*.yaml` file they hold)."""
    stamps = [(str(path), _stamp(path))]
    if os.path.isdir(path):
        try:
            names = sorted(os.listdir(path))
        except OSError:
            names = []
        stamps.extend(
            (os.path.join(path, name), _stamp(os.path.join(path, name))) for name in names
        )
    return stamps


def _unchanged(dependencies: Sequence[tuple[str, FileStamp]]) -> bool:
    return all(_stamp(path) == stamp for path, stamp in dependencies)


def _racy(mtime_ns: int, ctime_ns: int, started_ns: int) -> bool:
    """Changed too close to (or after) the run's start for its status to prove anything."""
    return max(mtime_ns, ctime_ns) > started_ns - cache.RACY_NS


def _racy_stamp(stamp: FileStamp, started_ns: int) -> bool:
    return stamp is not None and len(stamp) == 4 and _racy(stamp[1], stamp[2], started_ns)


def _found(walked: Walked | tuple[Any, ...]) -> tuple[Any, ...]:
    """The walk's findings as plain values, equal exactly when the walk found the same."""
    candidates, skipped, ignored, warnings = walked[5:9]
    return (
        [tuple(c) for c in candidates],
        [(s.path, s.reason) for s in skipped],
        list(ignored),
        list(warnings),
    )


def _walk(stored: tuple[Any, Any]) -> tuple[Any, ...]:
    """The same walk again, with the parameters the manifest's run used."""
    paths, excludes, respect_gitignore, max_size, follow_links = stored[0]
    warnings: list[str] = []
    ignored: list[str] = []
    candidates, skipped = discover(
        [Path(p) for p in paths],
        excludes=excludes,
        respect_gitignore=respect_gitignore,
        max_size=max_size,
        warnings=warnings,
        ignored=ignored,
        follow_links=follow_links,
    )
    return _found((None,) * 5 + (candidates, skipped, ignored, warnings))


def _read(path: Path) -> Any:
    try:
        with open(path, "rb") as stream:
            data = stream.read()
    except OSError:
        return None
    head = len(_MAGIC)
    payload = memoryview(data)[head + _CHECK :]
    if (
        not data.startswith(_MAGIC)
        or hashlib.sha256(payload).digest()[:_CHECK] != data[head : head + _CHECK]
    ):
        return None
    try:
        return marshal.loads(payload)
    except (EOFError, ValueError, TypeError):
        return None


def _write(path: Path, manifest: object) -> None:
    """Replace the manifest whole (never half of one), then keep the newest KEEP."""
    from apispec.support.outputs import WriteError, write_atomic

    try:
        payload = marshal.dumps(manifest)  # type: ignore[arg-type]  # plain tuples, typed loosely
        path.parent.mkdir(parents=True, exist_ok=True)
        check = hashlib.sha256(payload).digest()[:_CHECK]
        write_atomic(path, _MAGIC + check + payload, durable=False, generated=True)
    except (OSError, WriteError, ValueError):
        return  # a manifest is speed, never correctness: the next run lints
    _prune(path.parent)


def _prune(directory: Path) -> None:
    """Remove the least recently used manifests past KEEP of them or MAX_BYTES in all."""
    try:
        entries = [(e.stat(), e.path) for e in os.scandir(directory) if e.name.endswith(".bin")]
    except OSError:
        return
    entries.sort(key=lambda entry: entry[0].st_mtime, reverse=True)
    total = 0
    for count, (info, path) in enumerate(entries):
        total += info.st_size
        if count >= KEEP or (count and total > MAX_BYTES):
            with contextlib.suppress(OSError):
                os.unlink(path)
