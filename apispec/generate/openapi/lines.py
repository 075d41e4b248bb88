"""Read a YAML or JSON file once and keep where each value sits, for FILE:LINE findings."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from apispec.support.exceptions import UsageError
from apispec.support.inputs import check_parsed, parse_json, read_input, too_deep
from apispec.support.yaml_load import GuardedSafeLoader, LimitError, compose

_TIMESTAMP = "tag:yaml.org,2002:timestamp"
_MAX_REF_HOPS = 8  # a chain of `$ref`s longer than this (or a cycle) stops the walk


class _Loader(GuardedSafeLoader):
    """SafeLoader without date parsing: OpenAPI values such as `2024-01-01` stay text.

    Guarded: nesting, recursive aliases and alias expansion are capped, so a
    hostile document is refused before anything walks it.
    """


_Loader.yaml_implicit_resolvers = {
    first: [(tag, regexp) for tag, regexp in resolvers if tag != _TIMESTAMP]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}


@dataclass(frozen=True)
class LocatedDocument:
    """The parsed document and its node tree (PyYAML marks work for JSON too)."""

    path: Path
    data: Any
    root: yaml.Node

    def locate(self, parts: Sequence[object]) -> tuple[int, tuple[object, ...]]:
        """Line and document path of what `parts` names, following local `$ref`s.

        The validator reports a problem in a shared schema along the path it took
        to reach it (through an operation's `$ref`); the finding belongs at the
        definition. Where `parts` leaves the document, the deepest node reached
        gives the line (its key's line in mappings) and the rest of `parts` is
        appended to the path as given.
        """
        node, line = self.root, self.root.start_mark.line + 1
        at: tuple[object, ...] = ()
        for index, part in enumerate(parts):
            child = self._child(node, part)
            hops = 0
            while child is None and hops < _MAX_REF_HOPS:
                target = self._ref_target(node)
                if target is None:
                    break
                node, at, hops = target[0], target[1], hops + 1
                line = _key_line(self.root, at) or line
                child = self._child(node, part)
            if child is None:
                return line, (*at, *parts[index:])
            node, line = child
            at = (*at, part)
        return line, at

    @staticmethod
    def _child(node: yaml.Node, part: object) -> tuple[yaml.Node, int] | None:
        if isinstance(node, yaml.MappingNode):
            for key, value in node.value:
                if str(key.value) == str(part):
                    return value, key.start_mark.line + 1
        elif (
            isinstance(node, yaml.SequenceNode)
            and isinstance(part, int)
            and 0 <= part < len(node.value)
        ):
            return node.value[part], node.value[part].start_mark.line + 1
        return None

    def _ref_target(self, node: yaml.Node) -> tuple[yaml.Node, tuple[object, ...]] | None:
        """The node a local `$ref` (`#/a/b`) in this mapping points to, and its path."""
        if not isinstance(node, yaml.MappingNode):
            return None
        ref = next(
            (
                v.value
                for k, v in node.value
                if k.value == "$ref" and isinstance(v, yaml.ScalarNode)
            ),
            None,
        )
        if not isinstance(ref, str) or not ref.startswith("#/"):
            return None
        target: yaml.Node | None = self.root
        at: tuple[object, ...] = ()
        for raw in ref[2:].split("/"):
            part: object = raw.replace("~1", "/").replace("~0", "~")
            if isinstance(target, yaml.SequenceNode) and str(part).isdigit():
                part = int(str(part))
            found = self._child(target, part) if target is not None else None
            if found is None:
                return None
            target, at = found[0], (*at, part)
        return (target, at) if target is not None else None

    def find_ref(self, target: str) -> tuple[int, str] | None:
        """Line and text of the first `$ref` naming `target` (a URI or just its JSON pointer)."""
        for node in _walk(self.root):
            if isinstance(node, yaml.MappingNode):
                for k, v in node.value:
                    if (
                        k.value == "$ref"
                        and isinstance(v, yaml.ScalarNode)
                        and (v.value == target or v.value.endswith(f"#{target}"))
                    ):
                        return k.start_mark.line + 1, v.value
        return None


def _key_line(root: yaml.Node, at: tuple[object, ...]) -> int | None:
    """Line of the key that holds the node at `at` (None for the root)."""
    node, line = root, None
    for part in at:
        found = LocatedDocument._child(node, part)
        if found is None:
            return line
        node, line = found
    return line


def _walk(node: yaml.Node) -> Iterator[yaml.Node]:
    yield node
    if isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            yield from _walk(key)
            yield from _walk(value)
    elif isinstance(node, yaml.SequenceNode):
        for item in node.value:
            yield from _walk(item)


def _construct(loader: _Loader, node: yaml.Node) -> Any:
    """Mapping keys become text, as in JSON (`200:` in YAML is a response code, not a number)."""
    if isinstance(node, yaml.MappingNode):
        loader.flatten_mapping(node)
        return {str(_construct(loader, k)): _construct(loader, v) for k, v in node.value}
    if isinstance(node, yaml.SequenceNode):
        return [_construct(loader, item) for item in node.value]
    return loader.construct_object(node, deep=True)


def _compose(text: str, path: Path | None = None) -> tuple[yaml.Node, Any]:
    loader = _Loader(text)
    try:
        root = compose(loader)
        if root is None:
            raise UsageError(f"{path}: no document in the file, only comments or markers")
        return root, _construct(loader, root)
    except LimitError as exc:
        if path is None:
            raise
        line = exc.problem_mark.line + 1 if exc.problem_mark is not None else 1
        raise UsageError(f"{path}:{line}: refused: {exc.problem}") from None
    except yaml.MarkedYAMLError as exc:
        if path is None:
            raise
        mark = exc.problem_mark or exc.context_mark
        where = f"{path}:{mark.line + 1}" if mark else str(path)
        raise UsageError(f"{where}: not valid YAML or JSON: {exc.problem or exc}") from None
    except yaml.YAMLError as exc:
        if path is None:
            raise
        raise UsageError(f"{path}: not valid YAML or JSON: {exc}") from None
    finally:
        loader.dispose()


_EXPECTED = "an OpenAPI YAML or JSON file"


def read_document(path: Path) -> LocatedDocument:
    """Read and parse FILE as YAML or JSON; anything that is not one is a one-line UsageError.

    Only a regular file is read (apispec.support.inputs), so a FIFO or device named as
    the document fails at once instead of blocking.
    """
    return parse_document(path, read_input(path, expected=_EXPECTED))


def parse_document(path: Path, raw: bytes) -> LocatedDocument:
    """The located document of FILE's bytes (the suffix `.json` parses strictly as JSON)."""
    if b"\x00" in raw:
        raise UsageError(f"{path}: binary file, expected {_EXPECTED}")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise UsageError(f"{path}: not UTF-8 text, expected {_EXPECTED}") from None
    if not text.strip():
        raise UsageError(f"{path}: empty file, expected {_EXPECTED}")
    if path.suffix.lower() == ".json":
        # YAML would accept broken JSON (`{"a": }` is a null), so JSON files parse strictly
        try:
            data = parse_json(text)
        except json.JSONDecodeError as exc:
            raise UsageError(f"{path}:{exc.lineno}: not valid JSON: {exc.msg}") from None
        except RecursionError:
            raise too_deep(str(path)) from None
        check_parsed(data, str(path))
        try:
            root = _compose(text)[0]
        except yaml.YAMLError:  # valid JSON that YAML 1.1 rejects: no line numbers then
            root = yaml.MappingNode("tag:yaml.org,2002:map", [])
    else:
        root, data = _compose(text, path)
    if not isinstance(data, dict):
        raise UsageError(
            f"{path}: not an OpenAPI document: the top level is a {type(data).__name__}, "
            "expected a mapping"
        )
    return LocatedDocument(path, data, root)
