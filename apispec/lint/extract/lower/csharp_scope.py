"""C# assignment targets, fields without `this.`, and where a string literal stands.

A bare name assigned in a method is the object's field when the class declares it
and no parameter of the method shadows it; `req.Headers.Authorization = v` sets an
entry of the request's headers. A literal in a comparison, a switch pattern, an
attribute or an `href` member is no request's URL.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from apispec.lint.extract.ir import Expr, Lit, Str

if TYPE_CHECKING:
    from tree_sitter import Node

    from apispec.lint.extract.lower import Lowering
    from apispec.lint.extract.lower.csharp import CSharpLowering

TYPES = frozenset({"class_declaration", "record_declaration", "struct_declaration"})
FUNCTIONS = frozenset(
    {
        "method_declaration",
        "constructor_declaration",
        "local_function_statement",
        "lambda_expression",
        "anonymous_method_expression",
    }
)
# where a literal's context search stops
_SCOPES = frozenset({"compilation_unit", "declaration_list", "block", *FUNCTIONS})
# typed header properties of .NET's header collections: `Headers.Authorization = ...`
_HEADER_HOLDERS = frozenset({"Headers", "DefaultRequestHeaders"})


def targets(lowering: CSharpLowering, node: Node) -> list[tuple[str, Expr | None, int | str]]:
    parent = node.parent
    if parent is not None and parent.type == "assignment_expression":
        holder = parent.parent
        if holder is not None and holder.type == "initializer_expression":
            return []  # an initializer's property, lowered with its `new`
    kind = node.type
    if kind == "identifier":
        name = lowering.text(node)
        if parent is not None and parent.type == "parameter":
            return [("@" + name, None, -1)]  # a primary constructor's parameter
        if (
            parent is not None
            and parent.type == "assignment_expression"
            and is_field(lowering, node)
        ):
            return [("@" + name, None, -1)]
        if parent is not None and parent.type == "property_declaration":
            return [("@" + name, None, -1)]
        return [(name, None, -1)]
    if kind == "member_access_expression":
        return member_target(lowering, node)
    if kind == "element_access_expression":
        obj = node.child_by_field_name("expression")
        subscript = node.child_by_field_name("subscript")
        keys = [c for c in subscript.named_children if c.type == "argument"] if subscript else []
        if obj is None or len(keys) != 1:
            return []
        inner = (
            targets(lowering, obj)
            if obj.type != "identifier"
            else [(name_key(lowering, obj), None, -1)]
        )
        if len(inner) == 1 and inner[0][1] is None:
            return [(inner[0][0], lowering._argument_value(keys[0]), -1)]
        return []
    if kind in ("tuple_pattern", "tuple_expression", "parenthesized_variable_designation"):
        found: list[tuple[str, Expr | None, int | str]] = []
        parts = [c for c in node.named_children if c.type != "comment"]
        for index, child in enumerate(parts):
            target = child.child_by_field_name("name") or child
            if child.type == "argument" and child.named_children:
                target = child.named_children[-1]
            if target.type == "declaration_expression":
                target = target.child_by_field_name("name") or target
            if target.type == "identifier":
                found.append((lowering.text(target), None, index))
        return found
    if kind == "declaration_expression":
        declared = node.child_by_field_name("name")
        return targets(lowering, declared) if declared is not None else []
    return []


def name_key(lowering: CSharpLowering, node: Node) -> str:
    return "@" + lowering.text(node) if is_field(lowering, node) else lowering.text(node)


def member_target(lowering: CSharpLowering, node: Node) -> list[tuple[str, Expr | None, int | str]]:
    obj = node.child_by_field_name("expression")
    name = node.child_by_field_name("name")
    if obj is None or name is None:
        return []
    member = lowering.text(name)
    if obj.type == "this_expression" or lowering.text(obj) == "this":
        return [("@" + member, None, -1)]
    if obj.type == "member_access_expression":
        holder = obj.child_by_field_name("name")
        inner = obj.child_by_field_name("expression")
        if holder is not None and inner is not None and lowering.text(holder) in _HEADER_HOLDERS:
            # `req.Headers.Authorization = ...`: the Authorization entry of its headers
            start = lowering.char(name.start_byte)
            item = Str((Lit(member, start),), start, lowering.char(name.end_byte))
            return [(_dotted(lowering, inner) + ".headers", item, -1)]
    return [(_dotted(lowering, obj) + "." + member, None, -1)]


def is_field(lowering: CSharpLowering, node: Node) -> bool:
    """Whether a bare name is a field of the enclosing type (no parameter shadows it)."""
    name = lowering.text(node)
    owner = node.parent
    while owner is not None and owner.type not in TYPES:
        if owner.type in FUNCTIONS or owner.type == "local_function_statement":
            params = owner.child_by_field_name("parameters")
            if params is not None and any(
                c.type == "parameter"
                and (n := c.child_by_field_name("name")) is not None
                and lowering.text(n) == name
                for c in params.named_children
            ):
                return False
        owner = owner.parent
    if owner is None:
        return False
    return name in members_of(lowering, owner)


def members_of(lowering: CSharpLowering, node: Node) -> frozenset[str]:
    found = lowering.members.get(node.id)
    if found is not None:
        return found
    names: set[str] = set()
    body = node.child_by_field_name("body")
    for child in body.named_children if body is not None else []:
        if child.type == "field_declaration":
            for declaration in child.named_children:
                if declaration.type == "variable_declaration":
                    for declarator in declaration.named_children:
                        name = declarator.child_by_field_name("name")
                        if declarator.type == "variable_declarator" and name is not None:
                            names.add(lowering.text(name))
        elif child.type == "property_declaration":
            name = child.child_by_field_name("name")
            if name is not None:
                names.add(lowering.text(name))
    lowering.members[node.id] = frozenset(names)
    return lowering.members[node.id]


def string_root(lowering: CSharpLowering, node: Node) -> Node:
    root = node
    parent = node.parent
    while parent is not None:
        if parent.type == "parenthesized_expression" or (
            parent.type == "binary_expression" and _operator(lowering, parent) == "+"
        ):
            root, parent = parent, parent.parent
        else:
            break
    return root


def string_context(lowering: CSharpLowering, node: Node) -> str:
    parent = node.parent
    if parent is not None and parent.type == "interpolation":
        return "inner"
    while parent is not None and (
        parent.type == "parenthesized_expression"
        or (parent.type == "binary_expression" and _operator(lowering, parent) in ("+", "??"))
    ):
        node, parent = parent, parent.parent
    if parent is None:
        return "value"
    kind = parent.type
    if kind == "binary_expression":
        return "compare" if _operator(lowering, parent) in ("==", "!=") else "value"
    if kind in (
        "constant_pattern",
        "is_pattern_expression",
        "case_switch_label",
        "relational_pattern",
    ):
        return "compare"
    if (
        kind == "argument"
        and parent.parent is not None
        and parent.parent.type == "tuple_expression"
    ):
        tuple_parent = parent.parent.parent
        if tuple_parent is not None and tuple_parent.type == "constant_pattern":
            return "compare"
    left = parent.child_by_field_name("left") if kind == "assignment_expression" else None
    named = lowering.text(left).lower() if left is not None and left.type == "identifier" else ""
    if named in ("href", "location"):
        return "href"
    if kind == "anonymous_object_creation_expression":
        before = node.prev_sibling
        key = before.prev_sibling if before is not None else None
        if key is not None and lowering.text(key).lower() in ("href", "location"):
            return "href"
    if kind == "element_binding_expression" or (
        kind == "argument"
        and parent.parent is not None
        and parent.parent.type == "element_binding_expression"
    ):
        return "key"
    ancestor: Node | None = parent
    while ancestor is not None and ancestor.type not in _SCOPES:
        if ancestor.type == "attribute":
            return "route"
        ancestor = ancestor.parent
    return "value"


def _operator(lowering: Lowering, node: Node) -> str:
    operator = node.child_by_field_name("operator")
    return lowering.text(operator) if operator is not None else ""


def _dotted(lowering: Lowering, node: Node) -> str:
    """A receiver as its key: `this.` dropped (`this._http` and `_http` are one field)."""
    text = lowering.text(node)
    return text[5:] if text.startswith("this.") else text
