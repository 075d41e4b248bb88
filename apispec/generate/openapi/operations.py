"""One OpenAPI operation per registry endpoint: parameters, responses, lifecycle.

The choices the spec leaves open (which error statuses an operation lists,
which reads may answer 202) are rules over registry facts, written in
docs/openapi.md, so a new registry endpoint gets them without code changes.
"""

from __future__ import annotations

import re
from typing import Any

from apispec.generate.openapi.samples import code_samples, sample_request
from apispec.generate.openapi.schemas import ERROR, OBJECT_RECORD, fields_schema, ref
from apispec.registry.model import Endpoint, Maturity, Registry

EXPERIMENTAL_PREFIX = "/experimental"
SECURITY_SCHEME = "bearerAuth"
FILTER_DOCS = "docs/filters.md"

# oasdiff skips breaking-change checks on `draft` and `alpha` operations.
STABILITY_LEVEL = {Maturity.EXPERIMENTAL: "alpha", Maturity.STABLE: "stable"}

# Headers the spec names outside the registry's pagination table (States section).
LOCATION = "Location"
WAIT_FOR = "Wait-For"
REQUEST_ID = "X-Request-Id"

# Which query parameter the registry's response-size limit bounds.
_PARAMETER_LIMITS = {"limit": "max_objects_per_response"}

# The object id of the spec's filter examples (`parentid = "2048"`).
SAMPLE_ID = "2048"

_PATH_PARAMETER_TEXT = {
    "id": "object id (numeric text)",
    "parent": "id of the parent object",
}

_COUNT = re.compile(r"\bnumber of\b")


def stability_level(endpoint: Endpoint) -> str:
    """Deprecated endpoints keep the level of their path: oasdiff forbids lowering it."""
    if endpoint.maturity is Maturity.DEPRECATED:
        experimental = endpoint.is_experimental_path
        return STABILITY_LEVEL[Maturity.EXPERIMENTAL if experimental else Maturity.STABLE]
    return STABILITY_LEVEL[endpoint.maturity]


def header_schema(content: str) -> dict[str, Any]:
    return {"type": "integer", "minimum": 0} if _COUNT.search(content) else {"type": "string"}


def error_response_name(status: int) -> str:
    return f"Error{status}"


def error_statuses(registry: Registry, endpoint: Endpoint) -> list[int]:
    """The registry's error statuses that can answer this endpoint.

    401 and 403 need an authenticated endpoint (or credentials in the body, as
    on POST /session); 404 needs an object named in the path; 409 is for PUT
    and PATCH only. Every other status can answer any request.
    """
    statuses = []
    for status in (s.status for s in registry.http_statuses):
        if status == 401 and not (endpoint.auth or endpoint.request_fields):
            continue
        if status == 403 and not endpoint.auth:
            continue
        if status == 404 and not endpoint.path_params:
            continue
        if status == 409 and endpoint.method not in ("PUT", "PATCH"):
            continue
        statuses.append(status)
    return statuses


def _collection_shape(registry: Registry, endpoint: Endpoint) -> str | None:
    """`list` or `single` when the path addresses an object kind's collection or one member."""
    path = endpoint.path.removeprefix(EXPERIMENTAL_PREFIX)
    for kind in registry.object_kinds:
        if not kind.collection:
            continue
        base = f"/{kind.collection}"
        if path == base:
            return "list"
        rest = path.removeprefix(base + "/")
        if rest != path and re.fullmatch(r"\{[a-z_]+\}", rest):
            return "single"
    return None


def _path_example(registry: Registry, name: str) -> str:
    """An example value: the id the spec's own filter examples use, the root's id, a kind.

    Where the spec shows no value (a time-series `type`, a lookup `name`) the
    example is the parameter's name in capitals, plainly a stand-in.
    """
    if name == "id":
        return SAMPLE_ID
    if name == "parent":
        return registry.root["id"]
    if name == "kind":
        return next(k.name for k in registry.object_kinds if k.tree_level is not None)
    return name.upper()


def _path_parameters(registry: Registry, endpoint: Endpoint) -> list[dict[str, Any]]:
    return [
        {
            "name": name,
            "in": "path",
            "required": True,
            "description": _PATH_PARAMETER_TEXT.get(
                name, f"`{name}` segment of the path (string; values not shown in the spec)"
            ),
            "schema": {"type": "string"},
            "example": _path_example(registry, name),
        }
        for name in endpoint.path_params
    ]


