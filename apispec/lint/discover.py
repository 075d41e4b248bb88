"""Which files the linter reads: a walk that honours .gitignore, excludes and limits.

Files that cannot or should not be linted (too large, binary, unreadable, reached
through a symlink loop) are returned as `Skipped` with a reason, so a report can
say what was not checked instead of silently passing over it.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from operator import attrgetter
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from apispec.exceptions import UsageError
from apispec.lint.finding import Skipped

if TYPE_CHECKING:  # imported where used: a tree without .gitignore never needs it
    import pathspec

DEFAULT_MAX_SIZE = 5 * 1024 * 1024
# Tool and dependency directories nobody wants linted; --exclude adds to these.
DEFAULT_EXCLUDES = frozenset(
    {
        ".git",
        ".hg",
        ".svn",
        "node_modules",
        ".venv",
        "venv",
        "__pycache__",
        ".tox",
        ".mypy_cache",
        ".ruff_cache",
        ".pytest_cache",
    }
)
_BINARY_PROBE = 8192
_BOM = b"\xef\xbb\xbf"

Ignores = list[tuple[str, "pathspec.PathSpec"]]  # (directory with trailing /, its .gitignore)


class Candidate(NamedTuple):
    """A file to lint; a tuple because a large tree makes tens of thousands of them."""

    path: str  # absolute
    size: int


def display_path(path: str | os.PathLike[str]) -> str:
    """The path as reports show it: relative to the current directory when below it."""
    text = os.fspath(path)
    cwd = os.getcwd()
    if text.startswith(cwd) and text[len(cwd) : len(cwd) + 1] == os.sep:
        text = text[len(cwd) + 1 :]
    return text.replace(os.sep, "/")


def _spec(lines: Iterable[str]) -> pathspec.PathSpec:
    import pathspec

    return pathspec.GitIgnoreSpec.from_lines(list(lines))


def _gitignore(directory: str) -> pathspec.PathSpec | None:
    try:
        with open(os.path.join(directory, ".gitignore"), encoding="utf-8", errors="replace") as f:
            return _spec(f.read().splitlines())
    except OSError:
        return None


def _ancestor_ignores(start: str) -> Ignores:
    """.gitignore files above `start` up to its repository root (if it is in one)."""
    chain: list[str] = []
    for parent in Path(start).parents:
        chain.append(str(parent))
        if (parent / ".git").exists():
            break
    else:
        return []
    found = []
    for directory in reversed(chain):
        spec = _gitignore(directory)
        if spec is not None:
            found.append((directory.rstrip(os.sep) + os.sep, spec))
    return found


class _Walker:
    def __init__(self, excludes: list[str], respect_gitignore: bool, max_size: int) -> None:
        self.exclude = _spec(excludes) if excludes else None
        self.respect_gitignore = respect_gitignore
        self.max_size = max_size
        self.files: list[Candidate] = []
        self.skipped: list[Skipped] = []
        self.seen_dirs: set[str] = set()
        self.seen_files: set[str] = set()

    def ignored(self, path: str, name: str, is_dir: bool, ignores: Ignores) -> bool:
        suffix = "/" if is_dir else ""
        if self.exclude is not None and (
            self.exclude.match_file(display_path(path) + suffix)
            or self.exclude.match_file(name + suffix)
        ):
            return True
        for base, spec in ignores:
            if path.startswith(base) and spec.match_file(path[len(base) :] + suffix):
                return True
        return False

    def add_file(self, path: str, size: int) -> None:
        if path in self.seen_files:
            return  # named twice, or inside a directory also named
        self.seen_files.add(path)
        if size > self.max_size:
            self.skipped.append(Skipped(display_path(path), _too_large(size, self.max_size)))
        else:
            self.files.append(Candidate(path, size))

    def walk(
        self, directory: str, ignores: Ignores, chain: frozenset[str], real: str | None = None
    ) -> None:
        """`real`: the directory's real path when the caller knows it (no symlink on the way)."""
        if real is None:
            real = os.path.realpath(directory)
        if real in chain:
            self.skipped.append(Skipped(display_path(directory), "symlink loop"))
            return
        if real in self.seen_dirs:
            return  # reached twice through a symlink: lint it once
        self.seen_dirs.add(real)
        chain = chain | {real}
        try:
            with os.scandir(directory) as listing:
                entries = sorted(listing, key=_name)
        except OSError as exc:
            self.skipped.append(Skipped(display_path(directory), f"unreadable: {exc.strerror}"))
            return
        if self.respect_gitignore and any(e.name == ".gitignore" for e in entries):
            spec = _gitignore(directory)
            if spec is not None:
                ignores = [*ignores, (directory + os.sep, spec)]
        for entry in entries:
            path = entry.path
            try:
                is_dir = entry.is_dir()
                is_file = not is_dir and entry.is_file()
            except OSError as exc:
                self.skipped.append(Skipped(display_path(path), f"unreadable: {exc.strerror}"))
                continue
            if not is_dir and not is_file:
                if entry.is_symlink():
                    self.skipped.append(Skipped(display_path(path), "broken symlink"))
                continue  # sockets, fifos, devices
            if is_dir and entry.name in DEFAULT_EXCLUDES:
                continue
            if (self.exclude is not None or ignores) and self.ignored(
                path, entry.name, is_dir, ignores
            ):
                continue
            if is_dir:
                try:
                    below = None if entry.is_symlink() else os.path.join(real, entry.name)
                except OSError:
                    below = None  # vanished or unreadable: realpath below decides
                self.walk(path, ignores, chain, below)
                continue
            try:
                size = entry.stat().st_size
            except OSError as exc:
                self.skipped.append(Skipped(display_path(path), f"unreadable: {exc.strerror}"))
                continue
            self.add_file(path, size)


