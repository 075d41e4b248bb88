"""Reporters: one module per output format, each a function of the lint result.

Every reporter takes the same `LintResult` and returns the whole output as
text, so `--output FILE` and stdout behave alike.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the CLI imports FORMATS at start-up: keep this module light
    from apispec.lint.engine import LintResult

FORMATS = ("text", "json", "sarif", "github", "gitlab", "junit")


def render(fmt: str, result: LintResult) -> str:
    renderer: Callable[[LintResult], str]
    if fmt == "text":
        from apispec.lint.report.text import render as renderer
    elif fmt == "json":
        from apispec.lint.report.json import render as renderer
    elif fmt == "sarif":
        from apispec.lint.report.sarif import render as renderer
    elif fmt == "github":
        from apispec.lint.report.github import render as renderer
    elif fmt == "gitlab":
        from apispec.lint.report.gitlab import render as renderer
    else:
        from apispec.lint.report.junit import render as renderer
    return renderer(result)
