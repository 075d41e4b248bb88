"""Where a JavaScript or TypeScript string literal stands: a value, or why it is no call.

A literal is a request's value unless the syntax around it says otherwise: a
comparison or a `case` label, an object key, an `href` value (an entry, an attribute
set by name, a property assigned: links, not requests), a route table entry
(it names a `component` or `handler`), a JSX attribute, a type, a module name, a
decorator's argument (a server's route).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from apispec.lint.extract.lower import MAX_NESTING

if TYPE_CHECKING:
    from tree_sitter import Node

    from apispec.lint.extract.lower import Lowering

_COMPARISONS = frozenset({"===", "==", "!==", "!=", "<", ">", "<=", ">=", "instanceof", "in"})
_THROUGH = frozenset(
    {
        "parenthesized_expression",
        "binary_expression",
        "ternary_expression",
        "as_expression",
        "satisfies_expression",
        "non_null_expression",
    }
)
_LINKS = frozenset({"href", "location", "link", "content-location"})
# keys of a client-side or server route table entry: `{ path: "/x", component: View }`
_ROUTE_KEYS = frozenset(
    {"component", "element", "handler", "view", "controller", "loader", "lazy", "redirect"}
)
# methods that look a value up in a list rather than send it (`["/a"].includes(p)`)
_LOOKUPS = frozenset({"includes", "indexOf", "some", "find", "has", "every", "filter"})
_TYPES = frozenset({"literal_type", "type_annotation", "type_arguments", "union_type"})
_SCOPES = frozenset({"statement_block", "program", "class_body"})


def string_context(lowering: Lowering, node: Node) -> str:
    parent = node.parent
    if parent is not None and parent.type == "template_substitution":
        return "inner"  # `${`...`}` is part of the template around it
    steps = 0
    while parent is not None and parent.type in _THROUGH and steps < MAX_NESTING:
        steps += 1
        if parent.type == "binary_expression":
            operator = parent.child_by_field_name("operator")
            if operator is not None and lowering.text(operator) in _COMPARISONS:
                return "compare"
        if parent.type == "ternary_expression":
            condition = parent.child_by_field_name("condition")
            if condition is not None and condition.id == node.id:
                return "compare"
        node, parent = parent, parent.parent
    if parent is None:
        return "value"
    kind = parent.type
    if kind == "expression_statement":
        return "doc"
    if kind == "switch_case":
        return "compare"
    if kind in _TYPES:
        return "type"
    if kind in ("import_statement", "export_statement"):
        return "import"
    if kind in ("jsx_attribute", "jsx_expression"):
        return "markup"
    if kind == "pair":
        return _pair_context(lowering, parent, node)
    if kind == "subscript_expression" and parent.child_by_field_name("index") == node:
        return "key"
    if kind in ("arguments", "assignment_expression"):
        found = _passed_context(lowering, parent, node)
        if found is not None:
            return found
    if kind == "array" and _looked_up(lowering, parent):
        return "compare"
    ancestor: Node | None = parent
    while ancestor is not None and ancestor.type not in _SCOPES and steps < MAX_NESTING:
        if ancestor.type == "decorator":
            return "route"
        ancestor = ancestor.parent
        steps += 1
    return "value"


def _pair_context(lowering: Lowering, pair: Node, node: Node) -> str:
    key = pair.child_by_field_name("key")
    if key is None:
        return "value"
    if key.id == node.id:
        return "key"
    if lowering.text(key).strip("'\"").lower() in _LINKS:
        return "href"
    entry = pair.parent
    if entry is not None and entry.type == "object":
        for sibling in entry.named_children:
            if sibling.type != "pair" or sibling.id == pair.id:
                continue
            name = sibling.child_by_field_name("key")
            if name is not None and lowering.text(name).strip("'\"") in _ROUTE_KEYS:
                return "route"
    return "value"


def _passed_context(lowering: Lowering, parent: Node, node: Node) -> str | None:
    """A module loaded (`require("x")`), or a link: `el.setAttribute("href", url)`,
    `$(a).attr("href", url)`, `anchor.href = url`."""
    if parent.type == "assignment_expression":
        return "href" if _link_property(lowering, parent, node) else None
    if _loader(lowering, parent):
        return "import"
    return "href" if _after_link_name(lowering, parent, node) else None


def _after_link_name(lowering: Lowering, arguments: Node, node: Node) -> bool:
    """The value after an argument that names a link attribute."""
    args = [c for c in arguments.named_children if c.type != "comment"]
    at = next((k for k, c in enumerate(args) if c.id == node.id), 0)
    before = args[at - 1] if at else None
    return (
        before is not None
        and before.type == "string"
        and lowering.text(before).strip("'\"").lower() in _LINKS
    )


def _link_property(lowering: Lowering, assignment: Node, node: Node) -> bool:
    """The value assigned to a link property (`a.href = ...`)."""
    left = assignment.child_by_field_name("left")
    right = assignment.child_by_field_name("right")
    if left is None or right is None or right.id != node.id or left.type != "member_expression":
        return False
    prop = left.child_by_field_name("property")
    return prop is not None and lowering.text(prop).lower() in _LINKS


def _loader(lowering: Lowering, arguments: Node) -> bool:
    call = arguments.parent
    if call is None or call.type != "call_expression":
        return False
    function = call.child_by_field_name("function")
    return function is not None and lowering.text(function) in ("require", "import")


def _looked_up(lowering: Lowering, array: Node) -> bool:
    """`["/a", "/b"].includes(path)`: the list a value is looked up in."""
    member = array.parent
    if member is None or member.type != "member_expression":
        return False
    prop = member.child_by_field_name("property")
    return prop is not None and lowering.text(prop) in _LOOKUPS
