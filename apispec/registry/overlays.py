"""Overlays: registry YAML holding only what a server states beyond the bundled registry.

The spec's endpoint list is incomplete and its enumerations partial; a user's
server knows better. An overlay directory (written by `apispec registry
import`, or by hand) is merged onto the registry when the model is loaded,
later overlays winning, so every consumer sees one registry and none of them
knows overlays exist. The bundled files are never changed.

An overlay is validated twice: on its own, against the registry schema with
only `method`/`path` (endpoints) and `name` (properties) required, so an entry
may patch a few fields of a registry entry; then merged, against the full
schema and every cross-reference check, so no consumer sees a broken registry.
Findings point at the overlay's own file and line.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from stat import S_ISDIR
from typing import TYPE_CHECKING, Any

from apispec.registry.files import Pointer, RegistrySource, read_registry
from apispec.registry.releases import Release, ReleaseSyntaxError, parse_release
from apispec.support.exceptions import RegistryError
from apispec.support.inputs import stat_named

if TYPE_CHECKING:  # registry_check (and jsonschema) is imported only to check
    from apispec.registry.check import Finding

_KEY_FIELDS = frozenset({"method", "path", "name"})
SECTIONS = ("overlay", "releases", "endpoints", "properties", "paths")
# Fields that belong to one maturity: an overlay that changes the maturity
# states them anew instead of inheriting the registry's.
LIFECYCLE_FIELDS = ("deprecated_in", "removed_in", "successor")
_METADATA = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "source": {"type": "string"},
        "title": {"type": "string"},
        "version": {"type": "string"},
        "release": {"$ref": "#/$defs/release"},
        "description": {"type": "string"},
        "generated_by": {"type": "string"},
    },
}


@cache
def overlay_schema() -> dict[str, Any]:
    """The registry schema relaxed for patches: derived, so the two never drift apart."""
    from apispec.registry.check import registry_schema

    schema = copy.deepcopy(registry_schema())
    sections = schema["properties"]
    schema["properties"] = {name: sections[name] for name in SECTIONS if name in sections}
    schema["properties"]["overlay"] = _METADATA
    schema["required"] = ["overlay"]
    for name in ("releases", "endpoints", "properties"):
        schema["properties"][name].pop("minItems", None)
    schema["properties"]["endpoints"]["items"]["required"] = ["method", "path"]
    schema["properties"]["properties"]["items"]["required"] = ["name"]
    # `overlay` inside provenance is the loader's to fill in, not the file's
    provenance = schema["$defs"]["provenance"]["properties"]
    provenance.pop("overlay")
    return schema


def read_overlay(directory: Path) -> RegistrySource:
    """Every `*.yaml` of an overlay directory, merged by section, with lines."""
    info = stat_named(directory)
    if info is None:
        raise RegistryError(f"{directory}: overlay directory does not exist")
    if not S_ISDIR(info.st_mode):
        raise RegistryError(f"{directory}: an overlay is a directory, not a file")
    if not any(directory.glob("*.yaml")):
        raise RegistryError(f"{directory}: no overlay files (*.yaml) found")
    source = read_registry(directory, with_lines=True)
    if "overlay" not in source.document:
        raise RegistryError(
            f"{directory}: not an overlay: no file has an `overlay` section "
            "(a whole registry is read with --registry)"
        )
    return source


# -- checking one overlay -------------------------------------------------------


def overlay_findings(source: RegistrySource) -> list[Finding]:
    """Schema errors and duplicate entries of one overlay, at its own lines."""
    import jsonschema

    from apispec.registry.check import Collector, schema_problem

    out = Collector(source)
    for path, line, key in source.duplicates:
        out.error_at(path, line, f"duplicate key {key!r}")
    validator = jsonschema.Draft202012Validator(overlay_schema())
    errors = sorted(
        validator.iter_errors(source.document), key=lambda e: list(map(str, e.absolute_path))
    )
    for error in errors:
        out.error(*schema_problem(error))
    if errors:
        return out.findings
    doc = source.document
    for section, key_of, what in (
        ("endpoints", lambda e: f"{e['method']} {e['path']}", "endpoint"),
        ("properties", lambda p: p["name"], "property"),
        ("paths", lambda p: p["path"], "path"),
        ("releases", lambda r: str(r["id"]), "release"),
    ):
        seen: set[str] = set()
        for index, item in enumerate(doc.get(section) or ()):
            key = key_of(item)
            if key in seen:
                out.error((section, index), f"{what} {key} is listed twice in the overlay")
            seen.add(key)
    return out.findings


# -- merging --------------------------------------------------------------------


@dataclass
class MergedSource(RegistrySource):
    """The registry with overlays applied; findings point into the file that said it."""

    base: RegistrySource | None = None
    origins: dict[Pointer, tuple[RegistrySource, Pointer]] = field(default_factory=dict)

    def locate(self, pointer: Pointer) -> tuple[Path, int]:
        for length in range(len(pointer), 0, -1):
            origin = self.origins.get(pointer[:length])
            if origin is not None:
                where, at = origin
                return where.locate((*at, *pointer[length:]))
        assert self.base is not None
        return self.base.locate(pointer)

    def shown(self, pointer: Pointer) -> Pointer:
        for length in range(len(pointer), 1, -1):
            origin = self.origins.get(pointer[:length])
            if origin is not None:
                return (*origin[1], *pointer[length:])
        return pointer


def _start(base: RegistrySource) -> MergedSource:
    merged = MergedSource(
        directory=base.directory,
        document=copy.deepcopy(base.document),
        files=dict(base.files),
        base=base,
    )
    for section in ("releases", "endpoints", "properties", "paths"):
        for index in range(len(base.document.get(section) or ())):
            merged.origins[(section, index)] = (base, (section, index))
    return merged


def _stamp(entry: dict[str, Any], overlay: RegistrySource) -> dict[str, Any]:
    """The entry with `provenance.overlay` naming the directory it was read from."""
    provenance = dict(entry.get("provenance") or {})
    provenance["overlay"] = str(overlay.directory)
    return {**entry, "provenance": provenance}


def _merge_releases(merged: MergedSource, overlay: RegistrySource) -> None:
    releases = merged.document.setdefault("releases", [])
    known = {str(r["id"]) for r in releases}
    for index, item in enumerate(overlay.document.get("releases") or ()):
        text = str(item["id"])
        if text in known:
            continue
        key = parse_release(text).sort_key
        at = len(releases)
        while at > 0 and _sort_key(releases[at - 1]) > key:
            at -= 1
        releases.insert(at, dict(item))
        _shift(merged, "releases", at)
        merged.origins[("releases", at)] = (overlay, ("releases", index))
        known.add(text)


def _sort_key(item: dict[str, Any]) -> tuple[int, ...]:
    try:
        return parse_release(str(item["id"])).sort_key
    except ReleaseSyntaxError:
        return (0, 0, 0, 0)


def _shift(merged: MergedSource, section: str, at: int) -> None:
    """Move the origins of `section` items at or after `at` one place down."""
    moved = {}
    for pointer, origin in list(merged.origins.items()):
        index = pointer[1] if len(pointer) >= 2 and pointer[0] == section else None
        if isinstance(index, int) and index >= at:
            del merged.origins[pointer]
            moved[(section, index + 1, *pointer[2:])] = origin
    merged.origins.update(moved)


def _merge_keyed(
    merged: MergedSource,
    overlay: RegistrySource,
    section: str,
    key_of: Any,
    replaces: Iterable[str] = (),
) -> None:
    """Patch entries with the same key field by field; append new ones."""
    entries = merged.document.setdefault(section, [])
    where = {key_of(e): i for i, e in enumerate(entries)}
    for index, item in enumerate(overlay.document.get(section) or ()):
        key = key_of(item)
        stamped = _stamp(item, overlay)
        if key not in where:
            entries.append(stamped)
            merged.origins[(section, len(entries) - 1)] = (overlay, (section, index))
            where[key] = len(entries) - 1
            continue
        at = where[key]
        current = dict(entries[at])
        if "maturity" in item and item["maturity"] != current.get("maturity"):
            for name in replaces:
                current.pop(name, None)
        current.update(stamped)
        entries[at] = current
        for name in item:
            if name not in _KEY_FIELDS:  # the entry's identity is still the base's
                merged.origins[(section, at, name)] = (overlay, (section, index, name))


def _apply(merged: MergedSource, overlay: RegistrySource) -> None:
    _merge_releases(merged, overlay)
    _merge_keyed(merged, overlay, "endpoints", lambda e: (e["method"], e["path"]), LIFECYCLE_FIELDS)
    _merge_keyed(merged, overlay, "properties", lambda p: p["name"])
    _merge_keyed(merged, overlay, "paths", lambda p: p["path"])


# -- conflicts with the base ----------------------------------------------------


def conflicts(before: dict[str, Any], overlay: RegistrySource) -> list[Finding]:
    """Where an overlay contradicts the registry it is applied to (warnings: it wins).

    `before` is the document the overlay is merged onto: the registry with
    the earlier overlays already applied.
    """
    from apispec.registry.check import Collector

    out = Collector(overlay)
    doc = overlay.document
    meta = doc.get("overlay") or {}
    release = _parsed(meta.get("release"))
    at_release = f" (release {release})" if release else ""
    endpoints = {(e["method"], e["path"]): e for e in before.get("endpoints") or ()}
    for index, item in enumerate(doc.get("endpoints") or ()):
        name = f"{item['method']} {item['path']}"
        base = endpoints.get((item["method"], item["path"]))
        if base is None:
            continue
        owner = _owner(base)
        if "maturity" in item and item["maturity"] != base.get("maturity"):
            out.warning(
                ("endpoints", index, "maturity"),
                f"{name} is {base.get('maturity')} in {owner}; this overlay makes it "
                f"{item['maturity']}",
            )
        if release is None:
            continue
        removed = _parsed(item.get("removed_in", base.get("removed_in")))
        if removed is not None and removed <= release:
            out.warning(
                ("endpoints", index),
                f"{name} is listed by the server{at_release} but {owner} removes it in {removed}",
            )
        since = _parsed(item.get("since", base.get("since")))
        if since is not None and release < since:
            out.warning(
                ("endpoints", index),
                f"{name} is listed by the server{at_release} but {owner} says it appears "
                f"only in {since}",
            )
    for index, item in enumerate(doc.get("paths") or ()):
        listed = set(item["methods"])
        extra = [
            e["method"]
            for e in before.get("endpoints") or ()
            if e["path"] == item["path"]
            and e["method"] not in listed
            and not _removed_by(e, release)
        ]
        if extra:
            out.warning(
                ("paths", index, "methods"),
                f"the overlay lists {', '.join(item['methods'])} for {item['path']}; the "
                f"registry also defines {', '.join(sorted(extra))} there",
            )
    properties = {p["name"]: p for p in before.get("properties") or ()}
    for index, item in enumerate(doc.get("properties") or ()):
        base = properties.get(item["name"])
        if base is None or "values" not in item:
            continue
        dropped = [v for v in base.get("values") or () if v not in item["values"]]
        if dropped:
            out.warning(
                ("properties", index, "values"),
                f"property {item['name']!r}: {_owner(base)} lists "
                f"{', '.join(dropped)}, which this overlay's values leave out",
            )
    return out.findings


def _owner(entry: dict[str, Any]) -> str:
    overlay = (entry.get("provenance") or {}).get("overlay")
    return f"overlay {overlay}" if overlay else "the registry"


def _parsed(text: Any) -> Release | None:
    if text is None:
        return None
    try:
        return parse_release(str(text))
    except ReleaseSyntaxError:
        return None


def _removed_by(entry: dict[str, Any], release: Release | None) -> bool:
    removed = _parsed(entry.get("removed_in"))
    return release is not None and removed is not None and removed <= release


# -- loading --------------------------------------------------------------------


def check_overlays(
    base: RegistrySource, directories: Iterable[Path]
) -> tuple[MergedSource | None, list[Finding], list[RegistrySource]]:
    """Every finding of the overlays and of the merged registry, errors and warnings.

    The merged source is None when an overlay alone has errors (merging a
    broken overlay would only repeat them as confusing merged findings). An
    error the merge causes in the registry's own entries (a successor the
    server removes, say) is a conflict, so a warning: the overlay states the
    server's truth, and the registry's invariants were written for the spec.
    """
    from apispec.registry.check import Finding, check_source

    sources = [read_overlay(Path(d)) for d in directories]
    findings: list[Finding] = []
    for source in sources:
        findings += overlay_findings(source)
    if any(f.severity == "error" for f in findings):
        return None, findings, sources
    merged = _start(base)
    for source in sources:
        findings += conflicts(merged.document, source)
        _apply(merged, source)
    own = {(f.severity, f.message) for f in check_source(base)}
    for finding in check_source(merged):
        mine = _within(finding.path, sources)
        if mine or (finding.severity == "error" and ("error", finding.message) in own):
            findings.append(finding)
        elif finding.severity == "error":
            message = f"{finding.message} (with the overlays)"
            findings.append(Finding(finding.path, finding.line, "warning", message))
        elif ("warning", finding.message) not in own:
            findings.append(finding)  # else the registry's own doubt about the spec: not news
    findings.sort(key=lambda f: (str(f.path), f.line, f.severity, f.message))
    return merged, findings, sources


def _within(path: Path, overlays: list[RegistrySource]) -> bool:
    return any(path.is_relative_to(o.directory) for o in overlays)


def apply_overlays(
    base: RegistrySource, directories: Iterable[Path]
) -> tuple[MergedSource, list[RegistrySource]]:
    """The merged registry and the overlays read, for the model; RegistryError on an error."""
    from apispec.registry.check import raise_on_errors

    merged, findings, sources = check_overlays(base, directories)
    raise_on_errors(findings)
    assert merged is not None
    return merged, sources
