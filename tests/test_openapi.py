"""The OpenAPI document of every release: valid, complete, and derived from the registry."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import yaml
from openapi_spec_validator import validate

from apispec.generate.openapi import build_document
from apispec.registry.load import load_registry
from apispec.registry.model import Maturity, Registry

REGISTRY = load_registry()
RELEASES = [r.text for r in REGISTRY.release_list]
METHODS = {"get", "put", "post", "delete", "patch", "head", "options", "trace"}


@cache
def document(release: str) -> dict[str, Any]:
    """Built once per session: eleven documents, each validated once."""
    return build_document(REGISTRY, release)


def operations(doc: dict[str, Any]) -> dict[tuple[str, str], dict[str, Any]]:
    return {
        (method.upper(), path): op
        for path, item in doc["paths"].items()
        for method, op in item.items()
        if method in METHODS
    }


def resolve(doc: dict[str, Any], node: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in node:
        *_, kind, name = node["$ref"].split("/")
        node = doc["components"][kind][name]
    return node


def newest() -> dict[str, Any]:
    return document(REGISTRY.newest_release.text)


@pytest.mark.parametrize("release", RELEASES)
def test_every_release_validates_and_holds_exactly_its_endpoints(release: str) -> None:
    doc = document(release)
    validate(doc)  # raises on the first problem
    rel = REGISTRY.release(release)
    expected = {e.key: e.operation_id for e in REGISTRY.endpoints_in(rel)}
    found = {key: op["operationId"] for key, op in operations(doc).items()}
    assert found == expected
    assert doc["openapi"] == "3.1.0"
    assert doc["info"]["version"] == release
    # linters warn on unused components: every one is referenced in every release
    text = json.dumps(doc)
    for kind in ("schemas", "responses", "headers"):
        for name in doc["components"][kind]:
            assert f'"#/components/{kind}/{name}"' in text, (release, kind, name)


def test_releases_differ_where_the_registry_says() -> None:
    first, last = REGISTRY.first_release, REGISTRY.newest_release
    added = set(operations(document(last.text))) - set(operations(document(first.text)))
    assert added == {e.key for e in REGISTRY.endpoints if e.since and first < e.since}
    removed = {e.key for e in REGISTRY.endpoints if e.removed_in is not None}
    assert removed and not removed & set(operations(document(last.text)))


def test_server_uses_a_base_url_variable_and_the_api_prefix() -> None:
    (server,) = newest()["servers"]
    assert server["url"] == "{base_url}/api/v2"
    assert server["variables"]["base_url"]["default"].startswith("http")


def test_lifecycle_fields_and_stability_levels() -> None:
    doc = newest()
    for endpoint in REGISTRY.endpoints_in(REGISTRY.newest_release):
        op = operations(doc)[endpoint.key]
        assert op["tags"] == [endpoint.tag]
        assert op["summary"].lower() == endpoint.summary.lower()
        assert op["x-maturity"] == endpoint.maturity
        assert op.get("deprecated", False) is (endpoint.maturity is Maturity.DEPRECATED)
        for key, value in (
            ("x-since", endpoint.since),
            ("x-deprecated-in", endpoint.deprecated_in),
            ("x-removed-in", endpoint.removed_in),
            ("x-successor", endpoint.successor),
        ):
            assert op.get(key) == (None if value is None else str(value)), (endpoint, key)
        # oasdiff skips breaking-change checks on alpha operations: every /experimental path
        level = "alpha" if endpoint.path.startswith("/experimental/") else "stable"
        assert op["x-stability-level"] == level, endpoint
        successor = REGISTRY.successor_of(endpoint)
        if successor is not None:
            assert op["x-successor-operation-id"] == successor.operation_id
            assert successor.operation_id in op["description"]
        for note in endpoint.notes:
            assert note in op["description"]


def test_limits_are_stated_in_the_description() -> None:
    description = newest()["info"]["description"]
    for limit in REGISTRY.limits:
        assert f"{limit.value} {limit.unit}" in description


def test_security_is_global_bearer_and_lifted_where_no_auth_is_needed() -> None:
    doc = newest()
    (name,) = doc["security"][0]
    assert doc["components"]["securitySchemes"][name] == {
        "type": "http",
        "scheme": "bearer",
        "description": doc["components"]["securitySchemes"][name]["description"],
    }
    open_ops = {key for key, op in operations(doc).items() if op.get("security") == []}
    assert open_ops == {e.key for e in REGISTRY.endpoints if not e.auth}
    assert open_ops  # POST /session and GET /settings/public


def test_list_endpoints_take_the_common_query_parameters() -> None:
    doc = newest()
    names = [q.name for q in REGISTRY.query_parameters]
    for endpoint in REGISTRY.endpoints_in(REGISTRY.newest_release):
        params = operations(doc)[endpoint.key].get("parameters", [])
        query = {p["name"]: p for p in params if p["in"] == "query"}
        assert list(query) == (names if endpoint.is_list else []), endpoint
        path = [p["name"] for p in params if p["in"] == "path"]
        assert path == list(endpoint.path_params)
        assert all(
            p["required"] and p["schema"] == {"type": "string"} for p in params if p["in"] == "path"
        )
    listing = next(e for e in REGISTRY.endpoints_in(REGISTRY.newest_release) if e.is_list)
    query = {p["name"]: p for p in operations(doc)[listing.key]["parameters"]}
    assert query["limit"]["schema"]["maximum"] == REGISTRY.limit("max_objects_per_response")
    assert query["limit"]["schema"]["minimum"] == 0
    assert "docs/filters.md" in query["filter"]["description"]
    for prop in REGISTRY.properties:
        assert f"`{prop.name}`" in query["filter"]["description"]
    assert query["include"]["explode"] is False


def test_list_responses_carry_every_pagination_header() -> None:
    doc = newest()
    for endpoint in REGISTRY.endpoints_in(REGISTRY.newest_release):
        responses = operations(doc)[endpoint.key]["responses"]
        if endpoint.is_list:
            ok = responses["200"]
            assert list(ok["headers"]) == [h.name for h in REGISTRY.pagination_headers]
            assert ok["content"]["application/json"]["schema"]["type"] == "array"
    headers = doc["components"]["headers"]
    assert headers["X-Total-Count"]["schema"]["type"] == "integer"
    assert headers["Link"]["schema"]["type"] == "string"


def test_creating_endpoints_answer_204_with_location_and_reads_may_answer_202() -> None:
    doc = newest()
    ops = operations(doc)
    creating = [e for e in REGISTRY.endpoints_in(REGISTRY.newest_release) if e.creates]
    assert creating
    for endpoint in creating:
        responses = ops[endpoint.key]["responses"]
        assert "Location" in responses["204"]["headers"]
        assert not [code for code in responses if code.startswith("2") and code != "204"]
    waiting = resolve(doc, ops[("GET", "/devices/{id}")]["responses"]["202"])
    assert "Wait-For" in waiting["headers"] and "content" not in waiting
    assert "202" not in ops[("GET", "/experimental/devices")]["responses"]


def test_error_responses_share_one_schema_enumerating_every_code() -> None:
    doc = newest()
    error = doc["components"]["schemas"]["Error"]
    assert error["properties"]["code"]["enum"] == [c.code for c in REGISTRY.error_codes]
    assert set(error["required"]) == {"code", "message", "request_id"}
    statuses = {str(s.status) for s in REGISTRY.http_statuses}
    assert set(doc["components"]["responses"]) == {f"Error{s}" for s in statuses}
    for code in REGISTRY.error_codes:
        answer = doc["components"]["responses"][f"Error{code.status}"]
        assert f"`{code.code}`" in answer["description"]
    seen: set[str] = set()
    for (method, path), op in operations(doc).items():
        errors = {c for c in op["responses"] if c[0] in "45"}
        assert errors <= statuses
        assert {"400", "500", "502", "503", "504", "408"} <= errors
        assert ("409" in errors) == (method in ("PUT", "PATCH")), (method, path)
        for code in errors:
            body = resolve(doc, op["responses"][code])["content"]["application/json"]["schema"]
            assert body == {"$ref": "#/components/schemas/Error"}
        seen |= errors
    assert seen == statuses
    assert "401" not in operations(doc)[("GET", "/settings/public")]["responses"]
    assert "404" in operations(doc)[("GET", "/devices/{id}")]["responses"]


def test_known_payloads_come_from_the_registry() -> None:
    ops = operations(newest())
    session = next(e for e in REGISTRY.endpoints if e.request_fields)
    op = ops[session.key]
    request = op["requestBody"]["content"]["application/json"]["schema"]
    assert request["required"] == list(session.request_fields)
    assert {k: v["type"] for k, v in request["properties"].items()} == dict(session.request_fields)
    answer = op["responses"]["200"]["content"]["application/json"]["schema"]
    assert answer["required"] == list(session.response_fields)
    unknown = ops[("POST", "/users/{id}/api-keys")]["requestBody"]
    assert unknown["required"] is False
    assert unknown["content"]["application/json"]["schema"] == {"type": "object"}


def test_reference_inheritance_and_section_schemas_hold_every_registry_field() -> None:
    schemas = newest()["components"]["schemas"]
    assert list(schemas["Reference"]["properties"]) == [f.name for f in REGISTRY.reference_fields]
    for section in REGISTRY.setting_sections:
        name = f"{section.name[0].upper()}{section.name[1:]}Section"
        props = schemas[name]["properties"]
        assert [f.name for f in section.fields] == list(props)[: len(section.fields)]
        assert set(props) >= {f.name for f in REGISTRY.inheritance_fields}
        assert schemas[name]["additionalProperties"] is True
        record_section = schemas["ObjectRecord"]["properties"][section.name]
        assert record_section["allOf"] == [{"$ref": f"#/components/schemas/{name}"}]
    source = schemas["WindowsconnectionSection"]["properties"]["_inheritancesource"]
    assert source["allOf"] == [{"$ref": "#/components/schemas/Reference"}]
    shadowed = schemas["WindowsconnectionSection"]["properties"]["_shadowed"]
    assert shadowed["anyOf"] == [
        {"$ref": "#/components/schemas/WindowsconnectionSectionShadowed"},
        {"type": "null"},
    ]
    copy = schemas["WindowsconnectionSectionShadowed"]["properties"]
    assert list(copy) == [f.name for f in REGISTRY.setting_sections[0].fields]
    record = schemas["ObjectRecord"]
    for field in REGISTRY.record_fields:
        node = record
        for part in field.name.split("."):
            node = node["properties"][part]
        shown = (field.notes or "").replace("<", "&lt;").replace(">", "&gt;")
        assert node.get("description", "") == shown
    href = record["properties"]["href"]["description"]
    assert href.endswith("form /api/v2/&lt;collection&gt;/&lt;id&gt;"), href
    assert record["properties"]["status"]["examples"] == list(REGISTRY.property("status").values)


def _refs(node: Any) -> set[str]:
    if isinstance(node, dict):
        found = {node["$ref"].rsplit("/", 1)[1]} if "$ref" in node else set()
        return found.union(*(_refs(v) for v in node.values()))
    if isinstance(node, list):
        return set().union(*(_refs(v) for v in node))
    return set()


def test_no_schema_reaches_itself_through_its_references() -> None:
    """Viewers that expand schemas (Stoplight Elements) overflow their stack on a cycle."""
    schemas = newest()["components"]["schemas"]
    for name in schemas:
        seen: set[str] = set()
        todo = set(_refs(schemas[name]))
        while todo:
            current = todo.pop()
            assert current != name, f"{name} refers to itself"
            if current not in seen:
                seen.add(current)
                todo |= _refs(schemas[current])


def test_descriptions_hold_no_raw_html_outside_code_spans() -> None:
    """Redoc and Elements render descriptions as Markdown with HTML: `<id>` would vanish."""
    from apispec.generate.commonmark import code_spans

    def descriptions(node: Any) -> list[str]:
        if isinstance(node, dict):
            own = [node["description"]] if isinstance(node.get("description"), str) else []
            return own + [
                d for k, v in node.items() if k != "x-codeSamples" for d in descriptions(v)
            ]
        if isinstance(node, list):
            return [d for v in node for d in descriptions(v)]
        return []

    found = descriptions(newest())
    assert len(found) > 100
    for text in found:
        for piece, is_code in code_spans(text):
            assert is_code or not set(piece) & set("<>"), text


def test_generated_tags_are_declared_and_used() -> None:
    doc = newest()
    declared = [t["name"] for t in doc["tags"]]
    used = {op["tags"][0] for op in operations(doc).values()}
    assert set(declared) == used
    assert declared == [t for t in REGISTRY.tags() if t in used]


def test_a_registry_change_flows_into_the_document(registry_copy: Path) -> None:
    errors = registry_copy / "errors.yaml"
    text = errors.read_text()
    errors.write_text(
        text.replace(
            "error_codes:\n",
            "error_codes:\n  - {code: RATE_LIMITED, meaning: too many requests, status: 503, "
            "status_source: inferred, basis: test}\n",
        )
    )
    changed: Registry = load_registry(registry_copy)
    doc = build_document(changed)
    assert "RATE_LIMITED" in doc["components"]["schemas"]["Error"]["properties"]["code"]["enum"]
    assert "`RATE_LIMITED`" in doc["components"]["responses"]["Error503"]["description"]


def test_cli_prints_json_and_writes_yaml(cli, tmp_path: Path) -> None:
    release = RELEASES[0]
    result = cli("openapi", "--release", release, "--format", "json")
    assert result.code == 0
    assert json.loads(result.out) == document(release)
    target = tmp_path / "api.yaml"
    result = cli("openapi", "-o", str(target))
    assert result.code == 0 and result.out == ""
    default = REGISTRY.newest_concrete_release.text  # a placeholder is used only when named
    assert result.err.startswith(
        f"apispec: note: release {default} (default: the newest concrete release; "
        "pass --release R for another)\n"
    )
    assert yaml.safe_load(target.read_text()) == document(default)
    as_json = tmp_path / "api.json"
    assert cli("openapi", "-o", str(as_json)).code == 0
    assert json.loads(as_json.read_text()) == document(default)


def test_cli_rejects_an_unknown_release(cli) -> None:
    result = cli("openapi", "--release", "24.3.101")
    assert result.code == 2
    assert result.err.startswith("apispec: error: unknown release '24.3.101'")
    assert "Traceback" not in result.err


def _is_template(segment: str) -> bool:
    return segment.startswith("{") and segment.endswith("}")


def _ambiguous_pairs(paths: list[str]) -> list[tuple[str, str]]:
    """Redocly's no-ambiguous-paths: two paths may share a URL only if one is more literal."""
    split = {p: p.strip("/").split("/") for p in paths}
    ambiguous = []
    for i, a in enumerate(paths):
        for b in paths[i + 1 :]:
            sa, sb = split[a], split[b]
            if len(sa) != len(sb):
                continue
            pairs = [(x, y) for x, y in zip(sa, sb, strict=True) if x != y]
            if any(not _is_template(x) and not _is_template(y) for x, y in pairs):
                continue  # two different literals: never the same URL
            a_first = all(not _is_template(x) for x, _ in pairs)
            b_first = all(not _is_template(y) for _, y in pairs)
            if not (a_first or b_first):
                ambiguous.append((a, b))
    return ambiguous


def test_no_two_paths_are_ambiguous() -> None:
    paths = sorted({e.path for e in REGISTRY.endpoints})
    assert _ambiguous_pairs(paths) == []
    # literal beside template is fine (the registry has such pairs); two templates are not
    assert "/experimental/devices/templates" in paths and "/experimental/devices/{id}" in paths
    assert _ambiguous_pairs(["/a/{x}", "/{y}/b", "/a/templates"]) == [("/a/{x}", "/{y}/b")]
