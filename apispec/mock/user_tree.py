"""A user's own object tree for the mock (`apispec mock --data FILE`).

The seeded tree (apispec.mock.data) is generated; this one is read from a JSON
file, checked object by object against the registry's kinds, parent levels and
setting sections, and built with the same record shape, so the rest of the mock
cannot tell the two apart. Any defect is a one-line error naming the object.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from apispec.mock.data import (
    MAX_ID_DIGITS,
    MAX_OBJECTS,
    PARENT_LEVELS,
    Kinds,
    Tree,
    credentials,
    interval,
    record_of,
    status_values,
)
from apispec.registry.model import Registry
from apispec.support.exceptions import UsageError
from apispec.support.inputs import load_json, read_input_text


def load_tree(registry: Registry, path: Path) -> Tree:
    """Read a tree from JSON: `{"objects": [...]}` or a bare list of object records.

    Records use the JSON shape the API answers (`basic` nested) or flat dotted
    keys; `id`, `type`, `name` and `parentid` are required, the rest defaults.
    Setting sections given under their names become explicit settings. Any
    defect is a one-line UsageError naming the object.
    """
    where = f"--data {path}"
    document = load_json(read_input_text(path, name=where), where)  # regular files only
    items = document.get("objects") if isinstance(document, dict) else document
    if not isinstance(items, list):
        raise UsageError(f'{where}: expected a list of objects or {{"objects": [...]}}')
    kinds = Kinds.from_registry(registry)
    sections = {s.name: {f.name for f in s.fields} for s in registry.setting_sections}
    statuses = status_values(registry)
    parsed: dict[str, tuple[dict[str, Any], dict[str, dict[str, str]]]] = {}
    for index, item in enumerate(items):
        label = f"{where}: objects[{index}]"
        record, explicit = _parse_object(item, label, kinds, sections, statuses)
        if record["id"] in parsed or record["id"] == kinds.root_id:
            raise UsageError(f"{label}: duplicate id {record['id']!r}")
        parsed[record["id"]] = (record, explicit)
    if len(parsed) + 1 > MAX_OBJECTS:
        raise UsageError(f"{where}: more than {MAX_OBJECTS} objects")
    tree = Tree(kinds)
    root_kind = registry.root["kind"]
    tree.add(record_of(kinds, kinds.root_id, root_kind, "Root", statuses[0], None, root_kind))
    tree.settings[kinds.root_id] = {
        "windowsconnection": credentials(None),
        "intervalgroup": interval(60),
    }
    pending = dict(parsed)
    while pending:  # parents before children, whatever the file's order
        ready = [oid for oid, (rec, _) in pending.items() if rec["parentid"] in tree.records]
        if not ready:
            oid, (rec, _) = next(iter(pending.items()))
            raise UsageError(
                f"{where}: object {oid!r}: parent {rec['parentid']!r} does not exist "
                "(or the parents form a cycle)"
            )
        for oid in ready:
            record, explicit = pending.pop(oid)
            parent = tree.records[record["parentid"]]
            allowed = PARENT_LEVELS[kinds.level_of[record["type"]]]
            if tree.level(parent) not in allowed:
                raise UsageError(
                    f"{where}: object {oid!r}: a {record['type']} cannot be a child of "
                    f"{parent['type']} {parent['id']!r}"
                )
            if record["type"] != kinds.by_level[5]:
                record.pop("primary", None)
            tree.add(record)
            if explicit:
                tree.settings[oid] = explicit
    tree.refresh_parent_tags(kinds.root_id)
    return tree


def _parse_object(
    item: Any,
    label: str,
    kinds: Kinds,
    sections: dict[str, set[str]],
    statuses: tuple[str, ...],
) -> tuple[dict[str, Any], dict[str, dict[str, str]]]:
    if not isinstance(item, dict):
        raise UsageError(f"{label}: expected an object, got {type(item).__name__}")
    flat: dict[str, Any] = {}
    explicit: dict[str, dict[str, str]] = {}
    for key, value in item.items():
        if key in sections:
            if not isinstance(value, dict) or not set(value) <= sections[key]:
                raise UsageError(
                    f"{label}: {key} takes the fields {', '.join(sorted(sections[key]))}"
                )
            explicit[key] = {name: str(value.get(name, "")) for name in sorted(sections[key])}
        elif isinstance(value, dict):
            flat.update({f"{key}.{inner}": v for inner, v in value.items()})
        else:
            flat[key] = value
    for required in ("id", "type", "name", "parentid"):
        if not isinstance(flat.get(required), str):
            raise UsageError(f"{label}: field {required!r} is required and must be a string")
    oid = flat["id"]
    if not (oid.isascii() and oid.isdigit()):
        raise UsageError(f"{label}: id {_shown(oid)} must be numeric text (ASCII digits)")
    if len(oid) > MAX_ID_DIGITS:
        raise UsageError(
            f"{label}: id {_shown(oid)} is out of range (at most {MAX_ID_DIGITS} digits)"
        )
    if flat["type"] not in kinds.level_of:
        raise UsageError(
            f"{label}: type {flat['type']!r} is not one of {', '.join(kinds.level_of)}"
        )
    for key in ("basic.tags",):
        tags = flat.get(key, [])
        if not isinstance(tags, list) or not all(isinstance(t, str) for t in tags):
            raise UsageError(f"{label}: {key} must be a list of strings")
    for key in ("favorite", "primary"):
        if key in flat and not isinstance(flat[key], bool):
            raise UsageError(f"{label}: {key} must be true or false")
    record = record_of(
        kinds,
        flat["id"],
        flat["type"],
        flat["name"],
        str(flat.get("status", statuses[0] if statuses else "up")),
        flat["parentid"],
        str(flat.get("kind", flat["type"])),
    )
    record["favorite"] = flat.get("favorite", False)
    record["basic.tags"] = list(flat.get("basic.tags", []))
    for key in ("basic.host", "basic.hostv6"):
        if key in flat:
            record[key] = str(flat[key])
    if flat["type"] == kinds.by_level[5]:
        record["primary"] = flat.get("primary", False)
    return record, explicit


def _shown(text: str) -> str:
    return repr(text) if len(text) <= 40 else repr(text[:37] + "...")
