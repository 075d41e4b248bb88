"""`apispec proxy --log FILE|-`: one JSON line per request, in the format traffic reads.

The file is opened to append (a log is never truncated) and must be a regular
file or standard output (`-`); each line goes out with one `write` on an
`O_APPEND` descriptor, so concurrent requests never interleave and a reader
(`tail -f`, `apispec traffic`) never sees half a line. The line's fields and
what is kept out of them are apispec.runtime.readers.proxy_log's.
"""

from __future__ import annotations

import os
import sys

from apispec.support.inputs import InputError, file_kind

_FLAGS = (
    os.O_WRONLY
    | os.O_APPEND
    | os.O_CREAT
    | getattr(os, "O_NOCTTY", 0)
    | getattr(os, "O_NONBLOCK", 0)
    | getattr(os, "O_CLOEXEC", 0)
)


class RequestLog:
    """Where the proxy's log lines go."""

    def __init__(self, target: str) -> None:
        self.name = target
        if target == "-":
            self._fd = sys.stdout.fileno()
            self._owned = False
            return
        try:
            kind = file_kind(os.stat(target).st_mode) if os.path.lexists(target) else None
            if kind is not None:
                raise InputError(target, f"--log: not a regular file ({kind})")
            fd = os.open(target, _FLAGS, 0o644)
        except OSError as exc:
            raise InputError(target, f"--log: cannot write: {exc.strerror or exc}") from None
        kind = file_kind(os.fstat(fd).st_mode)
        if kind is not None:  # swapped after the check above
            os.close(fd)
            raise InputError(target, f"--log: not a regular file ({kind})")
        os.set_blocking(fd, True)
        self._fd = fd
        self._owned = True

    def write(self, line: str) -> None:
        data = (line + "\n").encode("utf-8", "backslashreplace")
        written = 0
        while written < len(data):  # a full disk or a closed stdout must not end the proxy
            try:
                written += os.write(self._fd, data[written:])
            except OSError:
                return

    def close(self) -> None:
        if self._owned:
            os.close(self._fd)
