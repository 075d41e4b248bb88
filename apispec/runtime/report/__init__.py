"""Traffic reports: one module per output format, each a function of a `Report`.

`markdown` is also `md`, as every report-writing command accepts both. A
module is imported only when its format is asked for.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from apispec.runtime.report.model import Report

RENDERERS: dict[str, str] = {
    "full": "full",
    "json": "json",
    "csv": "csv",
    "markdown": "markdown",
    "md": "markdown",
    "prometheus": "prometheus",
}
FORMATS = tuple(RENDERERS)


def render(fmt: str, report: Report) -> str:
    module = import_module(f"apispec.runtime.report.{RENDERERS[fmt]}")
    text: str = module.render(report)
    return text
