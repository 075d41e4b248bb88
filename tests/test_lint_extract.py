"""Extraction per language: which calls are found, where, with which method and path.

Each fixture under tests/fixtures/lint/<language>/ is a realistic client written
the ways REAL-WORLD.md says people write this API's calls (full URLs, paths
relative to a /api/v2 base, the script's own helpers, format functions,
concatenation, paths kept in data). Rows are (line, column, method, path with
`{}` for each interpolation); method None means the code does not show it.
The negative corpus must yield nothing at all.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from apispec.lint.config import Config
from apispec.lint.engine import Options, lint_text
from apispec.lint.extract import extract_references, language_of
from apispec.registry.load import load_registry

FIXTURES = Path(__file__).parent / "fixtures" / "lint"
NEWEST = Options(Config(), (load_registry().newest_release.text,))  # the default target

EXPECTED: dict[str, list[tuple[int, int, str | None, str]]] = {
    "python/client.py": [
        (18, 23, "GET", "/experimental/probes"),  # _api("GET", "/experimental/probes")
        (19, 23, "POST", "/experimental/devices/{}/move"),  # "..%s/move" % id
        (20, 24, "GET", "/groups/{}"),  # "{}/groups/{}".format(BASE, 17)
        (21, 43, "GET", "/sensors/{}"),  # urljoin(BASE + "/", "sensors/4711")
        (23, 24, "DELETE", "/experimental/sensors/{}"),  # f-string
        (24, 28, "GET", "/experimental/sensors"),  # BASE + "...?" + query
        (26, 24, "GET", "/experimental/users"),  # paths kept in data
        (26, 56, "POST", "/experimental/groups/{}/group"),
    ],
    "powershell/Export-Prtg.ps1": [
        (
            14,
            40,
            "GET",
            "/experimental/groups",
        ),  # Invoke-PRTGRestMethod -Path, -Method defaults to Get
        (15, 30, "POST", "/experimental/groups/{}/group"),  # ... -Method Post
        (16, 48, "DELETE", "/experimental/devices/{}"),  # "$($groups[0].id)"
        (17, 46, "GET", "/groups/{}/overview"),  # ("..{0}.." -f $id), GET by default
        (18, 32, None, "/experimental/groups/{}/group"),  # $path = if ... else ...
        (18, 79, None, "/experimental/probes/{}/group"),
        (20, 33, "GET", "/experimental/sensors"),  # -Body $query hashtable
    ],
    "shell/calls.sh": [
        (7, 53, "PATCH", "/experimental/sensors/{}"),  # curl -X PATCH
        (8, 47, "DELETE", "/experimental/devices/{}"),  # wget --method=DELETE
        (9, 33, "DELETE", "/experimental/groups/{}"),  # httpie: http DELETE
        (10, 16, "GET", "/experimental/probes"),  # httpie: https GET
        (11, 25, "GET", "/experimental/sensors"),  # URL-encoded filter; curl's default GET
        (12, 74, "GET", "/experimental/devices"),  # curl --get --data-urlencode
    ],
    "javascript/client.ts": [
        (9, 35, "GET", "/experimental/devices"),  # fetch(url, { headers }): fetch's GET
        (14, 23, "DELETE", "/experimental/devices/{}"),
        (18, 28, "GET", "/sensors/{}/overview"),
        (23, 13, "POST", "/experimental/groups/{}/move"),
    ],
    "javascript/dashboard.js": [
        (6, 22, "DELETE", "/experimental/devices/{}"),  # fetch(url, {method: "DELETE"})
        (11, 30, "GET", "/experimental/channels"),  # URLSearchParams; fetch's default GET
        (14, 48, "GET", "/sensors/{}/overview"),  # axios.get(api + "/sensors/" + id + ...)
    ],
    "go/client.go": [
        (24, 48, "GET", "/experimental/sensors"),  # c.baseURL + "..?" + q.Encode()
        (32, 62, "DELETE", "/experimental/groups/{}"),  # http.MethodDelete, fmt.Sprintf
        (37, 33, "GET", "/experimental/timeseries/{}/{}"),
    ],
    "csharp/Client.cs": [
        (15, 60, "GET", "/experimental/devices"),  # BaseAddress ".../api/v2/" + relative
        (17, 76, "DELETE", "/experimental/sensors/{}"),  # $"..{id}"
        (21, 66, "PATCH", "/experimental/sensors/{}"),  # HttpMethod.Patch
        (27, 54, "GET", "/devices/{}/clone"),  # string.Format, Method.Get
    ],
    "java/Client.java": [
        (11, 58, "GET", "/experimental/probes"),
        (19, 46, "DELETE", "/experimental/probes/{}"),
        (26, 37, "PATCH", "/experimental/autodiscoveryjobs/{}"),
    ],
    "ruby/client.rb": [
        (8, 21, "GET", "/experimental/users"),
        (15, 21, "DELETE", "/experimental/autodiscoveryjobs/{}"),
        (20, 13, "GET", "/libraries"),
    ],
    "php/client.php": [
        (7, 30, "DELETE", "/experimental/devices/{}"),
        (15, 26, "GET", "/experimental/groups"),
        (20, 37, "GET", "/settings-lookups/{}"),
    ],
    "data/inventory.ipynb": [  # code cells only, positions in the notebook file
        (28, 38, "GET", "/experimental/devices"),
        (29, 39, "GET", "/devices/{}/overview"),
    ],
    "data/openapi.yaml": [  # one reference per method under a path key
        (8, 3, "GET", "/experimental/devices"),
        (11, 3, "GET", "/sensors/{}/overview"),
        (14, 3, "PATCH", "/experimental/sensors/{}"),
        (14, 3, "POST", "/experimental/sensors/{}"),
    ],
    "markdown/runbook.md": [  # fenced code only, never prose or indented blocks
        (8, 40, "DELETE", "/experimental/devices/{}"),
        (12, 22, "GET", "/sensors/{}/overview"),
        (17, 61, "GET", "/experimental/groups"),  # Invoke-RestMethod sends GET by default
    ],
}

# Findings the rules make of the new fixtures (the examples pin the others).
FINDINGS: dict[str, list[tuple[int, int, str]]] = {
    "python/client.py": [
        (19, 23, "API003"),
        (23, 24, "API003"),
        (26, 24, "API003"),
        (26, 56, "API003"),
    ],
    "powershell/Export-Prtg.ps1": [
        (15, 30, "API003"),
        (16, 48, "API003"),
        (17, 46, "API002"),
        (18, 32, "API003"),
        (18, 79, "API003"),
        (19, 30, "API006"),
        (19, 33, "API006"),
        (19, 47, "API011"),
    ],
    "shell/calls.sh": [
        (7, 53, "API003"),
        (8, 47, "API003"),
        (9, 33, "API003"),
        (11, 69, "API006"),  # inside the URL-encoded text
        (12, 56, "API006"),
        (12, 65, "API006"),
    ],
    "javascript/dashboard.js": [
        (6, 22, "API003"),
        (10, 83, "API011"),
        (14, 48, "API002"),
    ],
    "data/inventory.ipynb": [
        (28, 92, "API006"),
        (28, 95, "API006"),
        (29, 39, "API002"),
    ],
    "data/openapi.yaml": [
        (11, 3, "API002"),
        (14, 3, "API003"),
        (14, 3, "API007"),
    ],
    "markdown/runbook.md": [
        (8, 40, "API003"),
        (12, 22, "API002"),
        (17, 94, "API006"),
        (17, 97, "API006"),
    ],
}

# Every language issue 5 and REAL-WORLD.md name, and the fixture that covers it.
LANGUAGES = {
    "python": "python/client.py",
    "powershell": "powershell/Export-Prtg.ps1",
    "shell": "shell/calls.sh",
    "javascript": "javascript/dashboard.js",
    "go": "go/client.go",
    "csharp": "csharp/Client.cs",
    "java": "java/Client.java",
    "ruby": "ruby/client.rb",
    "php": "php/client.php",
    "yaml": "data/openapi.yaml",
    "notebook": "data/inventory.ipynb",
    "markdown": "markdown/runbook.md",
}


def references(relative: str) -> list[tuple[int, int, str | None, str]]:
    path = FIXTURES / relative
    refs = extract_references(path.read_text(encoding="utf-8"), path.name)
    return [(r.line, r.column, r.method, r.path) for r in refs]


@pytest.mark.parametrize("relative", sorted(EXPECTED))
def test_references_per_language(relative: str) -> None:
    assert references(relative) == EXPECTED[relative]


@pytest.mark.parametrize("relative", sorted(FINDINGS))
def test_findings_per_fixture(relative: str) -> None:
    path = FIXTURES / relative
    options = NEWEST
    found = lint_text(path.read_text(encoding="utf-8"), relative, options)
    assert [(f.line, f.column, f.code) for f in found] == FINDINGS[relative]


def test_every_language_has_a_pinned_fixture() -> None:
    for language, relative in LANGUAGES.items():
        assert language_of(relative) == language
        assert EXPECTED[relative], relative
    # JSON (Postman) and Ansible YAML are pinned in tests/test_lint_examples.py.
    assert language_of("x.postman_collection.json") == "json"


def test_interpolations_become_parameters_and_words_stay_literal() -> None:
    text = 'BASE = "https://m:1616/api/v2"\nrequests.get(f"{BASE}/experimental/timeseries/{sid}/live")\n'
    (ref,) = extract_references(text, "x.py")
    assert [(s.text, s.is_param) for s in ref.segments] == [
        ("experimental", False),
        ("timeseries", False),
        ("{sid}", True),
        ("live", False),
    ]


@pytest.mark.parametrize(
    "name", sorted(p.name for p in (FIXTURES / "negative").iterdir() if p.is_file())
)
def test_negative_corpus_yields_nothing(name: str) -> None:
    """Web apps' own routes, mocks, the v1 API, other products, prose and markup."""
    path = FIXTURES / "negative" / name
    text = path.read_text(encoding="utf-8")
    assert extract_references(text, name) == []
    assert lint_text(text, name, NEWEST) == []


