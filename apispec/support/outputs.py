"""Writing files: every file apispec writes goes through `write_atomic`.

A plain `open(path, "w")` truncates first and writes after, so a full disk, a
kill or a crash in between leaves a truncated file: for `lint --fix` that is
the user's source code. Here the new content goes to a temporary file in the
same directory, is flushed to disk, takes the old file's permission bits and
replaces it with one `os.replace`: a reader sees the old file or the new one,
never a mix. A symlink is written through (its target is replaced, the link
stays a link). A device or FIFO named as output (`-o /dev/stdout`) is written
to as a stream, since replacing it would destroy it.

`FileState` records what a file was when it was read; given as `expected`,
the write is refused when the file changed since (size, modification time,
inode or content), so an edit made meanwhile is never overwritten with stale
text.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import stat
from dataclasses import dataclass

from apispec.support.exceptions import ApispecError
from apispec.support.inputs import MAX_INPUT_SIZE, read_input


class WriteError(ApispecError):
    """`path: cannot write: reason` (exit 2); nothing was changed on disk."""

    def __init__(self, name: str, reason: str, *, prefix: str = "cannot write") -> None:
        super().__init__(f"{name}: {prefix}: {reason}")
        self.name = name
        self.reason = reason


class FileChanged(WriteError):
    """The file is no longer what was read: written by someone else meanwhile."""

    def __init__(self, name: str) -> None:
        super().__init__(name, "it changed on disk since apispec read it", prefix="not written")


@dataclass(frozen=True)
class FileState:
    """A file as it was read: identity, size, modification time and content hash."""

    device: int
    inode: int
    size: int
    mtime_ns: int
    digest: bytes

    def matches(self, path: str | os.PathLike[str]) -> bool:
        """Whether the file at `path` is still exactly this one."""
        try:
            info = os.stat(path)
            if (info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns) != (
                self.device,
                self.inode,
                self.size,
                self.mtime_ns,
            ):
                return False
            data = read_input(path, max_size=max(self.size, 1))
        except (OSError, ApispecError):
            return False
        return hashlib.sha256(data).digest() == self.digest


def read_for_update(
    path: str | os.PathLike[str], max_size: int = MAX_INPUT_SIZE
) -> tuple[bytes, FileState]:
    """A regular file's bytes and the state to pass to `write_atomic(expected=...)`."""
    before = os.stat(path)
    data = read_input(path, max_size=max_size)
    state = FileState(
        before.st_dev,
        before.st_ino,
        before.st_size,
        before.st_mtime_ns,
        hashlib.sha256(data).digest(),
    )
    return data, state


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


def _sync_directory(directory: str) -> None:
    """Make the rename itself durable; not every platform or file system allows it."""
    try:
        fd = os.open(directory, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _temporary(directory: str, name: str, mode: int) -> tuple[str, int]:
    """A new file beside the target, created exclusively (never an existing one)."""
    while True:
        path = os.path.join(directory, f".{name}.{os.urandom(4).hex()}.apispec-tmp")
        try:
            flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0)
            return path, os.open(path, flags | getattr(os, "O_BINARY", 0), mode)
        except FileExistsError:
            continue


def _keep_owner_and_mode(fd: int, info: os.stat_result) -> None:
    """Give the new file the old one's permission bits, and its owner where allowed."""
    if hasattr(os, "fchmod"):
        os.fchmod(fd, stat.S_IMODE(info.st_mode))
    if hasattr(os, "fchown") and (info.st_uid, info.st_gid) != (os.geteuid(), os.getegid()):
        # only root may give a file away; the mode is kept regardless
        with contextlib.suppress(OSError):
            os.fchown(fd, info.st_uid, info.st_gid)


def write_atomic(
    path: str | os.PathLike[str],
    data: bytes | str,
    *,
    expected: FileState | None = None,
    durable: bool = True,
    name: str | None = None,
    generated: bool = False,
) -> None:
    """Replace (or create) the file at `path` with `data` (text is written as UTF-8).

    WriteError (FileChanged when `expected` no longer holds) leaves the old
    file untouched. `durable=False` skips the fsyncs, for caches that may be lost.
    `generated=True` is for a file apispec names itself inside an output
    directory (a docs page): a symlink there is replaced by the file, never
    written through, and no device is written to, so a link planted in a
    committed output tree cannot aim the write at another file.
    """
    shown = name if name is not None else os.fspath(path)
    content = data.encode("utf-8") if isinstance(data, str) else data
    target = os.path.abspath(path) if generated else os.path.realpath(path)
    try:
        info: os.stat_result | None = (os.lstat if generated else os.stat)(target)
    except FileNotFoundError:
        info = None
    except OSError as exc:
        raise WriteError(shown, exc.strerror or str(exc)) from None
    if info is not None and stat.S_ISDIR(info.st_mode):
        raise WriteError(shown, "is a directory")
    if info is not None and not stat.S_ISREG(info.st_mode):
        if not generated:
            _write_stream(target, content, shown)
            return
        info = None  # a symlink or special file where a page goes: replaced
    if info is not None and not os.access(target, os.W_OK):
        raise WriteError(shown, os.strerror(13))  # the file is read-only: respect it
    directory, base = os.path.split(target)
    temporary = None
    try:
        temporary, fd = _temporary(directory, base, 0o600 if info is not None else 0o666)
        try:
            _write_all(fd, content)
            if info is not None:
                _keep_owner_and_mode(fd, info)
            if durable:
                os.fsync(fd)
        finally:
            os.close(fd)
        if expected is not None and not expected.matches(target):
            raise FileChanged(shown)
        os.replace(temporary, target)
        temporary = None
    except OSError as exc:
        raise WriteError(shown, exc.strerror or str(exc)) from None
    finally:
        if temporary is not None:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
    if durable:
        _sync_directory(directory)


def _write_stream(target: str, content: bytes, shown: str) -> None:
    """A device or FIFO named as output: written to, never replaced."""
    try:
        fd = os.open(target, os.O_WRONLY | getattr(os, "O_CLOEXEC", 0))
        try:
            _write_all(fd, content)
        finally:
            os.close(fd)
    except OSError as exc:
        raise WriteError(shown, exc.strerror or str(exc)) from None


def link_atomic(source: str | os.PathLike[str], link: str | os.PathLike[str]) -> None:
    """Make `link` another hard link of `source`, replacing what `link` was in one step.

    After `write_atomic` gave a hard-linked file a new inode, this puts its
    other names back on it, so the names stay one file.
    """
    target = os.path.realpath(link)
    directory, base = os.path.split(target)
    temporary = os.path.join(directory, f".{base}.{os.urandom(4).hex()}.apispec-tmp")
    try:
        os.link(source, temporary)
        os.replace(temporary, target)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise WriteError(os.fspath(link), exc.strerror or str(exc)) from None
