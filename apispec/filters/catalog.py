"""The registry facts the filter checker needs, in lookup-ready form.

`catalog_of(registry)` derives it from any Registry. For the bundled registry,
`default_catalog()` skips loading and validating the YAML (about a quarter of a
second, most of it importing jsonschema) by keeping the derived catalog as JSON
in the user cache directory, keyed by a hash of the registry files' bytes: a
changed registry gets a new key. Unwritable cache directories are fine;
`APISPEC_NO_CACHE=1` skips the cache.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from apispec.registry.model import PropertyType, Registry

FORMAT = 2  # bump when the JSON shape below changes


@dataclass(frozen=True)
class PropertyInfo:
    name: str
    type: PropertyType
    operators: tuple[str, ...]
    values: tuple[str, ...] = ()
    multi_valued: bool = False
    applies_to: tuple[str, ...] = ()
    values_complete: bool = False  # an overlay supplied the whole enumeration


@dataclass(frozen=True)
class Catalog:
    properties: dict[str, PropertyInfo]
    operators: tuple[str, ...]
    relationships: tuple[str, ...]
    paths: tuple[str, ...]  # every endpoint path, for `--endpoint`
    collections: dict[str, str]  # collection path segment(s) -> object kind

    def kind_of(self, path: str) -> str | None:
        """The object kind an endpoint path lists or addresses; None for mixed (/objects)."""
        rest = path.removeprefix("/experimental")
        best: str | None = None
        for collection in self.collections:
            prefix = "/" + collection
            if (rest == prefix or rest.startswith(prefix + "/")) and (
                best is None or len(collection) > len(best)
            ):
                best = collection
        return None if best is None else self.collections[best]

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "properties": [asdict(p) for p in self.properties.values()],
            "operators": list(self.operators),
            "relationships": list(self.relationships),
            "paths": list(self.paths),
            "collections": self.collections,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Catalog:
        props = (
            PropertyInfo(
                p["name"],
                p["type"],
                tuple(p["operators"]),
                tuple(p["values"]),
                p["multi_valued"],
                tuple(p["applies_to"]),
                p["values_complete"],
            )
            for p in data["properties"]
        )
        return cls(
            {p.name: p for p in props},
            tuple(data["operators"]),
            tuple(data["relationships"]),
            tuple(data["paths"]),
            dict(data["collections"]),
        )


_by_registry: dict[int, tuple[Registry, Catalog]] = {}


def catalog_of(registry: Registry) -> Catalog:
    """The catalog of `registry` (computed once per registry object)."""
    known = _by_registry.get(id(registry))
    if known is not None and known[0] is registry:
        return known[1]
    catalog = Catalog(
        {
            p.name: PropertyInfo(
                p.name,
                p.type,
                p.operators,
                p.known_values,  # the spec's values and those the project assumes
                p.multi_valued,
                p.applies_to,
                p.values_complete,
            )
            for p in registry.properties
        },
        tuple(o.symbol for o in registry.operators),
        tuple(r.name for r in registry.relationships),
        tuple(dict.fromkeys(e.path for e in registry.endpoints)),
        {k.collection: k.name for k in registry.object_kinds if k.collection},
    )
    _by_registry[id(registry)] = (registry, catalog)
    return catalog


def resolve(registry: Registry | None) -> Catalog:
    return default_catalog() if registry is None else catalog_of(registry)


@cache
def default_catalog() -> Catalog:
    """The bundled registry's catalog, from the disk cache when it is current."""
    path = _cache_path()
    if path is not None:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            if data.get("format") == FORMAT:
                return Catalog.from_json(data)
        except (OSError, ValueError, KeyError, TypeError):
            pass
    from apispec.registry.load import load_registry

    catalog = catalog_of(load_registry())
    if path is not None:
        _write(path, catalog)
    return catalog


def _cache_path() -> Path | None:
    if os.environ.get("APISPEC_NO_CACHE"):
        return None
    import platformdirs

    from apispec.filters.grammar import cache_key

    # The bundled registry (`apispec.registry.files.default_directory()`, not
    # imported: start-up) is the package's `registry` directory.
    directory = Path(__file__).resolve().parent.parent / "registry" / "data"
    data = [str(FORMAT).encode()]
    try:
        for file in sorted(directory.glob("*")):
            data += [file.name.encode(), file.read_bytes()]
    except OSError:
        return None
    key = cache_key(b"\0".join(data))
    return Path(platformdirs.user_cache_dir("apispec")) / f"filter-catalog-{key}.json"


def _write(path: Path, catalog: Catalog) -> None:
    """Write atomically, so a concurrent reader never sees half a file."""
    from apispec.support.outputs import WriteError, write_atomic

    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(path, json.dumps(catalog.to_json()), durable=False)
    except (OSError, WriteError):
        pass
