"""`--format junit`: one test case per finding, grouped in a test suite per file."""

from __future__ import annotations

from collections import defaultdict
from xml.etree import ElementTree as ET

from apispec.lint.engine import LintResult
from apispec.lint.report.grouped import Grouped, grouped
from apispec.lint.report.view import View
from apispec.support.printable import printable


def render(result: LintResult, view: View | None = None) -> str:
    per_file: dict[str, list[Grouped]] = defaultdict(list)
    groups = grouped(result)
    for group in groups:
        per_file[printable(group.finding.path)].append(group)  # XML 1.0 cannot hold every name
    unchecked = [s for s in result.skipped if s.not_checked]
    root = ET.Element(
        "testsuites",
        name="apispec lint",
        tests=str(max(len(groups) + len(unchecked), 1)),
        failures=str(len(groups)),
        errors=str(len(unchecked)),
    )
    for s in unchecked:  # a file nobody checked is an error of the run, not a pass
        path = printable(s.path)
        suite = ET.SubElement(root, "testsuite", name=path, tests="1", failures="0", errors="1")
        case = ET.SubElement(suite, "testcase", name="not checked", classname=path, file=path)
        error = ET.SubElement(case, "error", message=printable(s.reason), type="not-checked")
        error.text = f"{path}: {printable(s.reason)}"
    if not per_file and not unchecked:
        suite = ET.SubElement(root, "testsuite", name="apispec lint", tests="1", failures="0")
        ET.SubElement(suite, "testcase", name="apispec lint", classname="apispec")
    for path, found in per_file.items():
        suite = ET.SubElement(
            root, "testsuite", name=path, tests=str(len(found)), failures=str(len(found))
        )
        for f, targets in found:
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
            if targets:
                failure.text += f" (target{'s' if len(targets) > 1 else ''} {', '.join(targets)})"
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"
