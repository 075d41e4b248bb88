"""Baselines: accept today's findings in a legacy repository, fail only on new ones.

A baseline stores fingerprints, not line numbers: the hash of rule, path,
target, the finding line's text with whitespace normalised, and the occurrence
index among identical lines of that file. Moving code up or down, or editing
other lines, keeps every fingerprint.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from apispec.lint.finding import Finding
from apispec.support.exceptions import UsageError
from apispec.support.inputs import InputError, read_input_text, too_deep
from apispec.support.outputs import write_atomic

VERSION = 1


def write_baseline(path: Path, findings: list[Finding]) -> None:
    entries = [
        {"fingerprint": f.fingerprint, "code": f.code, "path": f.path, "target": f.target}
        for f in sorted(findings, key=lambda f: f.sort_key)
    ]
    document = {"apispec_baseline": VERSION, "findings": entries}
    write_atomic(path, json.dumps(document, indent=2) + "\n")


def read_baseline(path: Path) -> Counter[str]:
    """Fingerprints in the baseline, with how often each occurs."""
    try:
        text = read_input_text(path, expected="a baseline file")
    except InputError as exc:
        raise UsageError(f"cannot read baseline {path}: {exc.reason}") from None
    try:
        document = json.loads(text)
    except json.JSONDecodeError as exc:
        raise UsageError(f"{path}: not a baseline file (invalid JSON: {exc.msg})") from None
    except RecursionError:
        raise too_deep(str(path)) from None
    if not isinstance(document, dict) or document.get("apispec_baseline") != VERSION:
        raise UsageError(f"{path}: not an apispec baseline (written by --write-baseline)")
    try:
        return Counter(str(e["fingerprint"]) for e in document["findings"])
    except (KeyError, TypeError):
        raise UsageError(f"{path}: malformed baseline entry") from None


def new_findings(findings: list[Finding], baseline: Counter[str]) -> list[Finding]:
    """The findings the baseline does not account for."""
    remaining = Counter(baseline)
    fresh = []
    for f in findings:
        if remaining[f.fingerprint] > 0:
            remaining[f.fingerprint] -= 1
        else:
            fresh.append(f)
    return fresh
