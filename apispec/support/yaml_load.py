"""YAML from a user (registry files, OpenAPI documents): PyYAML with limits.

PyYAML composes an alias as a second reference to the anchored node, so a
"billion laughs" document is small as a node graph and explodes only when
something walks it (constructing with line numbers, JSON encoding, schema
validation). The graph is therefore measured right after composing, in time
linear in the number of distinct nodes: nesting deeper than `MAX_DEPTH`
(counted through aliases), an alias that contains itself, or aliases that add
more than `MAX_ALIAS_NODES` nodes end the load with a `LimitError` at a line.
The composer itself refuses nesting past `MAX_DEPTH`, so a deeply nested
document never reaches Python's recursion limit.

Constructing values is guarded too. PyYAML's constructors raise plain Python
errors for an explicit tag on a scalar that does not fit it (`!!float abc`,
`!!timestamp soon`), Python refuses to convert an integer of more than
`sys.get_int_max_str_digits()` digits (and a hexadecimal one that fits would
fail the first time it is printed), and a `"\\ud800"` escape gives a lone
surrogate that no file name or UTF-8 writer accepts. Each becomes a
`MarkedYAMLError` at the scalar's line, which every caller already reports as
one line.

Only the pure-Python loader is used for user files: libyaml's composer
recurses in C and crashes the process on deep nesting. The C loader stays for
the bundled registry, which is trusted.
"""

from __future__ import annotations

from typing import Any

import yaml
from yaml.constructor import ConstructorError

from apispec.support.inputs import MAX_DEPTH, lone_surrogate, max_int_digits, too_many_digits
from apispec.support.printable import shortened

# Nodes that aliases may add to a document beyond the ones written in it.
MAX_ALIAS_NODES = 100_000


class LimitError(yaml.MarkedYAMLError):
    """A document refused for its shape, not its syntax; `problem` says which limit."""


_INT = "tag:yaml.org,2002:int"
# What a constructor raises on a scalar its tag does not fit (PyYAML does not wrap them).
_CONSTRUCTOR_FAILURES = (ValueError, TypeError, AttributeError, KeyError, IndexError)


class GuardedSafeLoader(yaml.SafeLoader):
    """SafeLoader whose composer stops at `MAX_DEPTH` levels instead of recursing on, and
    whose constructors end in a `MarkedYAMLError` at the scalar, never a plain Python error."""

    _apispec_depth = 0

    def compose_node(self, parent: Any, index: Any) -> Any:
        if self._apispec_depth >= MAX_DEPTH and not self.check_event(yaml.AliasEvent):
            mark = self.peek_event().start_mark  # type: ignore[no-untyped-call]  # types-PyYAML leaves peek_event unannotated
            raise LimitError(None, None, f"nested deeper than {MAX_DEPTH} levels", mark)
        self._apispec_depth += 1
        try:
            return super().compose_node(parent, index)
        finally:
            self._apispec_depth -= 1

    def construct_object(self, node: yaml.Node, deep: bool = False) -> Any:
        limit = max_int_digits()
        text = node.value if isinstance(node.value, str) else ""
        if node.tag == _INT and limit and len(text.replace("_", "")) > limit:
            raise _too_long(node, limit)
        try:
            value = super().construct_object(node, deep)
        except _CONSTRUCTOR_FAILURES:
            tag = node.tag.replace("tag:yaml.org,2002:", "!!")
            message = f"{tag} {shortened(text)} is not a value of that type"
            raise ConstructorError(None, None, message, node.start_mark) from None
        if isinstance(value, int) and too_many_digits(value, limit):
            raise _too_long(node, limit)
        if isinstance(value, str) and lone_surrogate(value):
            message = "a lone UTF-16 surrogate (a \\u escape), which is not Unicode"
            raise ConstructorError(None, None, message, node.start_mark)
        return value


def _too_long(node: yaml.Node, limit: int) -> LimitError:
    return LimitError(None, None, f"an integer of more than {limit} digits", node.start_mark)


def _children(node: yaml.Node) -> list[yaml.Node]:
    if isinstance(node, yaml.MappingNode):
        return [part for pair in node.value for part in pair]
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    return []


def check_graph(root: yaml.Node) -> None:
    """LimitError when aliases make the document recursive, too deep or too large."""
    done: dict[int, tuple[int, int]] = {}  # id(node) -> (expanded size, expanded depth)
    on_path: set[int] = set()
    order: list[yaml.Node] = []
    stack: list[tuple[yaml.Node, bool]] = [(root, False)]
    while stack:
        node, leaving = stack.pop()
        key = id(node)
        if leaving:
            on_path.discard(key)
            sizes = [done[id(child)] for child in _children(node)]
            depth = 1 + max((d for _, d in sizes), default=0)
            if depth > MAX_DEPTH:
                message = f"nested deeper than {MAX_DEPTH} levels through aliases"
                raise LimitError(None, None, message, node.start_mark)
            done[key] = (1 + sum(s for s, _ in sizes), depth)
            order.append(node)
            continue
        if key in done:
            continue
        if key in on_path:
            raise LimitError(
                None, None, "an alias refers to a node that contains it", node.start_mark
            )
        on_path.add(key)
        stack.append((node, True))
        stack.extend((child, False) for child in _children(node))
    allowed = len(done) + MAX_ALIAS_NODES
    if done[id(root)][0] > allowed:
        first = next(node for node in order if done[id(node)][0] > allowed)
        message = f"aliases expand to more than {MAX_ALIAS_NODES:,} extra nodes"
        raise LimitError(None, None, message, first.start_mark)


def compose(loader: yaml.SafeLoader) -> yaml.Node | None:
    """The single document's node graph, checked; None for a file without a document."""
    node = loader.get_single_node()
    if node is not None:
        check_graph(node)
    return node
