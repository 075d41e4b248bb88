"""Errors that end a command with a one-line message and a documented exit code.

Every consumer raises these instead of printing, so the CLI can turn any of
them into `apispec: error: ...` and the right exit status in one place.
"""

from __future__ import annotations

import errno
import os
import sys
from collections.abc import Iterable

EXIT_OK = 0
EXIT_FINDINGS = 1
EXIT_USAGE = 2
EXIT_INTERNAL = 3  # a bug in apispec: never reported as findings nor as success
EXIT_TERMINATED = 143  # 128 + SIGTERM, as a shell reports a process SIGTERM ended


class Terminated(BaseException):
    """SIGTERM arrived while the linter's worker processes ran (a cancelled CI job,
    `timeout`): they are stopped and the command ends with EXIT_TERMINATED.

    A BaseException, like KeyboardInterrupt, so that no `except Exception` on the
    way (a per-file crash guard) takes it for a bug."""


class ApispecError(Exception):
    """A failure the user can act on; `exit_code` follows docs/cli.md."""

    exit_code = EXIT_USAGE

    def __init__(self, message: str, exit_code: int | None = None) -> None:
        super().__init__(message)
        if exit_code is not None:
            self.exit_code = exit_code


class UsageError(ApispecError):
    """Bad arguments: unknown release, method, path, option value."""


class RegistryError(ApispecError):
    """The registry files cannot be read or do not pass their schema.

    A configuration error for every command that merely uses a registry (exit
    2); `apispec registry check` reports it as a finding instead (exit 1).
    """


def did_you_mean(word: str, candidates: Iterable[str], cutoff: float = 0.6) -> str:
    """Return ` (did you mean X?)` for the closest candidate, or an empty string."""
    from difflib import get_close_matches  # only a name not found needs it

    matches = get_close_matches(word, list(candidates), n=1, cutoff=cutoff)
    return f" (did you mean {matches[0]}?)" if matches else ""


def debug_traceback() -> None:
    """Print the exception being handled when APISPEC_DEBUG is set (for bug reports)."""
    if os.environ.get("APISPEC_DEBUG", "") not in ("", "0"):
        import traceback

        traceback.print_exc(file=sys.stderr)


def internal_error_line(exc: BaseException) -> str:
    """The one line every command prints for a bug in apispec (exit 3)."""
    message = " ".join(str(exc).split()) or "(no message)"
    return (
        f"apispec: internal error: {type(exc).__name__}: {message} "
        "(set APISPEC_DEBUG=1 for the traceback; please report it)"
    )


# What the system answers about a path, not about apispec: the name is too long, a loop
# of links, missing, of the wrong kind, not permitted, or the disk is full.
_PATH_REFUSALS = frozenset(
    getattr(errno, name)
    for name in (
        "ENAMETOOLONG",
        "ELOOP",
        "ENOENT",
        "ENOTDIR",
        "EISDIR",
        "EACCES",
        "EPERM",
        "EROFS",
        "ENOSPC",
        "EDQUOT",
        "EFBIG",
        "EEXIST",
        "EXDEV",
        "ENXIO",
        "EBUSY",
        "ETXTBSY",
    )
    if hasattr(errno, name)
)


def refused_path_line(exc: OSError) -> str | None:
    """`PATH: reason` for the system refusing an operation on a path the user named (an
    input error, exit 2), or None when the error is not about a named path (a bug)."""
    if exc.errno not in _PATH_REFUSALS or exc.filename is None:
        return None
    reason = (exc.strerror or str(exc)).rstrip(".")
    return f"{os.fsdecode(exc.filename)}: {reason[:1].lower()}{reason[1:]}"
