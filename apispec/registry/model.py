"""The typed, immutable view of the registry that every consumer uses.

Consumers never read the YAML: they call `load_registry()` and work with these
objects, so a change of file layout touches this module and nothing else.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cached_property
from pathlib import Path
from typing import Any, Literal

from apispec.registry.releases import Release, parse_release
from apispec.support.exceptions import UsageError, did_you_mean

_PARAM = re.compile(r"\{([a-z_]+)\}")

NONE_PLANNED = "none planned"
TO_BE_DECIDED = "to be decided"


# A filterable property's data type (registry/data/schema.json lists the same four).
PropertyType = Literal["text", "number", "boolean", "enumeration"]


class Maturity(StrEnum):
    STABLE = "stable"
    EXPERIMENTAL = "experimental"
    DEPRECATED = "deprecated"


@dataclass(frozen=True)
class Successor:
    """What replaces a deprecated endpoint: another endpoint, or one of two verdicts."""

    text: str
    method: str | None = None
    path: str | None = None

    @classmethod
    def parse(cls, text: str) -> Successor:
        if text in (NONE_PLANNED, TO_BE_DECIDED):
            return cls(text)
        method, _, path = text.partition(" ")
        return cls(text, method, path)

    @property
    def is_endpoint(self) -> bool:
        return self.path is not None

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True)
class Provenance:
    """Where an overlay's fact comes from, so a finding can say whose truth it is."""

    overlay: Path | None  # the overlay directory the entry was read from
    source: str | None = None  # the document the overlay was imported from, as recorded
    operation_id: str | None = None  # that document's own operation id
    version: str | None = None  # that document's info.version

    def __str__(self) -> str:
        parts = [f"overlay {self.overlay}"] if self.overlay else []
        if self.source:
            parts.append(f"from {self.source}")
        if self.operation_id:
            parts.append(f"operation {self.operation_id}")
        if self.version:
            parts.append(f"version {self.version}")
        return ", ".join(parts) or "registry"

    def as_dict(self) -> dict[str, str | None]:
        return {
            "overlay": None if self.overlay is None else str(self.overlay),
            "source": self.source,
            "operation_id": self.operation_id,
            "version": self.version,
        }


@dataclass(frozen=True)
class OverlayInfo:
    """One overlay applied to the registry, in the order given (later ones win)."""

    directory: Path
    source: str | None = None
    title: str | None = None
    version: str | None = None  # the source's info.version, as written
    release: Release | None = None  # the release the overlay describes
    description: str | None = None


@dataclass(frozen=True)
class Endpoint:
    """One (method, path) of the API; `path` is relative to /api/v2."""

    method: str
    path: str
    operation_id: str
    summary: str
    tag: str
    maturity: Maturity
    since: Release | None = None
    deprecated_in: Release | None = None
    removed_in: Release | None = None
    successor: Successor | None = None
    is_list: bool = False
    creates: bool = False
    auth: bool = True
    request_fields: Mapping[str, str] = field(default_factory=dict)
    response_fields: Mapping[str, str] = field(default_factory=dict)
    notes: tuple[str, ...] = ()
    # Every query parameter the endpoint takes, when an overlay lists them; None
    # means the common list parameters (for list endpoints) and nothing else known.
    query: tuple[str, ...] | None = None
    provenance: Provenance | None = None  # None: the bundled spec's fact

    @property
    def key(self) -> tuple[str, str]:
        return (self.method, self.path)

    @property
    def path_params(self) -> tuple[str, ...]:
        return tuple(_PARAM.findall(self.path))

    @property
    def is_experimental_path(self) -> bool:
        return self.path.startswith("/experimental/")

    def __str__(self) -> str:
        return f"{self.method} {self.path}"

    def as_dict(self) -> dict[str, Any]:
        """The JSON shape of `apispec registry list --format json`."""
        return {
            "method": self.method,
            "path": self.path,
            "operation_id": self.operation_id,
            "summary": self.summary,
            "tag": self.tag,
            "maturity": str(self.maturity),
            "since": _text(self.since),
            "deprecated_in": _text(self.deprecated_in),
            "removed_in": _text(self.removed_in),
            "successor": _text(self.successor),
            "list": self.is_list,
            "creates": self.creates,
            "auth": self.auth,
            "request_fields": dict(self.request_fields),
            "response_fields": dict(self.response_fields),
            "notes": list(self.notes),
            "query": None if self.query is None else list(self.query),
            "provenance": None if self.provenance is None else self.provenance.as_dict(),
        }


