"""Where a PHP literal stands: the expression it is the top of, and what it is there.

A literal is the top of its concatenation (`.`) and of a `sprintf` whose template it
is; it is compared (`==`, `===`, `match` and `case` arms), an array key or a `$a['k']`
subscript, an `href`-like member, or a value.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tree_sitter import Node

    from apispec.lint.extract.lower.php import PhpLowering

_COMPARE = frozenset({"==", "!=", "===", "!==", "<>"})
_SKIP = frozenset({"comment", "text_interpolation"})


def string_root(lowering: PhpLowering, node: Node) -> Node:
    """The expression a literal is the top of (its concatenation, a format's call)."""
    root = node
    parent = node.parent
    while parent is not None:
        if parent.type == "parenthesized_expression" or (
            parent.type == "binary_expression" and _operator(parent, lowering.text) == "."
        ):
            root, parent = parent, parent.parent
        elif parent.type == "argument" and parent.parent is not None:
            call = parent.parent.parent
            if call is None or lowering.call_name(call) not in ("sprintf", "vsprintf"):
                break
            first = _arguments(parent.parent)
            if not first or first[0].id != parent.id:
                break
            root, parent = call, call.parent  # the template of a format call
        else:
            break
    return root


def string_context(lowering: PhpLowering, node: Node) -> str:
    """What the literal is where it stands: "compare", "key", "href" or "value"."""
    parent = node.parent
    while parent is not None and parent.type in (
        "parenthesized_expression",
        "binary_expression",
    ):
        if parent.type == "binary_expression" and _operator(parent, lowering.text) in _COMPARE:
            return "compare"
        node, parent = parent, parent.parent
    if parent is None:
        return "value"
    kind = parent.type
    if kind in ("match_condition_list", "case_statement"):
        return "compare"
    if kind == "array_element_initializer" and _is_pair(parent):
        named = [c for c in parent.named_children if c.type not in _SKIP]
        if named and named[0].id == node.id:
            return "key"
        key = lowering.text(named[0]).strip("'\"").lower() if named else ""
        if key in ("href", "location", "content-location", "link"):
            return "href"
    if kind == "subscript_expression":
        named = [c for c in parent.named_children if c.type not in _SKIP]
        if len(named) == 2 and named[1].id == node.id:
            return "key"
    return "value"


def _is_pair(element: Node) -> bool:
    return any(c.type == "=>" for c in element.children)


def _arguments(node: Node) -> list[Node]:
    return [c for c in node.named_children if c.type == "argument"]


def _operator(node: Node, text: Callable[[Node], str]) -> str:
    operator = node.child_by_field_name("operator")
    return text(operator) if operator is not None else ""
