"""The workspace's own API helpers, kept as `apispec lint FOLDER` learns them in its first pass.

`_get('/sensor-status-summary')` in report.py is an API v2 call only because
prtg_api.py defines `_get` on top of the API's base URL. The CLI lints a tree
twice for that (apispec.lint.repository); the server, which lints one
document at a time, keeps the first pass's answer instead: for each file of
each workspace folder (as discovered by the linter's own walk), the helpers
it defines, with an open document's unsaved buffer in place of its file.

Learning a file is a first-pass lint of it, so it is done once per content:
results are kept by (profile, content hash), and a file whose status is the
one the last walk saw is not read again. The index is written from the lint
thread and read from the message loop and the workspace thread, under a lock.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

from apispec.lsp.adapter import Helper, Repository

Stamp = tuple[int, int, int, int]
Helpers = tuple[Helper, ...]
NOT_LEARNT = object()  # an open document's version before its helpers are learnt


class _Defines(NamedTuple):  # what apispec.lint.repository.Repository reads of a file
    path: str
    helpers: Helpers


@dataclass
class _Folder:
    # every file the walk found: the status it had when learnt (None: to learn again)
    files: dict[str, Stamp | None] = field(default_factory=dict)
    defined: dict[str, Helpers] = field(default_factory=dict)  # on disk, files defining some
    ready: bool = False  # walked and learnt once
    table: tuple[Repository, bytes] | None = None  # the repository and its digest, cached
    stale: bool = True  # `table` must be built again


class HelperIndex:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._folders: dict[Path, _Folder] = {}
        self._learnt: dict[tuple[object, bytes], Helpers] = {}  # (profile key, content hash)
        self._open: dict[str, tuple[object, Helpers]] = {}  # path: (version, helpers) of buffers

    # -- files on disk ------------------------------------------------------------

    def walked(self, folder: Path, files: dict[str, Stamp]) -> tuple[list[str], bool]:
        """Record a walk of `folder`: (the files to learn, whether files gone changed the table)."""
        with self._lock:
            known = self._folders.setdefault(folder, _Folder())
            gone = [p for p in known.files if p not in files]
            changed = any(p in known.defined for p in gone) or any(
                p in self._open and p not in known.files for p in files
            )
            for path in gone:
                del known.files[path]
                known.defined.pop(path, None)
            todo = [p for p, s in files.items() if known.files.get(p) != s]
            for path in todo:
                known.files.setdefault(path, None)
            if changed:
                known.stale = True
            return todo, changed

    def learnt(self, profile_key: object, digest: bytes) -> Helpers | None:
        return self._learnt.get((profile_key, digest))

    def set_file(
        self,
        folder: Path,
        path: str,
        status: Stamp | None,
        learnt: tuple[object, bytes] | None,
        helpers: Helpers,
    ) -> bool:
        """What a file on disk defines now; whether that changed the folder's table."""
        with self._lock:
            if learnt is not None:
                self._learnt[learnt] = helpers
            known = self._folders.setdefault(folder, _Folder())
            if path not in known.files:
                return False  # dropped by a walk meanwhile
            known.files[path] = status
            before = known.defined.get(path, ())
            if helpers:
                known.defined[path] = helpers
            else:
                known.defined.pop(path, None)
            changed = before != helpers and path not in self._open
            known.stale = known.stale or changed
            return changed

    def forget_file(self, path: str) -> list[Path]:
        """A file deleted: the folders whose table that changed."""
        changed = []
        with self._lock:
            for folder, known in self._folders.items():
                if path not in known.files:
                    continue
                del known.files[path]
                if known.defined.pop(path, None) or path in self._open:
                    known.stale = True
                    changed.append(folder)
        return changed

    def folders_of(self, path: str) -> list[Path]:
        with self._lock:
            return [f for f, known in self._folders.items() if path in known.files]

    def mark_ready(self, folder: Path) -> None:
        with self._lock:
            self._folders.setdefault(folder, _Folder()).ready = True

    def relearn(self, folders: list[Path]) -> None:
        """The configuration changed: learn every file again at the next walk (the results
        kept by content stay: a profile that did not change finds them)."""
        with self._lock:
            for folder in list(self._folders):
                if folder not in folders:
                    del self._folders[folder]
                    continue
                known = self._folders[folder]
                known.files = dict.fromkeys(known.files)
            if len(self._learnt) > 100_000:  # content no file has any more, bounded
                self._learnt.clear()

    # -- open documents -----------------------------------------------------------

    def open_version(self, path: str) -> object:
        entry = self._open.get(path)
        return NOT_LEARNT if entry is None else entry[0]

    def set_open(self, path: str, version: object, helpers: Helpers) -> list[Path]:
        """What an open buffer defines; the folders whose table that changed."""
        with self._lock:
            entry = self._open.get(path)
            before = entry[1] if entry is not None else None
            self._open[path] = (version, helpers)
            return self._touched(path, before, helpers)

    def close(self, path: str) -> list[Path]:
        """The buffer is gone: the file on disk counts again."""
        with self._lock:
            entry = self._open.pop(path, None)
            if entry is None:
                return []
            changed = []
            for folder, known in self._folders.items():
                if path in known.files and known.defined.get(path, ()) != entry[1]:
                    known.stale = True
                    changed.append(folder)
            return changed

    def _touched(self, path: str, before: Helpers | None, after: Helpers) -> list[Path]:
        changed = []
        for folder, known in self._folders.items():
            if path not in known.files:
                continue
            was = known.defined.get(path, ()) if before is None else before
            if was != after:
                known.stale = True
                changed.append(folder)
        return changed

    # -- the table ----------------------------------------------------------------

    def table(self, folder: Path | None) -> tuple[Repository, bytes] | None:
        """The folder's repository of helpers and its digest; None when no file defines one."""
        if folder is None:
            return None
        with self._lock:
            known = self._folders.get(folder)
            if known is None:
                return None
            if known.stale:
                defined = dict(known.defined)
                for path, (_version, helpers) in self._open.items():
                    if path in known.files:
                        defined[path] = helpers
                repository = Repository(_Defines(p, h) for p, h in defined.items() if h)
                known.table = (repository, repository.digest()) if repository else None
                known.stale = False
            return known.table

    def dependency(self, folder: Path | None, text: str, path: str) -> bytes | None:
        """What a document's findings depend on besides its text: the table's digest when the
        text names a helper another file defines (the CLI lints it again then), else None."""
        table = self.table(folder)
        if table is None or not table[0].calls_others(text, path):
            return None
        return table[1]
