"""Which files the linter reads: a walk that honours .gitignore, excludes and limits.

Files that cannot or should not be linted (too large, binary, unreadable, reached
through a symlink loop) are returned as `Skipped` with a reason, so a report can
say what was not checked instead of silently passing over it.
"""

from __future__ import annotations

import errno
import os
import re
import stat
from collections.abc import Callable
from operator import attrgetter
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from apispec.lint.finding import Skipped
from apispec.support.inputs import InputError, file_kind, megabytes, read_input

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
# Non-blocking: a file swapped for a FIFO after the walk must not block the read.
_READ_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
_BOM = b"\xef\xbb\xbf"
# Why a link found in a walk is not followed (without --follow-links).
OUTSIDE = "symlink leading outside the paths given to apispec"

Ignores = list[tuple[str, "pathspec.GitIgnoreSpec"]]  # (directory with trailing /, its .gitignore)


class Candidate(NamedTuple):
    """A file to lint; a tuple because a large tree makes tens of thousands of them."""

    path: str  # absolute
    size: int
    # the status the walk saw, which a cache compares instead of asking again
    mtime_ns: int = 0
    ctime_ns: int = 0
    inode: int = 0


def display_path(path: str | os.PathLike[str]) -> str:
    """The path as reports show it: relative to the current directory when below it."""
    text = os.fspath(path)
    cwd = os.getcwd()
    if text.startswith(cwd) and text[len(cwd) : len(cwd) + 1] == os.sep:
        text = text[len(cwd) + 1 :]
    return text.replace(os.sep, "/")


def pattern_error(pattern: str) -> str | None:
    """Why a gitignore-style pattern cannot be used (`[z-a]`, a lone `!` or `\\`), or None."""
    import pathspec

    try:
        pathspec.GitIgnoreSpec.from_lines([pattern])
    except (ValueError, re.error) as exc:
        return str(getattr(exc, "msg", None) or exc)  # re.error's msg: no regex position
    return None


def _spec(
    lines: list[str], source: str, warnings: list[str] | None = None
) -> pathspec.GitIgnoreSpec:
    """The patterns as one spec; a pattern that is not a valid glob is left out with a
    warning naming `source` and its line (git itself ignores such a line)."""
    import pathspec

    try:
        return pathspec.GitIgnoreSpec.from_lines(lines)
    except (ValueError, re.error):
        pass
    kept = []
    for number, line in enumerate(lines, 1):
        problem = pattern_error(line)
        if problem is None:
            kept.append(line)
        elif warnings is not None:
            warnings.append(f"{source}:{number}: invalid pattern {line!r} skipped ({problem})")
    return pathspec.GitIgnoreSpec.from_lines(kept)


def _gitignore(directory: str, warnings: list[str] | None = None) -> pathspec.GitIgnoreSpec | None:
    path = os.path.join(directory, ".gitignore")
    try:
        data = read_input(path, name=display_path(path), max_size=DEFAULT_MAX_SIZE)
    except InputError as exc:
        if warnings is not None and "no such file" not in exc.reason:
            warnings.append(f"{exc}; ignored")
        return None
    text = data.decode("utf-8", errors="replace")
    return _spec(text.splitlines(), display_path(path), warnings)


def _ancestor_ignores(start: str, warnings: list[str] | None = None) -> Ignores:
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
        spec = _gitignore(directory, warnings)
        if spec is not None:
            found.append((directory.rstrip(os.sep) + os.sep, spec))
    return found


