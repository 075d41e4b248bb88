"""Standard output and standard error while a command runs.

A report written to a full device (`> /dev/full`, a full disk, a quota) fails
in whichever print happens to fill the buffer, or only in the interpreter's
last flush, where Python prints a notice and exits 120: the user saw exit 0,
1 or 3 and the report was lost. So while a command runs, a failed write or
flush of `sys.stdout` is an `OutputError` (exit 2, `standard output: cannot
write: REASON`), and `cli.main` flushes inside the guard before returning.

A failed write to `sys.stderr` is dropped instead: it carries diagnostics, and
the exit code must still say what happened (an internal error stays exit 3
when its one line cannot be written, never an exception escaping as exit 1).

After either failure the stream's descriptor is pointed at the null device, so
the interpreter's own flush at exit has nothing left to fail on. A closed pipe
(`| head`) is not a failure of this kind: BrokenPipeError passes through (the
command stops; its exit code is 0 as before).
"""

from __future__ import annotations

import contextlib
import io
import os
import sys
from collections.abc import Callable, Iterator
from typing import Any, TextIO

from apispec.support.exceptions import EXIT_USAGE, ApispecError


class OutputError(ApispecError):
    """Standard output cannot be written: exit 2, one line on standard error."""

    exit_code = EXIT_USAGE


class _Guarded:
    """A text stream whose write and flush failures go to `on_error`."""

    def __init__(self, stream: TextIO, on_error: Callable[[OSError, int], int]) -> None:
        self._stream = stream
        self._on_error = on_error

    def write(self, text: str) -> int:
        try:
            return self._stream.write(text)
        except BrokenPipeError:
            _to_null(self._stream)  # the reader left: what is still buffered has nowhere to go
            raise
        except OSError as exc:
            return self._on_error(exc, len(text))

    def flush(self) -> None:
        if self._stream.closed:  # closed by its writer (`apispec lsp` ends with the protocol's
            return  # stream): nothing is left to flush, as the interpreter's exit flush skips it
        try:
            self._stream.flush()
        except BrokenPipeError:
            _to_null(self._stream)
            raise
        except OSError as exc:
            self._on_error(exc, 0)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def _to_null(stream: TextIO) -> None:
    """Point the stream's descriptor at the null device (what is still buffered goes there)."""
    with contextlib.suppress(OSError, ValueError, io.UnsupportedOperation):
        null = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(null, stream.fileno())
        finally:
            os.close(null)


@contextlib.contextmanager
def guarded_streams() -> Iterator[None]:
    """Guard `sys.stdout` and `sys.stderr` for the length of one command."""
    out, err = sys.stdout, sys.stderr

    def output_failed(exc: OSError, _size: int) -> int:
        _to_null(out)
        reason = (exc.strerror or str(exc)).rstrip(".")
        raise OutputError(f"standard output: cannot write: {reason}")

    def error_failed(_exc: OSError, size: int) -> int:
        _to_null(err)
        return size

    sys.stdout = _Guarded(out, output_failed)
    sys.stderr = _Guarded(err, error_failed)
    try:
        yield
    finally:
        sys.stdout, sys.stderr = out, err
