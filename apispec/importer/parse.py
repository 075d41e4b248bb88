"""One document's bytes to data, with caps a hostile document cannot get past.

JSON goes through `apispec.inputs.load_json` (nesting cap). YAML is composed
with PyYAML's pure-Python SafeLoader, counting nesting and aliases as it goes,
and the composed graph is measured before anything is constructed: an alias
bomb (a few lines whose aliases expand to billions of nodes) and a recursive
alias are refused while they are still a small graph. Later stages walk the
data with visited sets, but nothing here relies on that.
"""

from __future__ import annotations

from typing import Any

from apispec.inputs import MAX_DEPTH, InputError, load_json

MAX_ALIASES = 10_000
MAX_EXPANDED_NODES = 5_000_000  # nodes the document would have with every alias copied


def parse_document(data: bytes, name: str, json_hint: bool) -> Any:
    """The document in `data`; InputError (one line, naming `name`) for anything unusable."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputError(name, f"not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    if json_hint or text.lstrip()[:1] in ("{", "["):
        try:
            return load_json(text, name)
        except InputError:
            if json_hint:
                raise
    return load_yaml(text, name)


def load_yaml(text: str, name: str) -> Any:
    import yaml

    class Loader(yaml.SafeLoader):
        depth = 0
        aliases = 0

        def compose_node(self, parent: Any, index: Any) -> Any:
            if self.check_event(yaml.AliasEvent):
                self.aliases += 1
                if self.aliases > MAX_ALIASES:
                    raise InputError(name, f"more than {MAX_ALIASES} YAML aliases")
            self.depth += 1
            if self.depth > MAX_DEPTH:
                raise InputError(name, f"nested deeper than {MAX_DEPTH} levels")
            try:
                return super().compose_node(parent, index)
            finally:
                self.depth -= 1

    loader = Loader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        _measure(node, name)
        return loader.construct_document(node)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" (line {mark.line + 1})" if mark is not None else ""
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise InputError(name, f"not valid YAML: {problem}{where}") from None
    finally:
        loader.dispose()


def _measure(root: Any, name: str) -> None:
    """Refuse a graph whose aliases expand too far, or that contains itself."""
    import yaml

    sizes: dict[int, int] = {}
    on_path: set[int] = set()
    stack: list[tuple[Any, bool]] = [(root, False)]
    while stack:
        node, done = stack.pop()
        key = id(node)
        if isinstance(node, yaml.ScalarNode):
            sizes[key] = 1
            continue
        children = _children(node)
        if done:
            on_path.discard(key)
            size = 1 + sum(sizes[id(c)] for c in children)
            if size > MAX_EXPANDED_NODES:
                raise InputError(
                    name,
                    f"YAML aliases expand to more than {MAX_EXPANDED_NODES:,} nodes "
                    "(an alias bomb?)",
                )
            sizes[key] = size
            continue
        if key in sizes:
            continue
        if key in on_path:
            raise InputError(name, "a YAML alias refers to a node that contains it")
        on_path.add(key)
        stack.append((node, True))
        for child in children:
            if id(child) in on_path:
                raise InputError(name, "a YAML alias refers to a node that contains it")
            if id(child) not in sizes:
                stack.append((child, False))


def _children(node: Any) -> list[Any]:
    import yaml

    if isinstance(node, yaml.MappingNode):
        return [part for pair in node.value for part in pair]
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    return []