class _Walker:
    def __init__(
        self,
        excludes: list[str],
        respect_gitignore: bool,
        max_size: int,
        warnings: list[str] | None = None,
        ignored: list[str] | None = None,
        roots: tuple[str, ...] | None = None,
    ) -> None:
        self.warnings = warnings
        # real paths the walk's links may lead into (the named paths); None: any (--follow-links)
        self.roots = roots
        self.ignored_paths = ignored
        self.all_excludes = _spec(excludes, "--exclude", warnings) if excludes else None
        self.exclude = self.all_excludes
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

    def inside(self, real: str) -> bool:
        """Whether a link's real target is one of the named paths or below one."""
        if self.roots is None:
            return True
        return any(
            real == root or real.startswith(root.rstrip(os.sep) + os.sep) for root in self.roots
        )

    def add_file(self, path: str, info: os.stat_result) -> None:
        if path in self.seen_files:
            return  # named twice, or inside a directory also named
        self.seen_files.add(path)
        size = info.st_size
        if size > self.max_size:
            self.skipped.append(Skipped(display_path(path), _too_large(size, self.max_size)))
        else:
            self.files.append(
                Candidate(path, size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino)
            )

    def walk(self, top: str, ignores: Ignores) -> None:
        """Every file below `top`, depth first in name order, without recursion: a tree a
        thousand directories deep is walked like a flat one."""
        on_path: set[str] = set()  # real paths of the directories being walked: loops
        stack: list[tuple[str, Ignores, str | None] | str] = [(top, ignores, None)]
        while stack:
            frame = stack.pop()
            if isinstance(frame, str):  # every directory below this one is done
                on_path.discard(frame)
                continue
            directory, ignores, real = frame
            if real is None:
                real = os.path.realpath(directory)
            if real in on_path:
                self.skipped.append(Skipped(display_path(directory), "symlink loop"))
                continue
            if real in self.seen_dirs:
                continue  # reached twice through a symlink: lint it once
            self.seen_dirs.add(real)
            on_path.add(real)
            stack.append(real)
            below = self._entries(directory, real, ignores)
            stack.extend(reversed(below))

    def _entries(
        self, directory: str, real: str, ignores: Ignores
    ) -> list[tuple[str, Ignores, str | None]]:
        """Add the files of one directory; return its subdirectories to walk, in order."""
        try:
            with os.scandir(directory) as listing:
                entries = sorted(listing, key=_name)
        except OSError as exc:
            self.skipped.append(Skipped(display_path(directory), f"unreadable: {exc.strerror}"))
            return []
        if self.respect_gitignore and ".gitignore" in [e.name for e in entries]:
            spec = _gitignore(directory, self.warnings)
            if spec is not None:
                ignores = [*ignores, (directory + os.sep, spec)]
        below: list[tuple[str, Ignores, str | None]] = []
        # Bound once: the loop runs for every file of the tree, also in a whole-tree replay.
        matching = self.exclude is not None or bool(ignores)
        seen, add_seen, found = self.seen_files, self.seen_files.add, self.files.append
        max_size = self.max_size
        for entry in entries:
            path = entry.path
            try:
                is_dir = entry.is_dir()
                is_file = not is_dir and entry.is_file()
                link = entry.is_symlink()
            except OSError as exc:
                self.skipped.append(Skipped(display_path(path), f"unreadable: {exc.strerror}"))
                continue
            if not is_dir and not is_file:
                if link:
                    self.skipped.append(Skipped(display_path(path), "broken symlink"))
                continue  # sockets, fifos, devices
            if is_dir and entry.name in DEFAULT_EXCLUDES:
                continue
            if matching and self.ignored(path, entry.name, is_dir, ignores):
                if self.ignored_paths is not None:  # counted in the summary, never read
                    self.ignored_paths.append(display_path(path) + ("/" if is_dir else ""))
                continue
            target = None
            if link:  # followed only where it stays inside the named paths (as ripgrep, ruff)
                target = os.path.realpath(path)
                if not self.inside(target):
                    self.skipped.append(Skipped(display_path(path), OUTSIDE))
                    continue
            if is_dir:
                below.append((path, ignores, target or os.path.join(real, entry.name)))
                continue
            try:
                info = entry.stat()
            except OSError as exc:
                self.skipped.append(Skipped(display_path(path), f"unreadable: {exc.strerror}"))
                continue
            if path in seen:
                continue  # also named on the command line
            add_seen(path)
            if info.st_size > max_size:
                self.skipped.append(Skipped(display_path(path), _too_large(info.st_size, max_size)))
            else:
                found(_new(Candidate, (path, *_stamp(info))))
        return below


_name = attrgetter("name")
_stamp = attrgetter("st_size", "st_mtime_ns", "st_ctime_ns", "st_ino")
_new = tuple.__new__  # a Candidate without NamedTuple's Python-level constructor


def _lifted(spec: pathspec.GitIgnoreSpec | None, *names: str) -> pathspec.GitIgnoreSpec | None:
    """`spec` without the patterns that exclude the directory written as one of `names`."""
    if spec is None or not any(spec.match_file(name) for name in names):
        return spec
    import pathspec

    kept = [
        p
        for p in spec.patterns
        if not (p.include and any(p.match_file(name) is not None for name in names))
    ]
    return pathspec.GitIgnoreSpec(kept)


