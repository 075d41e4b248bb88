"""`--format github`: GitHub Actions workflow commands, one annotation per finding."""

from __future__ import annotations

from apispec.lint.engine import LintResult
from apispec.lint.finding import Severity
from apispec.lint.report.grouped import grouped, targets_suffix
from apispec.lint.report.view import View
from apispec.support.printable import printable

_COMMAND = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}


def _data(text: str) -> str:
    """Message data: line breaks kept (annotations show them), other controls escaped."""
    return printable(text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A"))


def _property(text: str) -> str:
    return _data(text).replace(":", "%3A").replace(",", "%2C")


def render(result: LintResult, view: View | None = None) -> str:
    lines = []
    for f, targets in grouped(result):
        props = (
            f"file={_property(f.path)},line={f.line},col={f.column},"
            f"endLine={f.end_line},endColumn={f.end_column},title={_property(f.code)}"
        )
        text = f"{f.code} {f.message}{targets_suffix(result, targets)}"
        lines.append(f"::{_COMMAND[f.severity]} {props}::{_data(text)}")
    for s in result.skipped:  # a file nobody checked fails the job, and says so
        if s.not_checked:
            props = f"file={_property(s.path)},title=not checked"
            lines.append(f"::error {props}::{_data(f'{s.path}: {s.reason}')}")
    return "".join(line + "\n" for line in lines)
