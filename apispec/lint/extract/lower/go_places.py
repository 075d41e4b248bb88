"""Go's declarations and places: parameters, assignment targets, imports, literal contexts.

Where a value goes (`a, b := f()`, `c.base = ...` on a receiver or a struct the
function made, a struct literal's keyed fields, `for k, v := range m`) and where a
string literal stands (a comparison or case value, a map key, an import path, a
struct tag); GoLowering (go.py) adds the expressions, calls and functions.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING

from apispec.lint.extract.ir import Expr, Params
from apispec.lint.extract.lower import Lowering

if TYPE_CHECKING:
    from tree_sitter import Node

_MAJOR = re.compile(r"v\d+")
_COMPARE = frozenset({"==", "!="})


def package_name(path: str) -> str:
    """The name an import path binds without an alias: its last element, a major
    version suffix (`/v2`, `.v1`) and a `go-` prefix left out."""
    parts = [p for p in path.split("/") if p]
    if len(parts) > 1 and _MAJOR.fullmatch(parts[-1]):
        parts.pop()
    last = parts[-1] if parts else path
    last = re.sub(r"\.v\d+$", "", last)
    return re.sub(r"^go-", "", last).replace("-", "_")


class GoPlaces(Lowering):
    """Go's declarations and the places values and literals stand (see the module)."""

    def _params(self, node: Node) -> tuple[Params, dict[str, str]]:
        params: Params = []
        types: dict[str, str] = {}
        for child in node.named_children:
            if child.type not in ("parameter_declaration", "variadic_parameter_declaration"):
                continue
            star = "*" if child.type == "variadic_parameter_declaration" else ""
            kind = child.child_by_field_name("type")
            written = self.text(kind) if kind is not None else ""
            for name in child.children_by_field_name("name"):
                params.append((self.text(name), star, None))
                if kind is not None and kind.type == "function_type":
                    result = kind.child_by_field_name("result")
                    if result is not None:  # `client func() *prtg.Client`: what a call returns
                        types[self.text(name) + "()"] = type_name(self.text(result))
                elif written:
                    types[self.text(name)] = type_name(written)
        return params, types

    def targets(self, node: Node) -> list[tuple[str, Expr | None, int | str]]:
        method = _TARGETS.get(node.type)
        return method(self, node) if method is not None else []

    def _list_targets(self, node: Node) -> list[tuple[str, Expr | None, int | str]]:
        """`a, b := f()`: each name takes its place among the values."""
        items = [c for c in node.named_children if c.type != "comment"]
        parent = node.parent
        if parent is not None and parent.type == "range_clause":
            return self._range_targets(items)
        if len(items) == 1:
            return self.targets(items[0])
        found: list[tuple[str, Expr | None, int | str]] = []
        for position, item in enumerate(items):
            found.extend(
                (key, None, position) for key, item_key, _ in self.targets(item) if item_key is None
            )
        return found

    def _spec_targets(self, node: Node) -> list[tuple[str, Expr | None, int | str]]:
        names = node.children_by_field_name("name")
        if len(names) == 1:
            return [(self.text(names[0]), None, -1)]
        return [(self.text(n), None, k) for k, n in enumerate(names)]

    def _name_target(self, node: Node) -> list[tuple[str, Expr | None, int | str]]:
        text = self.text(node)
        if text == "_":
            return []
        if node.parent is not None and node.parent.type == "literal_element":
            return self._field_target(node, text)
        return [(text, None, -1)]

    def _index_target(self, node: Node) -> list[tuple[str, Expr | None, int | str]]:
        """`m["k"] = v`: one entry of what `m` holds."""
        operand = node.child_by_field_name("operand")
        key = node.child_by_field_name("index")
        if operand is None or key is None:
            return []
        held = self.targets(operand)
        if len(held) == 1 and held[0][1] is None:
            return [(held[0][0], self.expr(key), -1)]
        return []

    def _inner_target(self, node: Node) -> list[tuple[str, Expr | None, int | str]]:
        """`*p = v`, `(x) = v`: the name inside."""
        operand = node.child_by_field_name("operand")
        named = [c for c in node.named_children if c.type != "comment"]
        inner = operand if operand is not None else (named[0] if named else None)
        return self.targets(inner) if inner is not None else []

    def _range_targets(self, items: list[Node]) -> list[tuple[str, Expr | None, int | str]]:
        """`for i, v := range xs` walks (index, item) pairs, `for k, v := range m` (key,
        value) pairs; `for k := range m` the keys alone (see pairs())."""
        return [
            (key, None, position)
            for position, item in enumerate(items[:2])
            for key, _, _ in self.targets(item)
        ]

    def pairs(self, node: Node) -> bool:
        return True  # a range loop's variables are the key (or index) and the value

    def _field_target(self, node: Node, name: str) -> list[tuple[str, Expr | None, int | str]]:
        """A key of a struct literal: the field of its type (`Client{base: b}` -> base)."""
        element = node.parent
        keyed = element.parent if element is not None else None
        body = keyed.parent if keyed is not None else None
        literal = body.parent if body is not None else None
        if literal is None or literal.type != "composite_literal":
            return []
        kind = literal.child_by_field_name("type")
        if kind is None or kind.type not in ("type_identifier", "qualified_type", "generic_type"):
            return []
        return [(f"@{type_name(self.text(kind)).rsplit('.', 1)[-1]}.{name}", None, -1)]

    def _selector_target(self, node: Node) -> list[tuple[str, Expr | None, int | str]]:
        """`c.base = ...` where `c` is a method's receiver or a struct the function made
        (`c := &Client{}`): a field of its type."""
        operand = node.child_by_field_name("operand")
        field = node.child_by_field_name("field")
        if operand is None or field is None:
            return []
        if operand.type == "identifier":
            owner = self._receiver_type(node, self.text(operand)) or self._local_type(
                node, self.text(operand)
            )
            if owner:
                return [(f"@{owner}.{self.text(field)}", None, -1)]
        return [(self.text(node), None, -1)]

    def _receiver_type(self, node: Node, name: str) -> str:
        method = _enclosing(node, "method_declaration")
        declared = method.child_by_field_name("receiver") if method is not None else None
        found, written = self._params(declared) if declared is not None else ([], {})
        if found and found[0][0] == name:
            return (written.get(name) or "").rsplit(".", 1)[-1]
        return ""

    def _local_type(self, node: Node, name: str) -> str:
        """The struct type a function's own statement made `name` (`c := &Client{...}`)."""
        function = _enclosing(node, "function_declaration", "method_declaration")
        body = function.child_by_field_name("body") if function is not None else None
        statements = (
            next((c for c in body.named_children if c.type == "statement_list"), None)
            if body is not None
            else None
        )
        for statement in statements.named_children if statements is not None else []:
            left = statement.child_by_field_name("left")
            right = statement.child_by_field_name("right")
            if statement.type != "short_var_declaration" or left is None or right is None:
                continue
            names = [self.text(c) for c in left.named_children]
            values = [c for c in right.named_children if c.type != "comment"]
            if name not in names or len(values) != len(names):
                continue
            value = values[names.index(name)]
            if value.type == "unary_expression":
                value = value.child_by_field_name("operand") or value
            kind = value.child_by_field_name("type") if value.type == "composite_literal" else None
            if kind is not None and kind.type == "type_identifier":
                return self.text(kind)
        return ""

    def imports(self, node: Node) -> Iterator[tuple[str, str]]:
        path_node = node.child_by_field_name("path")
        if path_node is None:
            return
        path = self.text(path_node)[1:-1]
        alias = node.child_by_field_name("name")
        if alias is not None:
            if alias.type in ("dot", "blank_identifier"):
                return
            yield self.text(alias), path
            return
        yield package_name(path), path

    def class_bases(self, node: Node) -> tuple[str, ...]:
        """Embedded fields (`type Client struct { *resty.Client }`): what the type extends."""
        kind = node.child_by_field_name("type")
        fields = (
            next((c for c in kind.named_children if c.type == "field_declaration_list"), None)
            if kind is not None
            else None
        )
        if fields is None:
            return ()
        found = []
        for field in fields.named_children:
            if field.type == "field_declaration" and field.child_by_field_name("name") is None:
                written = field.child_by_field_name("type")
                if written is not None:
                    found.append(type_name(self.text(written)))
        return tuple(found)

    # -- string contexts --------------------------------------------------------

    def string_root(self, node: Node) -> Node:
        root = node
        parent = node.parent
        while parent is not None and parent.type in (
            "binary_expression",
            "parenthesized_expression",
        ):
            operator = parent.child_by_field_name("operator")
            if operator is not None and self.text(operator) != "+":
                break
            root, parent = parent, parent.parent
        return root

    def string_context(self, node: Node) -> str:
        parent = node.parent
        while parent is not None and parent.type in (
            "parenthesized_expression",
            "binary_expression",
        ):
            operator = parent.child_by_field_name("operator")
            if operator is not None and self.text(operator) in _COMPARE:
                return "compare"
            node, parent = parent, parent.parent
        if parent is None:
            return "value"
        kind = parent.type
        if kind in ("import_spec", "field_declaration"):
            return "doc"  # an import path, a struct tag
        if (
            kind == "expression_list"
            and parent.parent is not None
            and parent.parent.type in ("expression_case", "type_case")
        ):
            return "compare"
        if kind == "literal_element" and parent.parent is not None:
            keyed = parent.parent
            if keyed.type == "keyed_element" and keyed.child_by_field_name("key") == parent:
                return "key"
            key = keyed.child_by_field_name("key") if keyed.type == "keyed_element" else None
            if key is not None and self.text(key).strip('"`').lower() in ("location", "href"):
                return "href"
        if kind == "index_expression" and parent.child_by_field_name("index") == node:
            return "key"
        return "value"


def type_name(written: str) -> str:
    """`*prtg.Client`, `[]T`, `Client[T]` -> the named type (`prtg.Client`)."""
    name = written.strip().lstrip("*&").strip()
    name = name.split("[", 1)[0] if not name.startswith("[") else name
    return name.strip("() ")


def _enclosing(node: Node, *kinds: str) -> Node | None:
    """The innermost declaration of one of `kinds` around `node` (not past a function)."""
    parent = node.parent
    while parent is not None:
        if parent.type in kinds:
            return parent
        if parent.type in ("function_declaration", "method_declaration", "source_file"):
            return None
        parent = parent.parent
    return None


_TARGETS = {
    "expression_list": GoPlaces._list_targets,
    "var_spec": GoPlaces._spec_targets,
    "const_spec": GoPlaces._spec_targets,
    "identifier": GoPlaces._name_target,
    "selector_expression": GoPlaces._selector_target,
    "index_expression": GoPlaces._index_target,
    "unary_expression": GoPlaces._inner_target,
    "parenthesized_expression": GoPlaces._inner_target,
}
