"""What is never a call: test doubles, other products' URLs, other services' headers (issue 12 points 6, 7, 10)."""

from __future__ import annotations

import pytest

from apispec.lint.config import Config
from apispec.lint.engine import Options, lint_text
from apispec.lint.extract import extract_references

PY = 'PRTG = "https://prtg.corp.example:1616/api/v2"\n'
NEWEST = Options(Config(), ("25.x.122",))


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("fake.py", PY + 'if path == "/api/v2/experimental/devices":\n    pass\n'),
        ("fake.py", PY + 'if "/experimental/groups" in url:\n    pass\n'),
        ("fake.py", PY + 'ok = url.startswith(PRTG + "/experimental/")\n'),
        ("fake.py", PY + 'ROUTES = {("GET", "/api/v2/version"): handler}\n'),
        ("fake.py", PY + 'PATTERN = re.compile(r"^/api/v2/experimental/devices/(\\d+)$")\n'),
        ("t.py", PY + 'mock.assert_called_once_with(PRTG + "/experimental/groups/1/move")\n'),
        ("t.py", PY + 'self.assertEqual(location, "/api/v2/groups/9001")\n'),
        ("t.py", PY + 'response.headers["Location"] = "/api/v2/groups/9001"\n'),
        (
            "t.py",
            PY
            + "with responses.RequestsMock() as rsps:\n"
            + '    rsps.get(f"{PRTG}/experimental/sensors", json=[])\n',
        ),
        ("x_test.go", 'package p\n// prtg\nswitch r.URL.Path {\ncase "/api/v2/health":\n}\n'),
        (
            "x_test.go",
            'package p\n// prtg\nok := strings.HasPrefix(p, "/api/v2/experimental/sensors/")\n',
        ),
        (
            "x.test.ts",
            "// prtg\nprtg()\n  .get('/api/v2/experimental/sensors')\n  .query(true)\n  .reply(200, []);\n",
        ),
        (
            "handlers.ts",
            "// prtg\nhttp.get('*/api/v2/experimental/devices', () => HttpResponse.json([]));\n",
        ),
        ("Tests.cs", '// prtg\nvar body = path switch\n{\n    "/api/v2/version" => "{}",\n};\n'),
        (
            "Stub.cs",
            '// prtg\nserver.Given(Request.Create().WithPath("/api/v2/session").UsingPost());\n',
        ),
        ("Mock.Tests.ps1", "# prtg\nif ($Uri -like 'https://prtg:1616/api/v2/*') { }\n"),
        (
            "Mock.ps1",
            "# prtg\nswitch -Wildcard (\"$verb $path\") {\n    'GET /api/v2/experimental/devices' { 1 }\n}\n",
        ),
        ("fake.sh", '# prtg\ncase "$url" in\n  */api/v2/health) echo ok ;;\nesac\n'),
    ],
)
def test_strings_compared_matched_or_registered_are_never_calls(name: str, text: str) -> None:
    assert extract_references(text, name) == []


@pytest.mark.parametrize(
    "text",
    [
        # another product's /api/v2 with a bearer token: only registry paths could be ours
        'B = "https://flags.example/api/v2"\nrequests.get(f"{B}/projects/1", headers={"Authorization": "Bearer " + t})\n',
        'B = "https://flags.example/api/v2"\nrequests.get(f"{B}/experimental/rollouts", headers={"Authorization": "Bearer " + t})\n',
        # /api/v2.0 is not /api/v2
        'B = "https://registry.example/api/v2.0"\nrequests.get(f"{B}/devices", headers={"Authorization": "Bearer " + t})\n',
    ],
)
def test_other_products_api_v2_urls_are_not_calls(text: str) -> None:
    assert extract_references(text, "client.py") == []


def test_a_url_on_another_literal_host_is_another_service() -> None:
    text = (
        PY
        + 'DESK = "https://desk.corp.example/api/v2"\n'
        + 'requests.get(f"{DESK}/devices/{d}", headers={"Authorization": "Bearer " + t})\n'
        + 'requests.get(f"{PRTG}/devices/{d}")\n'
    )
    assert [(r.line, r.path) for r in extract_references(text, "sync.py")] == [(4, "/devices/{}")]


def test_authorization_belongs_to_the_call_that_uses_it() -> None:
    text = (
        PY
        + 'PVE = "https://pve:8006/api2/json"\n'
        + 'pve = {"Authorization": "PVEAPIToken=" + token}\n'  # Proxmox's own scheme
        + 'requests.get(f"{PVE}/cluster/resources", headers=pve)\n'
        + 'readonly = {"Authorization": key}\n'  # sent to this API without Bearer
        + 'requests.get(f"{PRTG}/devices/{d}", headers=readonly)\n'
        + 'jira.headers["Authorization"] = "Basic " + b64\n'
        + 'jira.get("https://jira.example/rest/api/2/issue/1")\n'
    )
    found = [(f.line, f.code) for f in lint_text(text, "sync.py", NEWEST)]
    assert found == [(5, "API009")]


def test_dummy_tokens_in_tests_are_not_credentials() -> None:
    text = PY + 'TOKEN = "fake-token-for-unit-tests"\nrequests.get(f"{PRTG}/devices/{d}")\n'
    assert [f.code for f in lint_text(text, "tests/test_client.py", NEWEST)] == []
    assert [f.code for f in lint_text(text, "client.py", NEWEST)] == ["API010"]
