"""The MCP tool catalog of a release: one tool per endpoint, derived from the OpenAPI document.

The spec says the server's tools are named from "the operation ids of the API
description" with arguments mapped to path, query and body parameters, so the
catalog reads the same OpenAPI operations that `apispec openapi` prints: the
two can never disagree about an endpoint's parameters.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from typing import Any

from apispec.generate.openapi import build_document
from apispec.generate.openapi.build import API_PREFIX, resolve_release
from apispec.registry.model import Endpoint, Maturity, Registry
from apispec.registry.releases import Release

MAX_NAME = 64
BODY_ARGUMENT = "body"
META_PREFIX = "apispec/"

_HASH_DIGITS = 8


def tool_name(operation_id: str) -> str:
    """snake_case of the operation id; over 64 characters, cut and suffixed with a hash.

    Depends on the operation id alone, so an endpoint's tool keeps its name in
    every release.
    """
    name = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", operation_id)
    name = re.sub(r"[^A-Za-z0-9]+", "_", name).strip("_").lower()
    if len(name) <= MAX_NAME:
        return name
    digest = hashlib.sha256(operation_id.encode()).hexdigest()[:_HASH_DIGITS]
    return f"{name[: MAX_NAME - _HASH_DIGITS - 1].rstrip('_')}_{digest}"


@dataclass(frozen=True)
class CatalogEntry:
    """A tool and the endpoint a call of it goes to."""

    tool: dict[str, Any]
    endpoint: Endpoint

    @property
    def name(self) -> str:
        return str(self.tool["name"])


def _sentence(text: str) -> str:
    return f"{text[:1].upper()}{text[1:]}"


def _deprecation(registry: Registry, endpoint: Endpoint, release: Release) -> str:
    successor = registry.successor_of(endpoint)
    if successor is not None:
        use = f"use the tool `{tool_name(successor.operation_id)}` instead"
        if not registry.available_in(successor, release):
            use += f" (not available in {release})"
    else:
        use = f"successor: {endpoint.successor}"
    removal = (
        f"removed in {endpoint.removed_in}" if endpoint.removed_in else "no removal release named"
    )
    return f"DEPRECATED in {endpoint.deprecated_in}; {use}; {removal}."


def describe(registry: Registry, endpoint: Endpoint, release: Release) -> str:
    """Deprecation (with the successor tool) first, so a model sees it before anything else."""
    parts = []
    if endpoint.maturity is Maturity.DEPRECATED:
        parts.append(_deprecation(registry, endpoint, release))
    parts.append(f"{_sentence(endpoint.summary)} ({endpoint.method} {API_PREFIX}{endpoint.path}).")
    if endpoint.maturity is Maturity.EXPERIMENTAL:
        parts.append("Experimental: may change incompatibly between releases.")
    elif endpoint.maturity is Maturity.STABLE:
        parts.append("Stable.")
    if endpoint.is_list:
        parts.append(
            "Paginated with `limit` and `offset`; `filter`, `include` and `sort_by` work as in "
            "the REST API."
        )
    if endpoint.creates:
        parts.append(
            "Creates an object: answers 204 with its URL in `Location`; that URL answers 202 "
            "until the object is fully available."
        )
    if not endpoint.auth:
        parts.append("Needs no authentication.")
    return " ".join(parts)


def input_schema(operation: dict[str, Any]) -> dict[str, Any]:
    """Path and query parameters as top-level arguments; a request body as `body`."""
    properties: dict[str, Any] = {}
    required: list[str] = []
    for param in operation.get("parameters", ()):
        schema = dict(param["schema"])
        schema["description"] = f"{param['in']} parameter: {param['description']}"
        properties[param["name"]] = schema
        if param.get("required"):
            required.append(param["name"])
    body = operation.get("requestBody")
    if body is not None:
        schema = dict(body["content"]["application/json"]["schema"])
        schema.setdefault("description", body.get("description", "JSON request body."))
        properties[BODY_ARGUMENT] = schema
        if body.get("required"):
            required.append(BODY_ARGUMENT)
    result: dict[str, Any] = {"type": "object", "properties": properties}
    if required:
        result["required"] = required
    result["additionalProperties"] = False
    return result


def tool_annotations(endpoint: Endpoint) -> dict[str, Any]:
    """Hints from HTTP semantics; the GET endpoints that create objects are not read-only."""
    read_only = endpoint.method == "GET" and not endpoint.creates
    hints: dict[str, Any] = {"readOnlyHint": read_only}
    if not read_only:
        hints["destructiveHint"] = endpoint.method == "DELETE"
    hints["idempotentHint"] = read_only or endpoint.method in ("PUT", "DELETE")
    return hints


def _title(endpoint: Endpoint) -> str:
    title = _sentence(endpoint.summary)
    return title if endpoint.maturity is Maturity.STABLE else f"{title} ({endpoint.maturity})"


def build_catalog(registry: Registry, release: Release | str | None = None) -> list[CatalogEntry]:
    """One entry per endpoint available in `release` (default: newest), grouped by tag."""
    release = resolve_release(registry, release)
    document = build_document(registry, release)
    order = {tag: index for index, tag in enumerate(registry.tags())}
    endpoints = sorted(registry.endpoints_in(release), key=lambda e: order[e.tag])
    entries: list[CatalogEntry] = []
    seen: dict[str, Endpoint] = {}
    for endpoint in endpoints:
        operation = document["paths"][endpoint.path][endpoint.method.lower()]
        name = tool_name(operation["operationId"])
        if name in seen:
            raise ValueError(f"tool name {name!r} of {endpoint} repeats that of {seen[name]}")
        seen[name] = endpoint
        tool = {
            "name": name,
            "title": _title(endpoint),
            "description": describe(registry, endpoint, release),
            "inputSchema": input_schema(operation),
            "annotations": tool_annotations(endpoint),
            "_meta": {
                f"{META_PREFIX}tag": endpoint.tag,
                f"{META_PREFIX}operationId": endpoint.operation_id,
                f"{META_PREFIX}method": endpoint.method,
                f"{META_PREFIX}path": endpoint.path,
                f"{META_PREFIX}maturity": str(endpoint.maturity),
            },
        }
        entries.append(CatalogEntry(tool, endpoint))
    return entries


def build_tools(registry: Registry, release: Release | str | None = None) -> list[dict[str, Any]]:
    """The tool dicts (MCP `Tool` shape) of `release`, grouped by tag."""
    return [entry.tool for entry in build_catalog(registry, release)]
