"""Reporters: one module per output format, each a function of the lint result.

Every reporter takes the same `LintResult` and returns the whole output as
text, so `--output FILE` and stdout behave alike. The formats people read
(full, concise, markdown, csv, github, junit) print a finding once with the
targets it concerns; the machine formats (json, sarif, gitlab) keep one record
per target, each with its own fingerprint, so that baselines and code-scanning
alerts follow each release apart.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the CLI imports FORMATS at start-up: keep this module light
    from apispec.lint.engine import LintResult
    from apispec.lint.report.view import View

# Each format and the (module, function) that renders it; a module is imported only
# when its format is asked for. `text` is the name the default had before `full` and
# `concise` existed: it stays `full`.
RENDERERS: dict[str, tuple[str, str]] = {
    "full": ("text", "render_full"),
    "concise": ("text", "render_concise"),
    "text": ("text", "render_full"),
    "json": ("json", "render"),
    "sarif": ("sarif", "render"),
    "github": ("github", "render"),
    "gitlab": ("gitlab", "render"),
    "junit": ("junit", "render"),
    "markdown": ("markdown", "render"),
    "csv": ("csv", "render"),
}
FORMATS = tuple(RENDERERS)


def render(fmt: str, result: LintResult, view: View | None = None) -> str:
    from apispec.lint.report.view import View

    module, function = RENDERERS[fmt]
    renderer = getattr(import_module(f"apispec.lint.report.{module}"), function)
    text: str = renderer(result, view or View())
    return text
