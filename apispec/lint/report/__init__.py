"""Reporters: one module per output format, each a function of the lint result.

Every reporter takes the same `LintResult` and returns the whole output as
text, so `--output FILE` and stdout behave alike. The formats people read
(full, concise, markdown, csv, github, junit) print a finding once with the
targets it concerns; the machine formats (json, sarif, gitlab) keep one record
per target, each with its own fingerprint, so that baselines and code-scanning
alerts follow each release apart.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the CLI imports FORMATS at start-up: keep this module light
    from apispec.lint.engine import LintResult

# `text` is the name the default had before `full` and `concise` existed: it stays `full`.
FORMATS = (
    "full",
    "concise",
    "text",
    "json",
    "sarif",
    "github",
    "gitlab",
    "junit",
    "markdown",
    "csv",
)


@dataclass(frozen=True)
class View:
    """How a report is shown, as the command decides it (the result does not know)."""

    color: bool = False  # ANSI colours: only for a terminal (or FORCE_COLOR)
    unsafe_fixes: bool = False  # `[*]` marks the fixes this run's `--fix` would apply
    show_skipped: bool = False  # list binary files and ignored paths, not only count them
    elapsed: float | None = None  # seconds the run took; shown when set (a terminal)
    quiet: bool = False  # the findings only, without the summary


def render(fmt: str, result: LintResult, view: View | None = None) -> str:
    view = view or View()
    renderer: Callable[[LintResult, View], str]
    if fmt in ("full", "text"):
        from apispec.lint.report.text import render_full as renderer
    elif fmt == "concise":
        from apispec.lint.report.text import render_concise as renderer
    elif fmt == "json":
        from apispec.lint.report.json import render as renderer
    elif fmt == "sarif":
        from apispec.lint.report.sarif import render as renderer
    elif fmt == "github":
        from apispec.lint.report.github import render as renderer
    elif fmt == "gitlab":
        from apispec.lint.report.gitlab import render as renderer
    elif fmt == "markdown":
        from apispec.lint.report.markdown import render as renderer
    elif fmt == "csv":
        from apispec.lint.report.csv import render as renderer
    else:
        from apispec.lint.report.junit import render as renderer
    return renderer(result, view)
