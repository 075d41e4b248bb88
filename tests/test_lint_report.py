"""Reporters: each output format has the documented shape."""

from __future__ import annotations

import json
import re
from xml.etree import ElementTree as ET

import pytest

from apispec.lint.engine import LintResult
from apispec.lint.finding import Applicability, Edit, Finding, Fix, Severity, Skipped
from apispec.lint.report import render
from apispec.lint.report.text import statistics


@pytest.fixture
def result() -> LintResult:
    fix = Fix(
        "replace with GET /sensors/{id}", Applicability.SAFE, (Edit(40, 49, "", 3, 30, 3, 39),)
    )
    findings = [
        Finding(
            "scripts/a, b.py",
            3,
            22,
            3,
            48,
            "API002",
            Severity.WARNING,
            "GET /sensors/{id}/overview is deprecated since 24.3.100 (no removal release named); use GET /sensors/{id}",
            ("GET", "/sensors/{id}/overview"),
            "25.x.122",
            fix,
            fingerprint="f" * 32,
        ),
        Finding(
            "scripts/a, b.py",
            9,
            5,
            9,
            30,
            "API006",
            Severity.ERROR,
            "invalid filter for GET /experimental/sensors: FLT004 value of the wrong type\n100%",
            ("GET", "/experimental/sensors"),
            None,
            fingerprint="e" * 32,
        ),
        Finding(
            "tools/x.ps1",
            1,
            1,
            1,
            8,
            "API004",
            Severity.INFO,
            "/health is not in the registry",
            None,
            None,
            fingerprint="d" * 32,
        ),
    ]
    skipped = [Skipped("big.log", "larger than 5 MB (6 MB)")]
    endpoints = {
        ("GET", "/sensors/{id}/overview"): {
            "method": "GET",
            "path": "/sensors/{id}/overview",
            "maturity": "deprecated",
            "since": "24.3.100",
            "deprecated_in": "24.3.100",
            "removed_in": None,
            "successor": "GET /sensors/{id}",
        }
    }
    return LintResult(findings, skipped, 4, ("25.x.122",), endpoints=endpoints)


def test_concise_lines_and_grouped_summary(result: LintResult) -> None:
    out = render("concise", result).splitlines()
    assert out[0].startswith(
        "scripts/a, b.py:3:22: API002 [warning] [*] GET /sensors/{id}/overview is deprecated"
    )
    assert out[1] == (
        "scripts/a, b.py:9:5: API006 [error] invalid filter for GET /experimental/sensors: "
        "FLT004 value of the wrong type 100%"  # one finding, one line
    )
    assert out[2] == "tools/x.ps1:1:1: API004 [info] /health is not in the registry"
    assert out[4:] == [
        "Found 3 findings (1 error, 1 warning, 1 info) in 2 files:",
        "  API002      1  deprecated-endpoint",
        "  API004      1  unknown-path",
        "  API006      1  invalid-filter",
        "[*] 1 finding fixable with --fix.",
        "Checked 4 files against 25.x.122.",
        "Skipped 1 file:",
        "  big.log: larger than 5 MB (6 MB)",
    ]


def test_text_names_the_targets_when_there_are_several(result: LintResult) -> None:
    result.targets = ("24.3.100", "25.x.122")
    twice = result.findings[0].with_(target="24.3.100")
    result.findings.insert(0, twice)
    out = render("concise", result).splitlines()
    assert out[0].endswith("use GET /sensors/{id} [24.3.100, 25.x.122]")  # once, both targets
    assert not out[1].endswith("]")  # a finding that does not depend on the release
    assert "Found 3 findings (1 error, 1 warning, 1 info) in 2 files:" in out


def test_clean_text() -> None:
    text = render("full", LintResult([], [], 2, ("24.3.100",)))
    assert text == "No findings.\nChecked 2 files against 24.3.100.\n"


def test_statistics_per_rule_and_endpoint(result: LintResult) -> None:
    text = statistics(result)
    assert "       1  API002  deprecated-endpoint (warning)" in text
    assert "       1  GET /sensors/{id}/overview" in text
    assert "       1  (no registry endpoint)" in text


def test_json_has_exactly_the_documented_fields(result: LintResult) -> None:
    doc = json.loads(render("json", result))
    assert set(doc) == {"findings", "skipped", "summary"}
    first = doc["findings"][0]
    assert list(first) == [
        "path",
        "line",
        "column",
        "end_line",
        "end_column",
        "code",
        "severity",
        "message",
        "endpoint",
        "target",
        "fix",
    ]
    assert first["endpoint"] == {
        "method": "GET",
        "path": "/sensors/{id}/overview",
        "maturity": "deprecated",
        "since": "24.3.100",
        "deprecated_in": "24.3.100",
        "removed_in": None,
        "successor": "GET /sensors/{id}",
    }
    assert doc["findings"][1]["endpoint"] == {  # a key the run found no facts for
        "method": "GET",
        "path": "/experimental/sensors",
        "maturity": None,
        "since": None,
        "deprecated_in": None,
        "removed_in": None,
        "successor": None,
    }
    assert first["fix"] == {
        "applicability": "safe",
        "message": "replace with GET /sensors/{id}",
        "edits": [
            {
                "start": 40,
                "end": 49,
                "content": "",
                "line": 3,
                "column": 30,
                "end_line": 3,
                "end_column": 39,
            }
        ],
    }
    assert list(first["fix"]) == ["applicability", "message", "edits"]
    assert doc["findings"][2]["endpoint"] is None and doc["findings"][2]["fix"] is None
    assert doc["skipped"] == [{"path": "big.log", "reason": "larger than 5 MB (6 MB)"}]
    assert doc["summary"]["by_severity"] == {"error": 1, "info": 1, "warning": 1}
    assert doc["summary"]["files"] == 4


