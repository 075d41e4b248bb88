"""ANSI colours for the text reports, or none: one object decides, so no line forgets."""

from __future__ import annotations

from apispec.lint.finding import Severity

_RESET = "\x1b[0m"
BOLD = "1"
DIM = "2"
RED = "31"
YELLOW = "33"
BLUE = "34"
CYAN = "36"
SEVERITY = {Severity.ERROR: RED, Severity.WARNING: YELLOW, Severity.INFO: CYAN}


class Style:
    def __init__(self, color: bool) -> None:
        self.color = color

    def __call__(self, text: str, *codes: str) -> str:
        if not self.color or not text:
            return text
        return f"\x1b[{';'.join(codes)}m{text}{_RESET}"