@pytest.mark.parametrize(
    ("context", "found"),
    [
        ("", False),  # no evidence: a web app's own path
        ('HOST = "mon.example.com:1616"\n', True),  # the API's port
        ('h = {"Authorization": "Bearer " + token}\n', False),  # Bearer alone is common
        ('B = "https://mon/api/v2"\nh = {"Authorization": "Bearer " + t}\n', True),
        ("# sync with PRTG\n", True),  # the product's name
        ('probes = client.get("/experimental/probes")\n', True),  # experimental + collection
    ],
)
def test_a_relative_path_counts_only_with_evidence_in_the_file(context: str, found: bool) -> None:
    text = context + 'client.get("/devices/12")\n'
    paths = [r.path for r in extract_references(text, "x.py")]
    assert ("/devices/{}" in paths) is found


# The forms issue 5 and REAL-WORLD.md quote, each in a file with evidence (`prtg`).
QUOTED = [
    (
        "py",
        'requests.get("https://mon.example.com/prtg/api/v2/experimental/devices")',
        "GET",
        "/experimental/devices",
    ),  # behind a reverse proxy
    (
        "py",
        'requests.post(f"{base}/experimental/devices/{dev_id}/move")',
        "POST",
        "/experimental/devices/{}/move",
    ),
    ("js", 'const r = $base + "/sensors/" + id; fetch(r)', "GET", "/sensors/{}"),
    (
        "ps1",
        'Invoke-RestMethod -Method Delete -Uri "$BaseUrl/experimental/groups/$gid/group"',
        "DELETE",
        "/experimental/groups/{}/group",
    ),
    ("ts", 'fetch(`${api}/channels/${id}`, {method: "DELETE"})', "DELETE", "/channels/{}"),
    ("py", 'client.get("/devices/%s/overview" % dev)', "GET", "/devices/{}/overview"),
    ("java", 'URI.create(String.format("%s/api/v2/sensors/%d", host, id))', None, "/sensors/{}"),
    (
        "go",
        'http.NewRequest("POST", fmt.Sprintf("%s/api/v2/experimental/devices/%d/move", b, id), nil)',
        "POST",
        "/experimental/devices/{}/move",
    ),
    ("py", 'session.get(urljoin(base, "experimental/devices"))', "GET", "/experimental/devices"),
    (
        "ps1",
        "Invoke-PRTGRestMethod -Path '/experimental/devices' -Method Post",
        "POST",
        "/experimental/devices",
    ),
    ("py", "client.get('experimental/sensors')", "GET", "/experimental/sensors"),
    ("js", "doGet(creds, '/devices')", "GET", "/devices"),
    ("py", '_api("GET", "/experimental/probes")', "GET", "/experimental/probes"),
    ("go", 'FetchAll(ctx, c, "/experimental/sensors")', None, "/experimental/sensors"),
    ("ts", "apiClient.query({ endpoint: 'experimental/objects' })", None, "/experimental/objects"),
    (
        "sh",
        'curl -X PATCH "$API/api/v2/experimental/sensors/$ID"',
        "PATCH",
        "/experimental/sensors/{}",
    ),
    ("ps1", '$r = Invoke-RestMethod -Uri ("$b/api/v2/groups/{0}" -f $id)', "GET", "/groups/{}"),
    ("cs", 'await http.GetAsync($"{baseUrl}/api/v2/sensors/{id}")', "GET", "/sensors/{}"),
]


