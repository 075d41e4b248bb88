"""JavaScript and TypeScript lowered to the IR: template literals, options objects, destructuring.

One lowering serves the three grammars (javascript with JSX, typescript, tsx):
TypeScript adds types, parameter properties and type assertions, which lower to
what they wrap. Functions and their parameters are lowered in javascript_functions.py,
where a string stands in javascript_context.py.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

from apispec.lint.extract.ir import (
    Arg,
    Attr,
    CallE,
    Concat,
    Cond,
    Expr,
    Function,
    Index,
    Interp,
    ListE,
    Lit,
    Mapping,
    Name,
    Opaque,
    Str,
)
from apispec.lint.extract.lower import MAX_NESTING, Lowering
from apispec.lint.extract.lower import javascript_functions as functions
from apispec.lint.extract.lower.javascript_context import string_context
from apispec.lint.extract.lower.javascript_functions import FUNCTIONS, WRAPPERS, named
from apispec.lint.extract.lower.strings import c_escapes

if TYPE_CHECKING:
    from tree_sitter import Node

_NAMES = frozenset(
    {
        "identifier",
        "shorthand_property_identifier",
        "property_identifier",
        "private_property_identifier",
        "this",
        "super",
    }
)
# what a call's callee is read through: `(f)(x)`, `f!(x)`; TypeScript parses
# `await api.get<T>(x)` as a call of `await api.get`
_CALLEE_WRAPPERS = frozenset(
    {"parenthesized_expression", "non_null_expression", "await_expression"}
)
_MAPPED = frozenset({"map", "flatMap"})


class JavaScriptLowering(Lowering):
    language = "javascript"
    self_names = frozenset({"this"})
    function_types = frozenset(
        {
            "function_declaration",
            "generator_function_declaration",
            "function_expression",
            "function",
            "arrow_function",
            "method_definition",
        }
    )

    def expr(self, node: Node) -> Expr:
        method = _EXPRESSIONS.get(node.type)
        return method(self, node) if method is not None else self.opaque(node)

    # -- names, members, literals ---------------------------------------------------------

    def _name(self, node: Node) -> Expr:
        start, end = self.span(node)
        return Name(self.text(node), start, end)

    def _literal(self, node: Node) -> Expr:
        """A number or a boolean: its text (`25_000` without separators), checkable."""
        start, end = self.span(node)
        return Str((Lit(self.text(node).replace("_", ""), start),), start, end)

    def _member(self, node: Node) -> Expr:
        obj = node.child_by_field_name("object")
        prop = node.child_by_field_name("property")
        start, end = self.span(node)
        if obj is None or prop is None:
            return self.opaque(node)
        return Attr(self.expr(obj), self.text(prop), start, end)

    def _subscript(self, node: Node) -> Expr:
        obj = node.child_by_field_name("object")
        index = node.child_by_field_name("index")
        start, end = self.span(node)
        if obj is None or index is None:
            return self.opaque(node)
        return Index(self.expr(obj), self.expr(index), start, end)

    def _function_value(self, node: Node) -> Expr:
        start, end = self.span(node)
        return Opaque(self.text(node), start, end, "function")

    # -- strings ------------------------------------------------------------------------

    def string(self, node: Node) -> Str:
        start, end = self.span(node)
        raw = self.text(node)[1:-1] if node.end_byte - node.start_byte >= 2 else ""
        return Str((c_escapes(raw, start + 1),), start, end)

    def template(self, node: Node) -> Str:
        """A template literal: its text runs decoded, each `${...}` an expression (one
        interpolation spanning the `${...}` as written, where an unknown value stands)."""
        start, end = self.span(node)
        pieces: list[Lit | Expr] = []
        at = node.start_byte + 1  # after the opening backtick
        for child in node.children:
            if child.type != "template_substitution":
                continue
            if child.start_byte > at:
                pieces.append(self._run(at, child.start_byte))
            inner = list(named(child))
            if inner:
                sub_start, sub_end = self.span(child)
                pieces.append(Interp(self.expr(inner[0]), sub_start, sub_end))
            at = child.end_byte
        close = (
            node.end_byte - 1
            if self.data[node.end_byte - 1 : node.end_byte] == b"`"
            else node.end_byte
        )
        if close > at:
            pieces.append(self._run(at, close))
        return Str(tuple(pieces), start, end)

    def _run(self, start_byte: int, end_byte: int) -> Lit:
        raw = self.data[start_byte:end_byte].decode("utf-8", "surrogatepass")
        return c_escapes(raw, self.char(start_byte))

    # -- operators, objects, arrays ----------------------------------------------------

    def _binary(self, node: Node) -> Expr:
        left = node.child_by_field_name("left")
        right = node.child_by_field_name("right")
        operator = node.child_by_field_name("operator")
        start, end = self.span(node)
        if left is None or right is None or operator is None:
            return self.opaque(node)
        op = self.text(operator)
        if op == "+":  # `a + b + c` nests to the left: walked, not recursed (any length)
            operands = [right]
            while (
                left.type == "binary_expression"
                and (inner := left.child_by_field_name("operator")) is not None
                and self.text(inner) == "+"
                and (first := left.child_by_field_name("left")) is not None
                and (second := left.child_by_field_name("right")) is not None
            ):
                operands.append(second)
                left = first
            operands.append(left)
            parts: list[Expr] = []
            for side in reversed(operands):
                value = self.expr(side)
                parts.extend(value.parts if isinstance(value, Concat) else (value,))
            return Concat(tuple(parts), start, end)
        if op in ("??", "||"):
            return Cond((self.expr(left), self.expr(right)), start, end)
        if op == "&&":
            return self.expr(right)
        return self.opaque(node)

    def _ternary(self, node: Node) -> Expr:
        consequence = node.child_by_field_name("consequence")
        alternative = node.child_by_field_name("alternative")
        start, end = self.span(node)
        if consequence is None or alternative is None:
            return self.opaque(node)
        return Cond((self.expr(consequence), self.expr(alternative)), start, end)

    def _object(self, node: Node) -> Expr:
        start, end = self.span(node)
        items: list[tuple[Expr | None, Expr]] = []
        for child in named(node):
            kind = child.type
            if kind == "pair":
                key = child.child_by_field_name("key")
                value = child.child_by_field_name("value")
                if key is not None and value is not None:
                    items.append((self._key(key), self.expr(value)))
            elif kind == "shorthand_property_identifier":
                key_start, key_end = self.span(child)
                key_text = Str((Lit(self.text(child), key_start),), key_start, key_end)
                items.append((key_text, self.expr(child)))
            elif kind == "spread_element":
                inner = list(named(child))
                if inner:
                    items.append((None, self.expr(inner[0])))
        return Mapping(tuple(items), start, end)

    def _key(self, node: Node) -> Expr:
        """An object key: a bare name or number is its own text, `[expr]` the expression."""
        if node.type == "computed_property_name":
            inner = list(named(node))
            return self.expr(inner[0]) if inner else self.opaque(node)
        if node.type in ("string", "template_string"):
            return self.expr(node)
        start, end = self.span(node)
        return Str((Lit(self.text(node), start),), start, end)

    def _array(self, node: Node) -> Expr:
        start, end = self.span(node)
        return ListE(tuple(self.expr(c) for c in named(node)), start, end)

    def _wrapped(self, node: Node) -> Expr:
        """`(x)`, `await x`, `x as T`, `x satisfies T`, `x!`: the expression; `<T>x`: x."""
        inner = list(named(node))
        if node.type == "type_assertion":
            inner = inner[-1:]
        return self.expr(inner[0]) if inner else self.opaque(node)

    def _last(self, node: Node) -> Expr:
        """`a, b` (a sequence) and `a = b` (an assignment) hold their last part."""
        inner = list(named(node))
        return self.expr(inner[-1]) if inner else self.opaque(node)

    # -- calls ---------------------------------------------------------------------------

    def _call_expr(self, node: Node) -> Expr:
        mapped = self._mapped(node)
        if mapped is not None:
            return mapped
        call = self.call(node)
        return call if call is not None else self.opaque(node)

    def _mapped(self, node: Node) -> Expr | None:
        """`xs.map((x) => `...`)`: two copies of the element show what a join puts between."""
        if node.type != "call_expression":
            return None
        function = node.child_by_field_name("function")
        arguments = node.child_by_field_name("arguments")
        if function is None or arguments is None or function.type != "member_expression":
            return None
        prop = function.child_by_field_name("property")
        if prop is None or self.text(prop) not in _MAPPED:
            return None
        body = functions.mapped_body(arguments)
        if body is None:
            return None
        start, end = self.span(node)
        element = self.expr(body)
        return ListE((element, element), start, end)

    def _callee(self, node: Node) -> tuple[Node | None, Node | None]:
        """The called node and the arguments of a call or `new` expression."""
        is_new = node.type == "new_expression"
        function = node.child_by_field_name("constructor" if is_new else "function")
        while function is not None and function.type in _CALLEE_WRAPPERS:
            inner = list(named(function))
            if not inner:
                break
            function = inner[0]
        return function, node.child_by_field_name("arguments")

    def call_name(self, node: Node) -> str:
        function, _ = self._callee(node)
        if function is None:
            return ""
        if function.type == "member_expression":
            prop = function.child_by_field_name("property")
            return self.text(prop) if prop is not None else ""
        if function.type in _NAMES or function.type == "import":
            return self.text(function)
        return ""

    def call(self, node: Node) -> CallE | None:
        function, arguments = self._callee(node)
        if function is None:
            return None
        start, end = self.span(node)
        receiver: Expr | None = None
        if function.type in _NAMES or function.type == "import":
            callee = self.text(function)
        elif function.type == "member_expression":
            prop = function.child_by_field_name("property")
            obj = function.child_by_field_name("object")
            callee = self.text(prop) if prop is not None else ""
            receiver = self.expr(obj) if obj is not None else None
        else:
            callee = ""
            receiver = self.expr(function)
        return CallE(callee, receiver, None, start, end, node.id, self._arguments_of(arguments))

    def _arguments_of(self, node: Node | None) -> Callable[[], tuple[Arg, ...]]:
        def lower() -> tuple[Arg, ...]:
            return self.arguments(node) if node is not None else ()

        return lower

    def arguments(self, node: Node) -> tuple[Arg, ...]:
        if node.type == "template_string":  # a tagged template: tag`...`
            return (Arg(self.template(node)),)
        args: list[Arg] = []
        for child in named(node):
            if child.type == "spread_element":
                inner = list(named(child))
                if inner:
                    args.append(Arg(self.expr(inner[0]), None, "*"))
            else:
                args.append(Arg(self.expr(child)))
        return tuple(args)

    # -- functions, assignments, imports, classes ---------------------------------------

    def function(self, node: Node) -> Function | None:
        return functions.function(self, node)

    def targets(self, node: Node) -> list[tuple[str, Expr | None, int | str]]:
        return functions.targets(self, node)

    def imports(self, node: Node) -> Iterator[tuple[str, str]]:
        return functions.imports(self, node)

    def class_bases(self, node: Node) -> tuple[str, ...]:
        found: list[str] = []
        for child in named(node):
            if child.type != "class_heritage":
                continue
            for part in named(child):
                if part.type == "extends_clause":
                    value = part.child_by_field_name("value")
                    if value is not None:
                        found.append(self.text(value))
                elif part.type != "implements_clause":
                    found.append(self.text(part))
        return tuple(found)

    def string_root(self, node: Node) -> Node:
        """The concatenation a literal is part of (`base + "/x?" + query`)."""
        root = node
        parent = node.parent
        steps = 0  # climbing a tree costs its depth at each step: a bounded climb
        while (
            parent is not None
            and steps < MAX_NESTING
            and (
                parent.type == "parenthesized_expression"
                or (
                    parent.type == "binary_expression"
                    and (operator := parent.child_by_field_name("operator")) is not None
                    and self.text(operator) == "+"
                )
            )
        ):
            root, parent = parent, parent.parent
            steps += 1
        return root

    def string_context(self, node: Node) -> str:
        return string_context(self, node)


_EXPRESSIONS: dict[str, Callable[[JavaScriptLowering, Node], Expr]] = {
    "string": JavaScriptLowering.string,
    "template_string": JavaScriptLowering.template,
    **dict.fromkeys(_NAMES, JavaScriptLowering._name),
    **dict.fromkeys(("number", "true", "false"), JavaScriptLowering._literal),
    "member_expression": JavaScriptLowering._member,
    "subscript_expression": JavaScriptLowering._subscript,
    "call_expression": JavaScriptLowering._call_expr,
    "new_expression": JavaScriptLowering._call_expr,
    "binary_expression": JavaScriptLowering._binary,
    "ternary_expression": JavaScriptLowering._ternary,
    "object": JavaScriptLowering._object,
    "array": JavaScriptLowering._array,
    **dict.fromkeys(WRAPPERS, JavaScriptLowering._wrapped),
    "sequence_expression": JavaScriptLowering._last,
    "assignment_expression": JavaScriptLowering._last,
    **dict.fromkeys(FUNCTIONS, JavaScriptLowering._function_value),
}

LOWERING = JavaScriptLowering
