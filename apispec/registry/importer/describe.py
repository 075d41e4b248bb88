"""An OpenAPI 3.x description as registry facts: operations, lifecycle, enumerations.

The rules (docs/registry.md, "Import") read only what a description states:

- paths are taken relative to `/api/v2` (a leading `/api/v2` is dropped) and
  written in the registry's form; a path that matches a registry path except
  for its parameter names takes the registry's names (`{deviceId}` -> `{id}`);
- maturity: `deprecated: true` (or an `x-` extension saying deprecated) makes
  an operation deprecated; otherwise the `/experimental` prefix makes it
  experimental; otherwise `x-maturity`, `x-stability-level`, `x-stability`,
  `x-experimental` or `x-beta` decide; otherwise it is stable;
- lifecycle from `x-since`, `x-deprecated-in`, `x-removed-in`, `x-successor`;
- a list endpoint takes a `filter` query parameter (or both `limit` and `offset`);
- `security: []` means no authentication; a 2xx answer with a `Location` header
  means the operation creates an object;
- enumeration values of a registry filter property come from the `enum` of
  that property in the records the list endpoints answer with.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from apispec.registry.importer.refs import Resolver, Where
from apispec.registry.importer.sources import SourceError
from apispec.registry.releases import Release, ReleaseSyntaxError, parse_release
from apispec.support.printable import shortened

if TYPE_CHECKING:
    from apispec.registry.model import Registry

METHODS = ("get", "post", "put", "patch", "delete")
API_PREFIX = "/api/v2"
_SEGMENT = re.compile(r"[a-z0-9-]+")
_PARAM = re.compile(r"\{([^{}]+)\}")
_TOKEN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_VERSION = re.compile(
    r"([0-9]{1,9})\.([0-9]{1,9}|x)\.([0-9]{1,9}|[0-9]{0,9}x{1,9})(?:[.+-][0-9A-Za-z.+-]*)?"
)
_EXPERIMENTAL_WORDS = frozenset({"experimental", "alpha", "beta", "draft", "preview", "unstable"})
_STABILITY_KEYS = ("x-maturity", "x-stability-level", "x-stability")
LIFECYCLE_KEYS = {
    "since": "x-since",
    "deprecated_in": "x-deprecated-in",
    "removed_in": "x-removed-in",
    "successor": "x-successor",
}
_SUCCESSOR = re.compile(r"(GET|POST|PUT|PATCH|DELETE) (/\S+)|none planned|to be decided")


@dataclass(frozen=True)
class Operation:
    """What a description states of one operation; None where it states nothing."""

    method: str
    path: str  # in the registry's form
    written: str  # the path as the description writes it
    operation_id: str | None
    summary: str
    tag: str | None
    maturity: str
    lifecycle: dict[str, str] = field(default_factory=dict)  # since, deprecated_in, ...
    stated: frozenset[str] = frozenset()  # lifecycle names the description states itself
    is_list: bool = False
    auth: bool | None = None
    creates: bool = False
    query: tuple[str, ...] = ()

    @property
    def key(self) -> tuple[str, str]:
        return (self.method, self.path)


@dataclass
class Description:
    """A whole description: where from, which release, its operations and enumerations."""

    source: str
    title: str | None
    version: str | None  # info.version as written
    release: Release
    operations: list[Operation] = field(default_factory=list)
    enums: dict[str, tuple[str, ...]] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)  # what was left out, and why

    def methods_by_path(self) -> dict[str, list[str]]:
        paths: dict[str, list[str]] = {}
        for op in self.operations:
            paths.setdefault(op.path, []).append(op.method)
        return paths


def release_of(version: Any, given: str | None, shown: str) -> Release:
    """`--release`, else the MAJOR.MINOR.BUILD that `info.version` starts with."""
    if given is not None:
        return parse_release(given)
    match = _VERSION.fullmatch(str(version).strip()) if version is not None else None
    if match is None:
        raise SourceError(
            f"{shown}: info.version {shortened(str(version))} is not a release "
            "(MAJOR.MINOR.BUILD such as 25.1.104); pass --release R"
        )
    try:
        return parse_release(".".join(match.groups()))
    except ReleaseSyntaxError as exc:  # pragma: no cover - the pattern is the release's
        raise SourceError(f"{shown}: {exc}") from None


def describe(resolver: Resolver, registry: Registry, release: str | None = None) -> Description:
    root, where = resolver.root()
    shown = resolver.base.shown_source
    if not isinstance(root, dict):
        raise SourceError(f"{shown}: not an OpenAPI document (the top level is not a mapping)")
    version_text = str(root.get("openapi", ""))
    if not version_text.startswith("3."):
        found = f"openapi: {version_text}" if version_text else "no `openapi` field"
        if "swagger" in root:
            found = f"swagger: {root['swagger']}"
        raise SourceError(f"{shown}: not an OpenAPI 3.x description ({found})")
    info = root.get("info")
    if not isinstance(info, dict):
        info = {}
    version = info.get("version")
    description = Description(
        source=shown,
        title=_text(info.get("title")),
        version=None if version is None else str(version),
        release=release_of(version, release, shown),
    )
    paths = root.get("paths")
    if not isinstance(paths, dict):
        raise SourceError(f"{shown}: the description has no `paths` mapping")
    templates = _templates(registry)
    global_security = root.get("security")
    list_operations: list[tuple[dict[str, Any], Where]] = []
    seen: dict[tuple[str, str], str] = {}  # (method, registry path) -> path as written
    for written, item in paths.items():
        item_where = where.child("paths", written)
        item, item_where = resolver.deref(item, item_where)
        if not isinstance(item, dict):
            continue
        path = _registry_path(str(written), templates)
        if path is None:
            description.notes.append(
                f"{written}: left out: the registry writes paths as lower-case words, hyphens "
                "and {parameters}"
            )
            continue
        shared = _parameters(resolver, item.get("parameters"), item_where.child("parameters"))
        for method in METHODS:
            operation = item.get(method)
            if not isinstance(operation, dict):
                continue
            op_where = item_where.child(method)
            own = _parameters(resolver, operation.get("parameters"), op_where.child("parameters"))
            query = tuple(dict.fromkeys(n for n, at in {**shared, **own}.items() if at == "query"))
            if (method.upper(), path) in seen:
                description.notes.append(
                    f"{method.upper()} {written}: left out: the same endpoint as "
                    f"{method.upper()} {seen[(method.upper(), path)]}"
                )
                continue
            seen[(method.upper(), path)] = str(written)
            op = _operation(
                resolver,
                operation,
                op_where,
                method.upper(),
                path,
                str(written),
                query,
                global_security,
                description.release,
                description.notes,
            )
            description.operations.append(op)
            if "filter" in query:
                list_operations.append((operation, op_where))
    description.enums = _enumerations(resolver, registry, list_operations, description.notes)
    return description


def _mapping(value: Any) -> dict[Any, Any]:
    """`value` when it is a mapping; a malformed description gives nothing, never a crash."""
    return value if isinstance(value, dict) else {}


def _text(value: Any) -> str | None:
    return None if value is None else " ".join(str(value).split()) or None


def _templates(registry: Registry) -> dict[str, str]:
    """Registry path prefixes by shape (`/devices/{}` -> `/devices/{id}`), so parameter
    names follow the registry's wherever a path starts like a registry path."""
    found: dict[str, str] = {}
    for endpoint in registry.endpoints:
        segments = endpoint.path.strip("/").split("/")
        for end in range(1, len(segments) + 1):
            prefix = "/" + "/".join(segments[:end])
            found.setdefault(_PARAM.sub("{}", prefix), prefix)
    return found


