"""Offsets to lines and columns, for one file's text.

Extraction, rules and the engine all turn 0-based character offsets into the
1-based (line, column) pairs editors show; the line starts are found once per
file and each position is a binary search.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from typing import NamedTuple

_LONE_CR = re.compile(r"\r(?!\n)")
_CRLF = re.compile(r"\r\n")


def _lone_cr_as_lf(text: str) -> str:
    """`text` with each lone CR made a LF, so that a line it ends is a line to every stage.

    Python, editors and the Language Server Protocol end a line at a CR not followed by
    a LF (classic Mac OS files, some exports); the stages look for `\n` only. The text
    keeps its length, so every offset found in it is an offset of the original text.
    """
    return _LONE_CR.sub("\n", text) if "\r" in text else text


class LfText(NamedTuple):
    """A text with every line ending in LF, and where the CRs of its CRLFs were taken out."""

    text: str
    removed: list[int]  # offsets in `text` of the LFs that followed a removed CR, in order

    def original(self, offset: int) -> int:
        """The offset in the original text of offset `offset` of this one."""
        return offset + bisect_left(self.removed, offset) if self.removed else offset


def lf_text(text: str) -> LfText:
    """`text` with CRLF and lone CR line ends made LF, for the stages that look for `\n`.

    A CRLF loses its CR, so the offsets after it move; line numbers do not, nor does a
    column (the CR stood after a line's content). `LfText.original` maps an offset back.
    """
    if "\r" not in text:
        return LfText(text, [])
    text = _lone_cr_as_lf(text)
    removed = []
    for k, m in enumerate(_CRLF.finditer(text)):
        removed.append(m.start() - k)
    return LfText(_CRLF.sub("\n", text) if removed else text, removed)


class Lines:
    """Offsets to 1-based (line, column), and line texts, for one text."""

    __slots__ = ("starts", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        self.starts = [0]
        find = text.find
        at = find("\n")
        while at >= 0:
            self.starts.append(at + 1)
            at = find("\n", at + 1)

    def position(self, offset: int) -> tuple[int, int]:
        line = bisect_right(self.starts, offset)
        return line, offset - self.starts[line - 1] + 1

    def line_start(self, offset: int) -> int:
        """The offset where the line holding `offset` starts."""
        return self.starts[bisect_right(self.starts, offset) - 1]

    def line_text(self, line: int) -> str:
        start = self.starts[line - 1]
        end = self.starts[line] - 1 if line < len(self.starts) else len(self.text)
        return self.text[start:end]
