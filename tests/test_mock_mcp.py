"""The mock's MCP endpoint, driven by the MCP SDK's own Streamable HTTP client."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from apispec.generate.mcp_catalog import build_tools, tool_name
from apispec.mock import MockConfig
from apispec.mock.server import RunningMock, start_in_thread
from apispec.registry.model import Registry

mcp = pytest.importorskip("mcp")
httpx2 = pytest.importorskip("httpx2")
from mcp import ClientSession  # noqa: E402
from mcp.client.streamable_http import streamable_http_client  # noqa: E402


@pytest.fixture(scope="module")
def mock() -> Iterator[RunningMock]:
    running = start_in_thread(MockConfig(objects=3000, seed=5, enable=("mcp",)))
    yield running
    running.stop()


@pytest.fixture(scope="module")
def api_key(mock: RunningMock) -> str:
    """An API key, as the spec recommends for MCP, created through the REST API."""
    with httpx.Client(base_url=mock.api) as client:
        token = client.post(
            "/session", json={"username": "prtgadmin", "password": "prtgadmin"}
        ).json()["token"]
        client.headers["Authorization"] = f"Bearer {token}"
        users = {u["name"]: u["id"] for u in client.get("/experimental/users").json()}
        return client.post(f"/users/{users['prtgadmin']}/api-keys").json()["key"]


async def _session_run(url: str, key: str, work: Any) -> Any:
    http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {key}"}, timeout=30)
    async with (
        http,
        streamable_http_client(url, http_client=http) as (read, write),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        return await work(session)


def run_session(mock: RunningMock, key: str, work: Any) -> Any:
    return asyncio.run(_session_run(f"{mock.api}/mcp", key, work))


def payload(result: Any) -> dict[str, Any]:
    return json.loads(result.content[0].text)


def test_tools_are_the_catalog(mock: RunningMock, api_key: str, registry: Registry) -> None:
    async def work(session: ClientSession) -> Any:
        return await session.list_tools()

    listed = run_session(mock, api_key, work)
    expected = build_tools(registry, registry.default_release[0])  # the mock's default
    assert [t.name for t in listed.tools] == [t["name"] for t in expected]
    by_name = {t.name: t for t in listed.tools}
    devices = by_name[tool_name("list_experimental_devices")]
    assert "filter" in devices.input_schema["properties"]
    assert devices.annotations.read_only_hint is True


def test_list_tool_with_filter_has_rest_semantics(mock: RunningMock, api_key: str) -> None:
    name = tool_name("list_experimental_devices")

    async def work(session: ClientSession) -> Any:
        filtered = await session.call_tool(
            name, {"filter": "status = down", "limit": 5, "sort_by": "name"}
        )
        invalid = await session.call_tool(name, {"filter": "status eq down"})
        return filtered, invalid

    filtered, invalid = run_session(mock, api_key, work)
    assert not filtered.is_error
    answer = payload(filtered)
    assert answer["status"] == 200
    devices = answer["body"]
    assert 0 < len(devices) <= 5 and all(d["status"] == "down" for d in devices)
    assert int(answer["headers"]["x-result-count"]) == len(devices)
    with httpx.Client(base_url=mock.api, headers={"Authorization": f"Bearer {api_key}"}) as rest:
        same = rest.get(
            "/experimental/devices",
            params={"filter": "status = down", "limit": 5, "sort_by": "name"},
        )
    assert same.json() == devices
    assert answer["headers"]["x-total-count"] == same.headers["X-Total-Count"]
    assert invalid.is_error
    error = payload(invalid)
    assert error["status"] == 400 and error["body"]["code"] == "INVALID_FILTER"


def test_item_tool_with_path_argument(mock: RunningMock, api_key: str) -> None:
    async def work(session: ClientSession) -> Any:
        found = await session.call_tool(tool_name("get_device"), {"id": "0"})
        group = await session.call_tool(tool_name("get_group"), {"id": "0"})
        return found, group

    found, group = run_session(mock, api_key, work)
    assert payload(found)["body"]["code"] == "NOT_FOUND"  # id 0 is the root group
    assert payload(group)["body"]["id"] == "0"


def test_requests_without_a_key_are_refused(mock: RunningMock) -> None:
    message = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
    answer = httpx.post(f"{mock.api}/mcp", json=message)
    assert answer.status_code == 401
    assert answer.json()["code"] == "AUTH_FAILED"


def test_stateless_transport_rules(mock: RunningMock, api_key: str) -> None:
    headers = {
        "Authorization": f"Bearer {api_key}",
        "Accept": "application/json, text/event-stream",
    }
    with httpx.Client(base_url=mock.api, headers=headers) as client:
        init = client.post(
            "/mcp",
            json={
                "jsonrpc": "2.0",
                "id": 1,
                "method": "initialize",
                "params": {
                    "protocolVersion": "2025-06-18",
                    "capabilities": {},
                    "clientInfo": {"name": "t", "version": "1"},
                },
            },
        )
        assert init.status_code == 200
        assert init.json()["result"]["protocolVersion"] == "2025-06-18"
        assert "mcp-session-id" not in init.headers
        note = client.post("/mcp", json={"jsonrpc": "2.0", "method": "notifications/initialized"})
        assert note.status_code == 202
        unknown = client.post("/mcp", json={"jsonrpc": "2.0", "id": 2, "method": "nope"})
        assert unknown.json()["error"]["code"] == -32601
        assert client.post("/mcp", content=b"{").json()["error"]["code"] == -32700
        for method in ("GET", "DELETE", "PUT"):  # the spec names GET and DELETE
            answer = client.request(method, "/mcp")
            assert answer.status_code == 405 and answer.headers["Allow"] == "POST"


def test_mcp_is_off_unless_enabled() -> None:
    running = start_in_thread(MockConfig(objects=6))
    try:
        answer = httpx.post(
            f"{running.api}/mcp", json={"jsonrpc": "2.0", "id": 1, "method": "ping"}
        )
        assert answer.status_code == 404
        assert "--enable mcp" in answer.json()["message"]
    finally:
        running.stop()
