"""Fuzzing the mock over its own OpenAPI document (issue 11, acceptance 2).

Hypothesis draws an operation of the document the mock serves at
/api/v2/oas/, fills its path and query parameters with plausible and hostile
values (real ids, huge numbers, filters from the grammar and broken ones,
odd text), adds a JSON body or raw bytes where the operation takes one, and
sends it to the real server on a loopback port. Every answer must be below
500 and, when it is an error, carry the spec's error body. The MCP endpoint
gets JSON-RPC messages with arbitrary params and arguments the same way.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from apispec.mock import MockConfig
from apispec.mock.app import MAX_BODY
from apispec.mock.server import RunningMock, start_in_thread
from apispec.registry.load import load_registry
from tests.filter_strategies import valid_filters

METHODS = ("get", "post", "put", "patch", "delete")
BODY_LIMIT = load_registry().limit(MAX_BODY)  # bytes
SETTINGS = settings(
    max_examples=200,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
TEXT = st.text(
    st.characters(exclude_categories=["Cs"]), max_size=30
)  # httpx cannot send lone surrogates
HUGE = "9" * 4_301
JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | TEXT,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(TEXT, inner, max_size=4),
    max_leaves=12,
)
BODY_FIELDS = st.fixed_dictionaries(
    {},
    optional={
        "name": st.one_of(TEXT, JSON),
        "parentid": st.one_of(st.sampled_from(["0", "1", "2", "3", "40"]), JSON),
        "kind": st.one_of(st.sampled_from(["ping", "http", "cpu"]), JSON),
        "favorite": JSON,
        "basic": st.one_of(st.fixed_dictionaries({}, optional={"tags": JSON, "host": JSON}), JSON),
        "intervalgroup": st.one_of(st.fixed_dictionaries({"interval": TEXT}), JSON),
        "username": st.one_of(st.just("prtgadmin"), TEXT),
        "password": st.one_of(st.just("prtgadmin"), TEXT),
    },
)
RAW_BODIES = st.one_of(
    st.binary(max_size=200),
    st.just(b'{"name": "\\ud800"}'),
    st.just(b'{"name": ' + b"[" * 3_000 + b"]" * 3_000 + b"}"),
    st.just(b'{"name": ' + HUGE.encode() + b"}"),
    st.just(b'{"name": NaN, "favorite": 1e999}'),
)
FILTERS = st.one_of(
    valid_filters(),
    TEXT,
    st.sampled_from(
        [
            'status = down and basic.tags contains "ping"',
            f"id = {HUGE}",
            "not(" * 120 + "status = up" + ")" * 120,
            " or ".join(f'id = "{n}"' for n in range(1_100)),
            '"""\u00a0"""',
            'children id = "0"',
        ]
    ),
)


@pytest.fixture(scope="module")
def mock() -> Iterator[RunningMock]:
    running = start_in_thread(MockConfig(objects=400, seed=11, wait_for=0.1, enable=("mcp",)))
    yield running
    running.stop()


@pytest.fixture(scope="module")
def client(mock: RunningMock) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=mock.url, timeout=30) as http:
        token = http.post(
            "/api/v2/session", json={"username": "prtgadmin", "password": "prtgadmin"}
        ).json()["token"]
        http.headers["Authorization"] = f"Bearer {token}"
        yield http


@pytest.fixture(scope="module")
def operations(client: httpx.Client) -> list[tuple[str, str, dict[str, Any]]]:
    document = client.get("/api/v2/oas/").json()
    return [
        (method.upper(), path, operation)
        for path, item in document["paths"].items()
        for method, operation in item.items()
        if method in METHODS
    ]


def _query_value(parameter: dict[str, Any]) -> st.SearchStrategy[str]:
    name, schema = parameter["name"], parameter.get("schema", {})
    if name == "filter":
        return FILTERS
    if name == "sort_by":
        fields = st.sampled_from(["name", "id", "status", "type", "parentid", "basic.tags", "nope"])
        return st.one_of(st.tuples(st.sampled_from(["", "-"]), fields).map("".join), TEXT)
    if schema.get("type") == "integer":
        numbers = st.integers(min_value=-3, max_value=10**6).map(str)
        return st.one_of(numbers, st.just(HUGE), st.just("\u0663"), TEXT)
    if schema.get("type") == "array":
        words = st.sampled_from(["windowsconnection", "intervalgroup", "inheritance", "*", "x"])
        return st.one_of(st.lists(words, max_size=3).map(",".join), TEXT)
    return TEXT


@st.composite
def requests(draw: st.DrawFn, operations: list[tuple[str, str, dict[str, Any]]]) -> dict[str, Any]:
    method, path, operation = draw(st.sampled_from(operations))
    ids = st.sampled_from(["0", "1", "2", "5", "17", "40", "123", "399"])
    for name in re.findall(r"\{(\w+)\}", path):
        value = draw(st.one_of(ids, st.just(HUGE), TEXT.filter(bool)))
        path = path.replace("{" + name + "}", quote(value, safe=""))
    params = {}
    for parameter in operation.get("parameters", []):
        if parameter.get("in") == "query" and draw(st.booleans()):
            params[parameter["name"]] = draw(_query_value(parameter))
    content = None
    if "requestBody" in operation:
        body = draw(st.one_of(st.none(), BODY_FIELDS, JSON.map(lambda v: v), RAW_BODIES))
        content = body if isinstance(body, bytes) else json.dumps(body).encode()
    return {"method": method, "url": "/api/v2" + path, "params": params, "content": content}


@SETTINGS
@given(data=st.data())
def test_every_answer_to_a_generated_request_is_below_500(
    client: httpx.Client, operations: list[tuple[str, str, dict[str, Any]]], data: st.DataObject
) -> None:
    request = data.draw(requests(operations))
    answer = client.request(**request)
    assert answer.status_code < 500, (request, answer.text)
    if answer.status_code >= 400:
        body = answer.json()
        assert set(body) == {"code", "message", "request_id"}, body
        assert body["request_id"] == answer.headers["X-Request-Id"]


@st.composite
def rpc_messages(draw: st.DrawFn) -> Any:
    tools = st.sampled_from(["list_experimental_devices", "get_device", "create_session", "nope"])
    arguments = st.one_of(
        st.dictionaries(st.sampled_from(["id", "filter", "limit", "body", "sort_by"]), JSON),
        st.fixed_dictionaries({"filter": FILTERS}),
        JSON,
    )
    params = st.one_of(
        st.fixed_dictionaries({"name": st.one_of(tools, JSON)}, optional={"arguments": arguments}),
        JSON,
    )
    message = st.fixed_dictionaries(
        {"jsonrpc": st.sampled_from(["2.0", "1.0"])},
        optional={
            "id": st.one_of(st.integers(), TEXT, JSON),
            "method": st.one_of(
                st.sampled_from(["initialize", "ping", "tools/list", "tools/call"]), JSON
            ),
            "params": params,
        },
    )
    return draw(st.one_of(message, st.lists(message, max_size=3), JSON))


@SETTINGS
@given(message=rpc_messages())
def test_every_answer_of_the_mcp_endpoint_is_below_500(client: httpx.Client, message: Any) -> None:
    content = json.dumps(message).encode()
    answer = client.post("/api/v2/mcp", content=content)
    assert answer.status_code < 500, (message, answer.text)
    if len(content) > BODY_LIMIT:  # refused before it is read, as any POST: the spec's body
        assert answer.status_code == 400 and answer.json()["code"] == "BODY_TOO_LARGE"
    elif answer.status_code != 202:
        reply = answer.json()
        for each in reply if isinstance(reply, list) else [reply]:
            assert each["jsonrpc"] == "2.0" and ("result" in each) != ("error" in each), each
