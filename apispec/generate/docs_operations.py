"""What the reference docs show of each operation, read from its OpenAPI operation.

One source: parameters, bodies, responses, headers, error codes, security and
code samples all come from `build_operation`, the builder of the OpenAPI
document, with its `$ref`s resolved against the same components. The docs
never describe an operation a second time; they lay out what the document
says, so the two cannot disagree.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from apispec.generate.openapi.build import DEFAULT_BASE_URL, component_headers
from apispec.generate.openapi.operations import build_operation, error_response, error_response_name
from apispec.generate.openapi.samples import (
    LANGUAGES,
    RENDERERS,
    Env,
    SampleRequest,
    sample_request,
)
from apispec.generate.openapi.schemas import component_schemas
from apispec.registry.model import Endpoint, Registry

FENCE_LANGUAGE = {"curl": "bash", "python": "python", "powershell": "powershell"}
_MAX_DEPTH = 3
_MD_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")
# A word for the page's search: letters, digits and `_` (JavaScript: [\p{L}\p{N}_]+).
_WORD = re.compile(r"[^\W]+")


@dataclass(frozen=True)
class Parameter:
    name: str
    where: str
    type: str
    required: bool
    limits: str
    description: str
    example: str


@dataclass(frozen=True)
class FieldRow:
    name: str
    type: str
    required: bool
    description: str


@dataclass(frozen=True)
class Header:
    name: str
    type: str
    description: str


@dataclass(frozen=True)
class Response:
    status: str
    description: str
    headers: tuple[Header, ...]
    body_type: str
    fields: tuple[FieldRow, ...]
    codes: tuple[tuple[str, str], ...]  # (error code, meaning)

    @property
    def success(self) -> bool:
        return self.status.startswith("2")


@dataclass(frozen=True)
class Sample:
    key: str
    label: str
    fence: str
    source: str


class Components:
    """Every component an operation may point at, for resolving `$ref`s."""

    def __init__(self, registry: Registry) -> None:
        self.tables = {
            "schemas": component_schemas(registry),
            "headers": component_headers(registry),
            "responses": {
                error_response_name(s.status): error_response(registry, s.status, s.condition)
                for s in registry.http_statuses
            },
        }

    def resolve(self, node: dict[str, Any]) -> tuple[str | None, dict[str, Any]]:
        """(component name or None, the node with its `$ref` followed)."""
        name = None
        while "$ref" in node:
            _, _, kind, name = node["$ref"].split("/")
            node = self.tables[kind][name]
        return name, node


def type_text(schema: dict[str, Any], components: Components) -> str:
    """A short type name: `string`, `integer`, `array of ObjectRecord`, `Reference or null`."""
    if "$ref" in schema:
        return components.resolve(schema)[0] or "object"
    for key in ("allOf", "anyOf", "oneOf"):
        if key in schema:
            return " or ".join(type_text(s, components) for s in schema[key])
    kind = schema.get("type", "any JSON")
    if isinstance(kind, list):
        return " or ".join(kind)
    if kind == "array":
        return f"array of {type_text(schema.get('items', {}), components)}"
    return str(kind)


def field_rows(
    schema: dict[str, Any], components: Components, prefix: str = "", depth: int = 0
) -> list[FieldRow]:
    """An object schema's fields, nested objects written out with dotted names.

    A field typed by another component is named, not expanded, so a record's
    setting sections stay one line each.
    """
    _, schema = components.resolve(schema)
    if schema.get("type") == "array":
        _, schema = components.resolve(schema.get("items", {}))
    required = set(schema.get("required", ()))
    rows: list[FieldRow] = []
    for name, prop in schema.get("properties", {}).items():
        description = prop.get("description", "")
        inline_object = "$ref" not in prop and prop.get("type") == "object"
        if inline_object and prop.get("properties") and depth < _MAX_DEPTH:
            rows += field_rows(prop, components, f"{prefix}{name}.", depth + 1)
            continue
        first = description.split("\n\n")[0]
        rows.append(FieldRow(prefix + name, type_text(prop, components), name in required, first))
    return rows


def _example_string(name: str, kind: str | None, collection: str | None) -> str:
    if name == "id":
        return "2048"
    if name == "href" and collection:
        return f"/api/v2/{collection}/2048"
    if name in ("kind", "type") and kind:
        return kind
    if name == "parentid":
        return "0"
    if name == "name" and kind:
        return f"example {kind}"
    return "string"


def example_value(
    schema: dict[str, Any],
    components: Components,
    name: str = "",
    kind: str | None = None,
    collection: str | None = None,
    depth: int = 0,
) -> Any:
    """An illustrative value of a schema, as Swagger UI writes one (`"string"`, 0, false)."""
    ref, schema = components.resolve(schema)
    if name in ("kind", "type") and kind:
        return kind
    if schema.get("examples"):
        return schema["examples"][0]
    if "allOf" in schema:
        return example_value(schema["allOf"][0], components, name, kind, collection, depth)
    kind_of_value = schema.get("type")
    if isinstance(kind_of_value, list):
        kind_of_value = kind_of_value[0]
    if kind_of_value == "array":
        item = example_value(schema.get("items", {}), components, name, kind, collection, depth)
        return [item]
    if kind_of_value == "object" or "properties" in schema:
        out = {}
        for key, prop in schema.get("properties", {}).items():
            optional_section = "allOf" in prop or "anyOf" in prop or "$ref" in prop
            if optional_section and (depth > 0 or ref):
                continue  # setting sections come only with `include`
            out[key] = example_value(prop, components, key, kind, collection, depth + 1)
        return out
    if kind_of_value == "boolean":
        return False
    if kind_of_value in ("integer", "number"):
        return 0
    if kind_of_value == "string":
        return _example_string(name, kind, collection)
    return {}


def _kind_of(registry: Registry, path: str) -> tuple[str | None, str | None]:
    """The object kind and collection an endpoint path lists or addresses (longest match)."""
    rest = path.removeprefix("/experimental")
    best = None
    for kind in registry.object_kinds:
        matches = kind.collection and (
            rest == f"/{kind.collection}" or rest.startswith(f"/{kind.collection}/")
        )
        if matches and (best is None or len(kind.collection or "") > len(best.collection or "")):
            best = kind
    return (best.name, best.collection) if best else (None, None)


def _limits(schema: dict[str, Any]) -> str:
    parts = []
    if "minimum" in schema:
        parts.append(f"min {schema['minimum']}")
    if "maximum" in schema:
        parts.append(f"max {schema['maximum']}")
    if schema.get("style") == "form" or schema.get("type") == "array":
        parts.append("comma-separated")
    return ", ".join(parts)


class OperationDocs:
    """The docs of one endpoint, from the same operation the OpenAPI document holds."""

    def __init__(self, registry: Registry, endpoint: Endpoint, components: Components) -> None:
        self.registry = registry
        self.endpoint = endpoint
        self.components = components
        self.operation = build_operation(registry, endpoint)
        self.kind, self.collection = _kind_of(registry, endpoint.path)

    @cached_property
    def parameters(self) -> tuple[Parameter, ...]:
        out = []
        for p in self.operation.get("parameters", ()):
            schema = p["schema"]
            description = _MD_LINK.sub(r"\1", p.get("description", "").split("\n\n")[0])
            example = p.get(
                "example", schema.get("examples", [""])[0] if schema.get("examples") else ""
            )
            if isinstance(example, list):
                example = ",".join(map(str, example))
            out.append(
                Parameter(
                    p["name"],
                    p["in"],
                    type_text(schema, self.components),
                    p["required"],
                    _limits({**schema, **({"style": p["style"]} if "style" in p else {})}),
                    description,
                    str(example),
                )
            )
        return tuple(out)

    @cached_property
    def filter_properties(self) -> tuple[str, ...]:
        """The filterable properties that apply to what this list endpoint returns."""
        if not any(p.name == "filter" for p in self.parameters):
            return ()
        return tuple(
            p.name
            for p in self.registry.properties
            if not p.applies_to or self.kind is None or self.kind in p.applies_to
        )

    @cached_property
    def request_body(self) -> tuple[str, tuple[FieldRow, ...]] | None:
        body = self.operation.get("requestBody")
        if body is None:
            return None
        schema = body["content"]["application/json"]["schema"]
        return body.get("description", ""), tuple(field_rows(schema, self.components))

    @cached_property
    def responses(self) -> tuple[Response, ...]:
        out = []
        for status, answer in self.operation["responses"].items():
            name, answer = self.components.resolve(answer)
            headers = []
            for header, spec in answer.get("headers", {}).items():
                _, spec = self.components.resolve(spec)
                headers.append(
                    Header(header, type_text(spec["schema"], self.components), spec["description"])
                )
            content = answer.get("content", {}).get("application/json")
            schema = content["schema"] if content else None
            codes: tuple[tuple[str, str], ...] = ()
            if name is not None and status.isdigit():
                codes = tuple(
                    (c.code, c.meaning)
                    for c in self.registry.error_codes
                    if c.status == int(status)
                )
            out.append(
                Response(
                    status,
                    answer["description"].split(" Error codes:")[0],
                    tuple(headers),
                    type_text(schema, self.components) if schema is not None else "",
                    tuple(field_rows(schema, self.components)) if schema is not None else (),
                    codes,
                )
            )
        return tuple(out)

    @cached_property
    def request(self) -> SampleRequest:
        return sample_request(self.endpoint, self.operation)

    @cached_property
    def samples(self) -> tuple[Sample, ...]:
        return tuple(
            Sample(key, label, FENCE_LANGUAGE[key], RENDERERS[key](self.request))
            for key, _, label in LANGUAGES
        )

    @cached_property
    def http_request(self) -> str:
        """The example request as it goes over the wire."""
        host = DEFAULT_BASE_URL.split("://", 1)[1]
        url = self.request.url("/api/v2")
        lines = [f"{self.endpoint.method} {url} HTTP/1.1", f"Host: {host}"]
        if self.endpoint.auth:
            lines.append("Authorization: Bearer <token>")
        body = self.request.body
        if body is not None:
            shown = {k: f"<{k}>" if isinstance(v, Env) else v for k, v in body.items()}
            lines += ["Content-Type: application/json", "", json.dumps(shown)]
        return "\n".join(lines)

    @cached_property
    def response_example(self) -> tuple[str, str, str]:
        """(status, headers, JSON body or "") of the documented success answer."""
        success = next(r for r in self.responses if r.success)
        answer = self.operation["responses"][success.status]
        content = answer.get("content", {}).get("application/json")
        body = ""
        if content is not None:
            value = example_value(
                content["schema"], self.components, "", self.kind, self.collection
            )
            body = json.dumps(value, indent=2)
        lines = []
        for header in success.headers:
            if header.name == "Location":
                lines.append(f"Location: /api/v2/{self.collection or 'objects'}/2049")
            elif header.type == "integer":
                lines.append(f"{header.name}: 1")
            elif header.name == "X-Request-Id":
                lines.append(f"{header.name}: 9f0c3b2e")
        status = "200" if success.status == "2XX" else success.status
        return status, "\n".join(lines), body

    @cached_property
    def error_codes(self) -> tuple[tuple[str, int, str], ...]:
        statuses = {int(r.status) for r in self.responses if r.status.isdigit() and not r.success}
        return tuple(
            (c.code, c.status, c.meaning) for c in self.registry.error_codes if c.status in statuses
        )

    @property
    def auth(self) -> bool:
        return self.endpoint.auth

    @cached_property
    def search_text(self) -> str:
        """What the reader sees of the operation, for the page's search box: the method and
        path as written (a path typed into the box is looked up as it is written), then every
        word shown once: ids, summary, notes, parameters, bodies, statuses, headers, fields,
        error codes and filter properties. The page matches each word typed against the
        beginnings of these words, so `move` finds `/move` but not `removed`."""
        e = self.endpoint
        shown = [e.operation_id, e.summary, e.tag, *e.notes, *self.filter_properties]
        if e.auth:
            shown.append("Authorization: Bearer")
        for p in self.parameters:
            shown += [p.name, p.where, p.type, p.limits, p.description, p.example]
        if self.request_body is not None:
            description, fields = self.request_body
            shown.append(description)
            shown += [f"{f.name} {f.type} {f.description}" for f in fields]
        for r in self.responses:
            shown += [r.status, r.description, r.body_type]
            shown += [f"{h.name} {h.type} {h.description}" for h in r.headers]
            shown += [f"{f.name} {f.type} {f.description}" for f in r.fields]
            shown += [f"{code} {meaning}" for code, meaning in r.codes]
        words = dict.fromkeys(_WORD.findall(" ".join(shown).lower()))
        return f"{e.method.lower()} {e.path.lower()} {' '.join(words)}"

    @cached_property
    def try_it(self) -> dict[str, Any]:
        """What the try-it panel needs, as JSON for the page's script."""
        request = self.request
        return {
            "method": self.endpoint.method,
            "path": self.endpoint.path,
            "auth": self.endpoint.auth,
            "path_params": [{"name": k, "example": v} for k, v in request.path_values.items()],
            "query": [p.name for p in self.parameters if p.where == "query"],
            "query_examples": {k: str(v) for k, v in request.query},
            "body": None
            if request.body is None
            else json.dumps({k: "" if isinstance(v, Env) else v for k, v in request.body.items()}),
        }
