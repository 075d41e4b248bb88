"""One import from SOURCE to an overlay directory: what `apispec registry import` does."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from apispec.registry.importer.describe import Description, describe
from apispec.registry.importer.overlay import (
    OVERLAY_FILE,
    build_overlay,
    prepare_output,
    render,
    write_overlay,
)
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
    text = render(document, description.source)
    refuse_unless_checked(text, registry)
    write_overlay(target, text)
    return Imported(target, description, document)


class OverlayBuildError(Exception):
    """The overlay an import built fails the registry's own check: a bug in apispec (exit 3),
    reported before anything is written."""


def refuse_unless_checked(text: str, registry: Registry) -> None:
    """Run `apispec registry check` on the overlay text over `registry` (its directory and
    overlays) in a scratch directory; OverlayBuildError on its first error. The docs promise
    that an imported overlay always loads: this makes a broken one a crash, not a file."""
    import tempfile

    from apispec.registry.files import read_registry
    from apispec.registry.overlays import check_overlays

    with tempfile.TemporaryDirectory(prefix="apispec-import-") as scratch:
        Path(scratch, OVERLAY_FILE).write_text(text, encoding="utf-8")
        base = read_registry(registry.directory, with_lines=True)
        earlier = [info.directory for info in registry.overlays]
        _, findings, _ = check_overlays(base, [*earlier, Path(scratch)])
        errors = [
            f
            for f in findings
            if f.severity == "error" and Path(scratch) in (f.path, *f.path.parents)
        ]
        if errors:
            first = errors[0]
            raise OverlayBuildError(
                f"the overlay built fails `registry check` at line {first.line}: {first.message}; "
                "nothing was written"
            )
