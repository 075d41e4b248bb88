"""What a command may do to the terminal it writes to: colour, and a progress line.

Colour follows the conventions users set once for every tool: `NO_COLOR`
(no-color.org) turns it off, `FORCE_COLOR` (force-color.org) turns it on where
there is no terminal (a CI log that renders ANSI), `TERM=dumb` turns it off;
otherwise a terminal gets colour and a pipe or file never does. As in Python
3.13's own rule, `NO_COLOR` wins over `FORCE_COLOR`: an explicit opt-out of the
person beats a setting of the machine.
"""

from __future__ import annotations

import os
import time
from typing import TextIO


def color_for(stream: TextIO) -> bool:
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    if os.environ.get("TERM") == "dumb":
        return False
    return _isatty(stream)


def _isatty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # no isatty, or closed
        return False


def interactive(stream: TextIO) -> bool:
    """A person watches `stream`: a terminal that can redraw a line."""
    return _isatty(stream) and os.environ.get("TERM") != "dumb"


class Progress:
    """`Linting: 1200/10000 files (2400 files/s)` on a terminal, redrawn in place (a total
    of 0 is unknown: `Reading: 120 MB (40 MB/s)`).

    Silent for the first `delay` seconds, so a quick run prints nothing, and
    redrawn at most every `interval` seconds, so drawing never costs more than
    the work it reports. `clear()` removes the line before the report is printed.
    """

    def __init__(
        self,
        stream: TextIO,
        delay: float = 0.5,
        interval: float = 0.1,
        what: str = "Linting",
        unit: str = "files",
    ) -> None:
        self.stream = stream
        self.what = what
        self.unit = unit
        self.started = time.monotonic()
        self.delay = delay
        self.interval = interval
        self.next_draw = self.started + delay
        self.shown = False

    def __call__(self, done: int, total: int) -> None:
        now = time.monotonic()
        if now < self.next_draw:
            return
        self.next_draw = now + self.interval
        rate = done / max(now - self.started, 1e-9)
        unit = self.unit
        count = f"{done}/{total}" if total else str(done)
        self.stream.write(f"\r\x1b[2K{self.what}: {count} {unit} ({rate:,.0f} {unit}/s)")
        self.stream.flush()
        self.shown = True

    def clear(self) -> None:
        if self.shown:
            self.stream.write("\r\x1b[2K")
            self.stream.flush()
            self.shown = False
