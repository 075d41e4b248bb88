"""`apispec registry check`: the schema and every cross-reference of the registry.

A hand edit of the YAML is reviewed like code; this is its compiler. Errors
point at the line of the offending node so an editor can jump there. Where the
spec itself is doubtful (its data, faithfully recorded, breaks an invariant),
the finding is a warning that names the spec's table row, never an error,
because the registry must say what the spec says.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Literal

import jsonschema

from apispec.registry.files import Pointer, RegistrySource, default_directory
from apispec.registry.releases import Release, ReleaseSyntaxError, parse_release
from apispec.support.exceptions import RegistryError

Severity = Literal["error", "warning"]


@dataclass(frozen=True)
class Finding:
    path: Path
    line: int
    severity: Severity
    message: str

    def __str__(self) -> str:
        return f"{display_path(self.path)}:{self.line}: {self.severity}: {self.message}"


def display_path(path: Path) -> str:
    """A path relative to the current directory when it lies below it."""
    try:
        return os.path.relpath(path) if not os.path.relpath(path).startswith("..") else str(path)
    except ValueError:  # another drive on Windows
        return str(path)


@cache
def registry_schema() -> dict[str, Any]:
    schema: dict[str, Any] = json.loads(
        (default_directory() / "schema.json").read_text(encoding="utf-8")
    )
    return schema


class Collector:
    """Findings of one source, each placed at the line of the node it concerns."""

    def __init__(self, source: RegistrySource) -> None:
        self.source = source
        self.findings: list[Finding] = []

    def error_at(self, path: Path, line: int, message: str) -> None:
        self.findings.append(Finding(path, line, "error", message))

    def add(self, severity: Severity, pointer: Pointer, message: str) -> None:
        path, line = self.source.locate(pointer)
        self.findings.append(Finding(path, line, severity, message))

    def error(self, pointer: Pointer, message: str) -> None:
        self.add("error", pointer, message)

    def warning(self, pointer: Pointer, message: str) -> None:
        self.add("warning", pointer, message)


def schema_problem(
    error: jsonschema.ValidationError, source: RegistrySource | None = None
) -> tuple[Pointer, str]:
    """Where a schema error stands and what to say; an unknown key points at the key."""
    pointer = tuple(error.absolute_path)

    def where(at: Pointer) -> str:
        return "/".join(map(str, source.shown(at) if source else at)) or "(top level)"

    if (
        error.validator == "additionalProperties"
        and isinstance(error.instance, dict)
        and isinstance(error.schema, dict)
    ):
        allowed = sorted(error.schema.get("properties", {}))
        extra = sorted(set(error.instance) - set(allowed))
        if extra:
            pointer = (*pointer, extra[0])
            return (
                pointer,
                f"{where(pointer)}: unknown field {extra[0]!r} (allowed: {', '.join(allowed)})",
            )
    return pointer, f"{where(pointer)}: {error.message}"


def _spec_row(endpoint: dict[str, Any]) -> str:
    table = {
        "deprecated": "Deprecated endpoints",
        "experimental": "Experimental endpoints",
        "stable": "Stable endpoints",
    }[endpoint["maturity"]]
    return f'spec table "{table}", row {endpoint["method"]} {endpoint["path"]}'


def check_source(source: RegistrySource) -> list[Finding]:
    """Every finding on the registry read into `source`, errors and warnings, in file order."""
    out = Collector(source)
    for path, line, key in source.duplicates:
        out.error_at(path, line, f"duplicate key {key!r}")
    validator = jsonschema.Draft202012Validator(registry_schema())
    schema_errors = sorted(
        validator.iter_errors(source.document), key=lambda e: list(map(str, e.absolute_path))
    )
    for error in schema_errors:
        out.error(*schema_problem(error, source))
    if not schema_errors:
        _check_references(source.document, out)
    return sorted(out.findings, key=lambda f: (str(f.path), f.line, f.severity, f.message))


def _check_references(doc: dict[str, Any], out: Collector) -> None:
    releases = _check_releases(doc["releases"], out)
    endpoints = doc["endpoints"]
    _check_endpoint_identity(endpoints, out)
    keys = {(e["method"], e["path"]): i for i, e in enumerate(endpoints)}
    for index, endpoint in enumerate(endpoints):
        _check_lifecycle(index, endpoint, releases, out)
        _check_successor(index, endpoint, endpoints, keys, releases, out)
    _check_cycles(endpoints, keys, out)
    _check_listed_methods(doc, keys, out)
    _check_filters(doc, out)
    _check_tree_types(doc, out)
    _check_errors(doc, out)


def _check_releases(items: list[dict[str, Any]], out: Collector) -> dict[str, Release]:
    known: dict[str, Release] = {}
    for index, item in enumerate(items):
        text = str(item["id"])
        try:
            release = parse_release(text)
        except ReleaseSyntaxError as exc:
            out.error(("releases", index, "id"), str(exc))
            continue
        if text in known:
            out.error(("releases", index, "id"), f"release {text} is listed twice")
            continue
        for other in known.values():
            if release.level_with(other):
                out.warning(
                    ("releases", index, "id"),
                    f"release {text} orders level with {other.text} (same major and build); "
                    "the spec names both",
                )
        if known and release.sort_key < list(known.values())[-1].sort_key:
            out.error(
                ("releases", index, "id"),
                f"release {text} is listed after {list(known.values())[-1].text} but orders "
                "before it; keep the list oldest first",
            )
        known[text] = release
    return known


def _check_endpoint_identity(endpoints: list[dict[str, Any]], out: Collector) -> None:
    seen_keys: dict[tuple[str, str], int] = {}
    seen_ops: dict[str, int] = {}
    for index, e in enumerate(endpoints):
        key = (e["method"], e["path"])
        if key in seen_keys:
            out.error(
                ("endpoints", index, "path"),
                f"{e['method']} {e['path']} is defined twice (first as endpoint "
                f"#{seen_keys[key] + 1})",
            )
        else:
            seen_keys[key] = index
        op = e["operation_id"]
        if op in seen_ops:
            first = endpoints[seen_ops[op]]
            out.error(
                ("endpoints", index, "operation_id"),
                f"operation id {op!r} is already used by {first['method']} {first['path']}",
            )
        else:
            seen_ops[op] = index
        experimental_path = e["path"].startswith("/experimental/")
        if e["maturity"] == "experimental" and not experimental_path:
            # A server may mark an unprefixed path experimental (an `x-` stability
            # extension); the overlay records what the server says.
            out.add(
                "warning" if "provenance" in e else "error",
                ("endpoints", index, "maturity"),
                f"{e['method']} {e['path']} is experimental but has no /experimental prefix",
            )
        if e["maturity"] == "stable" and experimental_path:
            out.error(
                ("endpoints", index, "maturity"),
                f"{e['method']} {e['path']} is stable but has the /experimental prefix",
            )
        if e.get("creates") and e["method"] == "GET":
            out.warning(
                ("endpoints", index, "method"),
                f"{e['method']} {e['path']} creates an object but is listed with method GET "
                f"({_spec_row(e)})",
            )


def _release_of(
    index: int, endpoint: dict[str, Any], key: str, releases: dict[str, Release], out: Collector
) -> Release | None:
    text = endpoint.get(key)
    if text is None:
        return None
    release = releases.get(str(text))
    if release is None:
        out.error(
            ("endpoints", index, key),
            f"{endpoint['method']} {endpoint['path']}: {key} {text} is not a release the "
            "registry knows (add it to releases.yaml)",
        )
    return release


def _check_lifecycle(
    index: int, e: dict[str, Any], releases: dict[str, Release], out: Collector
) -> None:
    name = f"{e['method']} {e['path']}"
    since = _release_of(index, e, "since", releases, out)
    deprecated = _release_of(index, e, "deprecated_in", releases, out)
    removed = _release_of(index, e, "removed_in", releases, out)
    if e["maturity"] == "deprecated":
        if "deprecated_in" not in e:
            out.error(
                ("endpoints", index, "maturity"), f"{name} is deprecated but has no deprecated_in"
            )
        if "successor" not in e:
            out.error(
                ("endpoints", index, "maturity"),
                f"{name} is deprecated but has no successor (a method and path, "
                "'none planned' or 'to be decided')",
            )
    else:
        for key in ("deprecated_in", "removed_in", "successor"):
            if key in e:
                out.error(("endpoints", index, key), f"{name} is {e['maturity']} but has {key}")
    if since and deprecated and deprecated < since:
        out.error(
            ("endpoints", index, "deprecated_in"),
            f"{name}: deprecated_in {deprecated} orders before since {since}",
        )
    if removed and deprecated and removed < deprecated:
        out.error(
            ("endpoints", index, "removed_in"),
            f"{name}: removed_in {removed} orders before deprecated_in {deprecated}",
        )
    if since and removed and removed <= since and not (deprecated and removed == deprecated):
        out.error(
            ("endpoints", index, "removed_in"),
            f"{name}: removed_in {removed} does not order after since {since}",
        )
    if removed and deprecated and removed.key == deprecated.key:
        out.warning(
            ("endpoints", index, "removed_in"),
            f"{name} is deprecated and removed in the same release {removed}, so no release "
            f"offers it ({_spec_row(e)})",
        )
    if since and since.minor is None:
        later = [
            r
            for r in releases.values()
            if r.major == since.major and r.minor is not None and since < r
        ]
        if later:
            names = ", ".join(r.text for r in later)
            out.warning(
                ("endpoints", index, "since"),
                f"{name}: since {since} orders before {names} by build number although its "
                f"`x` minor suggests a later line ({_spec_row(e)})",
            )


def _check_successor(
    index: int,
    e: dict[str, Any],
    endpoints: list[dict[str, Any]],
    keys: dict[tuple[str, str], int],
    releases: dict[str, Release],
    out: Collector,
) -> None:
    text = e.get("successor")
    if text is None or text in ("none planned", "to be decided"):
        return
    name = f"{e['method']} {e['path']}"
    method, _, path = text.partition(" ")
    target_index = keys.get((method, path))
    if target_index is None:
        out.error(("endpoints", index, "successor"), f"{name}: successor {text} does not exist")
        return
    if target_index == index:
        out.error(("endpoints", index, "successor"), f"{name}: successor is the endpoint itself")
        return
    target = endpoints[target_index]
    if "removed_in" in target:
        out.error(
            ("endpoints", index, "successor"),
            f"{name}: successor {text} is itself removed in {target['removed_in']}",
        )
    removed = releases.get(str(e.get("removed_in")))
    target_since = releases.get(str(target.get("since")))
    if removed and target_since and removed < target_since:
        out.error(
            ("endpoints", index, "successor"),
            f"{name}: successor {text} arrives in {target_since}, after this endpoint's "
            f"removal in {removed}",
        )


def _check_cycles(
    endpoints: list[dict[str, Any]], keys: dict[tuple[str, str], int], out: Collector
) -> None:
    reported: set[int] = set()
    for start in range(len(endpoints)):
        chain: list[int] = []
        current: int | None = start
        while current is not None and current not in chain:
            chain.append(current)
            method, _, path = str(endpoints[current].get("successor") or "").partition(" ")
            current = keys.get((method, path))
        if current is not None and current == start and start not in reported:
            reported.update(chain)
            names = " -> ".join(
                f"{endpoints[i]['method']} {endpoints[i]['path']}" for i in [*chain, start]
            )
            out.error(("endpoints", start, "successor"), f"successor chain has a cycle: {names}")


def _check_listed_methods(
    doc: dict[str, Any], keys: dict[tuple[str, str], int], out: Collector
) -> None:
    """An overlay's method list names endpoints: each method it lists must be defined."""
    for index, item in enumerate(doc.get("paths") or ()):
        missing = [m for m in item["methods"] if (m, item["path"]) not in keys]
        if missing:
            out.error(
                ("paths", index, "methods"),
                f"{item['path']} is listed with {', '.join(missing)}, but no endpoint "
                f"{missing[0]} {item['path']} is defined",
            )


