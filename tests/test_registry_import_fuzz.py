"""Any description an import accepts gives an overlay every command can load.

Descriptions are generated from OpenAPI's own vocabulary (paths, operations,
parameters, schemas, lifecycle extensions, `$ref`s to places that may or may
not exist), so the import meets contradictions and broken shapes that no
fixture has. The property: the import ends with a one-line ApispecError or an
overlay that `registry check` accepts.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from apispec.registry.files import read_registry
from apispec.registry.importer.overlay import build_overlay, render
from apispec.registry.importer.run import read_description
from apispec.registry.load import load_registry
from apispec.registry.overlays import check_overlays
from apispec.support.exceptions import ApispecError

KEYS = st.sampled_from(
    [
        "get", "post", "patch", "delete", "parameters", "responses", "200", "201", "content",
        "application/json", "schema", "items", "properties", "status", "type", "allOf",
        "oneOf", "enum", "$ref", "name", "in", "deprecated", "x-stability-level", "x-maturity",
        "x-since", "x-deprecated-in", "x-removed-in", "x-successor", "security", "headers",
        "Location", "operationId", "tags", "summary", "description",
    ]
)  # fmt: skip
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-2, 300),
    st.sampled_from(
        [
            "query",
            "path",
            "filter",
            "limit",
            "offset",
            "beta",
            "stable",
            "deprecated",
            "alpha",
            "up",
            "down",
            "warning",
            "Up Down",
            "24.3.100",
            "25.x.122",
            "25.x.1xx",
            "26.1.1",
            "GET /health",
            "GET /devices/{id}",
            "GET /experimental/devices",
            "to be decided",
            "#/paths",
            "#/components/schemas/A",
            "#/components/schemas/B",
            "#",
            "#/nowhere",
            "getHealth",
            "",
            "x y",
        ]
    ),
    st.text(max_size=6),
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(KEYS, inner, max_size=5)),
    max_leaves=25,
)
PATHS = st.sampled_from(
    [
        "/health", "/version", "/devices/{deviceId}", "/devices/{id}", "/devices",
        "/devices/{deviceId}/pause", "/experimental/devices", "/api/v2/objects",
        "/experimental/devices/{id}", "/sensors/{sensorId}", "/Odd_Path", "/",
    ]
)  # fmt: skip
REFS = st.sampled_from(
    ["#/components/schemas/A", "#/components/schemas/B", "#/nowhere", "#", "other.json"]
)
SCHEMAS = st.recursive(
    st.one_of(
        st.fixed_dictionaries({"$ref": REFS}),
        st.fixed_dictionaries({"type": st.just("string"), "enum": st.lists(SCALARS, max_size=4)}),
    ),
    lambda inner: st.one_of(
        st.fixed_dictionaries({"type": st.just("array"), "items": inner}),
        st.fixed_dictionaries(
            {
                "properties": st.dictionaries(
                    st.sampled_from(["status", "type", "basic", "items"]), inner, max_size=3
                )
            }
        ),
        st.fixed_dictionaries({"allOf": st.lists(inner, max_size=3)}),
    ),
    max_leaves=8,
)
PARAMETERS = st.lists(
    st.one_of(
        st.fixed_dictionaries(
            {
                "name": st.sampled_from(["filter", "limit", "offset", "duration", "x y", "id"]),
                "in": st.sampled_from(["query", "path", "header"]),
            }
        ),
        st.fixed_dictionaries({"$ref": REFS}),
    ),
    max_size=4,
)
RESPONSES = st.dictionaries(
    st.sampled_from(["200", "201", "204", "404"]),
    st.fixed_dictionaries(
        {},
        optional={
            "content": st.fixed_dictionaries(
                {"application/json": st.fixed_dictionaries({"schema": SCHEMAS})}
            ),
            "headers": st.fixed_dictionaries({"Location": st.just({})}),
            "$ref": REFS,
        },
    ),
    max_size=2,
)
OPERATIONS = st.fixed_dictionaries(
    {},
    optional={
        "operationId": st.sampled_from(["getHealth", "get_device", "listDevices", "9x", "a b"]),
        "summary": SCALARS,
        "tags": st.lists(SCALARS, max_size=2),
        "deprecated": st.booleans(),
        "security": st.sampled_from([[], [{"bearer": []}]]),
        "parameters": PARAMETERS,
        "responses": RESPONSES,
        "x-stability-level": SCALARS,
        "x-maturity": SCALARS,
        "x-since": SCALARS,
        "x-deprecated-in": SCALARS,
        "x-removed-in": SCALARS,
        "x-successor": SCALARS,
    },
)
PATH_ITEMS = st.one_of(
    st.dictionaries(
        st.sampled_from(["get", "post", "patch", "delete", "head"]), OPERATIONS, max_size=3
    ),
    st.fixed_dictionaries({"$ref": st.sampled_from(["#/paths/~1health", "#/x", "#"])}),
    VALUES,
)
DOCUMENTS = st.fixed_dictionaries(
    {
        "openapi": st.just("3.1.0"),
        "info": st.fixed_dictionaries(
            {"title": st.just("fuzz"), "version": st.sampled_from(["25.x.122", "25.2.130"])}
        ),
        "paths": st.dictionaries(PATHS, PATH_ITEMS, max_size=5),
        "components": st.fixed_dictionaries(
            {"schemas": st.dictionaries(st.sampled_from(["A", "B"]), SCHEMAS, max_size=2)}
        ),
    }
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(DOCUMENTS)
def test_an_accepted_description_gives_a_loadable_overlay(document: dict) -> None:
    registry = load_registry()
    with tempfile.TemporaryDirectory() as temporary:
        root = Path(temporary)
        source = root / "openapi.json"
        source.write_text(json.dumps(document))
        try:
            description = read_description(str(source), registry)
        except ApispecError as exc:
            assert "\n" not in str(exc)
            return
        overlay = build_overlay(description, registry)
        (root / "overlay").mkdir()
        (root / "overlay" / "overlay.yaml").write_text(render(overlay, str(source)))
        _, findings, _ = check_overlays(read_registry(), [root / "overlay"])
        errors = [str(f) for f in findings if f.severity == "error"]
        assert errors == [], (errors, overlay)
