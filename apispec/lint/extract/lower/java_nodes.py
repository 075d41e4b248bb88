"""Java-grammar nodes the Java and Groovy lowerings read alike: types, the declarations
around a node, the annotations a type carries, a class's fields."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from apispec.lint.extract.ir import Attr, Expr, Name

if TYPE_CHECKING:
    from tree_sitter import Node

    from apispec.lint.extract.lower import Lowering

# Declared types that hold values, not services: never an injected object.
VALUE_TYPES = frozenset(
    {
        "String",
        "Object",
        "Integer",
        "Long",
        "Short",
        "Byte",
        "Double",
        "Float",
        "Boolean",
        "Character",
        "Number",
        "BigDecimal",
        "BigInteger",
        "List",
        "Map",
        "Set",
        "Collection",
        "Optional",
        "Duration",
        "Instant",
        "URI",
        "URL",
        "Path",
        "File",
        "Logger",
        "Pattern",
    }
)
TYPES = ("type_identifier", "scoped_type_identifier", "generic_type")
CLASSES = (
    "class_declaration",
    "interface_declaration",
    "enum_declaration",
    "record_declaration",
)
COMMENTS = frozenset({"line_comment", "block_comment", "comment"})
HREF_KEYS = frozenset({"href", "location", "content-location", "link"})


def after_key(lowering: Lowering, node: Node, arguments: Node) -> bool:
    """Whether the argument before this one is a literal naming a link or a location."""
    previous = node.prev_named_sibling
    while previous is not None and previous.type in COMMENTS:
        previous = previous.prev_named_sibling
    if previous is None or previous.type not in ("string_literal", "character_literal"):
        return False
    return lowering.text(previous).strip("\"'").lower() in HREF_KEYS


def simple_type(lowering: Lowering, node: Node) -> str:
    if node.type == "generic_type":
        inner = next((c for c in node.named_children if c.type in TYPES), None)
        return simple_type(lowering, inner) if inner is not None else ""
    if node.type == "scoped_type_identifier":
        parts = [c for c in node.named_children if c.type in TYPES]
        return simple_type(lowering, parts[-1]) if parts else ""
    if node.type == "type_identifier":
        return lowering.text(node)
    return ""


def type_qualifier(lowering: Lowering, node: Node) -> Expr | None:
    """`Request` of `Request.Builder`: the type a nested type is named through."""
    if node.type == "generic_type":
        inner = next((c for c in node.named_children if c.type in TYPES), None)
        return type_qualifier(lowering, inner) if inner is not None else None
    if node.type != "scoped_type_identifier":
        return None
    parts = [c for c in node.named_children if c.type in TYPES]
    if len(parts) < 2:
        return None
    head = parts[0]
    start, end = lowering.span(head)
    qualifier: Expr = Name(simple_type(lowering, head), start, end)
    for part in parts[1:-1]:
        _, end = lowering.span(part)
        qualifier = Attr(qualifier, simple_type(lowering, part), start, end)
    return qualifier


def written_type(lowering: Lowering, node: Node) -> str:
    """A declared type as a dotted name, type arguments left out (`WebClient.Builder`)."""
    if node.type == "generic_type":
        inner = next((c for c in node.named_children if c.type in TYPES), None)
        return written_type(lowering, inner) if inner is not None else ""
    if node.type in ("type_identifier", "scoped_type_identifier"):
        return lowering.text(node).replace(" ", "")
    return ""


def walk_types(node: Node) -> Iterator[Node]:
    for child in node.named_children:
        if child.type in TYPES:
            yield child
        else:
            yield from walk_types(child)


def enclosing_type(node: Node) -> Node | None:
    parent = node.parent
    while parent is not None:
        if parent.type in CLASSES:
            return parent
        parent = parent.parent
    return None


def type_marks(lowering: Lowering, node: Node) -> set[str]:
    """The annotations a type declaration carries, and those of the types around it."""
    marks: set[str] = set()
    current: Node | None = node
    while current is not None:
        if current.type in CLASSES:
            for child in current.children:
                if child.type == "modifiers":
                    for mark in child.named_children:
                        name = mark.child_by_field_name("name")
                        if name is not None:
                            marks.add(lowering.text(name).rsplit(".", 1)[-1])
        current = current.parent
    return marks


def is_field(lowering: Lowering, node: Node, known: dict[int, frozenset[str]]) -> bool:
    """A bare name assigned in a method that the class declares as a field (and the
    method not as a parameter): `base = ...` in a constructor sets `this.base`.
    `known`: the fields of each class read so far (by the class node's id)."""
    parent = node.parent
    if parent is None or parent.type == "variable_declarator":
        return False
    function: Node | None = parent
    while function is not None and function.type not in lowering.function_types:
        if function.type in CLASSES:
            return False
        function = function.parent
    owner = enclosing_type(node)
    if function is None or owner is None:
        return False
    name = lowering.text(node)
    parameters = function.child_by_field_name("parameters")
    if parameters is not None and any(
        (declared := p.child_by_field_name("name")) is not None and lowering.text(declared) == name
        for p in parameters.named_children
    ):
        return False
    fields = known.get(owner.id)
    if fields is None:
        found: set[str] = set()
        body = owner.child_by_field_name("body")
        for child in body.named_children if body is not None else ():
            if child.type == "field_declaration":
                for declarator in child.children_by_field_name("declarator"):
                    field_name = declarator.child_by_field_name("name")
                    if field_name is not None:
                        found.add(lowering.text(field_name))
        fields = known[owner.id] = frozenset(found)
    return name in fields


def declared_value(lowering: Lowering, name: Node) -> bool:
    """A field declared with a value type and no value (`private String token;`)."""
    declarator = name.parent
    if declarator is None or declarator.type != "variable_declarator":
        return False
    if declarator.child_by_field_name("value") is not None:
        return False
    declaration = declarator.parent
    written = declaration.child_by_field_name("type") if declaration is not None else None
    return (
        written is None
        or simple_type(lowering, written) in VALUE_TYPES
        or not (simple_type(lowering, written)[:1].isupper())
    )


def setter_name(prop: str) -> str:
    """The setter a property assignment calls (`requestMethod` -> `setRequestMethod`):
    Groovy and Kotlin write a Java setter's call as an assignment."""
    return "set" + prop[:1].upper() + prop[1:]
