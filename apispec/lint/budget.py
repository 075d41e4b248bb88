"""The per-file time budget: a file that takes too long is skipped, and the run goes on.

Extraction is linear in a file's size, but a linter that reads other
people's trees must not let one file it does not foresee hold a CI job: after
`--file-timeout` seconds (default 10) the file is reported as skipped with a
reason.

The budget is CPU time, not wall time: a busy machine (a CI runner shared with
other jobs) must not turn the same file into a different report.

Pure-Python work cannot be cancelled from outside, so the work interrupts
itself. In a process's main thread (the CLI, and every worker of the process
pool) a profiling timer (SIGPROF, counting the process's CPU time) raises
`TimeBudgetExceeded` wherever the work is, even inside a regular expression
(the `re` engine checks for signals); elsewhere (a language server's thread)
the scan loops call `check()`, which raises once the thread has used its
budget. Linting a file writes nothing outside its own objects, so abandoning
it half way leaves nothing inconsistent.
"""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

DEFAULT_SECONDS = 10.0


class TimeBudgetExceeded(BaseException):
    """The file took longer than its budget.

    A BaseException, so that no `except Exception` in the work swallows it.
    """


_local = threading.local()


def check() -> None:
    """Raise TimeBudgetExceeded if the current thread has used up its budget."""
    deadline = getattr(_local, "deadline", None)
    if deadline is not None and time.thread_time() > deadline:
        raise TimeBudgetExceeded


def _alarm(signum: int, frame: FrameType | None) -> None:
    raise TimeBudgetExceeded


@contextmanager
def deadline(seconds: float | None) -> Iterator[None]:
    """Interrupt the work inside after `seconds` of CPU time (None or 0: no limit)."""
    if not seconds:
        yield
        return
    _local.deadline = time.thread_time() + seconds
    alarm = threading.current_thread() is threading.main_thread() and hasattr(signal, "setitimer")
    previous = signal.signal(signal.SIGPROF, _alarm) if alarm else None
    if alarm:
        signal.setitimer(signal.ITIMER_PROF, seconds)
    try:
        yield
    finally:
        _local.deadline = None
        if alarm:
            signal.setitimer(signal.ITIMER_PROF, 0)
            signal.signal(signal.SIGPROF, previous)