def _snake(name: str) -> str:
    name = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name)
    return re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_")


def _registry_path(written: str, templates: dict[str, str]) -> str | None:
    path = written.rstrip("/") or "/"
    if path == API_PREFIX or path.startswith(API_PREFIX + "/"):
        path = path[len(API_PREFIX) :] or "/"
    segments: list[str] = []
    for segment in path.strip("/").split("/"):
        param = _PARAM.fullmatch(segment)
        if param is not None:
            known = templates.get(_PARAM.sub("{}", "/" + "/".join([*segments, "{}"])))
            name = re.sub(r"[0-9]+", "", _snake(param.group(1))).strip("_")
            if known is not None:
                segments.append(known.rsplit("/", 1)[1])
            elif re.fullmatch(r"[a-z_]+", name):
                segments.append("{" + name + "}")
            else:
                return None
        elif _SEGMENT.fullmatch(segment):
            segments.append(segment)
        else:
            return None
    return "/" + "/".join(segments) if segments else None


def _parameters(resolver: Resolver, items: Any, where: Where) -> dict[str, str]:
    """Parameter name -> location (`query`, `path`, ...), references followed."""
    found: dict[str, str] = {}
    if not isinstance(items, list):
        return found
    for index, item in enumerate(items):
        param, _ = resolver.deref(item, where.child(index))
        name = param.get("name") if isinstance(param, dict) else None
        if isinstance(name, str) and re.fullmatch(r"\S+", name):
            found[name] = str(param.get("in", ""))
    return found


