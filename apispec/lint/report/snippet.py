"""The source line under a finding, and a caret under its span, aligned on screen.

Columns in findings count characters; a terminal counts cells. A tab takes the
cells up to the next tab stop, an East Asian wide character two, a combining
mark none, and a control or bidirectional character is shown escaped (`\\x1b`,
`\\u202e`) so that a hostile line can neither drive the terminal nor read
differently from what it says. A line wider than the screen is cut around the
span, so that a minified file prints one screenful, not a megabyte.
"""

from __future__ import annotations

import unicodedata

from apispec.support.printable import printable

TAB_STOP = 4
WIDTH = 120  # cells of source shown at most
CONTEXT = 40  # cells kept before the span when a long line is cut
ELLIPSIS = "..."


def _cell(char: str, at: int) -> tuple[str, int]:
    """How `char` is shown at screen column `at`, and how many cells it takes."""
    if char == "\t":
        width = TAB_STOP - at % TAB_STOP
        return " " * width, width
    if not char.isprintable():
        shown = printable(char)
        return shown, len(shown)
    if unicodedata.combining(char):
        return char, 0
    return char, 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1


def snippet(line: str, column: int, end_column: int | None) -> tuple[str, int, int]:
    """(the line as shown, caret start cell, caret length) for 1-based `column` and
    exclusive `end_column` (None: to the end of the line)."""
    line = line.rstrip("\r\n")
    cells: list[tuple[str, int, int]] = []  # (shown, start cell, width) per character
    at = 0
    for char in line:
        shown, width = _cell(char, at)
        cells.append((shown, at, width))
        at += width
    total = at
    first = min(max(column - 1, 0), len(cells))
    last = len(cells) if end_column is None else min(max(end_column - 1, first), len(cells))
    start = cells[first][1] if first < len(cells) else total
    end = cells[last][1] if last < len(cells) else total
    length = max(end - start, 1)
    if total <= WIDTH:
        return "".join(c[0] for c in cells), start, length
    low = max(0, min(start - CONTEXT, total - WIDTH))
    high = low + WIDTH
    kept = "".join(shown for shown, cell, width in cells if cell >= low and cell + width <= high)
    prefix = ELLIPSIS if low > 0 else ""
    suffix = ELLIPSIS if high < total else ""
    caret = start - low + len(prefix)
    length = max(1, min(length, high - max(start, low)))
    return prefix + kept + suffix, caret, length
