"""Issue 22, point 1: what a params mapping may hold besides `key: value` entries.

A comment, a spread (`**opts`, `...opts`, `...$defaults`), a shorthand entry, a
bracketed key (`"page[size]"`) or a key that is not a string once made extraction
crash in every language but JavaScript (`'PythonDialect' object has no attribute
'shorthand_keys'`): the file was skipped and the run exited 3. Each file here is such
a call; it must be found and its other entries linted (`limit=5000`: API008).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.hostile.helpers import apispec_run, clean, tree_bytes

BASE = "https://prtg.example.com:1616/api/v2"

# (file name, text, line of `5000`): each mapping holds a comment and one other odd entry.
CASES = [
    (
        "comment_and_spread.py",
        "import requests\n"
        "opts = {}\n"
        f'requests.get("{BASE}/experimental/devices", params={{\n'
        "    # the page size\n"
        "    **opts,\n"
        '    "page[size]": 10, 3: "x",\n'
        '    "limit": 5000,  # too many\n'
        "})\n",
        7,
    ),
    (
        "splat.rb",
        "require 'faraday'\n"
        f'conn = Faraday.new(url: "{BASE}")\n'
        "opts = {}\n"
        'conn.get("experimental/devices", {\n'
        "  # the page size\n"
        '  **opts, "page[size]" => 10, 3 => 4,\n'
        "  limit: 5000 })\n",
        7,
    ),
    (
        "spread.php",
        "<?php\n"
        f"$client = new GuzzleHttp\\Client(['base_uri' => '{BASE}/']);\n"
        "$defaults = [];\n"
        "$client->get('experimental/devices', ['query' => [\n"
        "    // the page size\n"
        "    ...$defaults, 'page[size]' => 10, 3 => 4, # more\n"
        "    'limit' => 5000]]);\n",
        7,
    ),
    (
        "comment.go",
        "package main\n\n"
        'import "github.com/go-resty/resty/v2"\n\n'
        "func main() {\n"
        f'\tc := resty.New().SetBaseURL("{BASE}")\n'
        "\tc.R().SetQueryParams(map[string]string{\n"
        "\t\t// the page size\n"
        '\t\t"page[size]": "10", /* more */ "limit": "5000",\n'
        '\t}).Get("/experimental/devices")\n'
        "}\n",
        9,
    ),
    (
        "comment.ps1",
        f'$Base = "{BASE}"\n'
        'Invoke-RestMethod -Uri "$Base/experimental/devices" -Method Get -Body @{\n'
        "    # the page size\n"
        "    'page[size]' = 10 <# more #>\n"
        "    limit = 5000\n"
        "}\n",
        5,
    ),
    (
        "shorthand.js",
        "const opts = {};\n"
        "const offset = 10;\n"
        f'axios.get("{BASE}/experimental/devices", {{ params: {{\n'
        "  // the page size\n"
        '  ...opts, offset, ["page[size]"]: 10, 3: 4,\n'
        "  limit: 5000,\n"
        "}}});\n",
        6,
    ),
    (
        "initializer.cs",
        "using Flurl.Http;\n"
        "class C {\n"
        "    async void F() {\n"
        f'        var r = await "{BASE}/experimental/devices".SetQueryParams(new {{\n'
        "            // the page size\n"
        "            limit = 5000, /* more */\n"
        "        }).GetAsync();\n"
        "    }\n"
        "}\n",
        6,
    ),
]


@pytest.mark.parametrize(("name", "text", "line"), CASES, ids=[c[0] for c in CASES])
def test_a_mapping_with_comments_spreads_and_odd_keys_is_linted(
    tmp_path: Path, name: str, text: str, line: int
) -> None:
    (tmp_path / name).write_text(text)
    before = tree_bytes(tmp_path)
    result = clean(
        apispec_run("lint", "--format", "json", "--fail-on", "warning", name, cwd=tmp_path), 1
    )
    report = json.loads(result.out)
    assert report["skipped"] == [], report["skipped"]
    found = [(f["code"], f["line"]) for f in report["findings"]]
    # the tree path also names the odd keys unknown parameters (API011): true,
    # the server ignores them; the text path leaves keys it cannot read alone
    assert [f for f in found if f[0] != "API011"] == [("API008", line)], found
    assert all(f[1] <= line for f in found if f[0] == "API011"), found
    assert result.err == ""
    assert tree_bytes(tmp_path) == before
