"""Apply the fixes the checker attaches to its diagnostics: `apispec filter fix`.

Fixes are applied in rounds, as ruff does: each round applies every fix that
does not overlap one already taken, then the filter is checked again, since a
repair can reveal the next slip (`status == "up"`: first the operator, then
the quoted enumeration value). Rounds stop when nothing applies, or when a
round would bring back a text seen before.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from apispec.filters.check import check
from apispec.filters.diagnostics import Diagnostic, Edit

if TYPE_CHECKING:
    from apispec.registry.model import Endpoint, Registry

MAX_ROUNDS = 10


@dataclass(frozen=True)
class Fixed:
    """The repaired text, how many fixes went into it, and what is still wrong with it."""

    text: str
    applied: int
    diagnostics: list[Diagnostic]

    @property
    def valid(self) -> bool:
        return not any(d.is_error for d in self.diagnostics)


def apply_fixes(
    text: str,
    *,
    unsafe: bool = False,
    endpoint: str | Endpoint | None = None,
    registry: Registry | None = None,
) -> Fixed:
    """`text` with every safe fix applied (and the unsafe ones too when `unsafe`)."""
    wanted = ("safe", "unsafe") if unsafe else ("safe",)
    applied = 0
    seen = {text}
    diagnostics = check(text, endpoint, registry)
    for _ in range(MAX_ROUNDS):
        taken: list[Edit] = []
        count = 0
        for d in diagnostics:
            if d.fix is None or d.fix.applicability not in wanted:
                continue
            if any(_overlaps(edit, other) for edit in d.fix.edits for other in taken):
                continue  # the next round sees it again, on the repaired text
            taken.extend(d.fix.edits)
            count += 1
        if not count:
            break
        fixed = apply_edits(text, taken)
        if fixed in seen:
            break
        seen.add(fixed)
        text = fixed
        applied += count
        diagnostics = check(text, endpoint, registry)
    return Fixed(text, applied, diagnostics)


def apply_edits(text: str, edits: Iterable[Edit]) -> str:
    """Apply non-overlapping edits, each given in offsets of the original `text`."""
    for edit in sorted(edits, key=lambda e: (e.start, e.end), reverse=True):
        text = text[: edit.start] + edit.content + text[edit.end :]
    return text


def _overlaps(a: Edit, b: Edit) -> bool:
    """Two insertions at one point overlap too: their order would be a guess."""
    return a.start == b.start or (a.start < b.end and b.start < a.end)
