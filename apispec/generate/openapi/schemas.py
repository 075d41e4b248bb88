"""Component schemas: what the spec shows of records, references, settings and errors.

Every schema stays open (`additionalProperties` allowed): the spec names some
fields and says the rest is "not shown", so a client must accept more.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from apispec.registry.model import Field, Registry

REFERENCE = "Reference"
OBJECT_RECORD = "ObjectRecord"
ERROR = "Error"

# The spec's error body fields. The registry has no table for them (reported to
# the lead); `request_id` ties the body to the X-Request-Id header.
ERROR_FIELDS = (
    ("code", "one of the error codes of the API"),
    ("message", "human-readable text"),
    ("request_id", "request identifier; the same value is sent in the response header"),
)


def ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def section_schema_name(section: str) -> str:
    """`windowsconnection` -> `WindowsconnectionSection` (component names are identifiers)."""
    return f"{section[:1].upper()}{section[1:]}Section"


def shadowed_schema_name(section: str) -> str:
    """`windowsconnection` -> `WindowsconnectionSectionShadowed`: the `_shadowed` copy."""
    return section_schema_name(section) + "Shadowed"


def schema_for_type(type_text: str) -> dict[str, Any]:
    """Map a registry field type to JSON Schema; an unknown type fails loudly, never guesses."""
    simple: dict[str, dict[str, Any]] = {
        "string": {"type": "string"},
        "text": {"type": "string"},
        # The complete value lists are not shown, so no `enum` is invented.
        "enumeration": {"type": "string"},
        "boolean": {"type": "boolean"},
        "integer": {"type": "integer"},
        "number": {"type": "number"},
        "list of text": {"type": "array", "items": {"type": "string"}},
        "reference": ref(REFERENCE),
        "object or null": {"type": ["object", "null"]},
    }
    try:
        return dict(simple[type_text])
    except KeyError:
        raise ValueError(f"registry field type {type_text!r} has no JSON Schema mapping") from None


def _field_schema(field: Field, extra: dict[str, Any] | None = None) -> dict[str, Any]:
    schema = schema_for_type(field.type)
    if field.notes:
        if "$ref" in schema:  # 3.1 allows siblings of $ref; keep the note visible
            schema = {"allOf": [schema]}
        schema["description"] = field.notes
    schema.update(extra or {})
    return schema


def _open_object(properties: dict[str, Any], description: str) -> dict[str, Any]:
    return {
        "type": "object",
        "description": description,
        "properties": properties,
        "additionalProperties": True,
    }


def _nested(fields: Iterable[tuple[str, dict[str, Any]]]) -> dict[str, Any]:
    """Dotted field names (`basic.host`) become nested objects, as filters address them."""
    properties: dict[str, Any] = {}
    for name, schema in fields:
        head, dot, rest = name.partition(".")
        if not dot:
            properties[name] = schema
            continue
        holder = properties.setdefault(
            head,
            _open_object({}, f"the `{head}` part of the record"),
        )
        holder["properties"].update(_nested([(rest, schema)]))
    return properties


def _values(registry: Registry) -> dict[str, dict[str, Any]]:
    """Enumeration values as `examples`, or as the `enum` when an overlay says they are all."""
    return {
        p.name: {"enum" if p.values_complete else "examples": list(p.values)}
        for p in registry.properties
        if p.values
    }


def record_schema(registry: Registry) -> dict[str, Any]:
    values = _values(registry)
    fields = [(f.name, _field_schema(f, values.get(f.name))) for f in registry.record_fields]
    properties = _nested(fields)
    for section in registry.setting_sections:
        properties[section.name] = {
            "allOf": [ref(section_schema_name(section.name))],
            "description": f"setting section, returned when `include` names `{section.name}`",
        }
    kinds = ", ".join(k.name for k in registry.object_kinds if k.collection)
    return _open_object(
        properties,
        f"An object record ({kinds}): the fields the spec shows on object records; "
        "other fields are not shown and may be present.",
    )


def reference_schema(registry: Registry) -> dict[str, Any]:
    properties = {f.name: _field_schema(f) for f in registry.reference_fields}
    return _open_object(properties, "A reference to another object.")


def section_schema(registry: Registry, name: str) -> dict[str, Any]:
    section = next(s for s in registry.setting_sections if s.name == name)
    properties = {f.name: _field_schema(f) for f in section.fields}
    for field in registry.inheritance_fields:
        schema = _field_schema(field)
        if schema.get("type") == ["object", "null"]:
            # The shadowed copy holds the section's settings without the underscore
            # fields, so it has a schema of its own: a section schema naming itself
            # would be infinite for viewers that expand schemas (Stoplight Elements).
            schema = {"anyOf": [ref(shadowed_schema_name(name)), {"type": "null"}]}
            schema["description"] = field.notes
        properties[field.name] = schema
    description = " ".join(
        (
            f"Setting section `{name}`.",
            *section.notes,
            "The underscore fields are present only with `include=inheritance`.",
        )
    )
    return _open_object(properties, description)


def shadowed_schema(registry: Registry, name: str) -> dict[str, Any]:
    section = next(s for s in registry.setting_sections if s.name == name)
    properties = {f.name: _field_schema(f) for f in section.fields}
    return _open_object(
        properties,
        f"The settings of section `{name}` as defined on the inheritance source "
        "(`_shadowed`): the section's fields, without the underscore fields.",
    )


def error_schema(registry: Registry) -> dict[str, Any]:
    codes = "\n".join(f"- `{c.code}` ({c.status}): {c.meaning}" for c in registry.error_codes)
    properties: dict[str, Any] = {
        name: {"type": "string", "description": text} for name, text in ERROR_FIELDS
    }
    properties["code"]["enum"] = [c.code for c in registry.error_codes]
    properties["code"]["description"] += f":\n\n{codes}"
    schema = _open_object(properties, "The body of every error response.")
    schema["required"] = [name for name, _ in ERROR_FIELDS]
    return schema


def fields_schema(fields: dict[str, str], description: str) -> dict[str, Any]:
    """A request or response body whose fields the registry lists (all of them required)."""
    schema = _open_object({k: schema_for_type(v) for k, v in fields.items()}, description)
    schema["required"] = list(fields)
    return schema


def component_schemas(registry: Registry) -> dict[str, Any]:
    schemas: dict[str, Any] = {
        OBJECT_RECORD: record_schema(registry),
        REFERENCE: reference_schema(registry),
    }
    for section in registry.setting_sections:
        schemas[section_schema_name(section.name)] = section_schema(registry, section.name)
        schemas[shadowed_schema_name(section.name)] = shadowed_schema(registry, section.name)
    schemas[ERROR] = error_schema(registry)
    return schemas
