"""`--format json`: every finding with 1-based positions, the skipped files, a summary."""

from __future__ import annotations

import json
from collections import Counter
from json.encoder import encode_basestring_ascii
from typing import Any

from apispec.lint.engine import LintResult
from apispec.lint.finding import Finding, Skipped
from apispec.lint.report.view import View
from apispec.support.printable import unicode_safe

Facts = dict[tuple[str, str], dict[str, str | None]]


def endpoint_dict(f: Finding, facts: Facts) -> dict[str, str | None] | None:
    """The endpoint with its lifecycle (maturity, since, deprecated_in, removed_in, successor)."""
    if f.endpoint is None:
        return None
    known = facts.get(f.endpoint)
    if known is not None:
        return known
    return dict.fromkeys(_FACTS) | {"method": f.endpoint[0], "path": f.endpoint[1]}


_FACTS = ("method", "path", "maturity", "since", "deprecated_in", "removed_in", "successor")


_string = encode_basestring_ascii  # what json.dumps writes for a str (ensure_ascii)


def _optional(value: str | None) -> str:
    return "null" if value is None else _string(value)


def _encoded(f: Finding, facts: Facts, endpoints: dict[tuple[str, str] | None, str]) -> str:
    """What `json.dumps` writes for the finding as a dict, byte for byte, without the dict.

    The dict and the encoder set up for each of 100,000 findings cost more than
    the encoding; a test holds the two equal. `endpoints` caches each endpoint's
    encoded object: a run names few endpoints many times.
    """
    endpoint = endpoints.get(f.endpoint)
    if endpoint is None:
        endpoint = endpoints[f.endpoint] = json.dumps(endpoint_dict(f, facts))
    if f.fix is None:
        fix = "null"
    else:
        edits = ", ".join(
            [
                f'{{"start": {e.start}, "end": {e.end}, "content": {_string(e.content)}, '
                f'"line": {e.line}, "column": {e.column}, "end_line": {e.end_line}, '
                f'"end_column": {e.end_column}}}'
                for e in f.fix.edits
            ]
        )
        fix = (
            f'{{"applicability": "{f.fix.applicability}", '
            f'"message": {_string(f.fix.message)}, "edits": [{edits}]}}'
        )
    return (
        f'{{"path": {_string(unicode_safe(f.path))}, "line": {f.line}, "column": {f.column}, '
        f'"end_line": {f.end_line}, "end_column": {f.end_column}, "code": {_string(f.code)}, '
        f'"severity": {_string(str(f.severity))}, "message": {_string(f.message)}, '
        f'"endpoint": {endpoint}, "target": {_optional(f.target)}, "fix": {fix}}}'
    )


def _skipped(s: Skipped) -> dict[str, Any]:
    entry: dict[str, Any] = {"path": unicode_safe(s.path), "reason": unicode_safe(s.reason)}
    if s.internal:
        entry["internal_error"] = True  # apispec failed on the file: a bug, exit code 3
    if s.not_checked:
        entry["not_checked"] = True  # meant to be linted and not: the run fails
    return entry


def render(result: LintResult, view: View | None = None) -> str:
    """Pretty enough to read (one finding per line) and fast for 100,000 findings.

    json.dumps with `indent` falls back to the pure-Python encoder, several times
    slower; each finding is encoded compactly by the C encoder instead.
    """
    summary = {
        "files": result.files,
        "targets": list(result.targets),
        "findings": len(result.findings),
        "by_severity": dict(sorted(Counter(str(f.severity) for f in result.findings).items())),
        "by_rule": dict(sorted(Counter(f.code for f in result.findings).items())),
        "skipped": len(result.skipped),
        "not_checked": sum(s.not_checked for s in result.skipped),
        "ignored": len(result.ignored),
        "target_default": result.target_default,
        "upgrade_from": result.upgrade_from,
    }
    endpoints: dict[tuple[str, str] | None, str] = {}
    findings = ",\n".join(
        ["    " + _encoded(f, result.endpoints, endpoints) for f in result.findings]
    )
    skipped = ",\n".join("    " + json.dumps(_skipped(s)) for s in result.skipped)
    return (
        '{\n  "findings": ['
        + (f"\n{findings}\n  " if findings else "")
        + '],\n  "skipped": ['
        + (f"\n{skipped}\n  " if skipped else "")
        + f'],\n  "summary": {json.dumps(summary)}\n}}\n'
    )