def _filter_text(registry: Registry, rule: str) -> str:
    rows = "\n".join(
        f"| `{p.name}` | {p.type}{' (several values)' if p.multi_valued else ''} "
        f"| {' '.join(f'`{o}`' for o in p.operators)} |"
        for p in registry.properties
    )
    return (
        f"{rule[:1].upper()}{rule[1:]}. Syntax: `<property> <operator> <value>`, combined with "
        f"`and`, `or`, `not(...)`; see the [filter documentation]({FILTER_DOCS}).\n\n"
        f"| Property | Type | Operators |\n|---|---|---|\n{rows}"
    )


def query_parameters(registry: Registry, endpoint: Endpoint) -> list[dict[str, Any]]:
    """The common list parameters, typed from the registry's parameter table."""
    parameters = []
    for param in registry.query_parameters:
        description = f"{param.rule[:1].upper()}{param.rule[1:]}."
        style: dict[str, Any] = {}
        if param.type == "integer":
            schema: dict[str, Any] = {"type": "integer", "minimum": 0}
            if param.name in _PARAMETER_LIMITS:
                schema["maximum"] = registry.limit(_PARAMETER_LIMITS[param.name])
        elif param.type == "comma-separated strings":
            schema = {"type": "array", "items": {"type": "string"}}
            style = {"style": "form", "explode": False}
            sections = [s.name for s in registry.setting_sections]
            if sections:
                schema["examples"] = [sections]
        elif param.type == "string":
            schema = {"type": "string"}
            if param.name == "filter":
                description = _filter_text(registry, param.rule)
                schema["examples"] = [
                    x.filter
                    for x in registry.filter_examples
                    if x.endpoint in (None, endpoint.path)
                ]
        else:
            raise ValueError(f"query parameter type {param.type!r} has no OpenAPI mapping")
        parameters.append(
            {
                "name": param.name,
                "in": "query",
                "required": False,
                "description": description,
                "schema": schema,
                **style,
            }
        )
    return parameters


def _headers(*names: str) -> dict[str, Any]:
    return {name: {"$ref": f"#/components/headers/{name}"} for name in names}


def _json(schema: dict[str, Any]) -> dict[str, Any]:
    return {"application/json": {"schema": schema}}


def _success(registry: Registry, endpoint: Endpoint) -> dict[str, Any]:
    pagination = [h.name for h in registry.pagination_headers]
    if endpoint.creates:
        return {
            "204": {
                "description": "Created. `Location` holds the URL of the new object; until it "
                "is fully available a GET on that URL answers 202 with `Wait-For`.",
                "headers": _headers(LOCATION, REQUEST_ID),
            }
        }
    if endpoint.response_fields:
        body = fields_schema(dict(endpoint.response_fields), "Response body.")
        return {
            "200": {
                "description": "Success.",
                "headers": _headers(REQUEST_ID),
                "content": _json(body),
            }
        }
    if endpoint.method != "GET":
        return {
            "2XX": {
                "description": "Success; the status and payload are not shown in the spec.",
                "headers": _headers(REQUEST_ID),
            }
        }
    shape = _collection_shape(registry, endpoint)
    item: dict[str, Any] = ref(OBJECT_RECORD) if shape else {}
    if endpoint.is_list:
        return {
            "200": {
                "description": "The page of results; the pagination headers describe the rest.",
                "headers": _headers(*pagination),
                "content": _json({"type": "array", "items": item}),
            }
        }
    answers: dict[str, Any] = {
        "200": {
            "description": "Success." + ("" if shape else " The payload is not shown in the spec."),
            "headers": _headers(REQUEST_ID),
            "content": _json(item),
        }
    }
    if shape == "single":
        answers["202"] = {
            "description": "The object was created but is not yet fully available; no body. "
            "Retry after the time `Wait-For` suggests.",
            "headers": _headers(WAIT_FOR, REQUEST_ID),
        }
    return answers