def _operation(
    resolver: Resolver,
    operation: dict[str, Any],
    where: Where,
    method: str,
    path: str,
    written: str,
    query: tuple[str, ...],
    global_security: Any,
    release: Release,
    notes: list[str],
) -> Operation:
    maturity = _maturity(operation, path)
    lifecycle = {}
    for name, key in LIFECYCLE_KEYS.items():
        value = operation.get(key)
        if value is None:
            continue
        text = str(value).strip()
        valid = _SUCCESSOR.fullmatch(text) if name == "successor" else _is_release(text)
        if valid:
            lifecycle[name] = text
        else:
            notes.append(f"{method} {written}: {key} {text!r} left out: not a release or successor")
    stated = frozenset(lifecycle)
    if maturity == "deprecated":
        lifecycle.setdefault("deprecated_in", release.text)
        lifecycle.setdefault("successor", "to be decided")
    else:  # the registry keeps these for deprecated endpoints only
        lifecycle = {k: v for k, v in lifecycle.items() if k == "since"}
    security = operation.get("security", global_security)
    tags = operation.get("tags")
    return Operation(
        method=method,
        path=path,
        written=written,
        operation_id=_text(operation.get("operationId")),
        summary=_summary(operation, method, path),
        tag=_text(tags[0]) if isinstance(tags, list) and tags else None,
        maturity=maturity,
        lifecycle=lifecycle,
        stated=stated & set(lifecycle),
        is_list="filter" in query or {"limit", "offset"} <= set(query),
        auth=None if security is None else bool(security),
        creates=_creates(resolver, operation.get("responses"), where.child("responses")),
        query=query,
    )


def _is_release(text: str) -> bool:
    try:
        parse_release(text)
    except ReleaseSyntaxError:
        return False
    return True


def _summary(operation: dict[str, Any], method: str, path: str) -> str:
    for key in ("summary", "description"):
        text = _text(operation.get(key))
        if text:
            first = text.split(". ")[0].rstrip(".")
            return first[:120] or text[:120]
    return _text(operation.get("operationId")) or f"{method} {path}"


def _maturity(operation: dict[str, Any], path: str) -> str:
    words = [
        str(operation[key]).strip().lower()
        for key in _STABILITY_KEYS
        if isinstance(operation.get(key), str)
    ]
    if operation.get("deprecated") is True or "deprecated" in words:
        return "deprecated"
    if path.startswith("/experimental/"):
        return "experimental"
    for word in words:
        if word in _EXPERIMENTAL_WORDS:
            return "experimental"
        if word == "stable":
            return "stable"
    if any(operation.get(key) is True for key in ("x-experimental", "x-beta")):
        return "experimental"
    return "stable"


