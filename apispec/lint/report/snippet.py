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
from bisect import bisect_left, bisect_right
from functools import lru_cache

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


@lru_cache(maxsize=16)
def _layout(line: str) -> tuple[tuple[str, ...], tuple[int, ...]]:
    """How each character of `line` is shown, and the cell where each starts (one more
    entry: the line's width). Made once per line however many findings point into it:
    a URL with 20,000 query parameters is one line with 20,000 findings."""
    line = line.rstrip("\r\n")
    shown: list[str] = []
    starts: list[int] = []
    at = 0
    for char in line:
        text, width = _cell(char, at)
        shown.append(text)
        starts.append(at)
        at += width
    starts.append(at)
    return tuple(shown), tuple(starts)


def snippet(line: str, column: int, end_column: int | None) -> tuple[str, int, int]:
    """(the line as shown, caret start cell, caret length) for 1-based `column` and
    exclusive `end_column` (None: to the end of the line)."""
    shown, starts = _layout(line)
    count = len(shown)
    total = starts[-1]
    first = min(max(column - 1, 0), count)
    last = count if end_column is None else min(max(end_column - 1, first), count)
    start = starts[first]
    end = starts[last]
    length = max(end - start, 1)
    if total <= WIDTH:
        return "".join(shown), start, length
    low = max(0, min(start - CONTEXT, total - WIDTH))
    high = low + WIDTH
    # the characters wholly inside [low, high): starting at or after `low`, ending by `high`
    begin = bisect_left(starts, low, 0, count)
    stop = max(begin, bisect_right(starts, high, 1) - 1)
    kept = "".join(shown[begin:stop])
    prefix = ELLIPSIS if low > 0 else ""
    suffix = ELLIPSIS if high < total else ""
    caret = start - low + len(prefix)
    length = max(1, min(length, high - max(start, low)))
    return prefix + kept + suffix, caret, length
