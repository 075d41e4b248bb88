"""Completion in filter strings (the filter checker's `complete`) and in API v2 paths (the registry).

Both return plain data (`Item`): the server turns it into LSP items, and the
tests check it without a server.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal

from apispec.filters.complete import CompletionKind
from apispec.lsp import adapter, context
from apispec.lsp.maturity import status
from apispec.registry.model import Endpoint, Registry
from apispec.registry.releases import Release

ItemKind = CompletionKind | Literal["path"]


@dataclass(frozen=True)
class Item:
    label: str
    kind: ItemKind
    detail: str
    insert: str  # replaces line[start:end]
    start: int  # line columns
    end: int
    documentation: str = ""
    deprecated: bool = False
    sort: str = ""
    filter_text: str | None = None


def complete(
    line: str, column: int, registry: Registry, target: Release, language: str
) -> list[Item]:
    """What may be typed at `column` of `line`: filter candidates, else path candidates."""
    region = context.filter_region(line, column)
    if region is not None:
        return list(_filter_items(region, column, registry, language))
    prefix = context.path_prefix(line, column)
    if prefix is not None:
        return list(_path_items(prefix, column, registry, target))
    return []


def _filter_items(
    region: context.Region, column: int, registry: Registry, language: str
) -> Iterator[Item]:
    cursor = region.index(column)
    for n, c in enumerate(adapter.complete_filter(region.text, cursor, registry)):
        yield Item(
            label=c.label,
            kind=c.kind,
            detail=c.detail,
            insert=escaped(c.insert, region.quote, language),
            start=region.column(c.start),
            end=region.column(c.end),
            sort=f"{n:03d}",
        )


def escaped(text: str, quote: str, language: str) -> str:
    """`text` as it must be written inside a string delimited by `quote`."""
    if not quote or quote not in text:
        return text
    if quote == "'" and language in ("yaml", "powershell"):
        return text.replace("'", "''")
    if quote == '"' and language == "powershell":
        return text.replace('"', '`"')
    return text.replace("\\", "\\\\").replace(quote, "\\" + quote)


@dataclass(frozen=True)
class _Path:
    path: str
    segments: tuple[str, ...]
    endpoints: tuple[Endpoint, ...]


_PATHS: dict[int, tuple[Registry, tuple[_Path, ...]]] = {}


def _paths(registry: Registry) -> tuple[_Path, ...]:
    """Endpoints grouped by path, once per registry (a Registry is not hashable)."""
    cached = _PATHS.get(id(registry))
    if cached is not None and cached[0] is registry:
        return cached[1]
    by_path: dict[str, list[Endpoint]] = {}
    for endpoint in registry.endpoints:
        by_path.setdefault(endpoint.path, []).append(endpoint)
    paths = tuple(
        _Path(path, tuple(path.strip("/").split("/")), tuple(endpoints))
        for path, endpoints in sorted(by_path.items())
    )
    _PATHS[id(registry)] = (registry, paths)
    return paths


def _fits(written: str, segment: str) -> bool:
    if segment.startswith("{"):
        return context.is_param(written)
    return written == segment


def _path_items(
    prefix: context.PathPrefix, column: int, registry: Registry, target: Release
) -> Iterator[Item]:
    depth = len(prefix.done)
    partial = prefix.partial
    typing_param = partial[:1] in ("{", "$", "%", "#", ":", "<") or partial.isdigit()
    for entry in _paths(registry):
        segments = entry.segments
        if len(segments) <= depth:
            continue
        if not all(_fits(w, s) for w, s in zip(prefix.done, segments, strict=False)):
            continue
        current = segments[depth]
        if current.startswith("{"):
            if partial and not typing_param:
                continue
        elif not current.startswith(partial):
            continue
        states = [(e, status(e, registry, target)) for e in entry.endpoints]
        going = all(s.going for _, s in states)
        detail = "; ".join(f"{e.method} {s.word}" for e, s in states)
        if going and states[0][1].successor:
            detail += f" → {states[0][1].successor}"
        documentation = "\n".join(
            f"- `{e.method} {e.path}`: {e.summary} ({s.detail})" for e, s in states
        )
        remainder = "/".join(segments[depth:])
        yield Item(
            label=entry.path,
            kind="path",
            detail=detail,
            insert=remainder,
            start=prefix.partial_start,
            end=column,
            documentation=documentation,
            deprecated=going,
            sort=f"{int(going)}{entry.path}",
            filter_text=remainder,
        )
