"""Query values built apart from the call (issue 12 points 2-5, 8).

Filters kept in variables, formatted, URL-encoded or returned by a function,
query maps built over several statements, and calls nested in interpolation
fields: the linter follows them to the text and points where it is written.
"""

from __future__ import annotations

import pytest

from apispec.lint.config import Config
from apispec.lint.engine import Options, lint_text
from apispec.lint.extract import extract_references

NEWEST = Options(Config(), ("25.x.122",))


def _queries(text: str, name: str) -> list[tuple[int, str, list[tuple[str, str | None]]]]:
    return [
        (r.line, r.path, [(q.name, q.value) for q in r.query])
        for r in extract_references(text, name)
    ]


@pytest.mark.parametrize(
    ("name", "text", "filter_value"),
    [
        (
            "digest.py",
            'API = "https://prtg:1616/api/v2"\n'
            "def build_filter(pid):\n"
            "    return f'parentid = \"{pid}\" and status = Down'\n"
            "def down(http, gid):\n"
            "    flt = build_filter(gid)\n"
            '    return http.get(f"{API}/experimental/sensors?filter={quote(flt)}")\n',
            'parentid = "{pid}" and status = Down',
        ),
        (
            "report.ps1",
            "function Get-F { param([string]$P)\n"
            "    'parentid = \"{0}\" and status = Down' -f $P\n"
            "}\n"
            "$f = Get-F -P $id\n"
            'Invoke-RestMethod -Uri "https://prtg:1616/api/v2/experimental/sensors?filter=$([uri]::EscapeDataString($f))"\n',
            'parentid = "{0}" and status = Down',
        ),
        (
            "tile.ts",
            "// prtg\nfunction groupFilter(id: string): string { return `parentid = ${id}`; }\n"
            "const q = new URLSearchParams();\n"
            'q.set("filter", groupFilter(g));\n'
            "fetch(`${API}/experimental/sensors?${q}`);\n",
            "parentid = ${id}",
        ),
        (
            "sensors.go",
            "package p\n// prtg\n"
            'func filterFor(id string) string { return fmt.Sprintf("parentid = %s", id) }\n'
            'func list() { q := url.Values{}\n\tq.Set("filter", filterFor(d))\n'
            '\tc.get("/experimental/sensors?" + q.Encode()) }\n',
            "parentid = %s",
        ),
        (
            "health.sh",
            '#!/bin/sh\nAPI="https://prtg:1616/api/v2"\n'
            'pf() {\n  printf \'parentid = "%s" and status = Down\' "$1"\n}\n'
            'f=$(pf "$g")\n'
            "enc=$(jq -rn --arg f \"$f\" '$f|@uri')\n"
            'curl -s "$API/experimental/sensors?filter=${enc}"\n',
            'parentid = "%s" and status = Down',
        ),
    ],
)
def test_a_filter_is_followed_through_variables_functions_and_encoders(
    name: str, text: str, filter_value: str
) -> None:
    ((_, _, query),) = _queries(text, name)
    assert dict(query)["filter"] == filter_value


def test_the_finding_points_where_the_filter_text_is_written() -> None:
    text = (
        'API = "https://prtg:1616/api/v2"\n'
        "def tag_filter(tag):\n"
        "    return f'tags contains \"{tag}\"'\n"
        'query = urlencode({"filter": tag_filter(t), "limit": 5000})\n'
        'requests.get(API + "/experimental/sensors?" + query)\n'
    )
    found = [(f.line, f.column, f.code) for f in lint_text(text, "x.py", NEWEST)]
    # `tags` in the function's return, the limit in the mapping; the call itself is a
    # named successor (GET /experimental/sensors), which API003 does not report
    assert found == [(3, 14, "API006"), (4, 54, "API008")]


def test_a_query_map_built_over_statements_belongs_to_its_call_only() -> None:
    text = (
        'API = "https://prtg:1616/api/v2"\n'
        "params = {}\n"
        'params["filter"] = "status = down"\n'
        'params["sort"] = "name"\n'
        'requests.get(f"{API}/experimental/sensors", params=params)\n'
        'requests.get(f"{API}/experimental/devices", params={"sort_by": "name"})\n'
    )
    assert _queries(text, "x.py") == [
        (5, "/experimental/sensors", [("filter", "status = down"), ("sort", "name")]),
        (6, "/experimental/devices", [("sort_by", "name")]),
    ]


def test_powershell_hashtables_and_csharp_dictionaries_built_apart() -> None:
    ps = (
        "$base = 'https://prtg:1616/api/v2'\n"
        "$q = @{}\n$q['filter'] = 'type = probe'\n$q['take'] = 5\n"
        'Invoke-RestMethod -Uri "$base/experimental/probes" -Body $q\n'
    )
    assert _queries(ps, "x.ps1") == [
        (5, "/experimental/probes", [("filter", "type = probe"), ("take", "5")])
    ]
    cs = (
        "// prtg\npublic Task<T> GetAsync<T>(string path, IDictionary<string, string>? query = null) =>\n"
        '    _http.GetAsync(QueryHelpers.AddQueryString("https://prtg:1616/api/v2/" + path, query));\n'
        'var query = new Dictionary<string, string> { ["filter"] = "status = down", ["sort"] = "x" };\n'
        'var s = await GetAsync<List<S>>("experimental/sensors", query);\n'
    )
    assert _queries(cs, "X.cs") == [
        (5, "/experimental/sensors", [("filter", "status = down"), ("sort", "x")])
    ]


def test_shell_argument_arrays_are_a_commands_options() -> None:
    text = (
        '#!/bin/sh\nAPI="https://prtg:1616/api/v2"\n'
        "q=(--data-urlencode 'filter=status = down' --data-urlencode 'includes=x')\n"
        'curl -G "${q[@]}" "$API/experimental/groups"\n'
    )
    assert _queries(text, "x.sh") == [
        (4, "/experimental/groups", [("filter", "status = down"), ("includes", "x")])
    ]


@pytest.mark.parametrize(
    ("name", "text", "expected"),
    [
        (
            "x.py",
            'API = "https://prtg:1616/api/v2"\nx = f"{http.get(f\'{API}/version\').json()}"\n',
            2,
        ),
        (
            "x.ts",
            "// prtg\nconst n = `${(await fetch(`${API}/experimental/groups`)).length}`;\n",
            2,
        ),
        (
            "x.ps1",
            "$B = 'https://prtg:1616/api/v2'\n"
            'Write-Host "n: $((Invoke-RestMethod -Uri "$B/experimental/devices").Count)"\n',
            2,
        ),
        (
            "X.cs",
            '// prtg\nvar s = $"{(await prtg.GetAsync<Device>($"https://prtg:1616/api/v2/devices/{id}"))?.Name}";\n',
            2,
        ),
    ],
)
def test_calls_nested_in_interpolation_fields_are_found(
    name: str, text: str, expected: int
) -> None:
    assert [r.line for r in extract_references(text, name)] == [expected]
