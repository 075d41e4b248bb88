"""`--format csv`: one row per finding, for a spreadsheet or a script.

A spreadsheet runs a cell that starts with `=`, `+`, `-` or `@` as a formula,
and a file name or a filter value from the linted tree could start so: such a
cell gets a leading `'`, as OWASP's advice on CSV injection says, which the
spreadsheet shows as text.
"""

from __future__ import annotations

import csv
import io

from apispec.lint.engine import LintResult
from apispec.lint.report.grouped import grouped
from apispec.lint.report.view import View
from apispec.lint.rules import BY_CODE
from apispec.support.printable import spreadsheet_cell as _text

HEADER = (
    "path",
    "line",
    "column",
    "end_line",
    "end_column",
    "severity",
    "code",
    "rule",
    "message",
    "method",
    "endpoint",
    "targets",
    "fix",
)


def render(result: LintResult, view: View | None = None) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(HEADER)
    for f, targets in grouped(result):
        method, path = f.endpoint or ("", "")
        writer.writerow(
            [
                _text(f.path),
                f.line,
                f.column,
                f.end_line,
                f.end_column,
                str(f.severity),
                f.code,
                BY_CODE[f.code].name,
                _text(f.message),
                method,
                _text(path),
                " ".join(targets),
                str(f.fix.applicability) if f.fix else "",
            ]
        )
    for s in result.skipped:  # a file nobody checked: a row of its own, never a clean sheet
        if s.not_checked:
            writer.writerow(
                [_text(s.path), "", "", "", "", "error", "", "not-checked", _text(s.reason)]
                + [""] * 4
            )
    return out.getvalue()
