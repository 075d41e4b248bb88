"""Character offsets <-> LSP positions, in the encoding the client and server agreed on.

LSP counts lines as ending at `\\n`, `\\r\\n` or `\\r`, and columns in UTF-16
code units unless the client offers UTF-8 or UTF-32; the linter counts lines as
LSP does and columns in code points. One index per document version converts
between them in O(log lines) per position, which matters for a 5 MB file
(pygls's own helpers split the whole text on every call, and at more line
breaks than LSP has).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # imported where a position is made: the first diagnostics need none
    from lsprotocol import types

_BREAK = re.compile(r"\r\n|\r|\n")
# LSP's position encodings (PositionEncodingKind's values).
UTF8, UTF16, UTF32 = "utf-8", "utf-16", "utf-32"


def _units(text: str, encoding: str) -> int:
    """Length of `text` in the code units of `encoding`."""
    if encoding == UTF32 or text.isascii():
        return len(text)
    if encoding == UTF8:
        return len(text.encode("utf-8", "surrogatepass"))
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


class LineIndex:
    """Positions in one text; built once, used for every diagnostic and request on it."""

    def __init__(self, text: str, encoding: str = UTF16) -> None:
        self.text = text
        self.encoding = encoding
        self.starts = [0]  # LSP line starts
        self.ends = []  # where each LSP line's content ends (before its break)
        for m in _BREAK.finditer(text):
            self.ends.append(m.start())
            self.starts.append(m.end())
        self.ends.append(len(text))

    # -- offsets and positions -------------------------------------------------

    def point(self, offset: int) -> tuple[int, int]:
        """(line, character) of an offset, in the agreed encoding."""
        offset = max(0, min(offset, len(self.text)))
        line = bisect_right(self.starts, offset) - 1
        start = self.starts[line]
        offset = min(offset, self.ends[line])  # never inside a `\r\n`
        return line, _units(self.text[start:offset], self.encoding)

    def position(self, offset: int) -> types.Position:
        from lsprotocol.types import Position

        return Position(*self.point(offset))

    def offset(self, position: types.Position) -> int:
        """The offset of a position; past the end of a line is its end, past the last line the text's end."""
        if position.line < 0:
            return 0
        if position.line >= len(self.starts):
            return len(self.text)
        start, end = self.starts[position.line], self.ends[position.line]
        wanted = max(position.character, 0)
        content = self.text[start:end]
        if self.encoding == UTF32 or content.isascii():
            return start + min(wanted, len(content))
        units = 0
        for i, ch in enumerate(content):
            if units >= wanted:
                return start + i
            units += _units(ch, self.encoding)
        return end

    def range(self, start: int, end: int) -> types.Range:
        from lsprotocol.types import Range

        return Range(self.position(start), self.position(max(start, end)))

    def line_text(self, line: int) -> str:
        """The content of LSP line `line` (0-based), without its break."""
        if not 0 <= line < len(self.starts):
            return ""
        return self.text[self.starts[line] : self.ends[line]]

    # -- the linter's coordinates ------------------------------------------------

    def from_linter(self, line: int, column: int) -> int:
        """The offset of a linter position: 1-based line and column. The linter ends lines
        where LSP does (a lone CR too: apispec.lint.lines.lf_text)."""
        starts = self.starts
        if line < 1:
            return 0
        if line > len(starts):
            return len(self.text)
        return min(starts[line - 1] + max(column - 1, 0), len(self.text))

    def linter_range(self, line: int, column: int, end_line: int, end_column: int) -> types.Range:
        return self.range(self.from_linter(line, column), self.from_linter(end_line, end_column))