@pytest.mark.parametrize(("ext", "line", "method", "path"), QUOTED)
def test_forms_the_issue_quotes(ext: str, line: str, method: str | None, path: str) -> None:
    refs = extract_references(f"# prtg\n{line}\n", f"client.{ext}")
    assert [(r.method, r.path) for r in refs] == [(method, path)]


@pytest.mark.parametrize(
    "line",
    [
        'requests.get(f"{base}/experimental/sensors", params={"filter": "status = up", "limit": 10, "sort_by": "name"})',
        'requests.get(f"{base}/experimental/sensors?filter=status%20%3D%20up&limit=10&sort_by=name")',
    ],
)
def test_query_values_from_the_url_or_a_params_mapping(line: str) -> None:
    (ref,) = extract_references(f"# prtg\n{line}\n", "client.py")
    assert {q.name: q.value for q in ref.query} == {
        "filter": "status = up",
        "limit": "10",
        "sort_by": "name",
    }


def test_unknown_file_types_report_only_full_api_v2_urls() -> None:
    assert language_of("settings.cfg") == "generic"
    other = 'storage = "https://nas.example.com/api/v2/objects"\n'  # no evidence: not a call
    relative = 'groups = "/experimental/groups"\n'  # relative paths need a known language
    assert extract_references(other, "settings.cfg") == []
    assert extract_references(relative, "settings.cfg") == []
    ours = 'devices = "https://${HOST}:1616/api/v2/devices/1"\n'
    refs = extract_references(ours + other + relative, "settings.cfg")
    # The evidence is the file's: with the port and name present, both URLs count.
    assert [(r.line, r.path) for r in refs] == [(1, "/devices/{}"), (2, "/objects")]
    # ... unless this API's URLs name their host and another URL has another host
    # literally: that is another service the same file talks to (issue 12 point 10).
    named = 'devices = "https://prtg.example.com:1616/api/v2/devices/1"\n'
    refs = extract_references(named + other, "settings.cfg")
    assert [(r.line, r.path) for r in refs] == [(1, "/devices/{}")]


def test_markdown_requests_in_code_spans_and_http_blocks_are_calls() -> None:
    """Issue 12 point 9: a span holding a request line or a command, and an `http`
    fence, are requests; a span or a fence that only names a path is prose."""
    path = FIXTURES / "markdown" / "NOTES.md"
    refs = extract_references(path.read_text(encoding="utf-8"), path.name)
    assert [(r.line, r.method, r.path) for r in refs] == [
        (3, "GET", "/experimental/devices"),
        (4, "DELETE", "/experimental/devices/{}"),
        (8, "GET", "/experimental/sensors"),
    ]
    (request,) = [r for r in refs if r.line == 8]
    assert [(q.name, q.value) for q in request.query] == [("filter", "status = down")]
    assert request.headers[0][1] == "Bearer <token>"  # the header line below the request
    escaped = (
        "Run:\n\n\\`\\`\\`bash\ncurl -s https://prtg:1616/api/v2/experimental/probes\n\\`\\`\\`\n"
    )
    assert [r.path for r in extract_references(escaped, "RUNBOOK.md")] == ["/experimental/probes"]
    response = '```json\n{"href": "/api/v2/devices/4242", "port": 1616}\n```\n'
    assert extract_references(response, "answers.md") == []
