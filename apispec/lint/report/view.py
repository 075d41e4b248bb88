"""How a report is shown: the command's decisions that every format reads."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class View:
    """How a report is shown, as the command decides it (the result does not know)."""

    color: bool = False  # ANSI colours: only for a terminal (or FORCE_COLOR)
    unsafe_fixes: bool = False  # `[*]` marks the fixes this run's `--fix` would apply
    show_skipped: bool = False  # list binary files and ignored paths, not only count them
    elapsed: float | None = None  # seconds the run took; shown when set (a terminal)
    quiet: bool = False  # the findings only, without the summary
