"""Following `$ref`s across the documents of one description, safely.

Every document is checked as it is loaded: each `$ref` in it must name a
location inside the base (`Base.locate` raises otherwise), so a reference that
leaves the base is an error even where the import would never follow it.
Documents are loaded only when a reference is followed, at most once each. A
chain of references that returns to where it started, or that is longer than
`MAX_CHAIN`, is an error naming the chain; a schema that refers to itself
through its properties is ordinary and is handled by the walkers' visited sets.
"""

from __future__ import annotations

import urllib.parse
from dataclasses import dataclass
from typing import Any

from apispec.registry.importer.parse import parse_document
from apispec.registry.importer.sources import Base, SourceError

MAX_CHAIN = 32
# Literal data, where a `$ref` key is a value like any other, not a reference.
_DATA_KEYS = frozenset({"example", "examples", "default", "enum", "const"})


@dataclass(frozen=True)
class Where:
    """A node's document and JSON pointer, for messages and for relative references."""

    location: str
    pointer: tuple[str, ...] = ()

    def child(self, *keys: object) -> Where:
        return Where(self.location, (*self.pointer, *(str(k) for k in keys)))


class Resolver:
    def __init__(self, base: Base) -> None:
        self.base = base
        self._documents: dict[str, Any] = {}

    def root(self) -> tuple[Any, Where]:
        return self.document(self.base.root), Where(self.base.root)

    def shown(self, where: Where) -> str:
        pointer = "/".join(p.replace("~", "~0").replace("/", "~1") for p in where.pointer)
        return f"{self.base.shown(where.location)}#/{pointer}"

    def document(self, location: str) -> Any:
        if location not in self._documents:
            name = self.base.shown(location)
            json_hint = urllib.parse.urlsplit(location).path.lower().endswith(".json")
            data = parse_document(self.base.read(location), name, json_hint)
            self._check_references(data, location)
            self._documents[location] = data
        return self._documents[location]

    def _check_references(self, data: Any, location: str) -> None:
        seen: set[int] = set()
        stack = [data]
        while stack:
            node = stack.pop()
            if id(node) in seen:
                continue
            seen.add(id(node))
            if isinstance(node, dict):
                ref = node.get("$ref")
                if isinstance(ref, str):
                    self.base.locate(ref, location)
                stack.extend(v for k, v in node.items() if k not in _DATA_KEYS)
            elif isinstance(node, list):
                stack.extend(node)

    def deref(self, node: Any, where: Where) -> tuple[Any, Where]:
        """The node a `$ref` (chain) leads to, or the node itself."""
        chain: list[Where] = []
        while isinstance(node, dict) and isinstance(node.get("$ref"), str):
            ref = node["$ref"]
            document, _, fragment = ref.partition("#")
            location = self.base.locate(ref, where.location) if document else where.location
            target = Where(location, _pointer(fragment, ref, self.shown(where)))
            if target in chain or target == where:
                names = " -> ".join(self.shown(w) for w in [*chain, target])
                raise SourceError(f"{self.shown(where)}: $ref cycle: {names}")
            chain.append(target)
            if len(chain) > MAX_CHAIN:
                raise SourceError(f"{self.shown(where)}: more than {MAX_CHAIN} $refs in a chain")
            node = self._at(self.document(location), target, ref)
            where = target
        return node, where

    def _at(self, document: Any, target: Where, ref: str) -> Any:
        node = document
        for depth, token in enumerate(target.pointer):
            if isinstance(node, dict) and token in node:
                node = node[token]
            elif isinstance(node, dict) and token.isdigit() and int(token) in node:
                node = node[int(token)]  # YAML keys such as 200 are integers
            elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
                node = node[int(token)]
            else:
                missing = Where(target.location, target.pointer[: depth + 1])
                raise SourceError(f"$ref {ref!r} does not resolve: no {self.shown(missing)}")
        return node


def _pointer(fragment: str, ref: str, shown: str) -> tuple[str, ...]:
    """The tokens of a JSON pointer fragment (`/components/schemas/a~1b`)."""
    fragment = urllib.parse.unquote(fragment)
    if not fragment:
        return ()
    if not fragment.startswith("/"):
        raise SourceError(
            f"{shown}: $ref {ref!r}: only JSON pointer fragments (#/...) are supported"
        )
    return tuple(t.replace("~1", "/").replace("~0", "~") for t in fragment[1:].split("/"))
