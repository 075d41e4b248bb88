"""`--format junit`: one test case per finding, grouped in a test suite per file."""

from __future__ import annotations

from collections import defaultdict
from xml.etree import ElementTree as ET

from apispec.lint.engine import LintResult
from apispec.lint.finding import Finding
from apispec.printable import printable


def render(result: LintResult) -> str:
    per_file: dict[str, list[Finding]] = defaultdict(list)
    for f in result.findings:
        per_file[printable(f.path)].append(f)  # XML 1.0 cannot hold every file name
    root = ET.Element(
        "testsuites",
        name="apispec lint",
        tests=str(max(len(result.findings), 1)),
        failures=str(len(result.findings)),
    )
    if not per_file:
        suite = ET.SubElement(root, "testsuite", name="apispec lint", tests="1", failures="0")
        ET.SubElement(suite, "testcase", name="apispec lint", classname="apispec")
    for path, findings in per_file.items():
        suite = ET.SubElement(
            root, "testsuite", name=path, tests=str(len(findings)), failures=str(len(findings))
        )
        for f in findings:
            case = ET.SubElement(
                suite,
                "testcase",
                name=f"{f.code} at {f.line}:{f.column}",
                classname=path,
                file=path,
                line=str(f.line),
            )
            message = printable(f.message)
            failure = ET.SubElement(case, "failure", message=message, type=f.code)
            failure.text = f"{path}:{f.line}:{f.column}: {f.code} [{f.severity}] {message}"
            if f.target:
                failure.text += f" (target {f.target})"
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"