def _check_filters(doc: dict[str, Any], out: Collector) -> None:
    kinds = {k["name"] for k in doc["object_kinds"]}
    seen: set[str] = set()
    for index, prop in enumerate(doc["properties"]):
        if prop["name"] in seen:
            out.error(("properties", index, "name"), f"property {prop['name']!r} is listed twice")
        seen.add(prop["name"])
        if prop.get("values_complete") and not prop.get("values"):
            out.error(
                ("properties", index, "values_complete"),
                f"property {prop['name']!r} says its values are complete but lists none",
            )
        if (prop.get("values") or prop.get("assumed")) and prop["type"] != "enumeration":
            out.error(
                ("properties", index, "values"),
                f"property {prop['name']!r} has values but is of type {prop['type']}",
            )
        for kind in prop.get("applies_to", ()):
            if kind not in kinds:
                out.error(
                    ("properties", index, "applies_to"),
                    f"property {prop['name']!r} applies to unknown object kind {kind!r}",
                )
        if prop.get("multi_valued") and prop["operators"] != ["contains"]:
            out.warning(
                ("properties", index, "operators"),
                f"multi-valued property {prop['name']!r} allows operators other than contains",
            )


def _check_tree_types(doc: dict[str, Any], out: Collector) -> None:
    """Every kind of the object tree is a `type` value the filter checker knows (the spec's
    or an assumed one): the mock serves each as `"type": KIND` and answers `type = KIND`,
    so a filter for it must not be reported as an unknown value."""
    for index, prop in enumerate(doc["properties"]):
        if prop["name"] != "type" or prop.get("values_complete") or not prop.get("values"):
            continue
        known = {*prop["values"], *(prop.get("assumed") or {}).get("values", ())}
        missing = [
            k["name"] for k in doc["object_kinds"] if k.get("tree_level") and k["name"] not in known
        ]
        if missing:
            out.error(
                ("properties", index, "values"),
                f"property 'type' does not know the object kinds {', '.join(missing)} of the "
                "tree the mock serves: list them under `assumed` with where the assumption "
                "comes from",
            )


def _check_errors(doc: dict[str, Any], out: Collector) -> None:
    statuses = {s["status"] for s in doc["http_statuses"]}
    seen: set[str] = set()
    for index, code in enumerate(doc["error_codes"]):
        if code["code"] in seen:
            out.error(("error_codes", index, "code"), f"error code {code['code']} is listed twice")
        seen.add(code["code"])
        if code["status"] not in statuses:
            out.error(
                ("error_codes", index, "status"),
                f"error code {code['code']} maps to HTTP {code['status']}, which the status "
                "table does not list",
            )
    names = {lim["name"] for lim in doc["limits"]}
    for required in ("max_objects_per_response", "max_request_body", "max_execution_time"):
        if required not in names:
            out.error(("limits",), f"limit {required!r} is missing")


def raise_on_errors(findings: Iterable[Finding]) -> None:
    """Raise RegistryError listing the first error, for loaders that refuse bad data."""
    errors = [f for f in findings if f.severity == "error"]
    if errors:
        more = (
            f" (and {len(errors) - 1} more; run `apispec registry check`)"
            if len(errors) > 1
            else ""
        )
        raise RegistryError(f"{errors[0]}{more}")
