"""Lint results kept between runs: a file whose bytes did not change is replayed, not linted.

What one file's result depends on is split in two. The file's own bytes are
hashed per file (SHA-256). Everything else is hashed once per run into the
run key (`RunKey`): the cache format, the Python that runs apispec, apispec's
own files (names, sizes, modification times: an upgrade or an edit of apispec
itself), the registry as loaded with its overlays applied, every field of the
lint `Options` (the effective configuration, the target releases) except the
few that only pick files or the exit code, and the directory that paths are
shown relative to (findings carry the shown path and their fingerprints hash
it). Context that a run learns across files, such as a table of the
repository's own API helpers handed to every file, joins the key with
`RunKey.joined`, so results linted with different context never meet.

The run key names a store: a directory of SHARDS files, each a map from a
file's absolute path to (status, content hash, packed result). A re-run
compares the status the directory walk saw (size, modification and change
time, inode): the same status replays the entry; a different one reads the
bytes, and the same hash still replays (a `touch`, a checkout that wrote the
same content). A status taken within RACY_NS of its file's last change is not
trusted (the file may change again within the clock's resolution): such a
file is hashed next time.

Concurrent runs: a shard is replaced whole (a temporary file, then a rename),
so a reader sees an old shard or a new one, never half of one; each shard
carries a hash of its contents, and a reader treats a shard that does not
match (damaged, cut short, written by another format) as empty, and an entry
whose result does not unpack as missing. Two runs that write the same shard
at once lose at most the other's new entries: speed, never correctness.
Bounded: after a run writes, stores are removed, least recently used first,
until all of them together take at most MAX_BYTES.
"""

from __future__ import annotations

import contextlib
import hashlib
import marshal
import os
import re
import sys
import time
import zlib
from dataclasses import dataclass, fields, is_dataclass
from enum import Enum
from pathlib import Path, PurePath
from typing import Any

from apispec.lint.patterns import lazy
from apispec.support.inputs import InputError, read_input

FORMAT = 3  # the layout of shards and of packed results (apispec.lint.packed)
SHARDS = 16
MAX_BYTES = 256 * 1024 * 1024
RACY_NS = 2_000_000_000  # 2 s: FAT's time stamps, the coarsest a file system keeps
_MAGIC = b"apispec lint cache %d\n" % FORMAT
_CHECK = 16  # bytes of SHA-256 over a shard's payload
_STALE_TEMPORARY = 3600  # seconds after which a writer's temporary file is abandoned
_PACKAGE = Path(__file__).resolve().parent.parent
_PACKAGE_FILES = lazy(r".*\.(?:py|yaml|json|lark|j2|jinja)$")

# Configuration that chooses the files, the report or the exit code, never a file's
# findings: changing it keeps the cache (`--fail-on never` replays what a plain run cached).
_NOT_PER_FILE = frozenset({"fail_on", "exclude", "respect_gitignore", "output_format"})

Stamp = tuple[int, int, int, int]  # size, mtime_ns, ctime_ns, inode


def directory(explicit: Path | None = None) -> Path | None:
    """Where the lint cache lives: `--cache-dir`, `APISPEC_CACHE_DIR`, else the user's cache.

    None when `APISPEC_NO_CACHE` is set (it turns every cache of apispec off).
    """
    if os.environ.get("APISPEC_NO_CACHE"):
        return None
    if explicit is not None:
        return explicit
    named = os.environ.get("APISPEC_CACHE_DIR")
    if named:
        return Path(named)
    import platformdirs

    return Path(platformdirs.user_cache_dir("apispec")) / "lint"


# -- the run key ----------------------------------------------------------------


@dataclass(frozen=True)
class RunKey:
    """Everything a file's result depends on besides its own bytes, as one hash."""

    digest: bytes

    def joined(self, context: bytes) -> RunKey:
        """This key with repository-level context added (what other files taught the run)."""
        return RunKey(hashlib.sha256(self.digest + b"\0context\0" + context).digest())

    @property
    def name(self) -> str:
        return f"v{FORMAT}-{self.digest.hex()[:32]}"


class Uncacheable(TypeError):
    """An option whose value has no stable form: the run is not cached rather than mis-keyed."""


