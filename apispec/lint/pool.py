"""Many files: the linter's two passes, the process pool, and the cache's replay.

engine.py lints one file; this module decides which files are linted, where
(one process, or a pool of workers when there are enough files), and which
are replayed from the cache instead. The first pass lints every file and
learns the API helpers each defines; the second lints again, with the whole
helper table, the files that call a helper another file defines
(apispec.lint.repository). Workers hand back plain tuples (apispec.lint.packed),
which the parent turns into findings once.
"""

from __future__ import annotations

import contextlib
import gc
import os
import signal
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from heapq import heapreplace
from operator import attrgetter
from typing import TYPE_CHECKING

from apispec.lint import cache
from apispec.lint.discover import Candidate, decode, display_path, read_bytes
from apispec.lint.engine import Checker, FileResult, LintResult, Options, lint_in_budget
from apispec.lint.finding import Skipped
from apispec.lint.packed import Packed, pack_result, unpack_result
from apispec.lint.repository import Repository
from apispec.registry.load import load_registry
from apispec.support.exceptions import Terminated

if TYPE_CHECKING:
    from concurrent.futures import ProcessPoolExecutor

# Fewer files than this per process: starting the process costs more than it saves.
FILES_PER_WORKER = 200
PARALLEL_MIN_FILES = 2 * FILES_PER_WORKER  # the fewest files linted by two processes
# passes after the first that lint again the callers of helpers learnt in the pass before
_ROUNDS = 3

_checker: Checker | None = None


# Extraction allocates hundreds of thousands of short-lived objects; with the
# default threshold (700) the garbage collector ran 400 times over the dense
# benchmark corpus, 5 % of the CPU, for objects reference counting frees anyway.
_YOUNG_THRESHOLD = 10_000


@contextmanager
def fewer_collections() -> Iterator[None]:
    """Run the garbage collector a tenth as often while linting, then as before."""
    before = gc.get_threshold()
    gc.set_threshold(_YOUNG_THRESHOLD, *before[1:])
    try:
        yield
    finally:
        gc.set_threshold(*before)


def _init_worker(options: Options, parent: int) -> None:
    global _checker
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # not the parent's handler (forked)
    _die_with(parent)
    gc.freeze()  # modules and registry live as long as the worker: never traverse them
    gc.set_threshold(_YOUNG_THRESHOLD, *gc.get_threshold()[1:])
    _checker = Checker(load_registry(options.registry_dir, options.overlays), options)


# -- workers never outlive the run ----------------------------------------------------
#
# A worker whose parent is killed (a CI job cancelled, `timeout`, the OOM killer) is
# adopted by init and goes on linting its chunk, then waits for work for ever. On
# Linux the kernel kills it when the parent dies (PR_SET_PDEATHSIG); everywhere, a
# thread of the worker checks that its parent is still the one that started it.

_PR_SET_PDEATHSIG = 1
PARENT_CHECK_SECONDS = 0.5


def _die_with(parent: int) -> None:
    with contextlib.suppress(OSError, AttributeError):  # not Linux, or no libc: the thread
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)
    if os.getppid() != parent:  # the parent died before the line above
        os._exit(1)
    threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()