def _text(value: object | None) -> str | None:
    return None if value is None else str(value)


@dataclass(frozen=True)
class FilterProperty:
    """A filterable property: its data type and the operators the spec allows on it."""

    name: str
    type: PropertyType
    operators: tuple[str, ...]
    values: tuple[str, ...] = ()
    # True when `values` is the whole enumeration (an overlay imported it from a
    # server's schema); the spec's own lists are partial.
    values_complete: bool = False
    multi_valued: bool = False
    applies_to: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    provenance: Provenance | None = None
    # Values the project assumes beyond the spec's partial list, and where that comes
    # from (filters.yaml `assumed`): known to the checker, served by the mock.
    assumed_values: tuple[str, ...] = ()
    assumed_from: str | None = None

    @property
    def known_values(self) -> tuple[str, ...]:
        """The values the checker, fixes, completion and docs know: the spec's and the
        assumed ones; an overlay's complete enumeration alone, since it is the server's."""
        if self.values_complete:
            return self.values
        return tuple(dict.fromkeys((*self.values, *self.assumed_values)))


@dataclass(frozen=True)
class Operator:
    symbol: str
    meaning: str


@dataclass(frozen=True)
class Relationship:
    name: str
    meaning: str


@dataclass(frozen=True)
class FilterExample:
    filter: str
    endpoint: str | None = None


@dataclass(frozen=True)
class Field:
    name: str
    type: str
    notes: str = ""


@dataclass(frozen=True)
class SettingSection:
    name: str
    fields: tuple[Field, ...]
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class ObjectKind:
    name: str
    reference_type: str | None = None
    collection: str | None = None
    tree_level: int | None = None


@dataclass(frozen=True)
class ErrorCode:
    code: str
    meaning: str
    status: int
    status_source: str
    basis: str = ""


@dataclass(frozen=True)
class HttpStatus:
    status: int
    condition: str


@dataclass(frozen=True)
class Limit:
    name: str
    value: int
    unit: str
    applies_to: str
    notes: str = ""


@dataclass(frozen=True)
class Header:
    name: str
    content: str


@dataclass(frozen=True)
class QueryParameter:
    name: str
    type: str
    rule: str


