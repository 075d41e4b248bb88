"""Findings as LSP diagnostics: the CLI's codes, severities and messages, at exact ranges."""

from __future__ import annotations

from lsprotocol import types

from apispec.lsp import adapter
from apispec.lsp.analysis import Result
from apispec.lsp.positions import LineIndex

SOURCE = "apispec"
_SEVERITY = {
    adapter.Severity.ERROR: types.DiagnosticSeverity.Error,
    adapter.Severity.WARNING: types.DiagnosticSeverity.Warning,
    adapter.Severity.INFO: types.DiagnosticSeverity.Information,
}


def to_lsp(finding: adapter.Finding, index: LineIndex) -> types.Diagnostic:
    url = adapter.rule_url(finding.code)
    return types.Diagnostic(
        range=index.linter_range(
            finding.line, finding.column, finding.end_line, finding.end_column
        ),
        message=finding.message,
        severity=_SEVERITY[finding.severity],
        code=finding.code,
        code_description=types.CodeDescription(href=url) if url else None,
        source=SOURCE,
        tags=[types.DiagnosticTag.Deprecated] if finding.code in adapter.DEPRECATED_CODES else None,
    )


def of_result(result: Result, index: LineIndex) -> list[types.Diagnostic]:
    """Every finding; a document the CLI would skip gets one note at its start saying why."""
    if result.skipped is not None:
        start = types.Position(0, 0)
        return [
            types.Diagnostic(
                range=types.Range(start, start),
                message=f"not linted: {result.skipped}",
                severity=types.DiagnosticSeverity.Information,
                source=SOURCE,
            )
        ]
    return [to_lsp(f, index) for f in result.findings]