def _watch_parent(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(PARENT_CHECK_SECONDS)
    os._exit(1)


@contextmanager
def _workers(count: int, options: Options) -> Iterator[ProcessPoolExecutor]:
    """A pool that is ended, never waited for, when the run stops early: SIGTERM in the
    parent (Terminated), Ctrl-C or any error stops every worker at once."""
    from concurrent.futures import ProcessPoolExecutor  # 20 ms of imports a small run skips

    previous = None
    if threading.current_thread() is threading.main_thread():
        previous = signal.signal(signal.SIGTERM, _raise_terminated)
    pool = ProcessPoolExecutor(count, initializer=_init_worker, initargs=(options, os.getpid()))
    try:
        yield pool
    except BaseException:
        # the workers first: the pool then fails the work they had
        for process in list((getattr(pool, "_processes", None) or {}).values()):
            process.terminate()
        pool.shutdown(wait=False)
        raise
    else:
        pool.shutdown()
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


def _raise_terminated(signum: int, frame: object) -> None:
    raise Terminated


# What linting one file hands back, worker to parent, as plain values (pickled
# several times faster than Finding objects): (absolute path, status, content
# hash, packed result, state). Status and hash are filled in only for the cache.
Record = tuple[str, "cache.Stamp | None", "bytes | None", "Packed | None", int]
LINTED, NOT_KEPT, UNCHANGED = range(3)  # states: cache the result, do not, replay the cache's
_NOTHING = FileResult("")  # a replayed file with nothing to report
Known = tuple[bytes, "Packed | None", FileResult]  # the cache's content hash, packed, unpacked
_path_of = attrgetter("path")


def _lint_chunk(chunk: list[tuple[str, bytes | None]], hashed: bool) -> list[Record]:
    """Records of the files with something to report, or to cache."""
    assert _checker is not None
    records = (_lint_path(_checker, path, known, hashed) for path, known in chunk)
    return [r for r in records if r is not None]


def _lint_path(checker: Checker, path: str, known: bytes | None, hashed: bool) -> Record | None:
    """One file's record; None when it has nothing to report and nothing is cached.

    `hashed`: the run keeps a cache, so the record carries the file's status
    and content hash, and a file whose hash is `known` (the cache's entry) is
    not linted at all.
    """
    data, info, reason = read_bytes(path, checker.config.max_file_size)
    if data is None or info is None:  # unreadable, or grown past the limit: said, never cached
        return path, None, None, _skip(path, reason or "unreadable"), NOT_KEPT
    status = digest = None
    if hashed:
        status, digest = cache.stamp(info), cache.content_hash(data)
        if digest == known:
            return path, status, digest, None, UNCHANGED
    text, reason = decode(data, checker.worth_decoding)
    if text is None:  # binary (said), or bytes the prefilter rejects (nothing to say)
        packed = None if reason is None else _skip(path, reason)
        state = LINTED
    else:
        result = lint_in_budget(checker, text, display_path(path))
        packed = _pack(result) if result.worth_returning else None
        # over the time budget, or a crash: not kept, so that the next run tries again
        state = NOT_KEPT if result.skipped else LINTED
    if packed is None and not hashed:
        return None
    return path, status, digest, packed, state


def _skip(path: str, reason: str) -> Packed:
    shown = display_path(path)
    return _pack(FileResult(shown, skipped=Skipped(shown, reason)))


def _pack(result: FileResult) -> Packed:
    return pack_result(result.path, result.findings, result.skipped, result.helpers, result.calls)


def _unpack(packed: Packed, shown: str) -> FileResult:
    """ValueError, TypeError, KeyError or IndexError when `packed` is damaged."""
    return FileResult(shown, *unpack_result(packed, shown))


def workers(files: int, jobs: int | None = None) -> int:
    """Processes for linting `files` files: one per FILES_PER_WORKER, at most `jobs` (all cores)."""
    return max(1, min(jobs or os.cpu_count() or 1, files // FILES_PER_WORKER))


def lint_files(
    candidates: list[Candidate],
    options: Options,
    jobs: int | None = None,
    store: cache.Store | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> LintResult:
    """Lint files, in parallel when there are enough of them; replay what `store` has.

    Two passes (apispec.lint.repository): every file is linted once, learning
    the API helpers each defines; when some file defines one, the files that
    name it elsewhere are linted again with every helper of the tree, their
    results cached apart (the store joined with the helper table's digest). A
    wrapper built on another file's wrapper (a Go method over its package's
    `newRequest`) is learnt only in that second pass: while a pass learns new
    helpers, their callers are linted again, at most _ROUNDS passes after the first.
    `progress(done, total)` is called as files of the first pass are finished:
    the replayed ones at once, then per file, or per chunk of files with
    worker processes.
    """
    results = _lint_pass(candidates, options, jobs, store, progress)
    repository = Repository(results)
    used = b""  # the digest of the helper table the callers were last linted with
    for _ in range(_ROUNDS):
        if not repository or repository.digest() == used:
            break  # no helper, or none learnt since the last pass
        callers = _callers(candidates, repository, options.config.max_file_size)
        if not callers:
            break
        used = repository.digest()
        helped = replace(options, helpers=repository.table)
        joined = store.joined(used) if store is not None else None
        again = _lint_pass(callers, helped, jobs, joined, None)
        shown_again = {display_path(c.path) for c in callers}
        results = [r for r in results if r.path not in shown_again] + again
        repository = Repository(results)
    # each file's findings are in order already (_finish): ordering the files orders them all
    results.sort(key=_path_of)
    findings = [f for r in results for f in r.findings]
    skipped = [r.skipped for r in results if r.skipped is not None]
    calls = [c for r in results for c in r.calls]
    return LintResult(
        findings, skipped, len(candidates) - len(skipped), options.targets, 0, calls=calls
    )


def _callers(candidates: list[Candidate], repository: Repository, limit: int) -> list[Candidate]:
    """The files that name a helper some other file defines: the second pass's files."""
    callers = []
    for candidate in candidates:
        data, _, _ = read_bytes(candidate.path, limit)
        if data is None or not repository.mentioned_in(data):
            continue
        text, _ = decode(data, repository.mentioned_in)
        if text is not None and repository.calls_others(text, display_path(candidate.path)):
            callers.append(candidate)
    return callers


def _lint_pass(
    candidates: list[Candidate],
    options: Options,
    jobs: int | None,
    store: cache.Store | None,
    progress: Callable[[int, int], None] | None,
) -> list[FileResult]:
    """One pass over the files: each replayed from `store` or linted (in a pool, if many)."""
    total = len(candidates)
    results: list[FileResult] = []
    todo = candidates
    known: dict[str, Known] = {}  # files the cache has, changed in status
    if store is not None:
        todo = []
        for candidate in candidates:
            replayed = _replay(store, candidate, known)
            if replayed is None:
                todo.append(candidate)
            elif replayed is not _NOTHING:
                results.append(replayed)
    done = total - len(todo)
    if progress is not None and done:
        progress(done, total)
    hashed = store is not None
    count = workers(len(todo), jobs)
    if count > 1:
        chunks = _chunks(todo, count * 32, known)
        with _workers(count, options) as pool:
            # futures, not pool.map: map cancels what is left when the run stops early,
            # and Python 3.11's pool thread then fails on the cancelled futures
            answers = [pool.submit(_lint_chunk, chunk, hashed) for chunk in chunks]
            for chunk, answer in zip(chunks, answers, strict=True):
                _merge(answer.result(), results, store, known)
                done += len(chunk)
                if progress is not None:
                    progress(done, total)
    elif todo:
        checker = Checker(load_registry(options.registry_dir, options.overlays), options)
        hashes = {path: entry[0] for path, entry in known.items()}
        for candidate in todo:
            record = _lint_path(checker, candidate.path, hashes.get(candidate.path), hashed)
            if record is not None:
                _merge([record], results, store, known)
            done += 1
            if progress is not None:
                progress(done, total)
    if store is not None:
        store.save()
    return results


def _replay(store: cache.Store, candidate: Candidate, known: dict[str, Known]) -> FileResult | None:
    """The cached result of an unchanged file (_NOTHING: nothing to report); None: lint it.

    Unchanged: the status the walk saw is the entry's. A file whose status
    changed is linted unless its content hash is the cache's: `known` passes
    that hash to the worker, which then only reads and hashes the file.
    """
    path = candidate.path
    entry = store.entry(path)
    if entry is None:
        return None
    status, digest, packed = entry
    try:
        result = _NOTHING if packed is None else _unpack(packed, display_path(path))
    except (ValueError, TypeError, KeyError, IndexError):
        return None  # damaged: never trusted
    if status is not None and status == cache.walked(candidate):
        return result
    known[path] = (digest, packed, result)
    return None


def _merge(
    records: list[Record],
    results: list[FileResult],
    store: cache.Store | None,
    known: dict[str, Known],
) -> None:
    """Workers' records into results (and the cache): each Finding built once, from tuples."""
    for path, status, digest, packed, state in records:
        if state == UNCHANGED:  # the cache's result, under the status seen now
            _, packed, result = known[path]
            if result is not _NOTHING:
                results.append(result)
        elif packed is not None:
            results.append(_unpack(packed, display_path(path)))
        if store is not None and state != NOT_KEPT and digest is not None:
            store.put(path, status, digest, packed)


def _chunks(
    candidates: list[Candidate], count: int, known: dict[str, Known]
) -> list[list[tuple[str, bytes | None]]]:
    """About equal total size per chunk, so one big file does not hold up a worker."""
    ordered = sorted(candidates, key=lambda c: c.size, reverse=True)
    buckets: list[list[tuple[str, bytes | None]]] = [[] for _ in range(min(count, len(ordered)))]
    lightest = [(0, i) for i in range(len(buckets))]  # (total size, bucket): a heap
    for c in ordered:
        total, i = lightest[0]
        buckets[i].append((c.path, known[c.path][0] if c.path in known else None))
        heapreplace(lightest, (total + c.size, i))
    return [b for b in buckets if b]
