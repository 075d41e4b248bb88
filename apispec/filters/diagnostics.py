"""What the checker reports: a code, a severity, words for people and an exact range."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

Severity = Literal["error", "warning"]

# Code -> (severity, title). docs/filters.md lists them in this order.
CODES: dict[str, tuple[Severity, str]] = {
    "FLT001": ("error", "syntax error"),
    "FLT002": ("error", "unknown property"),
    "FLT003": ("error", "operator not allowed for the property"),
    "FLT004": ("error", "value of the wrong type"),
    "FLT005": ("warning", "unknown enumeration value"),
    "FLT006": ("warning", "property not applicable to the endpoint"),
}


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """One finding; `start`/`end` are 0-based character offsets, `end` exclusive.

    At the end of the input `start == end == len(text)`.
    """

    code: str
    severity: Severity
    message: str
    hint: str | None
    start: int
    end: int
    # The filter property the diagnostic is about, where there is one (FLT005, FLT006):
    # the linter asks the registry whether that property's value list is complete.
    subject: str | None = None

    @property
    def is_error(self) -> bool:
        return self.severity == "error"

    def line_column(self, text: str) -> tuple[int, int]:
        """1-based line and column of `start` in `text`."""
        return line_column(text, self.start)

    def as_dict(self, text: str) -> dict[str, Any]:
        """The JSON shape of `apispec filter check --format json`."""
        line, column = self.line_column(text)
        return {
            "code": self.code,
            "severity": self.severity,
            "message": self.message,
            "hint": self.hint,
            "start": self.start,
            "end": self.end,
            "line": line,
            "column": column,
        }


def line_column(text: str, offset: int) -> tuple[int, int]:
    """1-based (line, column) of a 0-based character offset."""
    line = text.count("\n", 0, offset) + 1
    column = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return line, column


def make(
    code: str,
    message: str,
    start: int,
    end: int,
    hint: str | None = None,
    subject: str | None = None,
) -> Diagnostic:
    return Diagnostic(code, CODES[code][0], message, hint, start, end, subject)


def ordered(diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    """Earliest first, so the first error is the earliest in the text."""
    return sorted(diagnostics, key=lambda d: (d.start, d.end, d.code))
