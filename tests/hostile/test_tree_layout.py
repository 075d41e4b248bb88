"""Issue 22, acceptance 2, on the tree path: layout changes nothing a language's parser reads.

Python and C# are read by tree-sitter. Two layouts once lost calls or findings there
(found by the metamorphic pass, tests/test_lint_metamorphic.py):
- Python continuation lines inside brackets at a smaller indentation than their
  statement (`def objects(self) -> list[` then `dict]:` at column 0), which Python
  allows and tree-sitter-python reads as a dedent (its issue #256): the class around the
  call was lost, and with it what `self.base` is;
- a C# comment between `=>` or `=` and the value (`=> // why`), which a query's `(_)`
  took for the value.
Each file here is linted as written and must report the same as without the layout.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.hostile.helpers import apispec_run, clean, tree_bytes

_PY_CLASS = (
    "import requests\n\n\n"
    "class Inventory:\n"
    "    def __init__(self, host: str) -> None:\n"
    '        self.base = f"https://{host}:1616/api/v2/"\n\n'
    "    def objects(self) -> list[\n"
    "dict]:  # the annotation's second line at column 0\n"
    '        return requests.get(self.base + "objects", params={"take": 5}).json()\n'
)
_PY_CALL = (
    "import requests\n\n"
    'BASE = "https://prtg.example.com:1616/api/v2"\n\n\n'
    "def sensors():\n"
    "    if True:\n"
    '        return requests.get(BASE + "/experimental/sensors", params={"limit":\n'
    "5000})  # the value at column 0\n"
)
_CS_ARROW = (
    "public static class SensorFilters\n{\n"
    "    public static string DownUnder(string parentId) =>  // the group's sensors\n"
    '        string.Format("parentid = \\"{0}\\" AND status = down", parentId);\n}\n\n'
    "public sealed class SensorReport(HttpClient http)\n{\n"
    "    public async Task<string> DownSensorsAsync(string groupId)\n    {\n"
    "        var f = SensorFilters.DownUnder(groupId);\n"
    "        return await http.GetStringAsync(\n"
    '            "https://prtg:1616/api/v2/experimental/sensors?filter=" + f);\n'
    "    }\n}\n"
)
_CS_ASSIGN = (
    "public sealed class R(HttpClient http)\n{\n"
    "    public async Task<string> D()\n    {\n"
    "        var u = // the sensors that are down\n"
    '            "https://prtg:1616/api/v2/experimental/sensors?filter=status = Down";\n'
    "        return await http.GetStringAsync(u);\n    }\n}\n"
)

# (file, text, the (line, code) of every finding)
CASES = [
    ("inventory.py", _PY_CLASS, [(10, "API002"), (10, "API011")]),
    ("sensors.py", _PY_CALL, [(9, "API008")]),
    ("Report.cs", _CS_ARROW, [(4, "API006")]),
    ("Assign.cs", _CS_ASSIGN, [(6, "API006")]),
]


@pytest.mark.parametrize(("name", "text", "expected"), CASES, ids=[c[0] for c in CASES])
def test_a_layout_the_language_allows_loses_no_finding(
    tmp_path: Path, name: str, text: str, expected: list[tuple[int, str]]
) -> None:
    (tmp_path / name).write_text(text)
    before = tree_bytes(tmp_path)
    result = clean(
        apispec_run("lint", "--format", "json", "--fail-on", "info", name, cwd=tmp_path), 1
    )
    report = json.loads(result.out)
    assert report["skipped"] == []
    assert sorted((f["line"], f["code"]) for f in report["findings"]) == expected
    assert result.err == ""
    assert tree_bytes(tmp_path) == before