def run_key(options: Any, shown_from: str | None = None) -> RunKey:
    """The key of a lint run with these `Options`; Uncacheable when an option cannot be keyed.

    The registry counts by its content as loaded, overlays applied (the object
    the run lints with, so an edited registry or overlay is a new key even
    when its paths stay the same); every other field of `Options` as written.
    """
    from apispec.registry.load import load_registry

    registry = load_registry(options.registry_dir, options.overlays)
    digest = hashlib.sha256()
    digest.update(_MAGIC)
    digest.update(sys.version.encode())
    digest.update(package_signature())
    rest = {f.name: getattr(options, f.name) for f in fields(options)}
    config = canonical(rest.pop("config", None))
    if isinstance(config, list):  # a Config: [class name, its fields]
        config[1] = {k: v for k, v in config[1].items() if k not in _NOT_PER_FILE}
    rest["config"] = config
    for part in (registry, rest):
        digest.update(b"\0" + repr(canonical(part)).encode("utf-8", "surrogateescape"))
    digest.update(b"\0shown from\0" + os.fsencode(shown_from or os.getcwd()))
    return RunKey(digest.digest())


def package_signature() -> bytes:
    """apispec's own files by name, size and modification time: about a millisecond."""
    digest = hashlib.sha256()
    for root, dirs, files in os.walk(_PACKAGE):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in sorted(files):
            if _PACKAGE_FILES.match(name):
                info = os.stat(os.path.join(root, name))
                relative = os.path.relpath(os.path.join(root, name), _PACKAGE)
                digest.update(f"{relative}\0{info.st_size}\0{info.st_mtime_ns}\0".encode())
    return digest.digest()


def canonical(value: object) -> object:
    """A value's content as nested lists of plain values, equal exactly when the content is.

    Sets and mappings are sorted, paths and patterns become text, dataclasses
    and plain objects their fields with their class name. Uncacheable for
    anything else: a value that cannot be written down cannot key a cache.
    """
    if isinstance(value, Enum):  # before str: a StrEnum is a str too
        return [type(value).__qualname__, canonical(value.value)]
    if value is None or isinstance(value, bool | int | float | str | bytes):
        return value
    if isinstance(value, PurePath):
        return ["path", str(value)]
    if isinstance(value, re.Pattern):
        return ["pattern", value.pattern, value.flags]
    if isinstance(value, dict):
        items = [[canonical(k), canonical(v)] for k, v in value.items()]
        return ["dict", sorted(items, key=repr)]
    if isinstance(value, set | frozenset):
        return ["set", sorted((canonical(v) for v in value), key=repr)]
    if isinstance(value, list | tuple):
        return [canonical(v) for v in value]
    if is_dataclass(value) and not isinstance(value, type):
        return [
            type(value).__qualname__,
            {f.name: canonical(getattr(value, f.name)) for f in fields(value)},
        ]
    if type(value).__module__.startswith("pathspec") and hasattr(value, "patterns"):
        return ["pathspec", [canonical(p) for p in value.patterns]]  # not its matching backend
    if callable(value):
        raise Uncacheable(f"cannot key the lint cache on a {type(value).__qualname__}")
    slots = [
        n for c in type(value).__mro__ for n in getattr(c, "__slots__", ()) if hasattr(value, n)
    ]
    if hasattr(value, "__dict__") or slots:
        own = dict(getattr(value, "__dict__", {}))
        own.update((name, getattr(value, name)) for name in slots)
        return [type(value).__qualname__, canonical(own)]
    raise Uncacheable(f"cannot key the lint cache on a {type(value).__qualname__}")


# -- file status ------------------------------------------------------------------


def stamp(info: os.stat_result, now_ns: int | None = None) -> Stamp | None:
    """The status a re-run compares, or None when it was taken too close to a change."""
    changed = max(info.st_mtime_ns, info.st_ctime_ns)
    if (now_ns if now_ns is not None else time.time_ns()) - changed < RACY_NS:
        return None
    return (info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino)


def walked(candidate: Any) -> Stamp:
    """The status of a file as the walk saw it (apispec.lint.discover.Candidate)."""
    return (candidate.size, candidate.mtime_ns, candidate.ctime_ns, candidate.inode)


