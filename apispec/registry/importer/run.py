"""One import from SOURCE to an overlay directory: what `apispec registry import` does."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from apispec.registry.importer.describe import Description, describe
from apispec.registry.importer.overlay import build_overlay, prepare_output, render, write_overlay
from apispec.registry.importer.refs import Resolver
from apispec.registry.importer.sources import open_source

if TYPE_CHECKING:
    from apispec.registry.model import Registry


def read_description(
    source: str,
    registry: Registry,
    headers: dict[str, str] | None = None,
    release: str | None = None,
) -> Description:
    """SOURCE (a file, a directory or an http(s) URL) as registry facts."""
    resolver = Resolver(open_source(source, headers or {}))
    return describe(resolver, registry, release)


@dataclass(frozen=True)
class Imported:
    path: Path
    description: Description
    document: dict[str, Any]

    def summary(self) -> str:
        d, doc = self.description, self.document
        endpoints = doc.get("endpoints", [])
        new = sum("operation_id" in e and "maturity" in e and "summary" in e for e in endpoints)
        return (
            f"imported {d.source} ({d.title or 'untitled'}, version {d.version}, release "
            f"{d.release}): {_plural(len(d.operations), 'operation')}, "
            f"{_plural(new, 'new endpoint')}, {len(endpoints) - new} changed, "
            f"{_plural(len(doc.get('properties', [])), 'enumeration')}, "
            f"{_plural(len(doc.get('paths', [])), 'method list')} -> {self.path}"
        )


def _plural(count: int, words: str) -> str:
    return f"{count} {words}{'' if count == 1 else 's'}"


def import_overlay(
    source: str,
    output: Path,
    registry: Registry,
    headers: dict[str, str] | None = None,
    release: str | None = None,
) -> Imported:
    target = prepare_output(output)  # before any request: a wrong --output costs nothing
    description = read_description(source, registry, headers, release)
    document = build_overlay(description, registry)
    write_overlay(target, render(document, description.source))
    return Imported(target, description, document)
