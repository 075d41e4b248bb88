"""Reading a file the user named: configuration, registry, document, baseline, data.

Every such file is read through `read_input`, so one place decides what apispec
opens on a user's behalf. Only regular files are read: a FIFO or a device named
where a document is expected would block forever or never end. Files are
opened non-blocking and checked again on the open descriptor, so a path swapped
for a FIFO between the check and the open cannot block either. A size cap keeps
a stray multi-gigabyte file from exhausting memory, and every failure is one
line naming the file (exit 2), never a traceback.

Parsed documents get the same treatment for their shape: `check_parsed` refuses
nesting deeper than `MAX_DEPTH`, because every consumer downstream (schema
validation, the registry model, JSON encoding) walks documents recursively, and
text holding a lone UTF-16 surrogate (JSON's `"\\ud800"`), which is not
Unicode and fails the first file name or UTF-8 writer it reaches. `parse_json`
reports an integer longer than Python converts as a syntax error at its place.
"""

from __future__ import annotations

import json
import os
import re
import stat
import sys
from pathlib import Path
from typing import Any

from apispec.support.exceptions import UsageError
from apispec.support.printable import shortened

# A registry file, configuration, OpenAPI document, baseline or mock data file
# larger than this is refused; the largest public OpenAPI documents are ~10 MB
# and a 100,000-object mock tree is ~30 MB of JSON.
MAX_INPUT_SIZE = 64 * 1024 * 1024
# Nesting deeper than this is refused in every parsed document: real ones stay
# below 30, and recursive consumers need several stack frames per level.
MAX_DEPTH = 100

_KINDS = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISFIFO, "a named pipe"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)
_OPEN_FLAGS = (
    os.O_RDONLY
    | getattr(os, "O_NONBLOCK", 0)
    | getattr(os, "O_NOCTTY", 0)
    | getattr(os, "O_CLOEXEC", 0)
    | getattr(os, "O_BINARY", 0)
)


_SURROGATE = re.compile("[\ud800-\udfff]")


class InputError(UsageError):
    """A named input that cannot be used: `name: reason`, exit 2.

    `reason` alone is kept so a caller can phrase the message its own way.
    """

    def __init__(self, name: str, reason: str) -> None:
        super().__init__(f"{name}: {reason}")
        self.name = name
        self.reason = reason


def file_kind(mode: int) -> str | None:
    """What a non-regular file is (`a named pipe`), or None for a regular file."""
    return next(
        (kind for test, kind in _KINDS if test(mode)),
        None if stat.S_ISREG(mode) else "a special file",
    )


def megabytes(size: int) -> str:
    """A size for messages: `64 MB`, `5.7 MB`, `512 KB`, `100 bytes`."""
    for unit, factor in (("MB", 1024 * 1024), ("KB", 1024)):
        if size >= factor:
            return f"{size / factor:.1f} {unit}".replace(f".0 {unit}", f" {unit}")
    return f"{size} bytes"


def _refuse_kind(name: str, mode: int, expected: str | None) -> None:
    kind = file_kind(mode)
    if kind is None:
        return
    wanted = f", expected {expected}" if expected else ""
    if kind == "a directory":
        raise InputError(name, f"is a directory{wanted}")
    raise InputError(name, f"not a regular file ({kind}){wanted}")


def stat_named(path: str | os.PathLike[str]) -> os.stat_result | None:
    """`os.stat` of a path the user named; None when nothing is there. A name the system
    refuses (over 255 bytes, a loop of symbolic links, no permission, a NUL character) is
    an InputError naming it, so that no caller turns it into "does not exist" or a crash."""
    try:
        return os.stat(path)
    except FileNotFoundError:
        return None
    except ValueError:  # os functions refuse a NUL before any system call
        raise InputError(os.fspath(path), "holds a NUL character, which no file name can") from None
    except OSError as exc:
        raise InputError(os.fspath(path), f"cannot use: {exc.strerror or exc}") from None


def is_directory(path: str | os.PathLike[str]) -> bool:
    """Whether a path the user named is a directory (links followed); `stat_named`'s
    InputError when the system refuses the name."""
    info = stat_named(path)
    return info is not None and stat.S_ISDIR(info.st_mode)


def real_path(path: str | os.PathLike[str]) -> Path:
    """The absolute path with symbolic links resolved as far as they go. Unlike
    `Path.resolve()` before Python 3.13, a loop of links raises nothing here: it is left
    in place, for the read that follows to refuse in one line (ELOOP)."""
    return Path(os.path.realpath(path))


def configured_path(text: str, base: Path, where: str) -> Path:
    """A path from a configuration file or the editor's settings, relative to `base`, links
    resolved. A NUL character is refused here, where `where` (the file and key) can be
    named: no system call accepts one."""
    if "\0" in text:
        raise InputError(where, "holds a NUL character, which no file name can")
    return real_path(base / text)


