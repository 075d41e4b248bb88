"""Loading a registry: read the YAML, merge overlays, check it, build the typed model.

The model (`apispec.registry.model`) is types only; this module is the one way a
registry document becomes a `Registry`, so the checker runs here and the model
never imports it (DESIGN.md: the model imports no consumer nor a checker).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

from apispec.registry.files import read_registry
from apispec.registry.model import (
    Endpoint,
    ErrorCode,
    Field,
    FilterExample,
    FilterProperty,
    Header,
    HttpStatus,
    Limit,
    Maturity,
    ObjectKind,
    Operator,
    OverlayInfo,
    Provenance,
    QueryParameter,
    Registry,
    Relationship,
    ReleaseInfo,
    SettingSection,
    Successor,
)
from apispec.registry.releases import Release, parse_release


def _release(value: Any) -> Release | None:
    return None if value is None else parse_release(str(value))


def _provenance(data: Mapping[str, Any] | None) -> Provenance | None:
    if data is None:
        return None
    overlay = data.get("overlay")
    return Provenance(
        Path(overlay) if overlay else None,
        data.get("source"),
        data.get("operation_id"),
        data.get("version"),
    )


def _overlay_info(directory: Path, meta: Mapping[str, Any]) -> OverlayInfo:
    return OverlayInfo(
        directory=directory,
        source=meta.get("source"),
        title=meta.get("title"),
        version=meta.get("version"),
        release=_release(meta.get("release")),
        description=meta.get("description"),
    )


def _fields(items: Any) -> tuple[Field, ...]:
    return tuple(Field(f["name"], f["type"], f.get("notes", "")) for f in items or ())


def build_registry(
    doc: Mapping[str, Any],
    directory: Path | None = None,
    overlays: tuple[OverlayInfo, ...] = (),
) -> Registry:
    """Turn the merged registry document into the model (after schema validation)."""
    endpoints = tuple(
        Endpoint(
            method=e["method"],
            path=e["path"],
            operation_id=e["operation_id"],
            summary=e["summary"],
            tag=e["tag"],
            maturity=Maturity(e["maturity"]),
            since=_release(e.get("since")),
            deprecated_in=_release(e.get("deprecated_in")),
            removed_in=_release(e.get("removed_in")),
            successor=Successor.parse(e["successor"]) if e.get("successor") else None,
            is_list=bool(e.get("list", False)),
            creates=bool(e.get("creates", False)),
            auth=bool(e.get("auth", True)),
            request_fields=dict(e.get("request_fields") or {}),
            response_fields=dict(e.get("response_fields") or {}),
            notes=tuple(e.get("notes") or ()),
            query=None if e.get("query") is None else tuple(e["query"]),
            provenance=_provenance(e.get("provenance")),
        )
        for e in doc["endpoints"]
    )
    listed = doc.get("paths") or ()
    return Registry(
        releases=tuple(
            ReleaseInfo(parse_release(str(r["id"])), tuple(r.get("notes") or ()))
            for r in doc["releases"]
        ),
        endpoints=endpoints,
        data_types={d["name"]: d["notation"] for d in doc["data_types"]},
        operators=tuple(Operator(o["symbol"], o["meaning"]) for o in doc["operators"]),
        properties=tuple(
            FilterProperty(
                name=p["name"],
                type=p["type"],
                operators=tuple(p["operators"]),
                values=tuple(p.get("values") or ()),
                values_complete=bool(p.get("values_complete", False)),
                multi_valued=bool(p.get("multi_valued", False)),
                applies_to=tuple(p.get("applies_to") or ()),
                notes=tuple(p.get("notes") or ()),
                provenance=_provenance(p.get("provenance")),
                assumed_values=tuple((p.get("assumed") or {}).get("values") or ()),
                assumed_from=(p.get("assumed") or {}).get("source"),
            )
            for p in doc["properties"]
        ),
        relationships=tuple(Relationship(r["name"], r["meaning"]) for r in doc["relationships"]),
        filter_examples=tuple(
            FilterExample(x["filter"], x.get("endpoint")) for x in doc.get("examples") or ()
        ),
        object_kinds=tuple(
            ObjectKind(k["name"], k.get("reference_type"), k.get("collection"), k.get("tree_level"))
            for k in doc["object_kinds"]
        ),
        root=dict(doc.get("root") or {}),
        record_fields=_fields(doc["record_fields"]),
        reference_fields=_fields(doc.get("reference_fields")),
        setting_sections=tuple(
            SettingSection(s["name"], _fields(s["fields"]), tuple(s.get("notes") or ()))
            for s in doc.get("setting_sections") or ()
        ),
        inheritance_fields=_fields(doc.get("inheritance_fields")),
        http_statuses=tuple(HttpStatus(s["status"], s["condition"]) for s in doc["http_statuses"]),
        error_codes=tuple(
            ErrorCode(c["code"], c["meaning"], c["status"], c["status_source"], c.get("basis", ""))
            for c in doc["error_codes"]
        ),
        limits=tuple(
            Limit(x["name"], x["value"], x["unit"], x["applies_to"], x.get("notes", ""))
            for x in doc["limits"]
        ),
        pagination_headers=tuple(
            Header(h["name"], h["content"]) for h in doc["pagination_headers"]
        ),
        query_parameters=tuple(
            QueryParameter(q["name"], q["type"], q["rule"]) for q in doc["query_parameters"]
        ),
        directory=directory,
        overlays=overlays,
        listed_methods={p["path"]: tuple(p["methods"]) for p in listed},
    )


def load_registry(
    directory: Path | None = None, overlays: tuple[Path, ...] | list[Path] = ()
) -> Registry:
    """Load and validate a registry directory once per process (default: the bundled one).

    `overlays` are applied in order on top of it, later ones winning (see
    apispec.registry.overlays). Raises RegistryError with `FILE:LINE: message` when the
    files do not pass the schema and cross-reference checks, so no consumer
    ever sees bad data.
    """
    return _load(directory, tuple(overlays))


@cache
def _load(directory: Path | None, overlays: tuple[Path, ...]) -> Registry:
    source = read_registry(directory, with_lines=directory is not None)
    if overlays:
        from apispec.registry.overlays import apply_overlays

        merged, read = apply_overlays(source, overlays)
        infos = tuple(_overlay_info(o.directory, o.document["overlay"] or {}) for o in read)
        return build_registry(merged.document, source.directory, infos)
    if directory is not None:
        from apispec.registry.check import check_source, raise_on_errors

        raise_on_errors(check_source(source))
    return build_registry(source.document, source.directory)
