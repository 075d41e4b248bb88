"""`--format sarif`: SARIF 2.1.0 for GitHub code scanning and other viewers.

Rules carry their documentation page as help text and a helpUri; results carry
the engine's line-move-proof fingerprint as `partialFingerprints`, so code
scanning keeps an alert's identity when unrelated lines move.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from apispec import __version__
from apispec.lint.engine import LintResult
from apispec.lint.finding import Finding, Severity
from apispec.lint.report.json import endpoint_dict
from apispec.lint.report.view import View
from apispec.lint.rules import DOCS_URL, RULES, Rule
from apispec.support.printable import unicode_safe, uri_path

SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}


def _rule(rule: Rule) -> dict[str, Any]:
    page = rule.page()
    return {
        "id": rule.code,
        "name": rule.name,
        "shortDescription": {"text": rule.summary},
        "fullDescription": {"text": " ".join(rule.explanation.split())},
        "help": {"text": page, "markdown": page},
        "helpUri": rule.help_uri,
        "defaultConfiguration": {"level": _LEVEL[rule.severity]},
        "properties": {"tags": ["compatibility", "api-v2"]},
    }


def _uri(path: str) -> str:
    return uri_path(path)  # the name's own bytes, percent-encoded: any file name


def _result(f: Finding, index: dict[str, int], result: LintResult) -> dict[str, Any]:
    sarif: dict[str, Any] = {
        "ruleId": f.code,
        "ruleIndex": index[f.code],
        "level": _LEVEL[f.severity],
        "message": {"text": f.message + (f" (target {f.target})" if f.target else "")},
        "locations": [
            {
                "physicalLocation": {
                    "artifactLocation": {"uri": _uri(f.path), "uriBaseId": "%SRCROOT%"},
                    "region": {
                        "startLine": f.line,
                        "startColumn": f.column,
                        "endLine": f.end_line,
                        "endColumn": f.end_column,
                    },
                }
            }
        ],
        "partialFingerprints": {"apispecFingerprint/v1": f.fingerprint},
        "properties": {"target": f.target},
    }
    if f.endpoint:
        sarif["properties"]["endpoint"] = endpoint_dict(f, result.endpoints)
    if f.fix is not None:
        sarif["fixes"] = [
            {
                "description": {"text": f.fix.message},
                "properties": {"applicability": str(f.fix.applicability)},
                "artifactChanges": [
                    {
                        "artifactLocation": {"uri": _uri(f.path), "uriBaseId": "%SRCROOT%"},
                        "replacements": [
                            {
                                "deletedRegion": {
                                    "startLine": e.line,
                                    "startColumn": e.column,
                                    "endLine": e.end_line,
                                    "endColumn": e.end_column,
                                },
                                "insertedContent": {"text": e.content},
                            }
                            for e in f.fix.edits
                        ],
                    }
                ],
            }
        ]
    return sarif


def render(result: LintResult, view: View | None = None) -> str:
    index = {rule.code: i for i, rule in enumerate(RULES)}
    run = {
        "tool": {
            "driver": {
                "name": "apispec",
                "version": __version__,
                "informationUri": DOCS_URL,
                "rules": [_rule(rule) for rule in RULES],
            }
        },
        "originalUriBaseIds": {"%SRCROOT%": {"uri": Path.cwd().as_uri() + "/"}},
        "invocations": [
            {
                "executionSuccessful": not any(s.not_checked for s in result.skipped),
                "toolExecutionNotifications": [
                    {
                        "level": "error" if s.not_checked else "note",
                        "message": {"text": unicode_safe(f"skipped: {s.reason}")},
                        "locations": [
                            {
                                "physicalLocation": {
                                    "artifactLocation": {
                                        "uri": _uri(s.path),
                                        "uriBaseId": "%SRCROOT%",
                                    }
                                }
                            }
                        ],
                    }
                    for s in result.skipped
                ],
            }
        ],
        "results": [_result(f, index, result) for f in result.findings],
    }
    document = {"$schema": SCHEMA, "version": "2.1.0", "runs": [run]}
    return json.dumps(document) + "\n"
