"""Go lowered to the IR: expressions, calls and functions (places: go_places.py).

Interpreted and raw strings; `&x` and `*x` followed to `x`; a struct literal
(`&Client{base: b}`) is a construction of its type with its fields as keywords, a
map or `url.Values` literal a mapping, a slice literal a list; `return out, err` is a
list its callers unpack; a declared container's zero value is empty; generic calls
(`send[T](...)`); a method's receiver and its type (the owner).
"""

from __future__ import annotations

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
    Mapping,
    Name,
    Params,
    Str,
)
from apispec.lint.extract.lower.go_places import GoPlaces, type_name
from apispec.lint.extract.lower.strings import c_escapes, plain

if TYPE_CHECKING:
    from tree_sitter import Node

_FUNCTIONS = ("function_declaration", "method_declaration", "func_literal")


class GoLowering(GoPlaces):
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
                owner = type_name(self.text(kind)) if kind is not None else None
            owner = owner.rsplit(".", 1)[-1] if owner else owner
        exported = node.type != "func_literal"
        function = Function(
            node.id,
            name,
            start,
            end,
            lambda: self._signature(node),
            lambda: [self.lazy(n) for n in self.returned(node)],
            owner,
            exported,
        )
        function.receiver = receiver
        return function

    def _signature(self, node: Node) -> tuple[Params, dict[str, str]]:
        params_node = node.child_by_field_name("parameters")
        return self._params(params_node) if params_node is not None else ([], {})

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


def _field_keys(keyed: list[Node]) -> bool:
    """Whether a literal's keys are field names (a struct), not values (a map)."""
    for element in keyed:
        key = element.child_by_field_name("key")
        inner = key.named_children if key is not None else []
        if not inner or inner[0].type != "identifier":
            return False
    return True


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

LOWERING = GoLowering