def _finding_dict(f: Finding, facts: dict[tuple[str, str], dict[str, str | None]]) -> dict:
    """A finding as the JSON report shows it, built as a dict (the report writes it by hand)."""
    from apispec.lint.report.json import endpoint_dict
    from apispec.support.printable import unicode_safe

    fix = None
    if f.fix is not None:
        edits = [
            {
                "start": e.start,
                "end": e.end,
                "content": e.content,
                "line": e.line,
                "column": e.column,
                "end_line": e.end_line,
                "end_column": e.end_column,
            }
            for e in f.fix.edits
        ]
        fix = {"applicability": str(f.fix.applicability), "message": f.fix.message, "edits": edits}
    return {
        "path": unicode_safe(f.path),
        "line": f.line,
        "column": f.column,
        "end_line": f.end_line,
        "end_column": f.end_column,
        "code": f.code,
        "severity": str(f.severity),
        "message": f.message,
        "endpoint": endpoint_dict(f, facts),
        "target": f.target,
        "fix": fix,
    }


def test_json_lines_are_what_json_dumps_writes(result: LintResult) -> None:
    """The report writes findings by hand for speed; each line must be json.dumps's."""

    odd = Finding(
        'x/\u00e9 "q"\\.py',
        2,
        1,
        2,
        9,
        "API002",
        Severity.WARNING,
        "tab\there \u2028 \x00 caf\u00e9 \U0001f600",
        ("DELETE", "/devices/{id}"),
        "24.3.100",
        Fix(
            "f", Applicability.UNSAFE, (Edit(1, 2, '"/', 1, 2, 1, 3), Edit(5, 5, "a/", 1, 6, 1, 6))
        ),
    )
    findings = [*result.findings, odd, odd.with_(fix=Fix("none", Applicability.DISPLAY_ONLY, ()))]
    report = LintResult(findings, [], 1, (), endpoints=result.endpoints)
    lines = render("json", report).splitlines()[2 : 2 + len(findings)]
    assert [line.strip().rstrip(",") for line in lines] == [
        json.dumps(_finding_dict(f, result.endpoints)) for f in findings
    ]


# GitHub's documented workflow command: ::LEVEL file=F,line=L,col=C,endLine=..,endColumn=..,title=T::MESSAGE
GITHUB = re.compile(
    r"::(error|warning|notice) file=([^,:]*),line=(\d+),col=(\d+),endLine=(\d+),endColumn=(\d+),title=([^,:]*)::(.*)"
)


def test_github_workflow_commands_escape_properties_and_data(result: LintResult) -> None:
    lines = render("github", result).splitlines()
    assert len(lines) == 3
    parsed = [GITHUB.fullmatch(line) for line in lines]
    assert all(parsed)
    assert [p.group(1) for p in parsed] == ["warning", "error", "notice"]
    assert parsed[0].group(2) == "scripts/a%2C b.py"  # ',' would end the property
    assert parsed[1].group(8).endswith("wrong type%0A100%25")  # newline and % escaped


def test_gitlab_code_quality_shape(result: LintResult) -> None:
    issues = json.loads(render("gitlab", result))
    assert isinstance(issues, list) and len(issues) == 3
    for issue in issues:  # the fields GitLab's Code Quality report requires
        assert isinstance(issue["description"], str) and issue["description"]
        assert isinstance(issue["check_name"], str)
        assert re.fullmatch(r"[0-9a-f]{32}", issue["fingerprint"])
        assert issue["severity"] in {"info", "minor", "major", "critical", "blocker"}
        assert isinstance(issue["location"]["path"], str)
        assert isinstance(issue["location"]["lines"]["begin"], int)
    assert [i["severity"] for i in issues] == ["minor", "major", "info"]
    assert len({i["fingerprint"] for i in issues}) == 3


def test_junit_has_a_failing_case_per_finding(result: LintResult) -> None:
    root = ET.fromstring(render("junit", result))
    assert root.tag == "testsuites" and root.get("failures") == "3"
    suites = root.findall("testsuite")
    assert [s.get("name") for s in suites] == ["scripts/a, b.py", "tools/x.ps1"]
    cases = suites[0].findall("testcase")
    assert cases[0].get("name") == "API002 at 3:22"
    assert cases[0].find("failure").get("type") == "API002"


def test_junit_without_findings_is_one_passing_case() -> None:
    root = ET.fromstring(render("junit", LintResult([], [], 1, ("24.3.100",))))
    assert root.get("failures") == "0"
    assert root.find("testsuite/testcase").find("failure") is None
