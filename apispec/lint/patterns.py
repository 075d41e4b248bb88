"""Regular expressions compiled on first use instead of when their module is imported.

`apispec lint` imports every stage at start-up, but a run meets only some of the
shapes the linter knows: a tree of Python files never needs the patterns that read
a PowerShell parameter, a notebook's cell magic or a Ruby header, and a run over a
tree whose files all fail the prefilter needs almost none. Compiled at import, they
cost every run milliseconds of start-up; compiled on first use, only the runs that
need them pay, once. Meant for patterns off the hot loop: each use costs one extra
method call.
"""

from __future__ import annotations

import re
import sys
from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator


class _Lazy:
    """A pattern's text and flags, and the compiled pattern once something used it."""

    __slots__ = ("_compiled", "_flags", "_text")

    def __init__(self, text: str, flags: int) -> None:
        self._text = text
        self._flags = flags
        self._compiled: re.Pattern[str] | None = None

    def _pattern(self) -> re.Pattern[str]:
        if self._compiled is None:
            self._compiled = re.compile(self._text, self._flags)
        return self._compiled

    def search(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        return self._pattern().search(string, pos, endpos)

    def match(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        return self._pattern().match(string, pos, endpos)

    def fullmatch(
        self, string: str, pos: int = 0, endpos: int = sys.maxsize
    ) -> re.Match[str] | None:
        return self._pattern().fullmatch(string, pos, endpos)

    def finditer(
        self, string: str, pos: int = 0, endpos: int = sys.maxsize
    ) -> Iterator[re.Match[str]]:
        return self._pattern().finditer(string, pos, endpos)

    def findall(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> list[Any]:
        return self._pattern().findall(string, pos, endpos)

    def split(self, string: str, maxsplit: int = 0) -> list[str | Any]:
        return self._pattern().split(string, maxsplit)

    def sub(self, repl: str | Callable[[re.Match[str]], str], string: str, count: int = 0) -> str:
        return self._pattern().sub(repl, string, count)


def lazy(text: str, flags: int = 0) -> re.Pattern[str]:
    """`re.compile(text, flags)`, done when the pattern is first used.

    Only the matching methods (search, match, fullmatch, finditer, findall, split,
    sub) are there: a lazy pattern is not for `re.sub(pattern, ...)` nor `.pattern`.
    """
    return cast("re.Pattern[str]", _Lazy(text, flags))
