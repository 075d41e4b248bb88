"""Client objects created with a base URL: their relative paths are calls, joined by the client's rule.

Each fixture under tests/fixtures/lint/bases/ holds clients of one language
with a base URL (`HttpClient.BaseAddress`, `axios.create({ baseURL })`, ky's
`prefixUrl`, `httpx.Client(base_url=...)`, a `requests.Session` subclass,
resty's `SetBaseURL`, Flurl segments) and the joins that leave /api/v2 or go
to another service. Rows are (line, column, method, path); the lines a row
leaves out are the point: they are not API v2 calls.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from apispec.lint.bases import Base
from apispec.lint.extract import extract_references
from apispec.lint.languages.client_bases import BASE_CLIENTS, Join

FIXTURES = Path(__file__).parent / "fixtures" / "lint" / "bases"

EXPECTED: dict[str, list[tuple[int, int, str | None, str]]] = {
    "HttpClientJoins.cs": [
        (14, 36, "GET", "/sensor-status-summary"),  # a lone word under the base
        (15, 51, "GET", "/experimental/devices/{}"),  # GetFromJsonAsync<List<Item>>(...)
        (16, 31, "POST", "/session"),
        # 17: "/experimental/probes" with a leading slash resolves to the host root
        # 18: a base without a trailing slash loses `v2`: /api/experimental/groups
        # 19-20: the client of another service, even for a path this API also has
        (21, 72, "PATCH", "/experimental/sensors/{}"),  # HttpRequestMessage, sent by _api
    ],
    "prefixed.ts": [
        (12, 28, "GET", "/health"),  # api.get<string[]>("health")
        (13, 21, "DELETE", "/experimental/devices/{}"),
        (14, 39, "GET", "/version"),  # the ofetch instance called itself: GET by default
        (15, 20, "POST", "/experimental/autodiscoveryjobs/{}/start"),
        # 16: ky refuses a path with a leading slash under prefixUrl
        (17, 24, "POST", "/session"),  # new URL(path, base)
        (18, 31, "GET", "/experimental/license"),  # .get("edition") works on the response
    ],
    "based_clients.py": [
        (20, 26, "GET", "/objects"),  # self.get in a requests.Session subclass with base_url
        (25, 21, "GET", "/sensor-status-summary"),
        (26, 40, "PATCH", "/experimental/sensors/{}"),  # build_request("PATCH", path)
        (27, 28, "GET", "/experimental/license"),  # not .get("days_left") on the response
        (31, 40, "GET", "/version"),  # urljoin(BASE, "version")
    ],
    "resty_client.go": [
        (16, 39, "DELETE", "/experimental/probes/{}"),  # {id} filled by SetPathParam
        (17, 42, "GET", "/version"),  # a later call of the chain on the client
        (18, 13, "GET", "/sensors/{}"),
        (19, 27, "POST", "/experimental/devices/{}/move"),  # url.JoinPath segments
    ],
    "Flurl.cs": [
        (11, 43, "PATCH", "/experimental/sensors/{}"),  # segments, then the verb
        (12, 42, "GET", "/groups"),
        (13, 26, "DELETE", "/experimental/devices/{}"),  # the URL is the chain's root
    ],
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_calls_of_clients_with_a_base_url(name: str) -> None:
    text = (FIXTURES / name).read_text(encoding="utf-8")
    found = [(r.line, r.column, r.method, r.path) for r in extract_references(text, name)]
    assert found == EXPECTED[name]


def test_every_fixture_is_pinned() -> None:
    assert {p.name for p in FIXTURES.iterdir()} == set(EXPECTED)


@pytest.mark.parametrize(
    ("rule", "slash", "path", "joined"),
    [
        (Join.PREFIX, False, "/devices", "/devices"),
        (Join.PREFIX, True, "devices", "/devices"),
        (Join.PREFIX_STRICT, None, "devices", "/devices"),
        (Join.PREFIX_STRICT, None, "/devices", None),
        (Join.URL, True, "devices", "/devices"),
        (Join.URL, None, "devices", "/devices"),  # a base of unknown ending: taken as meant
        (Join.URL, False, "devices", None),
        (Join.URL, True, "/devices", None),
        (Join.URL, True, "../devices", None),
        (Join.URL_DIRECTORY, False, "devices", "/devices"),
        (Join.URL_DIRECTORY, False, "/devices", None),
        (Join.CONCAT, False, "/devices", "/devices"),
        (Join.CONCAT, False, "devices", None),
    ],
)
def test_join_rules(rule: Join, slash: bool | None, path: str, joined: str | None) -> None:
    assert Base(True, slash, "base").join(path, rule) == joined


def test_every_row_names_a_join_and_a_base() -> None:
    for row in BASE_CLIENTS:
        assert isinstance(row.join, Join)
        assert row.base and all(part for part in row.base.split("|")), row


def test_a_url_join_onto_the_base_attribute_of_an_object_named_for_this_api() -> None:
    """`urljoin(prtg.base_url, "x")`: the object comes from another module, its name says whose."""
    text = (
        "from urllib.parse import urljoin\n"
        "import requests\n"
        "from prtg_session import PrtgSession\n"
        "from cmdb import Cmdb\n"
        "prtg, cmdb = PrtgSession(host), Cmdb(url)\n"
        'summary = requests.get(urljoin(prtg.base_url, "sensor-status-summary"))\n'
        'racks = requests.get(urljoin(cmdb.base_url, "cluster/resources"))\n'
    )
    found = [(r.line, r.path) for r in extract_references(text, "sync.py")]
    assert found == [(6, "/sensor-status-summary")]