def _creates(resolver: Resolver, responses: Any, where: Where) -> bool:
    if not isinstance(responses, dict):
        return False
    for code, answer in responses.items():
        if not str(code).startswith("2"):
            continue
        answer, _ = resolver.deref(answer, where.child(code))
        headers = answer.get("headers") if isinstance(answer, dict) else None
        if isinstance(headers, dict) and any(str(h).lower() == "location" for h in headers):
            return True
    return False


# -- enumerations ---------------------------------------------------------------


def _enumerations(
    resolver: Resolver,
    registry: Registry,
    operations: list[tuple[dict[str, Any], Where]],
    notes: list[str],
) -> dict[str, tuple[str, ...]]:
    """Values of the registry's enumeration properties in the records list endpoints answer."""
    wanted = [p.name for p in registry.properties if p.type == "enumeration"]
    found: dict[str, dict[str, None]] = {}
    for operation, where in operations:
        for record, record_where in _records(resolver, operation, where):
            for name in wanted:
                for value in _enum_at(resolver, record, record_where, name.split(".")):
                    if isinstance(value, str) and _TOKEN.fullmatch(value):
                        found.setdefault(name, {})[value] = None
                    else:
                        note = f"{name}: value {value!r} left out: not a bare filter token"
                        if note not in notes:
                            notes.append(note)
    return {name: tuple(values) for name, values in found.items()}


def _records(
    resolver: Resolver, operation: dict[str, Any], where: Where
) -> Iterator[tuple[Any, Where]]:
    """The record schemas of a list operation's success answers (array items, or the
    items of an envelope's array properties)."""
    responses = operation.get("responses")
    if not isinstance(responses, dict):
        return
    for code, answer in responses.items():
        if not str(code).upper().startswith("2"):
            continue
        answer, at = resolver.deref(answer, where.child("responses", code))
        content = answer.get("content") if isinstance(answer, dict) else None
        if not isinstance(content, dict):
            continue
        for media, body in content.items():
            if "json" not in str(media) or not isinstance(body, dict):
                continue
            schema, schema_at = resolver.deref(
                body.get("schema"), at.child("content", media, "schema")
            )
            for part, part_at in _parts(resolver, schema, schema_at):
                items = part.get("items")
                if items is not None:
                    yield resolver.deref(items, part_at.child("items"))
                    continue
                for name, prop in _mapping(part.get("properties")).items():
                    prop, prop_at = resolver.deref(prop, part_at.child("properties", name))
                    if isinstance(prop, dict) and prop.get("items") is not None:
                        yield resolver.deref(prop["items"], prop_at.child("items"))


def _parts(resolver: Resolver, schema: Any, where: Where) -> Iterator[tuple[dict[str, Any], Where]]:
    """A schema and the schemas it combines (allOf, anyOf, oneOf), each once."""
    seen: set[int] = set()
    stack = [(schema, where)]
    while stack:
        node, at = stack.pop()
        node, at = resolver.deref(node, at)
        if not isinstance(node, dict) or id(node) in seen:
            continue
        seen.add(id(node))
        yield node, at
        for key in ("allOf", "anyOf", "oneOf"):
            parts = node.get(key)
            if isinstance(parts, list):
                stack.extend((p, at.child(key, i)) for i, p in enumerate(parts))


def _enum_at(resolver: Resolver, schema: Any, where: Where, names: list[str]) -> list[Any]:
    """The `enum` values of the (dotted) property `names` of a record schema."""
    values: list[Any] = []
    for part, at in _parts(resolver, schema, where):
        prop = _mapping(part.get("properties")).get(names[0])
        if prop is None:
            continue
        prop_at = at.child("properties", names[0])
        if len(names) > 1:
            values += _enum_at(resolver, prop, prop_at, names[1:])
            continue
        for piece, _ in _parts(resolver, prop, prop_at):
            if isinstance(piece.get("enum"), list):
                values += piece["enum"]
            if "const" in piece:
                values.append(piece["const"])
    return values
