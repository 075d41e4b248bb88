"""From a described server to an overlay: only what the registry lacks or states otherwise.

The overlay adds facts and never quietly takes one away. It adds endpoints
the registry lacks, deprecations, lifecycle releases the description states,
list, creation and authentication facts, query parameter lists, complete
enumerations and every path's method list. It does not undo a deprecation the
spec states (servers often leave `deprecated` out), nor turn a list endpoint
into a plain one; `apispec registry diff SOURCE` shows those differences.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from apispec.registry.importer.consistency import make_consistent
from apispec.registry.importer.describe import Description, Operation
from apispec.support.exceptions import UsageError

if TYPE_CHECKING:
    from apispec.registry.model import Endpoint, Registry

OVERLAY_FILE = "overlay.yaml"
_METHOD_ORDER = ("GET", "POST", "PUT", "PATCH", "DELETE")
# An import may make an endpoint more cautious (stable -> experimental -> deprecated),
# never less: a spec deprecation the server leaves unmarked stands.
_CAUTION = {"stable": 0, "experimental": 1, "deprecated": 2}
_OPERATION_ID = re.compile(r"[a-z][a-z0-9]*(_[a-z0-9]+)*")  # the registry schema's pattern
_MAX_ID = 64  # and its maxLength


def build_overlay(description: Description, registry: Registry) -> dict[str, Any]:
    """The overlay document (plain data, ready for YAML) of `description` over `registry`."""
    from apispec import __version__

    meta: dict[str, Any] = {"source": description.source}
    if description.title:
        meta["title"] = description.title
    if description.version:
        meta["version"] = description.version
    meta["release"] = description.release.text
    meta["generated_by"] = f"apispec {__version__} registry import"
    common = tuple(q.name for q in registry.query_parameters)
    used_ids = {e.operation_id for e in registry.endpoints}
    endpoints = []
    for op in description.operations:
        base = registry.find(op.method, op.path)
        entry = _new_endpoint(op, common, used_ids) if base is None else _changes(op, base, common)
        if entry:
            entry["provenance"] = _provenance(description, op)
            endpoints.append(entry)
    guessed = frozenset(
        op.key
        for op in description.operations
        if op.maturity == "deprecated" and "deprecated_in" not in op.stated
    )
    make_consistent(endpoints, registry, description.notes, guessed)
    doc: dict[str, Any] = {"overlay": meta}
    releases = _releases(description, endpoints, registry)
    if releases:
        doc["releases"] = releases
    if endpoints:
        doc["endpoints"] = endpoints
    properties = _properties(description, registry)
    if properties:
        doc["properties"] = properties
    paths = description.methods_by_path()
    if paths:
        doc["paths"] = [
            {"path": path, "methods": sorted(methods, key=_METHOD_ORDER.index)}
            for path, methods in sorted(paths.items())
        ]
    return doc


def _provenance(description: Description, op: Operation) -> dict[str, str]:
    found = {"source": description.source}
    if op.operation_id:
        found["operation_id"] = op.operation_id
    if description.version:
        found["version"] = description.version
    return found


def _default_query(is_list: bool, common: tuple[str, ...]) -> tuple[str, ...]:
    return common if is_list else ()


def _new_endpoint(op: Operation, common: tuple[str, ...], used: set[str]) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "method": op.method,
        "path": op.path,
        "operation_id": _operation_id(op, used),
        "summary": op.summary,
        "tag": op.tag or _tag_from_path(op.path),
        "maturity": op.maturity,
    }
    entry.update(op.lifecycle)
    if op.is_list:
        entry["list"] = True
    if op.creates:
        entry["creates"] = True
    if op.auth is False:
        entry["auth"] = False
    if op.query and set(op.query) != set(_default_query(op.is_list, common)):
        entry["query"] = list(op.query)
    return entry


def _changes(op: Operation, base: Endpoint, common: tuple[str, ...]) -> dict[str, Any]:
    """The fields of `base` the description states otherwise (empty: nothing to say)."""
    changed: dict[str, Any] = {}
    stated = {name: op.lifecycle[name] for name in op.stated}
    if _CAUTION[op.maturity] > _CAUTION[str(base.maturity)]:
        changed["maturity"] = op.maturity
        if op.maturity == "deprecated":
            changed.update({k: v for k, v in op.lifecycle.items() if k != "since"})
    current = {
        "since": base.since,
        "deprecated_in": base.deprecated_in,
        "removed_in": base.removed_in,
        "successor": base.successor,
    }
    for name, value in stated.items():
        if name != "since" and changed.get("maturity", base.maturity) != "deprecated":
            continue
        if str(current[name] or "") != value:
            changed[name] = value
    if op.is_list and not base.is_list:
        changed["list"] = True
    if op.creates and not base.creates:
        changed["creates"] = True
    if op.auth is not None and op.auth != base.auth:
        changed["auth"] = op.auth
    default = (
        base.query if base.query is not None else _default_query(base.is_list or op.is_list, common)
    )
    if op.query and set(op.query) != set(default):
        changed["query"] = list(op.query)
    if not changed:
        return {}
    return {"method": op.method, "path": op.path, **changed}


def _operation_id(op: Operation, used: set[str]) -> str:
    """The description's own id in snake_case when it fits the registry; else one from the
    path, cut to fit and numbered until unused. Every id returned matches the registry's
    pattern and length by construction (a cut never ends in `_`, a number never overflows)."""
    candidates = []
    if op.operation_id:
        candidates.append(_snake(op.operation_id))
    words = [w for w in op.path.strip("/").split("/") if not w.startswith("{")]
    from_path = _snake("_".join([op.method.lower(), *words])) or op.method.lower()
    candidates.append(from_path)
    for candidate in candidates:
        if (
            _OPERATION_ID.fullmatch(candidate)
            and len(candidate) <= _MAX_ID
            and candidate not in used
        ):
            used.add(candidate)
            return candidate
    number = 2
    while True:
        suffix = f"_{number}"
        candidate = from_path[: _MAX_ID - len(suffix)].rstrip("_") + suffix
        if candidate not in used:
            used.add(candidate)
            return candidate
        number += 1


def _snake(text: str) -> str:
    text = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", text)
    text = re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_")
    return re.sub(r"^[0-9_]+", "", text)


def _tag_from_path(path: str) -> str:
    words = [w for w in path.strip("/").split("/") if w != "experimental" and not w.startswith("{")]
    return words[0].replace("-", " ").capitalize() if words else "Other"


def _releases(
    description: Description, endpoints: list[dict[str, Any]], registry: Registry
) -> list[dict[str, Any]]:
    from apispec.registry.releases import parse_release

    known = {r.text for r in registry.release_list}
    wanted = [description.release.text]
    for entry in endpoints:
        wanted += [entry[k] for k in ("since", "deprecated_in", "removed_in") if k in entry]
    new = [text for text in dict.fromkeys(wanted) if text not in known]
    new.sort(key=lambda text: parse_release(text).sort_key)
    note = f"Named by the server's own OpenAPI description ({description.source})."
    return [{"id": text, "notes": [note]} for text in new]


def _properties(description: Description, registry: Registry) -> list[dict[str, Any]]:
    found = []
    for name, values in description.enums.items():
        base = registry.property(name)
        if base is not None and base.values_complete and tuple(base.values) == values:
            continue
        provenance = {"source": description.source}
        if description.version:
            provenance["version"] = description.version
        found.append(
            {
                "name": name,
                "values": list(values),
                "values_complete": True,
                "provenance": provenance,
            }
        )
    return found


# -- writing --------------------------------------------------------------------


def prepare_output(directory: Path) -> Path:
    """The overlay file to write in `directory`, refusing to mix with other files there."""
    if directory.exists() and not directory.is_dir():
        raise UsageError(f"--output {directory}: exists and is not a directory")
    if directory.is_dir():
        foreign = sorted(
            p.name for p in directory.iterdir() if p.name != OVERLAY_FILE and p.suffix == ".yaml"
        )
        if foreign:
            raise UsageError(
                f"--output {directory}: holds {foreign[0]}, which is not an imported overlay; "
                "name an empty directory (every *.yaml of an overlay directory is read)"
            )
    return directory / OVERLAY_FILE


def render(doc: dict[str, Any], source: str) -> str:
    import yaml

    class Dumper(yaml.SafeDumper):
        pass

    def short_lists(dumper: yaml.SafeDumper, data: list[Any]) -> Any:
        flow = all(isinstance(v, str) and len(v) < 40 for v in data) and len(data) <= 12
        return dumper.represent_sequence("tag:yaml.org,2002:seq", data, flow_style=flow)

    Dumper.add_representer(list, short_lists)
    body = yaml.dump(doc, Dumper=Dumper, sort_keys=False, allow_unicode=True, width=100)
    header = (
        f"# Overlay imported by `apispec registry import` from {source}.\n"
        "# Only what the bundled registry lacks or states otherwise; see docs/registry.md.\n"
        "# Import again to refresh it rather than editing it.\n"
    )
    return header + body


def write_overlay(path: Path, text: str) -> None:
    """Create the directory if need be; the file is replaced atomically (apispec.support.outputs)."""
    from apispec.support.outputs import write_atomic

    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageError(f"{path.parent}: cannot write: {exc.strerror or exc}") from None
    write_atomic(path, text, generated=True)
