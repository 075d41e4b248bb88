"""Go lowered to the IR: raw strings, composite literals, method receivers, multiple values.

A struct literal (`&Client{base: b}`) is a construction of its type with the fields
as keywords; a map or `url.Values` literal is a mapping; a slice literal a list.
`a, b := f()` unpacks the values a function returns (`return out, err` is a list);
`x = append(x, ...)` reads `x` before the assignment takes effect. A method's
receiver (`c` in `func (c *Client) get(...)`) is the object, its type the owner.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

from apispec.lint.extract.ir import (
    Arg,
    Attr,
    CallE,
    Concat,
    Expr,
    Function,
    Index,
    ListE,
    Lit,
    Mapping,
    Name,
    Params,
    Str,
)
from apispec.lint.extract.lower import Lowering
from apispec.lint.extract.lower.strings import c_escapes, plain

if TYPE_CHECKING:
    from tree_sitter import Node

_MAJOR = re.compile(r"v\d+")
_COMPARE = frozenset({"==", "!="})
_FUNCTIONS = ("function_declaration", "method_declaration", "func_literal")


def package_name(path: str) -> str:
    """The name an import path binds without an alias: its last element, a major
    version suffix (`/v2`, `.v1`) and a `go-` prefix left out."""
    parts = [p for p in path.split("/") if p]
    if len(parts) > 1 and _MAJOR.fullmatch(parts[-1]):
        parts.pop()
    last = parts[-1] if parts else path
    last = re.sub(r"\.v\d+$", "", last)
    return re.sub(r"^go-", "", last).replace("-", "_")


class GoLowering(Lowering):
    language = "go"
    function_types = frozenset(_FUNCTIONS)
    call_types = frozenset({"call_expression"})
    block_types = frozenset(
        {"block", "expression_case", "type_case", "default_case", "communication_case"}
    )

    def expr(self, node: Node) -> Expr:
        method = _EXPRESSIONS.get(node.type)
        return method(self, node) if method is not None else self.opaque(node)

    # -- literals ---------------------------------------------------------------

    def _interpreted(self, node: Node) -> Expr:
        start, end = self.span(node)
        raw = self.text(node)[1:-1]
        return Str((c_escapes(raw, start + 1, continuation=False),), start, end, True)

    def _raw(self, node: Node) -> Expr:
        start, end = self.span(node)
        return Str((plain(self.text(node)[1:-1], start + 1),), start, end, True)

    def _number(self, node: Node) -> Expr:
        start, end = self.span(node)
        return Str((Lit(self.text(node), start),), start, end)

    def _identifier(self, node: Node) -> Expr:
        start, end = self.span(node)
        return Name(self.text(node), start, end)

    # -- operators --------------------------------------------------------------

    def _selector(self, node: Node) -> Expr:
        operand = node.child_by_field_name("operand")
        field = node.child_by_field_name("field")
        start, end = self.span(node)
        if operand is None or field is None:
            return self.opaque(node)
        return Attr(self.expr(operand), self.text(field), start, end)

    def _index(self, node: Node) -> Expr:
        operand = node.child_by_field_name("operand")
        index = node.child_by_field_name("index")
        start, end = self.span(node)
        if operand is None or index is None:
            return self.opaque(node)
        return Index(self.expr(operand), self.expr(index), start, end)

    def _binary(self, node: Node) -> Expr:
        left = node.child_by_field_name("left")
        right = node.child_by_field_name("right")
        operator = node.child_by_field_name("operator")
        start, end = self.span(node)
        if left is None or right is None or operator is None or self.text(operator) != "+":
            return self.opaque(node)
        parts: list[Expr] = []
        for side in (left, right):
            value = self.expr(side)
            parts.extend(value.parts if isinstance(value, Concat) else (value,))
        return Concat(tuple(parts), start, end)

    def _unary(self, node: Node) -> Expr:
        """`&x` and `*x` hold what `x` holds (a pointer is followed to its value)."""
        operator = node.child_by_field_name("operator")
        operand = node.child_by_field_name("operand")
        if operand is None or operator is None or self.text(operator) not in ("&", "*"):
            return self.opaque(node)
        return self.expr(operand)

    def _operand(self, node: Node) -> Expr:
        """`x.(T)`, `(x)`, `T(x)`: the value of the operand."""
        inner = node.child_by_field_name("operand")
        if inner is None:
            named = [c for c in node.named_children if c.type != "comment"]
            inner = named[0] if len(named) == 1 else None
        return self.expr(inner) if inner is not None else self.opaque(node)

    def _list(self, node: Node) -> Expr:
        items = [c for c in node.named_children if c.type != "comment"]
        if len(items) == 1:
            return self.expr(items[0])
        start, end = self.span(node)
        return ListE(tuple(self.expr(c) for c in items), start, end)

    def _type(self, node: Node) -> Expr:
        """A declared type without a value (`var parts []string`, `var q url.Values`): its
        zero value (a named type: a construction of it with no fields)."""
        start, end = self.span(node)
        if node.type == "map_type":
            return Mapping((), start, end)
        if node.type in ("slice_type", "array_type"):
            return ListE((), start, end)
        if node.type == "qualified_type":
            package = node.child_by_field_name("package")
            name = node.child_by_field_name("name")
            if package is not None and name is not None:
                receiver = Name(self.text(package), *self.span(package))
                return CallE(self.text(name), receiver, (), start, end, node.id, new=True)
        return self.opaque(node)

    # -- composite literals -----------------------------------------------------

    def _composite(self, node: Node) -> Expr:
        kind = node.child_by_field_name("type")
        body = node.child_by_field_name("body")
        start, end = self.span(node)
        if body is None:
            return self.opaque(node)
        if kind is not None and kind.type in (
            "slice_type",
            "array_type",
            "implicit_length_array_type",
        ):
            return self._elements(body)
        if kind is not None and kind.type == "map_type":
            return self._mapping(body)
        if kind is not None and kind.type in ("type_identifier", "qualified_type", "generic_type"):
            keyed = [c for c in body.named_children if c.type == "keyed_element"]
            if keyed and not _field_keys(keyed):
                return self._mapping(body)  # `url.Values{"limit": {"10"}}`: a named map type
            return self._struct(kind, body, start, end, node.id)
        return self._literal_value(body)

    def _literal_value(self, body: Node) -> Expr:
        """An untyped `{...}` inside another literal: a mapping when keyed, else a list."""
        keyed = [c for c in body.named_children if c.type == "keyed_element"]
        if keyed and not _field_keys(keyed):
            return self._mapping(body)
        return self._elements(body)

    def _elements(self, body: Node) -> Expr:
        start, end = self.span(body)
        items = tuple(self._element(c) for c in body.named_children if c.type == "literal_element")
        return ListE(items, start, end)

    def _element(self, node: Node) -> Expr:
        inner = [c for c in node.named_children if c.type != "comment"]
        if not inner:
            return self.opaque(node)
        if inner[0].type == "literal_value":
            return self._literal_value(inner[0])
        return self.expr(inner[0])

    def _mapping(self, body: Node) -> Expr:
        start, end = self.span(body)
        items: list[tuple[Expr | None, Expr]] = []
        for child in body.named_children:
            if child.type != "keyed_element":
                continue
            key = child.child_by_field_name("key")
            value = child.child_by_field_name("value")
            if key is not None and value is not None:
                items.append((self._element(key), self._element(value)))
        return Mapping(tuple(items), start, end)

    def _struct(self, kind: Node, body: Node, start: int, end: int, node_id: int) -> Expr:
        """`Client{base: b}`: the type constructed with its fields as keywords."""
        receiver: Expr | None = None
        name_node = kind
        if kind.type == "generic_type":
            inner = kind.child_by_field_name("type")
            name_node = inner if inner is not None else kind
        if name_node.type == "qualified_type":
            package = name_node.child_by_field_name("package")
            name = name_node.child_by_field_name("name")
            if package is not None:
                receiver = Name(self.text(package), *self.span(package))
            name_node = name if name is not None else name_node
        callee = self.text(name_node)

        def fields() -> tuple[Arg, ...]:
            args: list[Arg] = []
            for child in body.named_children:
                key = child.child_by_field_name("key") if child.type == "keyed_element" else None
                value = child.child_by_field_name("value")
                if key is not None and value is not None:
                    args.append(Arg(self._element(value), self.text(key)))
            return tuple(args)

        return CallE(callee, receiver, None, start, end, node_id, fields, new=True)

    # -- calls ------------------------------------------------------------------

    def _call_expr(self, node: Node) -> Expr:
        call = self.call(node)
        return call if call is not None else self.opaque(node)

    def call(self, node: Node) -> CallE | None:
        function = node.child_by_field_name("function")
        arguments = node.child_by_field_name("arguments")
        if function is None:
            return None
        start, end = self.span(node)
        callee, receiver = self._callee(function)
        if arguments is None:
            return CallE(callee, receiver, (), start, end, node.id)
        return CallE(callee, receiver, None, start, end, node.id, lambda: self.arguments(arguments))

    def _callee(self, function: Node) -> tuple[str, Expr | None]:
        if function.type == "identifier":
            return self.text(function), None
        if function.type == "selector_expression":
            field = function.child_by_field_name("field")
            operand = function.child_by_field_name("operand")
            return (
                self.text(field) if field is not None else "",
                self.expr(operand) if operand is not None else None,
            )
        if function.type in ("index_expression", "generic_type"):  # `send[T](...)`
            inner = function.child_by_field_name("operand") or function.child_by_field_name("type")
            if inner is not None:
                return self._callee(inner)
        if function.type == "parenthesized_expression":
            named = [c for c in function.named_children if c.type != "comment"]
            if len(named) == 1:
                return self._callee(named[0])
        return "", self.expr(function)

    def call_name(self, node: Node) -> str:
        function = node.child_by_field_name("function")
        if function is None:
            return ""
        if function.type == "identifier":
            return self.text(function)
        if function.type == "selector_expression":
            field = function.child_by_field_name("field")
            return self.text(field) if field is not None else ""
        if function.type in ("index_expression", "generic_type"):
            inner = function.child_by_field_name("operand") or function.child_by_field_name("type")
            return self.text(inner) if inner is not None and inner.type == "identifier" else ""
        return ""

    def arguments(self, node: Node) -> tuple[Arg, ...]:
        args: list[Arg] = []
        for child in node.named_children:
            if child.type == "comment":
                continue
            if child.type == "variadic_argument":
                inner = [c for c in child.named_children if c.type != "comment"]
                if inner:
                    args.append(Arg(self.expr(inner[0]), None, "*"))
                continue
            args.append(Arg(self.expr(child)))
        return tuple(args)

    # -- functions and types ----------------------------------------------------

    def function(self, node: Node) -> Function | None:
        start, end = self.span(node)
        owner: str | None = None
        receiver: str | None = None
        if node.type == "func_literal":
            name = self._literal_name(node)
        else:
            name_node = node.child_by_field_name("name")
            if name_node is None:
                return None
            name = self.text(name_node)
        if node.type == "method_declaration":
            declared = node.child_by_field_name("receiver")
            found, written = self._params(declared) if declared is not None else ([], {})
            if found:
                receiver = found[0][0]
                owner = written.get(receiver) or None
            elif declared is not None:  # `func (*Client) m()`: no name, still a method
                kinds = [c for c in declared.named_children if c.type == "parameter_declaration"]
                kind = kinds[0].child_by_field_name("type") if kinds else None
                owner = _type_name(self.text(kind)) if kind is not None else None
            owner = owner.rsplit(".", 1)[-1] if owner else owner
        exported = node.type != "func_literal"
        function = Function(
            node.id, name, start, end, lambda: self._signature(node), owner, exported
        )
        function.receiver = receiver
        return function

    def _signature(self, node: Node) -> tuple[Params, dict[str, str], list[Callable[[], Expr]]]:
        params_node = node.child_by_field_name("parameters")
        params, types = self._params(params_node) if params_node is not None else ([], {})
        return params, types, [self.lazy(n) for n in self.returned(node)]

    def _literal_name(self, node: Node) -> str:
        """`send := func(...) {...}`: a function literal named by what it is assigned to."""
        parent = node.parent
        if parent is not None and parent.type == "expression_list":
            holder = parent.parent
            if holder is not None and holder.type in ("short_var_declaration", "var_spec"):
                left = holder.child_by_field_name("left") or holder.child_by_field_name("name")
                if left is not None:
                    names = [c for c in left.named_children if c.type == "identifier"] or [left]
                    if names and names[0].type == "identifier":
                        return self.text(names[0])
        return ""

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
                        types[self.text(name) + "()"] = _type_name(self.text(result))
                elif written:
                    types[self.text(name)] = _type_name(written)
        return params, types

    def targets(self, node: Node) -> list[tuple[str, Expr | None, int]]:
        method = _TARGETS.get(node.type)
        return method(self, node) if method is not None else []

    def _list_targets(self, node: Node) -> list[tuple[str, Expr | None, int]]:
        """`a, b := f()`: each name takes its place among the values."""
        items = [c for c in node.named_children if c.type != "comment"]
        parent = node.parent
        if parent is not None and parent.type == "range_clause":
            return self._range_targets(items)
        if len(items) == 1:
            return self.targets(items[0])
        found: list[tuple[str, Expr | None, int]] = []
        for position, item in enumerate(items):
            found.extend(
                (key, None, position) for key, item_key, _ in self.targets(item) if item_key is None
            )
        return found

    def _spec_targets(self, node: Node) -> list[tuple[str, Expr | None, int]]:
        names = node.children_by_field_name("name")
        if len(names) == 1:
            return [(self.text(names[0]), None, -1)]
        return [(self.text(n), None, k) for k, n in enumerate(names)]

    def _name_target(self, node: Node) -> list[tuple[str, Expr | None, int]]:
        text = self.text(node)
        if text == "_":
            return []
        if node.parent is not None and node.parent.type == "literal_element":
            return self._field_target(node, text)
        return [(text, None, -1)]

    def _index_target(self, node: Node) -> list[tuple[str, Expr | None, int]]:
        """`m["k"] = v`: one entry of what `m` holds."""
        operand = node.child_by_field_name("operand")
        key = node.child_by_field_name("index")
        if operand is None or key is None:
            return []
        held = self.targets(operand)
        if len(held) == 1 and held[0][1] is None:
            return [(held[0][0], self.expr(key), -1)]
        return []

    def _inner_target(self, node: Node) -> list[tuple[str, Expr | None, int]]:
        """`*p = v`, `(x) = v`: the name inside."""
        operand = node.child_by_field_name("operand")
        named = [c for c in node.named_children if c.type != "comment"]
        inner = operand if operand is not None else (named[0] if named else None)
        return self.targets(inner) if inner is not None else []

    def _range_targets(self, items: list[Node]) -> list[tuple[str, Expr | None, int]]:
        """`for i, v := range xs` walks (index, item) pairs, `for k, v := range m` (key,
        value) pairs; `for k := range m` the keys alone (see pairs())."""
        return [
            (key, None, position)
            for position, item in enumerate(items[:2])
            for key, _, _ in self.targets(item)
        ]

    def pairs(self, node: Node) -> bool:
        return True  # a range loop's variables are the key (or index) and the value

    def _field_target(self, node: Node, name: str) -> list[tuple[str, Expr | None, int]]:
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
        return [(f"@{_type_name(self.text(kind)).rsplit('.', 1)[-1]}.{name}", None, -1)]

    def _selector_target(self, node: Node) -> list[tuple[str, Expr | None, int]]:
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
                    found.append(_type_name(self.text(written)))
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


def _field_keys(keyed: list[Node]) -> bool:
    """Whether a literal's keys are field names (a struct), not values (a map)."""
    for element in keyed:
        key = element.child_by_field_name("key")
        inner = key.named_children if key is not None else []
        if not inner or inner[0].type != "identifier":
            return False
    return True


