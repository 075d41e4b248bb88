"""Swift lowered to the IR: labelled arguments, `\\(...)` interpolation, `??`, `!` and `?`.

An argument's label is its keyword (`URLRequest(url: u)`, `setValue(v,
forHTTPHeaderField: k)`); a call's trailing closure is one more argument. `x!`,
`x?`, `try x` and `await x` are `x`; `a ?? b` is either. An implicit member
(`.post`, `.shared`) is its name as text, as a method argument reads it. A
struct's or class's stored property with a default is a field of its objects.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

from apispec.lint.extract.ir import (
    Arg,
    Attr,
    CallE,
    Cond,
    Expr,
    Function,
    Index,
    ListE,
    Lit,
    Mapping,
    Params,
    Str,
)
from apispec.lint.extract.lower import Lowering
from apispec.lint.extract.lower.strings import c_escapes

if TYPE_CHECKING:
    from tree_sitter import Node

_SKIP = frozenset({"comment", "multiline_comment"})
# where a literal stands inside what decides its context (`a == "x" || b`, `case "x":`)
_CLIMB = frozenset(
    {
        "value_argument",
        "value_arguments",
        "disjunction_expression",
        "conjunction_expression",
        "pattern",
        "tuple_expression",
    }
)


class SwiftLowering(Lowering):
    language = "swift"
    self_names = frozenset({"self"})
    function_types = frozenset({"function_declaration", "init_declaration", "lambda_literal"})

    def expr(self, node: Node) -> Expr:
        method = _EXPRESSIONS.get(node.type)
        return method(self, node) if method is not None else self.opaque(node)

    def _string(self, node: Node) -> Expr:
        start, end = self.span(node)
        pieces: list[Lit | Expr] = []
        for child in node.named_children:
            kind = child.type
            if kind in ("line_str_text", "multi_line_str_text"):
                raw = node.type == "raw_string_literal"
                at = self.char(child.start_byte)
                text = self.text(child)
                pieces.append(Lit(text, at) if raw else c_escapes(text, at))
            elif kind == "str_escaped_char":
                pieces.append(c_escapes(self.text(child), self.char(child.start_byte)))
            elif kind == "interpolated_expression":
                value = child.child_by_field_name("value")
                if value is not None:
                    pieces.append(self.expr(value))
        return Str(tuple(pieces), start, end)

    def _inner(self, node: Node) -> Expr:
        """`x!`, `x?`, `try x`, `await x`, `(x)`: the value of `x`."""
        target = node.child_by_field_name("target") or node.child_by_field_name("expr")
        if target is None:
            named = [c for c in node.named_children if c.type not in _SKIP]
            target = named[-1] if named else None
        if target is None or (node.type == "postfix_expression" and target.id == node.id):
            return self.opaque(node)
        return self.expr(target)

    def _prefix(self, node: Node) -> Expr:
        """`.post`, `.shared`: an implicit member, its name; `-x`, `!x`: `x`."""
        target = node.child_by_field_name("target")
        if target is None:
            return self.opaque(node)
        if self.text(node).startswith(".") and target.type == "simple_identifier":
            start, end = self.span(target)
            return Str((Lit(self.text(target), start),), start, end)
        return self.expr(target)

    def _navigation(self, node: Node) -> Expr:
        target = node.child_by_field_name("target")
        suffix = node.child_by_field_name("suffix")
        name = suffix.child_by_field_name("suffix") if suffix is not None else None
        start, end = self.span(node)
        if target is None or name is None:
            return self.opaque(node)
        return Attr(self.expr(target), self.text(name), start, end)

    def _additive(self, node: Node) -> Expr:
        left = node.child_by_field_name("lhs")
        right = node.child_by_field_name("rhs")
        operator = node.child_by_field_name("op")
        start, end = self.span(node)
        if left is None or right is None:
            return self.opaque(node)
        if operator is not None and self.text(operator) != "+":
            return self.opaque(node)
        return self.concatenated((left, right), start, end)

    def _either(self, node: Node) -> Expr:
        """`a ?? b`, `c ? a : b`: either value."""
        start, end = self.span(node)
        found = [
            self.expr(side)
            for field in ("value", "if_nil", "if_true", "if_false")
            if (side := node.child_by_field_name(field)) is not None
        ]
        return Cond(tuple(found), start, end) if found else self.opaque(node)

    def _array(self, node: Node) -> Expr:
        start, end = self.span(node)
        return ListE(
            tuple(self.expr(c) for c in node.children_by_field_name("element")), start, end
        )

    def _dictionary(self, node: Node) -> Expr:
        start, end = self.span(node)
        keys = node.children_by_field_name("key")
        values = node.children_by_field_name("value")
        items: list[tuple[Expr | None, Expr]] = [
            (self.expr(k), self.expr(v)) for k, v in zip(keys, values, strict=False)
        ]
        return Mapping(tuple(items), start, end)

    def _subscript(self, node: Node) -> Expr:
        """`env["PRTG_URL"]`: an index."""
        named = [c for c in node.named_children if c.type not in _SKIP]
        start, end = self.span(node)
        if len(named) < 2:
            return self.opaque(node)
        keys = [c for c in named[1].named_children if c.type == "value_argument"]
        value = keys[0].child_by_field_name("value") if keys else None
        if value is None:
            return self.opaque(node)
        return Index(self.expr(named[0]), self.expr(value), start, end)

    def _call_expr(self, node: Node) -> Expr:
        call = self.call(node)
        return call if call is not None else self.opaque(node)

    def _lambda(self, node: Node) -> Expr:
        """A closure as a value: its last statement's."""
        statements = next((c for c in node.named_children if c.type == "statements"), None)
        named = [c for c in statements.named_children] if statements is not None else []
        return self.expr(named[-1]) if named else self.opaque(node)

    # -- calls ------------------------------------------------------------------

    def call(self, node: Node) -> CallE | None:
        named = [c for c in node.named_children if c.type not in _SKIP]
        if len(named) < 2 or named[-1].type != "call_suffix":
            return None
        function, suffix = named[0], named[-1]
        start, end = self.span(node)
        receiver: Expr | None = None
        if function.type == "simple_identifier":
            callee = self.text(function)
        elif function.type == "navigation_expression":
            target = function.child_by_field_name("target")
            navigation = function.child_by_field_name("suffix")
            name = navigation.child_by_field_name("suffix") if navigation is not None else None
            callee = self.text(name) if name is not None else ""
            receiver = self.expr(target) if target is not None else None
        else:
            callee = ""
            receiver = self.expr(function)
        return CallE(callee, receiver, None, start, end, node.id, lambda: self.arguments(suffix))

    def call_name(self, node: Node) -> str:
        named = [c for c in node.named_children if c.type not in _SKIP]
        if not named:
            return ""
        function = named[0]
        if function.type == "simple_identifier":
            return self.text(function)
        if function.type == "navigation_expression":
            navigation = function.child_by_field_name("suffix")
            name = navigation.child_by_field_name("suffix") if navigation is not None else None
            return self.text(name) if name is not None else ""
        return ""

    def arguments(self, suffix: Node) -> tuple[Arg, ...]:
        args: list[Arg] = []
        for part in suffix.named_children:
            if part.type == "lambda_literal":  # a trailing closure
                args.append(Arg(self.expr(part)))
                continue
            if part.type != "value_arguments":
                continue
            for child in part.named_children:
                if child.type != "value_argument":
                    continue
                value = child.child_by_field_name("value")
                label = child.child_by_field_name("name")
                if value is None:
                    continue
                args.append(Arg(self.expr(value), self.text(label) if label else None))
        return tuple(args)

    # -- functions --------------------------------------------------------------

    def function(self, node: Node) -> Function | None:
        start, end = self.span(node)
        if node.type == "lambda_literal":
            return Function(node.id, "", start, end, lambda: ([], {}), lambda: [])
        if node.type == "init_declaration":
            name = "init"
        else:
            name_node = node.child_by_field_name("name")
            if name_node is None:
                return None
            name = self.text(name_node)
        return Function(
            node.id,
            name,
            start,
            end,
            lambda: self._signature(node),
            lambda: [self.lazy(n) for n in self.returned(node)],
        )

    def _signature(self, node: Node) -> tuple[Params, dict[str, str]]:
        """Parameters by their inner name (`_ path: String`, `query q: [String: String]`);
        a caller's label is the outer name, or the inner one when there is none."""
        params: Params = []
        types: dict[str, str] = {}
        children = list(node.children)
        for k, child in enumerate(children):
            if child.type != "parameter":
                continue
            inner = child.child_by_field_name("name")
            if inner is None:
                continue
            name = self.text(inner)
            default = None
            if k + 2 < len(children) and children[k + 1].type == "=":
                default = self.expr(children[k + 2])
            params.append((name, "", default))
            written = [c for c in child.named_children if c.type == "user_type"]
            if written:
                types[name] = self.text(written[0])
        return params, types

    # -- statements -------------------------------------------------------------

    def targets(self, node: Node) -> list[tuple[str, Expr | None, int | str]]:
        kind = node.type
        if kind == "pattern":
            bound = node.child_by_field_name("bound_identifier")
            if bound is not None:
                return [(self.text(bound), None, -1)]
            found: list[tuple[str, Expr | None, int | str]] = []
            for index, child in enumerate(c for c in node.named_children if c.type == "pattern"):
                for key, item, _ in self.targets(child):
                    if item is None:
                        found.append((key, None, index))
            return found
        if kind == "simple_identifier":
            return [(self.text(node), None, -1)]
        if kind == "directly_assignable_expression":
            named = [c for c in node.named_children if c.type not in _SKIP]
            return self.targets(named[0]) if named else []
        if kind == "navigation_expression":
            target = node.child_by_field_name("target")
            navigation = node.child_by_field_name("suffix")
            name = navigation.child_by_field_name("suffix") if navigation is not None else None
            if target is None or name is None:
                return []
            if target.type == "self_expression":
                return [("@" + self.text(name), None, -1)]
            return [(self.text(node), None, -1)]
        return []

    def imports(self, node: Node) -> Iterator[tuple[str, str]]:
        named = [c for c in node.named_children if c.type == "identifier"]
        if named:
            module = self.text(named[0])
            yield module, module

    def string_context(self, node: Node) -> str:
        parent = node.parent
        while parent is not None and parent.type in _CLIMB:
            parent = parent.parent
        if parent is None:
            return "value"
        kind = parent.type
        if kind in ("equality_expression", "switch_pattern", "switch_entry"):
            return "compare"
        return "value"

    def class_bases(self, node: Node) -> tuple[str, ...]:
        return tuple(
            self.text(c).split(":")[-1].strip()
            for c in node.named_children
            if c.type == "inheritance_specifier"
        )


_Method = Callable[[SwiftLowering, "Node"], Expr]
_EXPRESSIONS: dict[str, _Method] = {
    "simple_identifier": SwiftLowering._identifier,
    "self_expression": SwiftLowering._identifier,
    "line_string_literal": SwiftLowering._string,
    "multi_line_string_literal": SwiftLowering._string,
    "raw_string_literal": SwiftLowering._string,
    "integer_literal": SwiftLowering._number,
    "real_literal": SwiftLowering._number,
    "boolean_literal": SwiftLowering._number,
    "postfix_expression": SwiftLowering._inner,
    "try_expression": SwiftLowering._inner,
    "await_expression": SwiftLowering._inner,
    "tuple_expression": SwiftLowering._inner,
    "prefix_expression": SwiftLowering._prefix,
    "navigation_expression": SwiftLowering._navigation,
    "additive_expression": SwiftLowering._additive,
    "nil_coalescing_expression": SwiftLowering._either,
    "ternary_expression": SwiftLowering._either,
    "array_literal": SwiftLowering._array,
    "dictionary_literal": SwiftLowering._dictionary,
    "call_expression": SwiftLowering._call_expr,
    "lambda_literal": SwiftLowering._lambda,
}

LOWERING = SwiftLowering