def _request_body(endpoint: Endpoint) -> dict[str, Any] | None:
    if endpoint.request_fields:
        schema = fields_schema(dict(endpoint.request_fields), "Request body.")
        return {"required": True, "content": _json(schema)}
    if endpoint.method in ("POST", "PUT", "PATCH"):
        return {
            "required": False,
            "description": "JSON body; its fields are not shown in the spec.",
            "content": _json({"type": "object"}),
        }
    return None


def lifecycle(registry: Registry, endpoint: Endpoint) -> dict[str, Any]:
    """The vendor extensions that carry the registry's lifecycle fields."""
    fields: dict[str, Any] = {
        "x-maturity": str(endpoint.maturity),
        "x-stability-level": stability_level(endpoint),
    }
    for key, value in (
        ("x-since", endpoint.since),
        ("x-deprecated-in", endpoint.deprecated_in),
        ("x-removed-in", endpoint.removed_in),
        ("x-successor", endpoint.successor),
    ):
        if value is not None:
            fields[key] = str(value)
    successor = registry.successor_of(endpoint)
    if successor is not None:
        fields["x-successor-operation-id"] = successor.operation_id
    return fields


def describe(registry: Registry, endpoint: Endpoint) -> str:
    """Operation description: maturity and lifecycle first, then the registry's notes."""
    lines = []
    if endpoint.maturity is Maturity.DEPRECATED:
        removal = (
            f"removed in {endpoint.removed_in}"
            if endpoint.removed_in
            else "no removal release is named"
        )
        successor = registry.successor_of(endpoint)
        if successor is not None:
            use = f"use `{successor}` (`{successor.operation_id}`) instead"
        else:
            use = f"successor: {endpoint.successor}"
        lines.append(
            f"**Deprecated** in {endpoint.deprecated_in}; {removal}; {use}. "
            "Deprecated endpoints are unsupported."
        )
    elif endpoint.maturity is Maturity.EXPERIMENTAL:
        lines.append("**Experimental**: may change incompatibly between releases.")
    else:
        lines.append("**Stable**: only additive changes.")
    if endpoint.since is not None:
        lines.append(f"Available since {endpoint.since}.")
    if not endpoint.auth:
        lines.append("Needs no authentication.")
    lines.extend(endpoint.notes)
    return "\n\n".join(lines)


def _listed_query(registry: Registry, endpoint: Endpoint) -> list[dict[str, Any]]:
    """The query parameters an overlay lists: the common ones typed as usual, others as text."""
    assert endpoint.query is not None
    common = {p["name"]: p for p in query_parameters(registry, endpoint)}
    return [
        common.get(name)
        or {
            "name": name,
            "in": "query",
            "required": False,
            "description": "A parameter the server's own description lists (from an overlay).",
            "schema": {"type": "string"},
        }
        for name in endpoint.query
    ]


def build_operation(registry: Registry, endpoint: Endpoint) -> dict[str, Any]:
    parameters = _path_parameters(registry, endpoint)
    if endpoint.query is not None:
        parameters += _listed_query(registry, endpoint)
    elif endpoint.is_list:
        parameters += query_parameters(registry, endpoint)
    responses = _success(registry, endpoint)
    for status in error_statuses(registry, endpoint):
        responses[str(status)] = {"$ref": f"#/components/responses/{error_response_name(status)}"}
    operation: dict[str, Any] = {
        "operationId": endpoint.operation_id,
        "tags": [endpoint.tag],
        "summary": f"{endpoint.summary[:1].upper()}{endpoint.summary[1:]}",
        "description": describe(registry, endpoint),
    }
    if parameters:
        operation["parameters"] = parameters
    body = _request_body(endpoint)
    if body is not None:
        operation["requestBody"] = body
    operation["responses"] = responses
    if endpoint.maturity is Maturity.DEPRECATED:
        operation["deprecated"] = True
    if not endpoint.auth:
        operation["security"] = []
    operation.update(lifecycle(registry, endpoint))
    operation["x-codeSamples"] = code_samples(sample_request(endpoint, operation))
    return operation


def error_response(registry: Registry, status: int, condition: str) -> dict[str, Any]:
    codes = ", ".join(f"`{c.code}`" for c in registry.error_codes if c.status == status)
    text = f"{condition[:1].upper()}{condition[1:]}."
    if codes:
        text += f" Error codes: {codes}."
    return {
        "description": text,
        "headers": _headers(REQUEST_ID),
        "content": _json(ref(ERROR)),
    }
