"""Kotlin-grammar nodes kotlin.py reads: calls and their trailing lambdas, parameters,
properties, annotations, and where a literal stands."""

from __future__ import annotations

from typing import TYPE_CHECKING

from apispec.lint.extract.lower.java_nodes import HREF_KEYS, VALUE_TYPES
from apispec.lint.knowledge import VERBS, knowledge

if TYPE_CHECKING:
    from tree_sitter import Node

    from apispec.lint.extract.ir import Expr
    from apispec.lint.extract.lower import Lowering

_COMMENTS = frozenset({"line_comment", "multiline_comment", "comment"})
_KOTLIN_VALUES = VALUE_TYPES | {"Int", "Any", "Unit", "Char", "Array", "MutableList", "MutableMap"}
_TYPES = ("user_type", "nullable_type")
_CLASSES = ("class_declaration", "object_declaration", "companion_object")


def named(node: Node) -> list[Node]:
    return [c for c in node.named_children if c.type not in _COMMENTS]


def call_parts(node: Node) -> tuple[Node, Node | None, list[Node]]:
    """A call's callee expression, its bracketed arguments and its trailing lambdas.

    `client.get("x") { ... }` parses as a call of `client.get("x")` with a lambda: it is
    one call, whose last argument is the lambda."""
    parts = named(node)
    function = parts[0]
    arguments = next((c for c in parts[1:] if c.type == "value_arguments"), None)
    lambdas = [c for c in parts[1:] if c.type == "annotated_lambda"]
    if function.type == "call_expression" and arguments is None and lambdas:
        inner, inner_args, inner_lambdas = call_parts(function)
        return inner, inner_args, inner_lambdas + lambdas
    return function, arguments, lambdas


def held_by_lambda_call(node: Node) -> bool:
    """Whether a call is the callee part of a call that only adds a trailing lambda."""
    parent = node.parent
    if parent is None or parent.type != "call_expression":
        return False
    parts = named(parent)
    return (
        parts[0].id == node.id
        and not any(c.type == "value_arguments" for c in parts[1:])
        and any(c.type == "annotated_lambda" for c in parts[1:])
    )


def member_name(lowering: Lowering, function: Node) -> str:
    """`get` of `client.get`, `listOf` of `listOf`; "" for another callee expression."""
    if function.type == "identifier":
        return lowering.text(function)
    if function.type == "navigation_expression":
        parts = named(function)
        if parts and parts[-1].type == "identifier":
            return lowering.text(parts[-1])
    return ""


def receiver_of(function: Node) -> Node | None:
    if function.type == "navigation_expression":
        parts = named(function)
        return parts[0] if len(parts) >= 2 else None
    return None


def lambda_of(node: Node) -> Node | None:
    if node.type == "lambda_literal":
        return node
    return next((c for c in node.named_children if c.type == "lambda_literal"), None)


def mapped_body(lambdas: list[Node]) -> Node | None:
    """The expression a lambda given to `map` makes of each element (its last one)."""
    if len(lambdas) != 1:
        return None
    function = lambda_of(lambdas[0])
    if function is None:
        return None
    body = [c for c in named(function) if c.type != "lambda_parameters"]
    return body[-1] if len(body) == 1 else None


def branches(node: Node) -> list[Node]:
    """The value of each branch of an `if` or a `when` (a block's last expression)."""
    found: list[Node] = []
    if node.type == "if_expression":
        condition = node.child_by_field_name("condition")
        candidates = [c for c in named(node) if condition is None or c.id != condition.id]
    else:
        candidates = []
        for entry in (c for c in named(node) if c.type == "when_entry"):
            condition = entry.child_by_field_name("condition")
            body = [c for c in named(entry) if condition is None or c.id != condition.id]
            candidates.extend(body[-1:])
    for candidate in candidates:
        if candidate.type in ("block", "control_structure_body"):
            inner = named(candidate)
            if inner:
                found.append(inner[-1])
        else:
            found.append(candidate)
    return found


def type_name(lowering: Lowering, node: Node) -> str:
    """The type a node names, type arguments left out (`WebClient.Builder`)."""
    if node.type in ("constructor_invocation", "delegation_specifier", "nullable_type"):
        inner = next(
            (c for c in node.named_children if c.type in (*_TYPES, "constructor_invocation")), None
        )
        return type_name(lowering, inner) if inner is not None else ""
    if node.type == "user_type":
        return ".".join(lowering.text(c) for c in node.named_children if c.type == "identifier")
    return ""


def private(lowering: Lowering, node: Node) -> bool:
    modifiers = next((c for c in node.named_children if c.type == "modifiers"), None)
    return modifiers is not None and "private" in lowering.text(modifiers).split()