def _too_large(size: int, limit: int) -> str:
    return f"larger than {megabytes(limit)} ({megabytes(size)})"


def discover(
    paths: list[Path],
    *,
    excludes: list[str] = [],  # noqa: B006 - read only
    respect_gitignore: bool = True,
    max_size: int = DEFAULT_MAX_SIZE,
    warnings: list[str] | None = None,
    ignored: list[str] | None = None,
    follow_links: bool = False,
) -> tuple[list[Candidate], list[Skipped]]:
    """Files to lint under `paths`, and the ones skipped with their reason.

    A file named on the command line is linted even when .gitignore or an
    exclude pattern would skip it during a walk, as ruff does. A named path
    that is neither a file nor a directory (`/dev/null`, a FIFO) is skipped
    with its kind, and so is one that does not exist. Patterns that are not valid globs are left out, with a
    message in `warnings`. Paths .gitignore or an exclude pattern left out are
    added to `ignored` (a directory once, with a trailing `/`).

    A symlink met in a walk is followed only when its target is one of the
    named paths or below one (a committed link to `..`, `/etc` or `/` is
    listed as skipped, never read); `follow_links` follows every link, loops
    still detected. A named path is followed wherever it leads: the user named it.
    """
    roots = None if follow_links else tuple(os.path.realpath(p) for p in paths)
    walker = _Walker(excludes, respect_gitignore, max_size, warnings, ignored, roots)
    for given in paths:
        path = os.path.abspath(given)
        try:
            info = os.stat(path)
        except OSError:
            info = None
        if info is not None and stat.S_ISDIR(info.st_mode):
            # A directory named on the command line is walked even when a pattern excludes
            # it (`exclude = ["examples/"]`, then `apispec lint examples/`): the patterns that
            # match the directory itself do not apply below it; the others still do.
            ignores = _ancestor_ignores(path, warnings) if respect_gitignore else []
            shown = display_path(path)
            walker.exclude = _lifted(walker.all_excludes, shown + "/", os.path.basename(path) + "/")
            lifted = [(base, _lifted(spec, path[len(base) :] + "/")) for base, spec in ignores]
            walker.walk(path, [(base, spec) for base, spec in lifted if spec is not None])
        elif info is not None and stat.S_ISREG(info.st_mode):
            walker.add_file(path, info)
        elif info is not None:
            kind = file_kind(info.st_mode)
            walker.skipped.append(Skipped(display_path(path), f"not a regular file ({kind})"))
        elif os.path.islink(path):
            walker.skipped.append(Skipped(display_path(path), "broken symlink"))
        else:
            walker.skipped.append(Skipped(display_path(path), "no such file or directory"))
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
    data, _info, reason = read_bytes(path, max_size)
    if data is None:
        return None, reason
    return decode(data, wanted)


def read_bytes(
    path: str | os.PathLike[str], max_size: int = DEFAULT_MAX_SIZE
) -> tuple[bytes | None, os.stat_result | None, str | None]:
    """(bytes, status before reading, None), or (None, None, reason): too large or unreadable.

    The status is the open file's, taken before its bytes were read, so a
    cache that records it with the bytes' hash can never pair a newer status
    with older content.
    """
    try:
        data, info = _read_bytes(path, max_size + 1)
    except OSError as exc:
        return None, None, f"unreadable: {exc.strerror}"
    if len(data) > max_size:
        return None, None, _too_large(os.path.getsize(path), max_size)
    return data, info, None


def _read_bytes(path: str | os.PathLike[str], limit: int) -> tuple[bytes, os.stat_result]:
    """At most `limit` bytes of the file, read in reads sized by the file's length.

    A plain `open().read(limit)` allocates `limit` bytes (5 MB) for every file
    however small, and its buffered reader costs more than the read itself on a
    tree of small files.
    """
    fd = os.open(path, _READ_FLAGS)
    try:
        chunks = []
        total = 0
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):  # replaced by a FIFO or device since the walk
            raise OSError(errno.EINVAL, f"not a regular file ({file_kind(info.st_mode)})")
        want = min(limit, info.st_size + 1)  # +1 sees EOF, or growth, at once
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
        return (chunks[0] if len(chunks) == 1 else b"".join(chunks)), info
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