def _type_name(written: str) -> str:
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


_EXPRESSIONS = {
    "interpreted_string_literal": GoLowering._interpreted,
    "raw_string_literal": GoLowering._raw,
    "int_literal": GoLowering._number,
    "float_literal": GoLowering._number,
    "identifier": GoLowering._identifier,
    "selector_expression": GoLowering._selector,
    "index_expression": GoLowering._index,
    "binary_expression": GoLowering._binary,
    "unary_expression": GoLowering._unary,
    "parenthesized_expression": GoLowering._operand,
    "type_assertion_expression": GoLowering._operand,
    "type_conversion_expression": GoLowering._operand,
    "expression_list": GoLowering._list,
    "composite_literal": GoLowering._composite,
    "literal_value": GoLowering._literal_value,
    "call_expression": GoLowering._call_expr,
    "slice_type": GoLowering._type,
    "array_type": GoLowering._type,
    "map_type": GoLowering._type,
    "qualified_type": GoLowering._type,
}

_TARGETS = {
    "expression_list": GoLowering._list_targets,
    "var_spec": GoLowering._spec_targets,
    "const_spec": GoLowering._spec_targets,
    "identifier": GoLowering._name_target,
    "selector_expression": GoLowering._selector_target,
    "index_expression": GoLowering._index_target,
    "unary_expression": GoLowering._inner_target,
    "parenthesized_expression": GoLowering._inner_target,
}

LOWERING = GoLowering
