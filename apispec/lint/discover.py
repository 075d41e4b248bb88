"""Which files the linter reads: a walk that honours .gitignore, excludes and limits.

Files that cannot or should not be linted (too large, binary, unreadable, reached
through a symlink loop) are returned as `Skipped` with a reason, so a report can
say what was not checked instead of silently passing over it.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import pathspec

from apispec.exceptions import UsageError
from apispec.lint.finding import Skipped

DEFAULT_MAX_SIZE = 5 * 1024 * 1024
# Tool and dependency directories nobody wants linted; --exclude adds to these.
DEFAULT_EXCLUDES = (
    ".git/",
    ".hg/",
    ".svn/",
    "node_modules/",
    ".venv/",
    "venv/",
    "__pycache__/",
    ".tox/",
    ".mypy_cache/",
    ".ruff_cache/",
    ".pytest_cache/",
)
_BINARY_PROBE = 8192


@dataclass(frozen=True)
class Candidate:
    path: Path
    size: int


def display_path(path: Path) -> str:
    """The path as reports show it: relative to the current directory when below it."""
    try:
        return path.relative_to(Path.cwd()).as_posix()
    except ValueError:
        return path.as_posix()


def _spec(lines: Iterable[str]) -> pathspec.PathSpec:
    return pathspec.GitIgnoreSpec.from_lines(list(lines))


def _gitignore(directory: Path) -> pathspec.PathSpec | None:
    try:
        text = (directory / ".gitignore").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    return _spec(text.splitlines())


def _ancestor_ignores(start: Path) -> list[tuple[Path, pathspec.PathSpec]]:
    """.gitignore files above `start` up to its repository root (if it is in one)."""
    chain: list[Path] = []
    for parent in start.parents:
        chain.append(parent)
        if (parent / ".git").exists():
            break
    else:
        return []
    found = []
    for directory in reversed(chain):
        spec = _gitignore(directory)
        if spec is not None:
            found.append((directory, spec))
    return found


class _Walker:
    def __init__(self, excludes: list[str], respect_gitignore: bool, max_size: int) -> None:
        self.exclude = _spec([*DEFAULT_EXCLUDES, *excludes])
        self.respect_gitignore = respect_gitignore
        self.max_size = max_size
        self.files: list[Candidate] = []
        self.skipped: list[Skipped] = []
        self.seen_dirs: set[str] = set()

    def ignored(
        self, path: Path, is_dir: bool, ignores: list[tuple[Path, pathspec.PathSpec]]
    ) -> bool:
        suffix = "/" if is_dir else ""
        shown = display_path(path) + suffix
        if self.exclude.match_file(shown) or self.exclude.match_file(path.name + suffix):
            return True
        for base, spec in ignores:
            try:
                relative = path.relative_to(base).as_posix()
            except ValueError:
                continue
            if spec.match_file(relative + suffix):
                return True
        return False

    def add_file(self, path: Path, size: int) -> None:
        if size > self.max_size:
            self.skipped.append(Skipped(display_path(path), _too_large(size, self.max_size)))
        else:
            self.files.append(Candidate(path, size))

    def walk(
        self, directory: Path, ignores: list[tuple[Path, pathspec.PathSpec]], chain: frozenset[str]
    ) -> None:
        real = os.path.realpath(directory)
        if real in chain:
            self.skipped.append(Skipped(display_path(directory), "symlink loop"))
            return
        if real in self.seen_dirs:
            return  # reached twice through a symlink: lint it once
        self.seen_dirs.add(real)
        chain = chain | {real}
        if self.respect_gitignore:
            spec = _gitignore(directory)
            if spec is not None:
                ignores = [*ignores, (directory, spec)]
        try:
            entries = sorted(os.scandir(directory), key=lambda e: e.name)
        except OSError as exc:
            self.skipped.append(Skipped(display_path(directory), f"unreadable: {exc.strerror}"))
            return
        for entry in entries:
            path = Path(entry.path)
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
            if self.ignored(path, is_dir, ignores if self.respect_gitignore else []):
                continue
            if is_dir:
                self.walk(path, ignores, chain)
                continue
            try:
                size = entry.stat().st_size
            except OSError as exc:
                self.skipped.append(Skipped(display_path(path), f"unreadable: {exc.strerror}"))
                continue
            self.add_file(path, size)


def _too_large(size: int, limit: int) -> str:
    return f"larger than {_megabytes(limit)} ({_megabytes(size)})"


def _megabytes(size: int) -> str:
    return f"{size / (1024 * 1024):.1f} MB".replace(".0 MB", " MB")


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
        path = Path(os.path.abspath(given))
        if path.is_dir():
            ignores = _ancestor_ignores(path) if respect_gitignore else []
            walker.walk(path, ignores, frozenset())
        elif path.is_file():
            walker.add_file(path, path.stat().st_size)
        elif path.is_symlink():
            walker.skipped.append(Skipped(display_path(path), "broken symlink"))
        else:
            raise UsageError(f"no such file or directory: {given}")
    return walker.files, walker.skipped


def read_text(path: Path, max_size: int = DEFAULT_MAX_SIZE) -> tuple[str | None, str | None]:
    """(text, None), or (None, reason) when the file is binary, too large or unreadable."""
    try:
        with open(path, "rb") as handle:
            data = handle.read(max_size + 1)
    except OSError as exc:
        return None, f"unreadable: {exc.strerror}"
    if len(data) > max_size:
        return None, _too_large(os.path.getsize(path), max_size)
    return decode(data)


def decode(data: bytes) -> tuple[str | None, str | None]:
    """Text of a file's bytes: UTF-8 (BOM dropped), UTF-16 by BOM, else UTF-8 with replacement."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return data.decode("utf-16", errors="replace"), None
    if b"\0" in data[:_BINARY_PROBE]:
        return None, "binary"
    try:
        return data.decode("utf-8-sig"), None
    except UnicodeDecodeError:
        return data.decode("utf-8", errors="replace"), None
