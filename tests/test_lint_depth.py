"""Language depth (issue 18): query values and filters where each language's clients take them.

Fixtures under tests/fixtures/lint/depth/ hold filters joined from parts
(`" AND ".join`, `string.Join`, `strings.Join`, `.join(" OR ")`, `-join`),
query setters of request builders (RestSharp, Flurl, resty), a query set on
a URL apart (`url.searchParams.set`, `u.RawQuery = q.Encode()`), splatted
PowerShell hashtables and switch statements, notebook shell lines and an
Ansible filter in a Jinja constant. The rows pin what extraction reads; the
findings test runs the CLI on the folder and checks where each points.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from apispec.lint.extract import extract_references

FIXTURES = Path(__file__).parent / "fixtures" / "lint" / "depth"

# file: [(line, method, path, {query name: value})]
QUERIES: dict[str, list[tuple[int, str | None, str, dict[str, str | None]]]] = {
    "filters.py": [
        (
            11,
            "GET",
            "/experimental/sensors",
            {"filter": 'status = down AND basic.tags contains "core"'},
        ),
        # each generated element is the f-string the generator yields (as in filters.ts)
        (16, "GET", "/experimental/devices", {"filter": 'name = "{n}" or name = "{n}"'}),
        (24, "GET", "/objects", {"take": "5"}),  # self.base ends in /api/v2/: + "objects"
    ],
    "Filters.cs": [
        (14, "GET", "/experimental/sensors", {"filter": 'parentid = "{id}" AND status = down'}),
        (15, "GET", "/experimental/devices", {"take": "10"}),  # .AddQueryParameter(...)
        (18, "GET", "/experimental/groups", {"filter": "name contains Branch", "limit": "200"}),
    ],
    "filters.ts": [
        # { params: { filter } }: each mapped element is the template the map returns
        (
            8,
            "GET",
            "/experimental/sensors",
            {"filter": 'basic.tags contains "${t}" OR basic.tags contains "${t}"'},
        ),
        (
            12,
            "GET",  # fetch(url): fetch's default method
            "/experimental/objects",
            {"filter": 'parentid = "${parentId}"', "limit": "4000"},
        ),
    ],
    "filters.go": [
        (
            15,
            "GET",
            "/experimental/devices",
            {"filter": "status = down AND favorite = true", "sort": "name"},
        ),
        (16, "GET", "/experimental/channels", {"filter_objid": "0"}),
    ],
    "Filters.ps1": [
        (5, "GET", "/experimental/sensors", {"filter": "status = down AND parentid = 2048"}),
        (9, "GET", "/experimental/channels", {"filter": "status = down", "take": "10"}),
        (15, "GET", "/experimental/objects", {"filter": "type = sensor AND status = down"}),
    ],
    "Remove-Stale.ps1": [
        (7, "DELETE", "/experimental/probes/{}", {}),  # $path = switch ... { 'probe' { "..." } }
        (8, "DELETE", "/experimental/sensors/{}", {}),
    ],
    "capacity.ipynb": [
        (37, "GET", "/experimental/license", {}),  # !curl in a code cell (curl's default GET)
        (47, "DELETE", "/experimental/devices/{}", {}),  # a %%bash cell
        (56, "GET", "/experimental/groups", {}),
    ],
    "audit.yml": [
        (5, None, "/experimental/sensors", {"filter": "status = Down AND favorite = true"}),
        (13, None, "/experimental/probes", {}),  # a vars list the task loops over
        (14, None, "/devices", {}),
        (26, "POST", "/experimental/devices/{}/move", {}),  # loop items take the task's method
        (27, "POST", "/experimental/devices/{}/move", {}),
    ],
}


@pytest.mark.parametrize("name", sorted(QUERIES))
def test_query_values_each_language_reads(name: str) -> None:
    text = (FIXTURES / name).read_text(encoding="utf-8")
    found = [
        (r.line, r.method, r.path, {q.name: q.value for q in r.query})
        for r in extract_references(text, name)
    ]
    assert found == QUERIES[name]


def test_every_fixture_is_pinned() -> None:
    assert {p.name for p in FIXTURES.iterdir()} == set(QUERIES)


def test_findings_point_at_the_part_that_is_wrong(cli) -> None:
    done = cli("lint", "--format", "json", "--target", "25.x.122", str(FIXTURES))
    assert done.code == 1, done.err
    found = {
        (Path(f["path"]).name, f["line"], f["column"], f["code"])
        for f in json.loads(done.out)["findings"]
    }
    for expected in [
        ("filters.py", 10, 13, "API006"),  # the " AND " of " AND ".join(clauses)
        ("Filters.cs", 13, 36, "API006"),  # the " AND " of string.Join
        ("filters.ts", 7, 71, "API006"),  # the OR of .join(" OR ")
        ("filters.go", 13, 88, "API006"),  # the " AND " of strings.Join
        (
            "filters.go",
            18,
            25,
            "API011",
        ),  # q.Set("filter_objid", ...) before u.RawQuery = q.Encode()
        ("Filters.ps1", 4, 28, "API006"),  # the ' AND ' of -join
        ("Filters.ps1", 7, 46, "API011"),  # take in the hashtable splatted as Body
        ("capacity.ipynb", 20, 47, "API010"),  # a literal fallback of os.environ.get
        ("audit.yml", 5, 93, "API006"),  # AND inside {{ '...' | urlencode }}
    ]:
        assert expected in found, expected
