"""Issue 22, points 5-7: inputs that made the linter or its report quadratic.

Each test lints, in a real `apispec lint` process, an input at the size where the code
before the fix took 90 s or more of CPU (measured in one process, noted per test). A
file over the time budget is not checked, which fails the run (exit 2): so these
tests assert the report and the exit code, never a time. `benchmarks/hostile.py`
measures the growth of the same inputs at 1x, 4x and 16x.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.hostile.helpers import apispec_run, clean, tree_bytes

URL = "https://prtg.example.com:1616/api/v2/experimental/objects"
WORDS = "a" * 64_000  # a long run of word characters (minified code, a base64 blob)

# A file that names a test double ("mock", "fake", "responses", msw's "rest"), one call,
# and a long word run: the pattern that finds variables bound to a mock tried the run
# from each of its characters (about 100 s of CPU for 64 KB; 15.8x per 4x).
DOUBLES = [
    ("client.js", f'import {{ rest }} from "msw";\nconst m = mock();\nfetch("{URL}");\n'),
    ("client.ts", f'// fake responses\nfetch("{URL}");\n'),
    ("Client.cs", f'var fake = new Mock<HttpMessageHandler>();\nawait http.GetAsync("{URL}");\n'),
    ("client.rb", f'require "webmock" # mock\nNet::HTTP.get(URI("{URL}"))\n'),
    ("client.py", f'import responses\nimport mock\nrequests.get("{URL}")\n'),
]


@pytest.mark.parametrize(("name", "text"), DOUBLES, ids=[d[0] for d in DOUBLES])
def test_test_double_names_and_a_long_word_run(tmp_path: Path, name: str, text: str) -> None:
    (tmp_path / name).write_text(text + WORDS + "\n")
    before = tree_bytes(tmp_path)
    result = clean(apispec_run("lint", "--format=json", "--fail-on=info", name, cwd=tmp_path), 1)
    report = json.loads(result.out)
    assert report["skipped"] == [] and report["summary"]["by_rule"] == {"API003": 1}
    assert result.err == "" and tree_bytes(tmp_path) == before


def test_http_file_of_requests_without_blank_lines(tmp_path: Path) -> None:
    """Each request searched for the blank line after it to the end of the file: a 2.4 MB
    file of requests without blank lines took 94 s. Each request keeps its own header."""
    requests = 30_000
    (tmp_path / "calls.http").write_text(
        "".join(f"GET {URL}?offset={i}\nAuthorization: Token t{i}\n" for i in range(requests))
    )
    result = clean(apispec_run("lint", "--format=json", "calls.http", cwd=tmp_path), 1)
    report = json.loads(result.out)
    assert report["skipped"] == [] and result.err == ""
    assert report["summary"]["by_rule"] == {"API003": requests, "API009": requests}
    headers = [f["line"] for f in report["findings"] if f["code"] == "API009"]
    assert headers == list(range(2, 2 * requests + 1, 2))  # each on its own request's header


def test_full_report_of_one_line_with_20000_findings(tmp_path: Path) -> None:
    """The `full` report laid out the whole line for each finding on it: an 80 KB URL with
    20,000 query parameters took over 100 s to print (JSON: 0.5 s)."""
    count = 20_000
    query = "&".join(f"p{i}=1" for i in range(count))
    (tmp_path / "c.py").write_text(
        f'import requests\nBASE = "https://prtg.example.com:1616/api/v2"\n'
        f'requests.get(f"{{BASE}}/experimental/devices?{query}")\n'
    )
    result = clean(apispec_run("lint", "--fail-on=warning", "c.py", cwd=tmp_path), 1)
    assert result.err == ""
    assert f"Found {count} findings ({count} warnings) in 1 file:" in result.out
    blocks = result.out.split("\n\n")
    assert blocks[0].splitlines()[0].startswith("c.py:3:47: API011 [warning] unknown query")
    # each block shows the line cut around its own parameter, one screen wide
    last = blocks[count - 1].splitlines()
    assert last[0].startswith(f"c.py:3:{43 + len(query)}: API011")
    assert last[2].startswith("3 | ...") and last[2].endswith(f'p{count - 1}=1")')
