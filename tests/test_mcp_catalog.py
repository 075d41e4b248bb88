"""The MCP tool catalog: one valid tool per available endpoint, consistent with OpenAPI."""

from __future__ import annotations

import json

import mcp.types
import pytest

from apispec.generate.mcp_catalog import MAX_NAME, build_catalog, build_tools, tool_name
from apispec.generate.openapi import build_document
from apispec.registry.load import load_registry
from apispec.registry.model import Maturity

REGISTRY = load_registry()
RELEASES = [r.text for r in REGISTRY.release_list]


@pytest.mark.parametrize("release", RELEASES)
def test_registry_openapi_and_mcp_name_the_same_endpoints(release: str) -> None:
    rel = REGISTRY.release(release)
    expected = {(e.method, e.path): e.operation_id for e in REGISTRY.endpoints_in(rel)}
    doc = build_document(REGISTRY, rel)
    in_openapi = {
        (method.upper(), path): op["operationId"]
        for path, item in doc["paths"].items()
        for method, op in item.items()
    }
    catalog = build_catalog(REGISTRY, rel)
    in_mcp = {
        (entry.tool["_meta"]["apispec/method"], entry.tool["_meta"]["apispec/path"]): entry.tool[
            "_meta"
        ]["apispec/operationId"]
        for entry in catalog
    }
    assert in_openapi == expected
    assert in_mcp == expected
    for entry in catalog:
        assert entry.name == tool_name(entry.endpoint.operation_id)
        assert entry.endpoint.key in expected
    removed = [e for e in REGISTRY.endpoints if e.removed_in is not None and e.removed_in <= rel]
    names = {entry.name for entry in catalog}
    assert not names & {tool_name(e.operation_id) for e in removed}


@pytest.mark.parametrize("release", RELEASES)
def test_every_tool_validates_with_the_mcp_sdk(release: str) -> None:
    tools = build_tools(REGISTRY, release)
    names = [tool["name"] for tool in tools]
    assert len(names) == len(set(names)) == len(REGISTRY.endpoints_in(REGISTRY.release(release)))
    for tool in tools:
        parsed = mcp.types.Tool.model_validate(tool)
        assert parsed.name == tool["name"]
        assert len(parsed.name) <= MAX_NAME
        assert parsed.input_schema["type"] == "object"
        # the SDK round trip keeps the wire shape (camelCase, _meta)
        assert parsed.model_dump(by_alias=True, exclude_none=True, mode="json") == tool


def test_names_are_the_same_in_every_release() -> None:
    names: dict[tuple[str, str], set[str]] = {}
    for release in RELEASES:
        for entry in build_catalog(REGISTRY, release):
            names.setdefault(entry.endpoint.key, set()).add(entry.name)
    assert all(len(found) == 1 for found in names.values())
    assert names[("GET", "/devices/{id}")] == {"get_device"}


def test_tool_name_is_snake_case_and_bounded() -> None:
    assert tool_name("listExperimentalDevices") == "list_experimental_devices"
    assert tool_name("get-public.settings") == "get_public_settings"
    long_a = "get_" + "very_long_segment_" * 5 + "a"
    long_b = "get_" + "very_long_segment_" * 5 + "b"
    assert len(tool_name(long_a)) == MAX_NAME
    assert tool_name(long_a) != tool_name(long_b)
    assert tool_name(long_a) == tool_name(long_a)


def test_deprecated_tools_lead_with_the_deprecation_and_successor_tool() -> None:
    catalog = build_catalog(REGISTRY)
    by_name = {entry.name: entry for entry in catalog}
    deprecated = [e for e in catalog if e.endpoint.maturity is Maturity.DEPRECATED]
    assert deprecated
    for entry in deprecated:
        description = entry.tool["description"]
        assert description.startswith(f"DEPRECATED in {entry.endpoint.deprecated_in}; ")
        successor = REGISTRY.successor_of(entry.endpoint)
        if successor is not None:
            name = tool_name(successor.operation_id)
            assert description.startswith(
                f"DEPRECATED in {entry.endpoint.deprecated_in}; use the tool `{name}` instead"
            )
            assert name in by_name
        else:
            assert f"successor: {entry.endpoint.successor}" in description
    for entry in catalog:
        if entry.endpoint.maturity is not Maturity.DEPRECATED:
            assert "DEPRECATED" not in entry.tool["description"]
    listing = by_name["list_devices"].tool["description"]
    assert listing.startswith("DEPRECATED in 24.3.100; use the tool `list_experimental_devices`")


def test_annotations_follow_http_semantics() -> None:
    for entry in build_catalog(REGISTRY):
        hints, endpoint = entry.tool["annotations"], entry.endpoint
        read_only = endpoint.method == "GET" and not endpoint.creates
        assert hints["readOnlyHint"] is read_only, endpoint
        assert hints.get("destructiveHint", False) is (endpoint.method == "DELETE")
        assert hints["idempotentHint"] is (read_only or endpoint.method == "DELETE")
    creating_get = next(e for e in REGISTRY.endpoints if e.creates and e.method == "GET")
    hints = next(c for c in build_catalog(REGISTRY) if c.endpoint == creating_get).tool[
        "annotations"
    ]
    assert hints == {"readOnlyHint": False, "destructiveHint": False, "idempotentHint": False}


def test_arguments_map_to_path_query_and_body_parameters() -> None:
    by_key = {entry.endpoint.key: entry.tool["inputSchema"] for entry in build_catalog(REGISTRY)}
    query = [q.name for q in REGISTRY.query_parameters]
    for entry in build_catalog(REGISTRY):
        schema, endpoint = entry.tool["inputSchema"], entry.endpoint
        args = list(schema["properties"])
        assert args[: len(endpoint.path_params)] == list(endpoint.path_params)
        assert set(endpoint.path_params) <= set(schema.get("required", []))
        if endpoint.is_list:
            assert args[len(endpoint.path_params) :][: len(query)] == query
        assert "$ref" not in json.dumps(schema)
    session = next(e for e in REGISTRY.endpoints if e.request_fields)
    body = by_key[session.key]["properties"]["body"]
    assert body["required"] == list(session.request_fields)
    assert by_key[session.key]["required"] == ["body"]
    patch = by_key[("PATCH", "/experimental/sensors/{id}")]
    assert patch["required"] == ["id"] and patch["properties"]["body"]["type"] == "object"
    limit = by_key[("GET", "/experimental/devices")]["properties"]["limit"]
    assert limit["maximum"] == REGISTRY.limit("max_objects_per_response")


def test_tools_are_grouped_by_tag_in_registry_order() -> None:
    tags = [entry.tool["_meta"]["apispec/tag"] for entry in build_catalog(REGISTRY)]
    blocks = list(dict.fromkeys(tags))
    assert tags == sorted(tags, key=blocks.index)  # each tag one contiguous block
    assert blocks == [t for t in REGISTRY.tags() if t in blocks]


def test_cli_json_is_the_catalog_and_text_groups_by_tag(cli) -> None:
    release = RELEASES[0]
    result = cli("mcp-tools", "--release", release, "--format", "json")
    assert result.code == 0
    assert json.loads(result.out) == build_tools(REGISTRY, release)
    text = cli("mcp-tools", "--release", release)
    assert text.code == 0
    count = len(REGISTRY.endpoints_in(REGISTRY.release(release)))
    assert text.out.rstrip().endswith(f"{count} tools for release {release}")
    assert "Devices (" in text.out and "list_experimental_devices" in text.out
    bad = cli("mcp-tools", "--release", "nope")
    assert bad.code == 2 and bad.err.startswith("apispec: error: invalid release 'nope'")
