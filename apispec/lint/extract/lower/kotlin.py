"""Kotlin lowered to the IR: string templates, trailing lambdas, properties, constructors.

A class's primary constructor is a function named `<init>` that spans the class, so
its parameters are in scope where properties are initialised (`val api =
"https://$host:1616/api/v2"`); a property of a class, and a `val` constructor
parameter, is a field of its objects. A trailing lambda is the call's last argument (a
function value: a Ktor request block, a `uri { it.path(...) }` builder). A capitalised
callee constructs its class.
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
    Cond,
    Expr,
    Format,
    FuncE,
    Function,
    Index,
    Interp,
    ListE,
    Lit,
    Name,
    Params,
    Str,
)
from apispec.lint.extract.lower import Lowering
from apispec.lint.extract.lower import kotlin_nodes as nodes
from apispec.lint.extract.lower.java import CONSTRUCTOR
from apispec.lint.extract.lower.java_nodes import setter_name
from apispec.lint.extract.lower.strings import c_escapes, merged, plain

if TYPE_CHECKING:
    from tree_sitter import Node

_TEMPLATE = re.compile(r"\$([A-Za-z_][A-Za-z0-9_]*)")
_LITERALS = {"true": "true", "false": "false"}


class KotlinLowering(Lowering):
    language = "kotlin"
    self_names = frozenset({"this"})
    function_types = frozenset(
        {
            "function_declaration",
            "anonymous_function",
            "lambda_literal",
            "secondary_constructor",
            "class_declaration",
        }
    )

    def expr(self, node: Node) -> Expr:
        method = _EXPRESSIONS.get(node.type)
        return method(self, node) if method is not None else self.opaque(node)

    # -- expressions ------------------------------------------------------------------

    def _identifier(self, node: Node) -> Expr:
        start, end = self.span(node)
        text = self.text(node)
        if text in _LITERALS:
            return Str((Lit(text, start),), start, end)
        if text == "null":
            return self.opaque(node)
        return Name(text, start, end)

    def _number(self, node: Node) -> Expr:
        start, end = self.span(node)
        text = self.text(node).replace("_", "").rstrip("lLuUfF")
        return Str((Lit(text, start),), start, end)

    def _this(self, node: Node) -> Expr:
        start, end = self.span(node)
        return Name("this", start, end)

    def _navigation(self, node: Node) -> Expr:
        parts = nodes.named(node)
        if len(parts) < 2 or parts[-1].type != "identifier":
            return self.opaque(node)
        start, end = self.span(node)
        return Attr(self.expr(parts[0]), self.text(parts[-1]), start, end)

    def _binary(self, node: Node) -> Expr:
        left = node.child_by_field_name("left")
        right = node.child_by_field_name("right")
        operator = node.child_by_field_name("operator")
        if left is None or right is None or operator is None:
            return self.opaque(node)
        start, end = self.span(node)
        op = self.text(operator)
        if op == "?:":
            return Cond((self.expr(left), self.expr(right)), start, end)
        if op != "+":
            return self.opaque(node)
        parts: list[Expr] = []
        for side in (left, right):
            value = self.expr(side)
            parts.extend(value.parts if isinstance(value, Concat) else (value,))
        return Concat(tuple(parts), start, end)

    def _branches(self, node: Node) -> Expr:
        """`if (c) a else b`, `when (x) { A -> a; else -> b }`: either branch's value."""
        found: list[Expr] = []
        for branch in nodes.branches(node):
            found.append(self.expr(branch))
        if not found:
            return self.opaque(node)
        start, end = self.span(node)
        return Cond(tuple(found), start, end) if len(found) > 1 else found[0]

    def _inner(self, node: Node) -> Expr:
        """Brackets, `x as T`, `x!!`: the expression inside."""
        inner = node.child_by_field_name("left") or node.child_by_field_name("argument")
        if (
            node.type == "unary_expression"
            and (operator := node.child_by_field_name("operator")) is not None
            and self.text(operator) != "!!"
        ):
            return self.opaque(node)
        if inner is None:
            parts = nodes.named(node)
            inner = parts[0] if parts else None
        return self.expr(inner) if inner is not None else self.opaque(node)

    def _index(self, node: Node) -> Expr:
        parts = nodes.named(node)
        if len(parts) < 2:
            return self.opaque(node)
        start, end = self.span(node)
        return Index(self.expr(parts[0]), self.expr(parts[1]), start, end)

    def _infix(self, node: Node) -> Expr:
        """`"filter" to value`: a pair."""
        parts = nodes.named(node)
        if len(parts) != 3 or self.text(parts[1]) != "to":
            return self.opaque(node)
        start, end = self.span(node)
        return ListE((self.expr(parts[0]), self.expr(parts[2])), start, end)

    def _sequence(self, node: Node) -> Expr:
        start, end = self.span(node)
        return ListE(tuple(self.expr(c) for c in nodes.named(node)), start, end)

    def _function_value(self, node: Node) -> Expr:
        lambda_node = nodes.lambda_of(node)
        start, end = self.span(node)
        return FuncE(lambda_node.id if lambda_node is not None else node.id, start, end)

    def string(self, node: Node) -> Expr:
        """A string template: `$name` and `${expr}` are interpolations, `\\$` a dollar."""
        start, end = self.span(node)
        raw = node.type == "multiline_string_literal"
        pieces: list[Lit | Expr] = []
        run: list[Node] = []
        for child in node.children:
            if child.type == "string_content" and (not run or run[-1].end_byte == child.start_byte):
                run.append(child)
                continue
            pieces.extend(self._run(run, raw))
            run = [child] if child.type == "string_content" else []
            if child.type == "escape_sequence":
                pieces.append(c_escapes(self.text(child), self.char(child.start_byte)))
            elif child.type == "interpolation":
                inner = nodes.named(child)
                at, until = self.span(child)
                if inner:
                    pieces.append(Interp(self.expr(inner[0]), at, until))
        pieces.extend(self._run(run, raw))
        return Str(merged(pieces), start, end, template=True)

    def _run(self, run: list[Node], raw: bool) -> list[Lit | Expr]:
        """Adjacent content of a string: literal text with `$name` interpolations in it."""
        if not run:
            return []
        text = self.data[run[0].start_byte : run[-1].end_byte].decode("utf-8", "surrogatepass")
        at = self.char(run[0].start_byte)
        found: list[Lit | Expr] = []
        done = 0
        for m in _TEMPLATE.finditer(text):
            if m.start() > done:
                found.append(self._literal(text[done : m.start()], at + done, raw))
            name = Name(m.group(1), at + m.start(1), at + m.end(1))
            found.append(Interp(name, at + m.start(), at + m.end()))
            done = m.end()
        if done < len(text):
            found.append(self._literal(text[done:], at + done, raw))
        return found

    def _literal(self, text: str, at: int, raw: bool) -> Lit:
        return plain(text, at) if raw else c_escapes(text, at)

    def _call_expr(self, node: Node) -> Expr:
        function, arguments, lambdas = nodes.call_parts(node)
        start, end = self.span(node)
        name = nodes.member_name(self, function)
        receiver_node = nodes.receiver_of(function)
        if name == "format" and receiver_node is not None and arguments is not None:
            return Format(self.expr(receiver_node), self.arguments(arguments), "printf", start, end)
        body = nodes.mapped_body(lambdas) if name == "map" else None
        if body is not None and receiver_node is not None:  # `items.map { "\"$it\"" }`
            element = self.expr(body)
            return ListE((element, element), start, end)
        if name == "joinToString" and receiver_node is not None and lambdas:
            body = nodes.mapped_body(lambdas)  # `joinToString(" and ") { "\"$it\"" }`
            if body is not None:
                element = self.expr(body)
                items = ListE((element, element), start, end)
                args = self.arguments(arguments) if arguments is not None else ()
                return CallE(name, items, args, start, end, node.id)
        call = self.call(node, inner=True)
        return call if call is not None else self.opaque(node)

    # -- calls --------------------------------------------------------------------------

    def call(self, node: Node, inner: bool = False) -> CallE | None:
        start, end = self.span(node)
        if node.type == "annotation":
            return self._annotation(node, start, end)
        if node.type == "assignment":  # `conn.requestMethod = "POST"`: its setter
            left = node.child_by_field_name("left")
            right = node.child_by_field_name("right")
            parts = nodes.named(left) if left is not None else []
            if len(parts) != 2 or right is None:
                return None
            setter = setter_name(self.text(parts[1]))
            return CallE(setter, self.expr(parts[0]), (Arg(self.expr(right)),), start, end, node.id)
        if node.type == "binary_expression":  # `client.get<String>(url)`, misread
            return self._typed_call(node, start, end)
        if not inner and nodes.held_by_lambda_call(node):
            return None  # `client.get("x")` of `client.get("x") { ... }`: the outer call
        function, arguments, lambdas = nodes.call_parts(node)
        name = nodes.member_name(self, function)
        receiver_node = nodes.receiver_of(function)
        receiver = self.expr(receiver_node) if receiver_node is not None else None
        if not name:
            receiver = self.expr(function)
        new = name[:1].isupper()  # `Request.Builder()`, `OkHttpClient()`: a constructor

        def lowered() -> tuple[Arg, ...]:
            args = self.arguments(arguments) if arguments is not None else ()
            return args + tuple(Arg(self._function_value(n)) for n in lambdas)

        return CallE(name, receiver, None, start, end, node.id, lowered, new)

    def _typed_call(self, node: Node, start: int, end: int) -> CallE | None:
        """`client.get<String>(url)`: the grammar reads `(client.get < String) > (url)`;
        the function is the navigation, the bracketed expression its one argument."""
        compared, argument = node.named_children[0], node.named_children[-1]
        function = compared.named_children[0] if compared.named_children else None
        inside = argument.named_children
        if function is None or len(inside) != 1:
            return None
        name = nodes.member_name(self, function)
        receiver_node = nodes.receiver_of(function)
        if not name or receiver_node is None:
            return None
        args = (Arg(self.expr(inside[0])),)
        return CallE(name, self.expr(receiver_node), args, start, end, node.id)

    def _annotation(self, node: Node, start: int, end: int) -> CallE | None:
        if nodes.annotation_role(self, node) != "request":
            return None
        invocation = next(
            (c for c in node.named_children if c.type == "constructor_invocation"), None
        )
        if invocation is None:
            return None
        name = nodes.type_name(self, invocation)
        arguments = next(
            (c for c in invocation.named_children if c.type == "value_arguments"), None
        )
        if arguments is None:
            return CallE(name, None, (), start, end, node.id)
        return CallE(name, None, None, start, end, node.id, lambda: self.arguments(arguments))

    def call_name(self, node: Node) -> str:
        if node.type == "assignment":
            left = node.child_by_field_name("left")
            parts = nodes.named(left) if left is not None else []
            return setter_name(self.text(parts[-1])) if len(parts) == 2 else ""
        if node.type == "annotation":
            if nodes.annotation_role(self, node) != "request":
                return ""
            invocation = next(
                (c for c in node.named_children if c.type == "constructor_invocation"), None
            )
            return nodes.type_name(self, invocation) if invocation is not None else ""
        if node.type == "binary_expression":  # `client.get<String>(url)`
            compared = node.named_children[0]
            return nodes.member_name(self, compared.named_children[0])
        if nodes.held_by_lambda_call(node):
            return ""
        function, _, _ = nodes.call_parts(node)
        return nodes.member_name(self, function)

    def arguments(self, node: Node) -> tuple[Arg, ...]:
        args: list[Arg] = []
        for child in nodes.named(node):
            if child.type != "value_argument":
                continue
            parts = nodes.named(child)
            if not parts:
                continue
            keyword = (
                len(parts) >= 2
                and parts[0].type == "identifier"
                and any(c.type == "=" for c in child.children)
            )
            value = parts[-1]
            if value.type == "spread_expression":
                inner = nodes.named(value)
                if inner:
                    args.append(Arg(self.expr(inner[0]), None, "*"))
                continue
            args.append(Arg(self.expr(value), self.text(parts[0]) if keyword else None))
        return tuple(args)

    def chain_top(self, node: Node) -> Node:
        while True:
            parent = node.parent
            if parent is None:
                return node
            if parent.type == "call_expression" and nodes.held_by_lambda_call(node):
                node = parent
                continue
            grand = parent.parent
            if (
                parent.type == "navigation_expression"
                and nodes.named(parent)[0].id == node.id
                and grand is not None
                and grand.type == "call_expression"
                and nodes.named(grand)[0].id == parent.id
            ):
                node = grand
                continue
            return node

    # -- functions ------------------------------------------------------------------------

    def function(self, node: Node) -> Function | None:
        start, end = self.span(node)
        kind = node.type
        if kind == "lambda_literal":
            return Function(
                node.id, "", start, end, lambda: self._lambda(node), lambda: self._last(node)
            )
        if kind in ("class_declaration", "secondary_constructor"):
            return Function(node.id, CONSTRUCTOR, start, end, lambda: nodes.parameters(self, node))
        name = node.child_by_field_name("name")
        exported = not nodes.private(self, node)
        return Function(
            node.id,
            self.text(name) if name is not None else "",
            start,
            end,
            lambda: nodes.parameters(self, node),
            lambda: self._gives(node),
            exported=exported,
        )

    def _lambda(self, node: Node) -> tuple[Params, dict[str, str]]:
        return [(name, "", None) for name, _, _ in self.targets(node)], {}

    def _last(self, node: Node) -> list[Callable[[], Expr]]:
        """A lambda's value: its last expression."""
        body = [c for c in nodes.named(node) if c.type != "lambda_parameters"]
        return [self.lazy(body[-1])] if body else []

    def _gives(self, node: Node) -> list[Callable[[], Expr]]:
        """What a function returns: its `= expression` body, or its `return`s."""
        body = next((c for c in node.named_children if c.type == "function_body"), None)
        if body is not None and any(c.type == "=" for c in body.children):
            inner = nodes.named(body)
            return [self.lazy(inner[0])] if inner else []
        return [self.lazy(n) for n in self.returned(node)]

    # -- statements -----------------------------------------------------------------------

    def targets(self, node: Node) -> list[tuple[str, Expr | None, int | str]]:
        kind = node.type
        if kind == "lambda_literal":
            declared = next((c for c in node.named_children if c.type == "lambda_parameters"), None)
            if declared is None:
                return [("it", None, -1)]
            found: list[tuple[str, Expr | None, int | str]] = []
            for child in nodes.named(declared):
                found.extend(self.targets(child))
            return found
        if kind == "variable_declaration":
            names = [c for c in node.named_children if c.type == "identifier"]
            if not names:
                return []
            name = self.text(names[0])
            return [("@" + name if nodes.member(node) else name, None, -1)]
        if kind == "multi_variable_declaration":
            return [
                (key, None, index)
                for index, child in enumerate(nodes.named(node))
                for key, _, _ in self.targets(child)
            ]
        if kind == "identifier":
            name = self.text(node)
            if nodes.is_field(self, node):
                return [("@" + name, None, -1)]
            return [(name, None, -1)]
        if kind == "navigation_expression":
            parts = nodes.named(node)
            if len(parts) == 2 and parts[0].type == "this_expression":
                return [("@" + self.text(parts[1]), None, -1)]
            return [(self.text(node), None, -1)]
        if kind == "index_expression":
            parts = nodes.named(node)
            if len(parts) == 2:
                inner = self.targets(parts[0])
                if len(inner) == 1 and inner[0][1] is None:
                    return [(inner[0][0], self.expr(parts[1]), -1)]
        return []

    def imports(self, node: Node) -> Iterator[tuple[str, str]]:
        if any(c.type == "*" for c in node.children):
            return
        path = next((c for c in node.named_children if c.type == "qualified_identifier"), None)
        if path is None:
            return
        alias = [c for c in node.named_children if c.type == "identifier"]
        written = self.text(path)
        yield (self.text(alias[-1]) if alias else written.rsplit(".", 1)[-1]), written

    def class_bases(self, node: Node) -> tuple[str, ...]:
        found: list[str] = []
        for child in node.named_children:
            if child.type == "delegation_specifiers":
                for specifier in nodes.named(child):
                    found.append(nodes.type_name(self, specifier))
        return tuple(name for name in found if name)

    # -- literals' places -------------------------------------------------------------

    def string_root(self, node: Node) -> Node:
        root = node
        parent = node.parent
        while parent is not None and parent.type in (
            "binary_expression",
            "parenthesized_expression",
        ):
            operator = parent.child_by_field_name("operator")
            if parent.type == "binary_expression" and (
                operator is None or self.text(operator) != "+"
            ):
                break
            root, parent = parent, parent.parent
        return root

    def string_context(self, node: Node) -> str:
        return nodes.context(self, node)


_EXPRESSIONS: dict[str, Callable[[KotlinLowering, Node], Expr]] = {
    "string_literal": KotlinLowering.string,
    "multiline_string_literal": KotlinLowering.string,
    "identifier": KotlinLowering._identifier,
    "number_literal": KotlinLowering._number,
    "this_expression": KotlinLowering._this,
    "navigation_expression": KotlinLowering._navigation,
    "call_expression": KotlinLowering._call_expr,
    "binary_expression": KotlinLowering._binary,
    "if_expression": KotlinLowering._branches,
    "when_expression": KotlinLowering._branches,
    "parenthesized_expression": KotlinLowering._inner,
    "as_expression": KotlinLowering._inner,
    "unary_expression": KotlinLowering._inner,
    "index_expression": KotlinLowering._index,
    "infix_expression": KotlinLowering._infix,
    "collection_literal": KotlinLowering._sequence,
    "lambda_literal": KotlinLowering._function_value,
    "annotated_lambda": KotlinLowering._function_value,
}

LOWERING = KotlinLowering