def parameters(
    lowering: Lowering, node: Node
) -> tuple[list[tuple[str, str, Expr | None]], dict[str, str]]:
    """A function's or a constructor's parameters (name, "*" for vararg, default) and the
    declared types that are classes."""
    holder: Node | None = node
    if node.type == "class_declaration":
        constructor = next(
            (c for c in node.named_children if c.type == "primary_constructor"), None
        )
        holder = (
            next((c for c in constructor.named_children if c.type == "class_parameters"), None)
            if constructor is not None
            else None
        )
    elif node.type != "function_value_parameters":
        holder = next(
            (c for c in node.named_children if c.type == "function_value_parameters"), None
        )
    params: list[tuple[str, str, Expr | None]] = []
    types: dict[str, str] = {}
    if holder is None:
        return params, types
    children = named(holder)
    kind = ""
    for k, child in enumerate(children):
        if child.type == "parameter_modifiers":
            kind = "*" if "vararg" in lowering.text(child) else ""
            continue
        if child.type not in ("parameter", "class_parameter"):
            continue
        parts = named(child)
        name = next((c for c in parts if c.type == "identifier"), None)
        if name is None:
            continue
        default_node: Node | None = None
        if child.type == "class_parameter" and any(c.type == "=" for c in child.children):
            default_node = parts[-1]
        elif k + 1 < len(children) and children[k + 1].type not in (
            "parameter",
            "parameter_modifiers",
        ):
            default_node = children[k + 1]
        default = lowering.expr(default_node) if default_node is not None else None
        params.append((lowering.text(name), kind, default))
        declared = next((c for c in parts if c.type in _TYPES), None)
        written = type_name(lowering, declared) if declared is not None else ""
        if written and written.rsplit(".", 1)[-1] not in _KOTLIN_VALUES:
            types[lowering.text(name)] = written
        kind = ""
    return params, types


def member(declaration: Node) -> bool:
    """Whether a property's declaration is a member of a class or object (a field)."""
    holder = declaration.parent
    while holder is not None and holder.type in (
        "property_declaration",
        "multi_variable_declaration",
    ):
        holder = holder.parent
    return holder is not None and holder.type in ("class_body", "enum_class_body")


def is_field(lowering: Lowering, node: Node) -> bool:
    """A constructor's `val` parameter, or a bare name assigned in a method that the class
    declares as a property (`token = ...` sets the object's `token`)."""
    parent = node.parent
    if parent is None:
        return False
    if parent.type == "class_parameter":
        return True
    owner: Node | None = parent
    while owner is not None and owner.type not in _CLASSES:
        if owner.type in ("function_declaration", "lambda_literal") and any(
            name == lowering.text(node) for name, _, _ in parameters(lowering, owner)[0]
        ):
            return False
        owner = owner.parent
    if owner is None:
        return False
    body = next((c for c in owner.named_children if c.type == "class_body"), None)
    name = lowering.text(node)
    for child in named(body) if body is not None else ():
        if child.type == "property_declaration":
            declared = next(
                (c for c in child.named_children if c.type == "variable_declaration"), None
            )
            if declared is not None and any(
                c.type == "identifier" and lowering.text(c) == name for c in declared.named_children
            ):
                return True
    return False


def annotation_role(lowering: Lowering, node: Node) -> str:
    """ "request" (a declarative client's), "route" (a server's) or "other"."""
    rows = knowledge(lowering.language)
    invocation = next(
        (c for c in node.named_children if c.type in ("constructor_invocation", *_TYPES)), None
    )
    name = type_name(lowering, invocation).rsplit(".", 1)[-1] if invocation is not None else ""
    if name not in rows.request_marks and name not in rows.route_marks:
        return "other"
    marks: set[str] = set()
    owner = node.parent
    while owner is not None:
        if owner.type in _CLASSES:
            for modifiers in (c for c in owner.named_children if c.type == "modifiers"):
                for mark in (c for c in modifiers.named_children if c.type == "annotation"):
                    inner = next(
                        (
                            c
                            for c in mark.named_children
                            if c.type in ("constructor_invocation", *_TYPES)
                        ),
                        None,
                    )
                    if inner is not None:
                        marks.add(type_name(lowering, inner).rsplit(".", 1)[-1])
        owner = owner.parent
    if marks & rows.server_marks:
        return "route"
    if name in rows.request_marks or marks & rows.client_marks:
        return "request"
    return "route"


def context(lowering: Lowering, node: Node) -> str:
    """Where a literal stands: "value", or why it is no call (see Lowering.string_context)."""
    parent = node.parent
    while parent is not None and parent.type in ("binary_expression", "parenthesized_expression"):
        operator = parent.child_by_field_name("operator")
        if operator is not None and lowering.text(operator) in ("==", "!=", "in", "!in"):
            return "compare"
        node, parent = parent, parent.parent
    if parent is None:
        return "value"
    if parent.type == "when_entry":
        condition = parent.child_by_field_name("condition")
        if condition is not None and condition.id == node.id:
            return "compare"
    if parent.type in ("when_condition", "range_test"):
        return "compare"
    if parent.type == "infix_expression":
        parts = named(parent)
        if (
            len(parts) == 3
            and parts[2].id == node.id
            and lowering.text(parts[0]).strip('"').lower() in HREF_KEYS
        ):
            return "href"  # `"href" to "/api/v2/..."`
    if parent.type == "value_argument":
        argument = parent
        previous = argument.prev_named_sibling
        if previous is not None and lowering.text(previous).strip('"').lower() in HREF_KEYS:
            return "href"  # `.header("Location", "/api/v2/...")`
        call = argument.parent.parent if argument.parent is not None else None
        if call is not None and call.type == "call_expression" and _route(lowering, call):
            return "route"
    ancestor: Node | None = parent
    while ancestor is not None and ancestor.type not in ("block", "class_body", "source_file"):
        if ancestor.type == "annotation":
            return "value" if annotation_role(lowering, ancestor) == "request" else "route"
        ancestor = ancestor.parent
    return "value"


def _route(lowering: Lowering, call: Node) -> bool:
    """`get("/x") { call.respond(...) }` with no receiver (Ktor's routing): a route."""
    outer = call.parent
    if outer is None or outer.type != "call_expression" or not held_by_lambda_call(call):
        return False
    function = named(call)[0]
    return function.type == "identifier" and lowering.text(function) in (*VERBS, "route")
