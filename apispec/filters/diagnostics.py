"""What the checker reports: a code, a severity, words for people, an exact range and a fix.

A fix is data (edits plus how safe they are), not prose, so that `apispec
filter fix`, the linter and editors apply the same repair the hint describes.
Applicability follows ruff's three levels: `safe` keeps the filter's meaning
and is applied by default, `unsafe` is a likely guess applied only on request
(`--unsafe-fixes`, an editor's non-preferred quick fix), `display-only` is
shown but never applied.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from apispec.filters.grammar import PLACEHOLDER_CHAR

Severity = Literal["error", "warning"]
Applicability = Literal["safe", "unsafe", "display-only"]

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
class Edit:
    """Replace `text[start:end]` (0-based character offsets) with `content`."""

    start: int
    end: int
    content: str

    def as_dict(self) -> dict[str, Any]:
        return {"start": self.start, "end": self.end, "content": self.content}


@dataclass(frozen=True, slots=True)
class Fix:
    """The edits that repair one diagnostic; they never overlap each other."""

    applicability: Applicability
    edits: tuple[Edit, ...]

    def as_dict(self) -> dict[str, Any]:
        return {
            "applicability": self.applicability,
            "edits": [edit.as_dict() for edit in self.edits],
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
    fix: Fix | None = None
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
            "fix": None if self.fix is None else self.fix.as_dict(),
        }


def line_column(text: str, offset: int) -> tuple[int, int]:
    """1-based (line, column) of a 0-based character offset."""
    line = text.count("\n", 0, offset) + 1
    column = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return line, column


# The placeholder character and the NUL that stands for a stray one (see parse.mask).
_MARKS = frozenset((PLACEHOLDER_CHAR, "\0"))


def make(
    code: str,
    message: str,
    start: int,
    end: int,
    hint: str | None = None,
    fix: Fix | None = None,
    *,
    subject: str | None = None,
) -> Diagnostic:
    return Diagnostic(code, CODES[code][0], message, hint, start, end, fix, subject)


def fix_of(applicability: Applicability, *edits: tuple[int, int, str]) -> Fix:
    """A fix from (start, end, content) triples, in text order."""
    return Fix(applicability, tuple(Edit(*e) for e in sorted(edits, key=lambda e: e[:2])))


def moved(diagnostic: Diagnostic, original: Callable[[int], int]) -> Diagnostic:
    """The diagnostic with every offset mapped by `original` (into the text the user wrote).

    Used after the parser repaired slips to read on: a fix whose content holds
    a placeholder mark (an interpolation) is dropped, since no text the user
    wrote can stand for it.
    """
    start = original(diagnostic.start)
    end = max(start, original(diagnostic.end))
    fix = diagnostic.fix
    if fix is not None:
        if any(_MARKS.intersection(edit.content) for edit in fix.edits):
            fix = None
        else:
            fix = Fix(
                fix.applicability,
                tuple(
                    Edit(original(e.start), max(original(e.start), original(e.end)), e.content)
                    for e in fix.edits
                ),
            )
    return Diagnostic(
        diagnostic.code,
        diagnostic.severity,
        diagnostic.message,
        diagnostic.hint,
        start,
        end,
        fix,
        diagnostic.subject,
    )


def ordered(diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    """Earliest first, so the first error is the earliest in the text."""
    return sorted(diagnostics, key=lambda d: (d.start, d.end, d.code))
