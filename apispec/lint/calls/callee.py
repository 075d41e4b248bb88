"""The name a call is made through: `requests.get`, `self._get`, `apiGet<T>`, `Invoke-X`.

Every later step asks who is called with a string (a client, a helper, a
route registration, a matcher), so the one regex that reads it back from the
bracket lives here, with the skip over a generic call's type arguments.
"""

from __future__ import annotations

import re

_CALLEE = re.compile(r"((?:[\w$@]+(?:\(\))?\s*(?:\.|->|::|\?\.)\s*)*[\w$@-]*[\w$])\s*$")
# Every character _CALLEE can match (besides non-ASCII word characters).
_CALLEE_CHARS = frozenset(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_$@-.>:?() \t\r\n\f\v"
)


def callee_before(text: str, lo: int, opener: int) -> re.Match[str] | None:
    """`_CALLEE.search(text, lo, opener)`, without trying the positions that cannot start it.

    A match holds only callee characters, so it starts after the last other
    character before `opener`; the regex's nested repetitions cost a lot at
    each position it is tried from.
    """
    opener = _before_type_arguments(text, lo, opener)
    start = opener
    while start > lo and (text[start - 1] in _CALLEE_CHARS or not text[start - 1].isascii()):
        start -= 1
    return _CALLEE.search(text, start, opener)


def _before_type_arguments(text: str, lo: int, opener: int) -> int:
    """Where a generic call's type arguments start (`apiGet<Sensor[]>(`), else `opener`."""
    end = opener
    while end > lo and text[end - 1] in " \t":
        end -= 1
    if end <= lo or text[end - 1] != ">":
        return opener
    depth = 0
    i = end - 1
    while i > max(lo, end - 120):
        ch = text[i]
        if ch == ">":
            depth += 1
        elif ch == "<":
            depth -= 1
            if depth == 0:
                return i if text[i - 1 : i].isalnum() or text[i - 1 : i] == "_" else opener
        elif not (ch.isalnum() or ch in " _,.?[]{}:;|$"):
            return opener
        i -= 1
    return opener