def read_input(
    path: str | os.PathLike[str],
    *,
    name: str | None = None,
    max_size: int = MAX_INPUT_SIZE,
    expected: str | None = None,
) -> bytes:
    """The bytes of a regular file the user named; InputError for anything else.

    `name` is how messages call the file (default: the path as given);
    `expected` completes them (`is a directory, expected an OpenAPI document`).
    """
    shown = name if name is not None else os.fspath(path)
    try:
        _refuse_kind(shown, os.stat(path).st_mode, expected)
        fd = os.open(path, _OPEN_FLAGS)
    except FileNotFoundError:
        raise InputError(shown, "cannot read: no such file") from None
    except OSError as exc:
        raise InputError(shown, f"cannot read: {exc.strerror or exc}") from None
    except ValueError:  # a NUL in the name, refused before any system call
        raise InputError(shown, "holds a NUL character, which no file name can") from None
    try:
        info = os.fstat(fd)
        _refuse_kind(shown, info.st_mode, expected)  # swapped after the stat above
        if info.st_size > max_size:
            raise InputError(
                shown, f"too large ({megabytes(info.st_size)}; the limit is {megabytes(max_size)})"
            )
        chunks: list[bytes] = []
        total = 0
        while total <= max_size:
            chunk = os.read(fd, max(info.st_size + 1 - total, 65536))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
        if total > max_size:  # grew while being read
            raise InputError(shown, f"too large (more than {megabytes(max_size)})")
        return b"".join(chunks)
    except OSError as exc:
        raise InputError(shown, f"cannot read: {exc.strerror or exc}") from None
    finally:
        os.close(fd)


def read_input_text(
    path: str | os.PathLike[str],
    *,
    name: str | None = None,
    max_size: int = MAX_INPUT_SIZE,
    expected: str | None = None,
) -> str:
    """`read_input` decoded as UTF-8 (a byte order mark is dropped)."""
    data = read_input(path, name=name, max_size=max_size, expected=expected)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        shown = name if name is not None else os.fspath(path)
        raise InputError(shown, f"not UTF-8 text ({exc.reason} at byte {exc.start})") from None


def lone_surrogate(text: str) -> bool:
    """Whether `text` holds a lone UTF-16 surrogate (which no UTF-8 encoder accepts)."""
    return not text.isascii() and _SURROGATE.search(text) is not None


def max_int_digits() -> int:
    """The most decimal digits an integer may have: Python's own conversion limit (0: none)."""
    return sys.get_int_max_str_digits() if hasattr(sys, "get_int_max_str_digits") else 0


def too_many_digits(value: int, limit: int) -> bool:
    """Whether `value` has more than `limit` decimal digits, measured without printing it."""
    return limit > 0 and value.bit_length() > 3 * limit and abs(value) >= 10**limit


def check_parsed(data: Any, name: str, limit: int = MAX_DEPTH) -> None:
    """InputError when lists and mappings nest deeper than `limit`, or a key or text value
    holds a lone surrogate (walked without recursion)."""
    stack: list[tuple[Any, int]] = [(data, 1)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, dict):
            children: Any = node.values()
            stack.extend((key, depth) for key in node if isinstance(key, str))
        elif isinstance(node, list):
            children = node
        else:
            if isinstance(node, str) and lone_surrogate(node):
                message = f"a lone UTF-16 surrogate in {shortened(node)}, which is not Unicode"
                raise InputError(name, message)
            continue
        if depth > limit:
            raise InputError(name, f"nested deeper than {limit} levels")
        stack.extend((child, depth + 1) for child in children)


def too_deep(name: str, limit: int = MAX_DEPTH) -> InputError:
    """The error for a parser that ran out of stack on nesting (RecursionError)."""
    return InputError(name, f"nested deeper than {limit} levels")


class _LongInteger(Exception):
    pass


def parse_json(text: str) -> Any:
    """`json.loads`, except that an integer of more digits than Python converts is a
    JSONDecodeError at its position, like any syntax error (json raises a bare ValueError)."""
    limit = max_int_digits()

    def integer(digits: str) -> int:
        if limit and len(digits.lstrip("-")) > limit:
            raise _LongInteger
        return int(digits)

    try:
        return json.loads(text, parse_int=integer)
    except _LongInteger:
        found = re.search(rf'(?<![\w."])-?[0-9]{{{limit + 1}}}', text)
        message = f"an integer of more than {limit} digits"
        raise json.JSONDecodeError(message, text, found.start() if found else 0) from None


def load_json(text: str, name: str) -> Any:
    """JSON with the nesting and text caps; a syntax error is one line with its position."""
    try:
        data = parse_json(text)
    except json.JSONDecodeError as exc:
        raise InputError(
            name, f"not valid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})"
        ) from None
    except RecursionError:
        raise too_deep(name) from None
    check_parsed(data, name)
    return data


def load_toml(text: str, name: str) -> dict[str, Any]:
    """TOML with the nesting and text caps (tomllib recurses on nested arrays and tables)."""
    import tomllib

    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise InputError(name, f"invalid TOML: {exc}") from None
    except ValueError:  # the one error tomllib leaves unwrapped: Python's int conversion
        raise InputError(
            name, f"invalid TOML: an integer of more than {max_int_digits()} digits"
        ) from None
    except RecursionError:
        raise too_deep(name) from None
    check_parsed(data, name)
    return data
