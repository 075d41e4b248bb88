"""`apispec registry diff A B`: what two API descriptions say differently.

Each side is a *view*: a registry (all its facts), a registry with an overlay
applied (what every command would see), or an OpenAPI document (the facts it
states, for the one release it describes). A fact a side does not state (a
document without `x-since`, say) is not compared, so a description is never
blamed for the spec's extra knowledge. When one side describes one release,
the registry sides are taken at that release: an endpoint removed before it is
absent from both, not a difference.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from pathlib import Path

    from apispec.registry.importer.describe import Description
    from apispec.registry.model import Registry
    from apispec.registry.releases import Release

# What a compared operand is: a registry directory, an overlay on one, an OpenAPI document.
SourceKind = Literal["registry", "overlay", "openapi"]

# Compared endpoint facts, in the order reports show them.
FACTS = (
    "maturity",
    "since",
    "deprecated_in",
    "removed_in",
    "successor",
    "list",
    "creates",
    "auth",
    "query",
)


@dataclass(frozen=True)
class EndpointFacts:
    method: str
    path: str
    facts: dict[str, Any]  # only the facts this side states
    origin: str | None = None  # provenance, shown with added endpoints

    @property
    def key(self) -> tuple[str, str]:
        return (self.method, self.path)


@dataclass(frozen=True)
class View:
    label: str
    kind: SourceKind
    release: Release | None  # the one release a document describes
    endpoints: dict[tuple[str, str], EndpointFacts]
    enums: dict[str, tuple[tuple[str, ...], bool]]  # property -> (values, complete)
    releases: tuple[str, ...] | None = None  # None: not a registry
    registry: Registry | None = None  # kept to take the view at a release later


@dataclass
class Diff:
    a: View
    b: View
    release: Release | None
    releases_added: list[str] = field(default_factory=list)
    releases_removed: list[str] = field(default_factory=list)
    added: list[EndpointFacts] = field(default_factory=list)
    removed: list[EndpointFacts] = field(default_factory=list)
    changed: list[tuple[EndpointFacts, dict[str, tuple[Any, Any]]]] = field(default_factory=list)
    enums: list[dict[str, Any]] = field(default_factory=list)

    def release_of(self, view: View) -> Release | None:
        """The release a side speaks of: a document's own, or the one a registry side was
        taken at; None for a registry side with every release."""
        return view.release if view.registry is None else self.release

    @property
    def different(self) -> bool:
        return bool(
            self.releases_added
            or self.releases_removed
            or self.added
            or self.removed
            or self.changed
            or self.enums
        )

    def as_dict(self) -> dict[str, Any]:
        def side(view: View) -> dict[str, Any]:
            return {
                "label": view.label,
                "kind": view.kind,
                "release": None if (at := self.release_of(view)) is None else at.text,
            }

        def endpoint(e: EndpointFacts) -> dict[str, Any]:
            return {"method": e.method, "path": e.path, **e.facts, "origin": e.origin}

        return {
            "a": side(self.a),
            "b": side(self.b),
            "release": None if self.release is None else self.release.text,
            "different": self.different,
            "releases_added": self.releases_added,
            "releases_removed": self.releases_removed,
            "endpoints_added": [endpoint(e) for e in self.added],
            "endpoints_removed": [endpoint(e) for e in self.removed],
            "endpoints_changed": [
                {
                    "method": e.method,
                    "path": e.path,
                    "changes": {k: {"from": a, "to": b} for k, (a, b) in changes.items()},
                }
                for e, changes in self.changed
            ],
            "enum_values": self.enums,
        }


# -- views ----------------------------------------------------------------------


def registry_view(
    registry: Registry, label: str, kind: SourceKind = "registry", release: Release | None = None
) -> View:
    """Every fact of a registry, or of what it offers in `release`."""
    common = tuple(q.name for q in registry.query_parameters)
    endpoints = {}
    for e in registry.endpoints if release is None else registry.endpoints_in(release):
        query = e.query if e.query is not None else (common if e.is_list else ())
        facts = {
            "maturity": str(e.maturity),
            "since": _text(e.since),
            "deprecated_in": _text(e.deprecated_in),
            "removed_in": _text(e.removed_in),
            "successor": _text(e.successor),
            "list": e.is_list,
            "creates": e.creates,
            "auth": e.auth,
            "query": sorted(query),
        }
        origin = str(e.provenance) if e.provenance is not None else None
        endpoints[e.key] = EndpointFacts(e.method, e.path, facts, origin)
    enums = {
        p.name: (tuple(p.values), p.values_complete)
        for p in registry.properties
        if p.type == "enumeration"
    }
    releases = tuple(r.text for r in registry.release_list)
    return View(label, kind, None, endpoints, enums, releases, registry)


def document_view(description: Description, label: str) -> View:
    """What an OpenAPI description states, for its one release."""
    endpoints = {}
    for op in description.operations:
        facts: dict[str, Any] = {"maturity": op.maturity, "list": op.is_list}
        facts.update({name: op.lifecycle[name] for name in op.stated})
        if op.creates:
            facts["creates"] = True
        if op.auth is not None:
            facts["auth"] = op.auth
        if op.query:
            facts["query"] = sorted(op.query)
        origin = f"operation {op.operation_id}" if op.operation_id else None
        endpoints[op.key] = EndpointFacts(op.method, op.path, facts, origin)
    enums = {name: (values, True) for name, values in description.enums.items()}
    return View(label, "openapi", description.release, endpoints, enums)


def _text(value: object | None) -> str | None:
    return None if value is None else str(value)


# -- comparing ------------------------------------------------------------------


def compare(a: View, b: View, release: Release | None = None) -> Diff:
    """The differences from `a` to `b`; `release` is the release both were taken at."""
    diff = Diff(a, b, release)
    if a.releases is not None and b.releases is not None and release is None:
        diff.releases_added = [r for r in b.releases if r not in a.releases]
        diff.releases_removed = [r for r in a.releases if r not in b.releases]
    order = sorted(set(a.endpoints) | set(b.endpoints), key=lambda k: (k[1], _method_rank(k[0])))
    for key in order:
        left, right = a.endpoints.get(key), b.endpoints.get(key)
        if left is None and right is not None:
            diff.added.append(right)
        elif right is None and left is not None:
            diff.removed.append(left)
        elif left is not None and right is not None:
            changes = {
                name: (left.facts[name], right.facts[name])
                for name in FACTS
                if name in left.facts
                and name in right.facts
                and left.facts[name] != right.facts[name]
            }
            if changes:
                diff.changed.append((right, changes))
    for name in sorted(set(a.enums) & set(b.enums)):
        (before, was_complete), (after, complete) = a.enums[name], b.enums[name]
        added = [v for v in after if v not in before]
        # a partial list leaves nothing out: only a complete one removes values
        removed = [v for v in before if v not in after] if complete else []
        if added or removed or was_complete != complete:
            diff.enums.append(
                {
                    "property": name,
                    "added": added,
                    "removed": removed,
                    "complete": {"from": was_complete, "to": complete},
                }
            )
    return diff


def _method_rank(method: str) -> int:
    order = ("GET", "POST", "PUT", "PATCH", "DELETE")
    return order.index(method) if method in order else len(order)


# -- operands -------------------------------------------------------------------


def open_view(
    operand: str,
    base: Registry,
    headers: dict[str, str],
    release: str | None = None,
) -> View:
    """A diff operand: an http(s) URL or a file is an OpenAPI document; a directory is an
    overlay (applied to `base`), an OpenAPI description, or a registry, by what it holds."""
    import urllib.parse
    from pathlib import Path

    from apispec.support.exceptions import UsageError

    if urllib.parse.urlsplit(operand).scheme.lower() in ("http", "https"):
        return _document(operand, base, headers, release)
    path = Path(operand)
    if not path.exists():
        raise UsageError(f"{operand}: no such file or directory")
    if not path.is_dir():
        return _document(operand, base, {}, release)
    kind = directory_kind(path)
    if kind == "openapi":
        return _document(operand, base, {}, release)
    from apispec.registry.load import load_registry

    if kind == "overlay":
        directory = base.directory if base.directory != _bundled() else None
        stacked = (*(o.directory for o in base.overlays), path)
        return registry_view(load_registry(directory, stacked), f"{operand} (overlay)", "overlay")
    return registry_view(load_registry(path), f"{operand} (registry)")


def _bundled() -> Path:
    from apispec.registry.files import default_directory

    return default_directory()


def _document(operand: str, base: Registry, headers: dict[str, str], release: str | None) -> View:
    from apispec.registry.importer.run import read_description

    description = read_description(operand, base, headers, release)
    return document_view(description, f"{description.source} (OpenAPI {description.version})")


def directory_kind(path: Path) -> SourceKind:
    """`overlay`, `openapi` or `registry`, from the top-level keys of its files."""
    import re

    from apispec.registry.importer.sources import MAX_DOCUMENT_SIZE, inside
    from apispec.support.inputs import InputError, read_input

    pattern = re.compile(rb'^(overlay|openapi)\s*:|^\s*\{\s*"(openapi)"\s*:', re.MULTILINE)
    found: set[bytes] = set()
    for file in sorted(path.iterdir()):
        if file.suffix.lower() not in (".yaml", ".yml", ".json") or not file.is_file():
            continue
        if not inside(file, path):
            continue
        try:
            head = read_input(file, max_size=MAX_DOCUMENT_SIZE)[:65536]
        except InputError:
            continue
        found.update(m.group(1) or m.group(2) for m in pattern.finditer(head))
    if b"overlay" in found:
        return "overlay"
    return "openapi" if b"openapi" in found else "registry"


def diff_operands(
    a: str | None,
    b: str,
    base: Registry,
    headers: dict[str, str] | None = None,
    release: str | None = None,
) -> Diff:
    """What `apispec registry diff [A] B` compares; A defaults to `base` itself."""
    headers = headers or {}
    left = (
        registry_view(base, _base_label(base))
        if a is None
        else open_view(a, base, headers, release)
    )
    right = open_view(b, base, headers, release)
    at = base.release(release) if release is not None and _known(base, release) else None
    if release is not None and at is None:
        from apispec.registry.releases import parse_release

        at = parse_release(release)
    if at is None and (left.registry is not None or right.registry is not None):
        at = left.release or right.release  # a registry side is taken at the document's release
    if at is not None:
        left, right = _taken_at(left, at), _taken_at(right, at)
    return compare(left, right, at)


def _known(registry: Registry, text: str) -> bool:
    return any(r.text == text for r in registry.release_list)


def _taken_at(view: View, release: Release) -> View:
    if view.registry is None:
        return view
    return registry_view(view.registry, view.label, view.kind, release)


def _base_label(registry: Registry) -> str:
    where = (
        "bundled registry"
        if registry.directory == _bundled()
        else f"{registry.directory} (registry)"
    )
    for overlay in registry.overlays:
        where += f" + overlay {overlay.directory}"
    return where