_name = attrgetter("name")


def _too_large(size: int, limit: int) -> str:
    return f"larger than {_megabytes(limit)} ({_megabytes(size)})"


def _megabytes(size: int) -> str:
    """A size as the user wrote it: `5 MB`, `5.7 MB`, `512 KB`, `100 bytes`."""
    for unit, factor in (("MB", 1024 * 1024), ("KB", 1024)):
        if size >= factor:
            return f"{size / factor:.1f} {unit}".replace(f".0 {unit}", f" {unit}")
    return f"{size} bytes"


def discover(
    paths: list[Path],
    *,
    excludes: list[str] = [],  # noqa: B006 - read only
    respect_gitignore: bool = True,
    max_size: int = DEFAULT_MAX_SIZE,
) -> tuple[list[Candidate], list[Skipped]]:
    """Files to lint under `paths`, and the ones skipped with their reason.

    A file named on the command line is linted even when .gitignore or an
    exclude pattern would skip it during a walk, as ruff does.
    """
    walker = _Walker(excludes, respect_gitignore, max_size)
    for given in paths:
        path = os.path.abspath(given)
        if os.path.isdir(path):
            ignores = _ancestor_ignores(path) if respect_gitignore else []
            walker.walk(path, ignores, frozenset())
        elif os.path.isfile(path):
            walker.add_file(path, os.path.getsize(path))
        elif os.path.islink(path):
            walker.skipped.append(Skipped(display_path(path), "broken symlink"))
        else:
            raise UsageError(f"no such file or directory: {given}")
    return walker.files, walker.skipped


def read_text(
    path: str | os.PathLike[str],
    max_size: int = DEFAULT_MAX_SIZE,
    wanted: Callable[[bytes], bool] | None = None,
) -> tuple[str | None, str | None]:
    """(text, None), or (None, reason) when the file is binary, too large or unreadable.

    (None, None) when `wanted` says the bytes of a UTF-8 file are not worth
    decoding: on a large tree most files are dropped before they become text.
    """
    try:
        data = _read_bytes(path, max_size + 1)
    except OSError as exc:
        return None, f"unreadable: {exc.strerror}"
    if len(data) > max_size:
        return None, _too_large(os.path.getsize(path), max_size)
    return decode(data, wanted)


def _read_bytes(path: str | os.PathLike[str], limit: int) -> bytes:
    """At most `limit` bytes of the file, read in reads sized by the file's length.

    A plain `open().read(limit)` allocates `limit` bytes (5 MB) for every file
    however small, and its buffered reader costs more than the read itself on a
    tree of small files.
    """
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_BINARY", 0))
    try:
        chunks = []
        total = 0
        want = min(limit, os.fstat(fd).st_size + 1)  # +1 sees EOF, or growth, at once
        while total < limit:
            size = max(1, min(want, limit - total))
            chunk = os.read(fd, size)
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
            if len(chunk) < size:
                break  # a short read of a regular file is its end: no second read to see EOF
            want = limit - total  # the file grew while being read: take the rest at once
        return chunks[0] if len(chunks) == 1 else b"".join(chunks)
    finally:
        os.close(fd)


def decode(
    data: bytes, wanted: Callable[[bytes], bool] | None = None
) -> tuple[str | None, str | None]:
    """Text of a file's bytes: UTF-8 (BOM dropped), UTF-16 by BOM, else UTF-8 with replacement.

    (None, None) when `wanted` rejects the bytes of a file that is not UTF-16.
    """
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return data.decode("utf-16", errors="replace"), None
    if b"\0" in data[:_BINARY_PROBE]:
        return None, "binary"
    if wanted is not None and not wanted(data):
        return None, None
    if data.startswith(_BOM):
        data = data[len(_BOM) :]
    try:
        return data.decode("utf-8"), None
    except UnicodeDecodeError:
        return data.decode("utf-8", errors="replace"), None