def content_hash(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()[:16]


# -- the store --------------------------------------------------------------------


class Store:
    """One run's store: shards read on first use, the ones this run changed written back."""

    def __init__(self, root: Path, key: RunKey, named: bool = False) -> None:
        self.root = root
        self.named = named  # the user chose the directory: say when it cannot be used
        self.key = key
        self.path = root / key.name
        self._shards: list[dict[str, Any] | None] = [None] * SHARDS
        self._changed: dict[int, set[str]] = {}
        self.problem: str | None = None  # why results could not be kept, if they could not
        with contextlib.suppress(OSError):
            os.utime(self.path)  # used now: the last store that pruning would remove

    def joined(self, context: bytes) -> Store:
        """The store, beside this one, of results that also depend on `context`."""
        return Store(self.root, self.key.joined(context), self.named)

    def _shard_of(self, path: str) -> int:
        return zlib.crc32(path.encode("utf-8", "surrogateescape")) % SHARDS

    def _shard(self, number: int) -> dict[str, Any]:
        shard = self._shards[number]
        if shard is None:
            shard = self._shards[number] = _read_shard(self.path / f"{number:02x}.bin")
        return shard

    def entry(self, path: str) -> tuple[Stamp | None, bytes, Any] | None:
        """(status, content hash, packed result) recorded for the file at `path`, if any."""
        entry = self._shard(self._shard_of(path)).get(path)
        if type(entry) is not tuple or len(entry) != 3 or type(entry[1]) is not bytes:
            return None
        return entry

    def put(self, path: str, status: Stamp | None, digest: bytes, packed: Any) -> None:
        number = self._shard_of(path)
        self._shard(number)[path] = (status, digest, packed)
        self._changed.setdefault(number, set()).add(path)

    def save(self) -> None:
        """Write the shards this run changed, merged with what other runs wrote meanwhile."""
        if not self._changed:
            return
        from apispec.support.outputs import WriteError, write_atomic

        try:
            self.path.mkdir(parents=True, exist_ok=True)
            for number, ours in sorted(self._changed.items()):
                target = self.path / f"{number:02x}.bin"
                shard = self._shards[number] or {}
                merged = {
                    path: entry
                    for path, entry in _read_shard(target).items()
                    if path not in ours and os.path.exists(path)
                }  # another run's entries, and this run's older ones, for files still there
                merged.update((path, shard[path]) for path in ours)
                payload = marshal.dumps(merged)
                check = hashlib.sha256(payload).digest()[:_CHECK]
                write_atomic(target, _MAGIC + check + payload, durable=False, generated=True)
        except (OSError, WriteError, ValueError) as exc:
            self.problem = f"{self.root}: lint results not cached: {getattr(exc, 'reason', exc)}"
            return
        self._changed.clear()
        prune(self.root, keep=self.path)


def _read_shard(path: Path) -> dict[str, Any]:
    """A shard's map, or an empty one for a shard that is missing, damaged or of another format."""
    try:
        data = read_input(path)
    except (InputError, OSError):
        return {}
    head = len(_MAGIC)
    payload = memoryview(data)[head + _CHECK :]  # not copied
    if (
        not data.startswith(_MAGIC)
        or hashlib.sha256(payload).digest()[:_CHECK] != data[head : head + _CHECK]
    ):
        return {}
    try:
        shard = marshal.loads(payload)
    except (EOFError, ValueError, TypeError):
        return {}
    return shard if isinstance(shard, dict) else {}


def prune(root: Path, keep: Path | None = None, limit: int = MAX_BYTES) -> None:
    """Remove stores, least recently used first, until they take at most `limit` bytes.

    The store in use (`keep`) goes last, and only when it alone is over the
    limit. Temporary files that a killed run left behind are removed as well.
    """
    stores = []
    total = 0
    try:
        listing = list(os.scandir(root))
    except OSError:
        return
    for store in listing:
        if store.name.startswith("v") and store.is_dir(follow_symlinks=False):
            size = _store_size(store.path)
            try:
                used = store.stat(follow_symlinks=False).st_mtime
            except OSError:
                continue
            total += size
            stores.append((store.path == str(keep), used, size, store.path))
    stores.sort()
    import shutil  # only a run that writes needs it

    for _in_use, _used, size, path in stores:
        if total <= limit:
            break
        shutil.rmtree(path, ignore_errors=True)
        total -= size


def _store_size(path: str) -> int:
    """The bytes a store takes; a writer's temporary file left for an hour is removed."""
    size = 0
    abandoned = time.time() - _STALE_TEMPORARY
    try:
        for shard in os.scandir(path):
            info = shard.stat(follow_symlinks=False)
            if shard.name.endswith(".apispec-tmp") and info.st_mtime < abandoned:
                os.unlink(shard.path)
            else:
                size += info.st_size
    except OSError:
        pass
    return size


def open_store(options: Any, explicit: Path | None = None) -> Store | None:
    """The store of a run with these options, or None when caching is off or impossible."""
    root = directory(explicit)
    if root is None:
        return None
    try:
        key = run_key(options)
    except (Uncacheable, OSError):
        return None
    return Store(root, key, named=explicit is not None or bool(os.environ.get("APISPEC_CACHE_DIR")))