@dataclass(frozen=True)
class ReleaseInfo:
    release: Release
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class Registry:
    """Every fact of the spec that a tool needs, loaded once."""

    releases: tuple[ReleaseInfo, ...]
    endpoints: tuple[Endpoint, ...]
    data_types: Mapping[str, str]
    operators: tuple[Operator, ...]
    properties: tuple[FilterProperty, ...]
    relationships: tuple[Relationship, ...]
    filter_examples: tuple[FilterExample, ...]
    object_kinds: tuple[ObjectKind, ...]
    root: Mapping[str, str]
    record_fields: tuple[Field, ...]
    reference_fields: tuple[Field, ...]
    setting_sections: tuple[SettingSection, ...]
    inheritance_fields: tuple[Field, ...]
    http_statuses: tuple[HttpStatus, ...]
    error_codes: tuple[ErrorCode, ...]
    limits: tuple[Limit, ...]
    pagination_headers: tuple[Header, ...]
    query_parameters: tuple[QueryParameter, ...]
    directory: Path | None = None
    overlays: tuple[OverlayInfo, ...] = ()
    # path -> the complete method list an overlay states for it (its `paths` section)
    listed_methods: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    # -- releases -------------------------------------------------------------

    @cached_property
    def release_list(self) -> tuple[Release, ...]:
        """Every release the registry knows, oldest first."""
        return tuple(sorted((info.release for info in self.releases), key=lambda r: r.sort_key))

    @property
    def newest_release(self) -> Release:
        return self.release_list[-1]

    @property
    def newest_concrete_release(self) -> Release:
        """The newest release that is not a placeholder (`25.x.122`, not `25.x.1xx`).

        No server runs a placeholder build, so a default that picked one would let
        code calling an endpoint that exists only there pass every check.
        """
        concrete = [r for r in self.release_list if not r.is_placeholder]
        return concrete[-1] if concrete else self.newest_release

    @property
    def default_release(self) -> tuple[Release, str]:
        """The release a command uses when none is named, and why (for the note it prints).

        An overlay describes the server the user runs, so the last one that names
        its release wins; otherwise the newest concrete release.
        """
        for overlay in reversed(self.overlays):
            if overlay.release is not None:
                return overlay.release, f"the release the overlay {overlay.directory} describes"
        return self.newest_concrete_release, "the newest concrete release"

    @property
    def first_release(self) -> Release:
        return self.release_list[0]

    def release(self, text: str) -> Release:
        """The known release written `text`; a UsageError with a did-you-mean otherwise."""
        known = {r.text: r for r in self.release_list}
        if text in known:
            return known[text]
        parse_release(text)  # a syntax error says so before "unknown"
        raise UsageError(
            f"unknown release {text!r}{did_you_mean(text, known)}; "
            f"known releases: {', '.join(known)}"
        )

    # -- endpoints ------------------------------------------------------------

    @cached_property
    def _by_key(self) -> dict[tuple[str, str], Endpoint]:
        return {e.key: e for e in self.endpoints}

    def find(self, method: str, path: str) -> Endpoint | None:
        return self._by_key.get((method.upper(), path))

    def endpoint(self, method: str, path: str) -> Endpoint:
        """The endpoint at (method, path); a UsageError with a did-you-mean otherwise."""
        method = method.upper()
        found = self.find(method, path)
        if found is not None:
            return found
        methods = sorted({e.method for e in self.endpoints})
        if method not in methods:
            raise UsageError(f"unknown method {method!r}{did_you_mean(method, methods)}")
        paths = sorted({e.path for e in self.endpoints})
        if path in paths:
            defined = ", ".join(e.method for e in self.endpoints if e.path == path)
            raise UsageError(f"{method} is not defined for {path} (defined: {defined})")
        raise UsageError(f"unknown path {path!r}{did_you_mean(path, paths)}")

    def successor_of(self, endpoint: Endpoint) -> Endpoint | None:
        """The successor endpoint, when the successor is an endpoint of the registry."""
        succ = endpoint.successor
        if succ is None or not succ.is_endpoint:
            return None
        assert succ.method is not None and succ.path is not None
        return self.find(succ.method, succ.path)

    def available_in(self, endpoint: Endpoint, release: Release) -> bool:
        """Since <= release and not removed by it; an unknown `since` means from the start."""
        if endpoint.since is not None and not endpoint.since <= release:
            return False
        return endpoint.removed_in is None or release < endpoint.removed_in

    def endpoints_in(self, release: Release) -> tuple[Endpoint, ...]:
        return tuple(e for e in self.endpoints if self.available_in(e, release))

    def tags(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(e.tag for e in self.endpoints))

    def methods_listed(self, path: str) -> tuple[str, ...] | None:
        """The methods an overlay says `path` has, all of them; None when no overlay says.

        The spec's stable list is incomplete, so a method the bundled registry
        lacks may still exist; once a server's own description lists a path's
        methods, a method outside that list is known not to exist.
        """
        return self.listed_methods.get(path)

    def methods_authoritative(self, path: str) -> bool:
        return path in self.listed_methods

    def accepts_query(self, endpoint: Endpoint, name: str) -> bool | None:
        """Whether `endpoint` takes query parameter `name`; None when nothing is known.

        An overlay's `query` list is complete; without one, a list endpoint takes
        the common list parameters and any other endpoint's parameters are unknown.
        """
        if endpoint.query is not None:
            return name in endpoint.query
        if endpoint.is_list:
            return any(q.name == name for q in self.query_parameters)
        return None

    # -- filters, errors --------------------------------------------------------

    @cached_property
    def _properties(self) -> dict[str, FilterProperty]:
        return {p.name: p for p in self.properties}

    def property(self, name: str) -> FilterProperty | None:
        return self._properties.get(name)

    def error_code(self, code: str) -> ErrorCode | None:
        return next((e for e in self.error_codes if e.code == code), None)

    def limit(self, name: str) -> int:
        return next(lim.value for lim in self.limits if lim.name == name)
