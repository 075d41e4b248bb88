"""What the first pass over a tree learnt across files: the API helpers each file defines.

A script that calls `Invoke-PrtgApi -Path '/health'` makes an API v2 call only
because another file of the same tree defines `Invoke-PrtgApi` on top of the
API's base URL. So the linter lints every file once, learning the helpers each
defines, and then lints again, with the whole table, the files that mention a
helper some *other* file defines. A tree without helpers (most of them) pays
nothing for the second pass; one with helpers pays a byte search per file.

The second pass's results depend on the other files, so its cache entries are
kept under the run key joined with `digest()` (apispec.lint.cache.RunKey.joined):
editing a helper's definition elsewhere makes the callers be linted again.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from typing import Protocol

from apispec.lint.helpers import Helper, HelperTable


class _Defines(Protocol):
    @property
    def path(self) -> str:
        """The file as shown."""

    @property
    def helpers(self) -> Sequence[Helper]:
        """The helpers it defines."""


class Repository:
    """The helpers of a tree, and which files define each; picklable for worker processes."""

    def __init__(self, results: Iterable[_Defines]) -> None:
        self.table = HelperTable()
        self.defined_in: dict[str, set[str]] = {}
        for result in results:
            for helper in result.helpers:
                self.table.add(helper)
                self.defined_in.setdefault(helper.name.lower(), set()).add(result.path)
        self.needles = tuple(
            sorted({h.name.lower().encode("utf-8", "surrogateescape") for h in self.table.helpers})
        )

    def __bool__(self) -> bool:
        return bool(self.table)

    def digest(self) -> bytes:
        """The table as a hash: what the second pass's results depend on besides the file."""
        rows = sorted(repr(tuple(h)) for h in self.table.helpers)
        return hashlib.sha256("\n".join(rows).encode("utf-8", "surrogateescape")).digest()

    def mentioned_in(self, data: bytes) -> bool:
        """Whether the bytes name any helper at all, in any case (the cheap test, on every file)."""
        lower = data.lower()
        return any(needle in lower for needle in self.needles)

    def calls_others(self, text: str, shown: str) -> bool:
        """Whether the text names a helper that a file other than itself defines."""
        lower = text.lower()
        return any(name in lower and paths - {shown} for name, paths in self.defined_in.items())
