"""Python lowered to the IR: f-strings, `%` and `.format`, keyword arguments, methods."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from apispec.lint.extract.ir import (
    Arg,
    Attr,
    CallE,
    Concat,
    Cond,
    Expr,
    Format,
    Function,
    Index,
    Interp,
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

_SKIP = frozenset({"comment", "(", ")", ",", "[", "]", "{", "}", ":"})


class PythonLowering(Lowering):
    language = "python"
    self_names = frozenset({"self", "cls"})
    function_types = frozenset({"function_definition", "lambda"})
    call_types = frozenset({"call"})

    def expr(self, node: Node) -> Expr:
        method = _EXPRESSIONS.get(node.type)
        return method(self, node) if method is not None else self.opaque(node)

    def _concatenated(self, node: Node) -> Expr:
        start, end = self.span(node)
        return Concat(
            tuple(self.string(c) for c in node.named_children if c.type == "string"), start, end
        )

    def _attribute(self, node: Node) -> Expr:
        obj = node.child_by_field_name("object")
        attr = node.child_by_field_name("attribute")
        start, end = self.span(node)
        if obj is None or attr is None:
            return self.opaque(node)
        return Attr(self.expr(obj), self.text(attr), start, end)

    def _subscript(self, node: Node) -> Expr:
        value = node.child_by_field_name("value")
        key = node.child_by_field_name("subscript")
        start, end = self.span(node)
        if value is None or key is None:
            return self.opaque(node)
        return Index(self.expr(value), self.expr(key), start, end)

    def _sequence(self, node: Node) -> Expr:
        start, end = self.span(node)
        items = tuple(self.expr(c) for c in node.named_children if c.type != "comment")
        return ListE(items, start, end)

    def _comprehension(self, node: Node) -> Expr:
        body = node.child_by_field_name("body")
        start, end = self.span(node)
        if body is None:
            return self.opaque(node)
        element = self.expr(body)  # two copies: what a join puts between elements shows
        return ListE((element, element), start, end)

    def _conditional(self, node: Node) -> Expr:
        named = [c for c in node.named_children if c.type != "comment"]
        start, end = self.span(node)
        if len(named) == 3:
            return Cond((self.expr(named[0]), self.expr(named[2])), start, end)
        return self.opaque(node)

    def _boolean(self, node: Node) -> Expr:
        left = node.child_by_field_name("left")
        right = node.child_by_field_name("right")
        operator = node.child_by_field_name("operator")
        start, end = self.span(node)
        if left is None or right is None:
            return self.opaque(node)
        if operator is not None and self.text(operator) == "or":
            return Cond((self.expr(left), self.expr(right)), start, end)
        return self.expr(right)

    def _parenthesized(self, node: Node) -> Expr:
        inner = [c for c in node.named_children if c.type != "comment"]
        return self.expr(inner[0]) if len(inner) == 1 else self.opaque(node)

    def string(self, node: Node) -> Str:
        start, end = self.span(node)
        prefix = ""
        pieces: list[Lit | Expr] = []
        for child in node.children:
            kind = child.type
            if kind == "string_start":
                prefix = self.text(child).lower()
            elif kind == "string_content":
                raw = self.text(child)
                at = self.char(child.start_byte)
                if "r" in prefix:
                    pieces.append(Lit(raw, at))
                else:
                    pieces.append(c_escapes(raw, at, braces="f" in prefix))
            elif kind == "interpolation":
                inner = child.child_by_field_name("expression")
                if inner is not None:
                    at, until = self.span(child)
                    pieces.append(Interp(self.expr(inner), at, until))
        template = "f" not in prefix
        return Str(tuple(pieces), start, end, template)

    def _binary(self, node: Node) -> Expr:
        left = node.child_by_field_name("left")
        right = node.child_by_field_name("right")
        operator = node.child_by_field_name("operator")
        start, end = self.span(node)
        if left is None or right is None or operator is None:
            return self.opaque(node)
        op = self.text(operator)
        if op == "+":
            return self.concatenated((left, right), start, end)
        if op == "%":
            template = self.expr(left)
            if right.type == "tuple":
                args = tuple(Arg(self.expr(c)) for c in right.named_children if c.type != "comment")
            else:
                args = (Arg(self.expr(right)),)
            return Format(template, args, "printf", start, end)
        return self.opaque(node)

    def _dictionary(self, node: Node) -> Mapping:
        start, end = self.span(node)
        items: list[tuple[Expr | None, Expr]] = []
        for child in node.named_children:
            if child.type == "pair":
                key = child.child_by_field_name("key")
                value = child.child_by_field_name("value")
                if key is not None and value is not None:
                    items.append((self.expr(key), self.expr(value)))
            elif child.type == "dictionary_splat":
                inner = [c for c in child.named_children if c.type != "comment"]
                if inner:
                    items.append((None, self.expr(inner[0])))
        return Mapping(tuple(items), start, end)

    def _call_expr(self, node: Node) -> Expr:
        function = node.child_by_field_name("function")
        if (
            function is not None
            and function.type == "attribute"
            and (attr := function.child_by_field_name("attribute")) is not None
            and self.text(attr) == "format"
            and (obj := function.child_by_field_name("object")) is not None
        ):
            start, end = self.span(node)
            arguments = node.child_by_field_name("arguments")
            args = self.arguments(arguments) if arguments is not None else ()
            return Format(self.expr(obj), args, "brace", start, end)
        call = self.call(node)
        return call if call is not None else self.opaque(node)

    def call(self, node: Node) -> CallE | None:
        function = node.child_by_field_name("function")
        arguments = node.child_by_field_name("arguments")
        if function is None:
            return None
        start, end = self.span(node)
        receiver: Expr | None = None
        if function.type == "identifier":
            callee = self.text(function)
        elif function.type == "attribute":
            attr = function.child_by_field_name("attribute")
            obj = function.child_by_field_name("object")
            callee = self.text(attr) if attr is not None else ""
            receiver = self.expr(obj) if obj is not None else None
        else:
            callee = ""
            receiver = self.expr(function)
        if arguments is None:
            return CallE(callee, receiver, (), start, end, node.id)
        return CallE(callee, receiver, None, start, end, node.id, lambda: self.arguments(arguments))

    def call_name(self, node: Node) -> str:
        function = node.child_by_field_name("function")
        if function is None:
            return ""
        if function.type == "identifier":
            return self.text(function)
        if function.type == "attribute":
            attr = function.child_by_field_name("attribute")
            return self.text(attr) if attr is not None else ""
        return ""

    def arguments(self, node: Node) -> tuple[Arg, ...]:
        if node.type == "generator_expression":
            return (Arg(self.expr(node)),)
        args: list[Arg] = []
        for child in node.named_children:
            kind = child.type
            if kind == "comment":
                continue
            if kind == "keyword_argument":
                name = child.child_by_field_name("name")
                value = child.child_by_field_name("value")
                if name is not None and value is not None:
                    args.append(Arg(self.expr(value), self.text(name)))
            elif kind in ("list_splat", "dictionary_splat"):
                inner = [c for c in child.named_children if c.type != "comment"]
                if inner:
                    args.append(
                        Arg(self.expr(inner[0]), None, "*" if kind == "list_splat" else "**")
                    )
            else:
                args.append(Arg(self.expr(child)))
        return tuple(args)

    def function(self, node: Node) -> Function | None:
        start, end = self.span(node)
        if node.type == "lambda":
            name = ""
            parent = node.parent
            if parent is not None and parent.type == "assignment":
                left = parent.child_by_field_name("left")
                if left is not None and left.type == "identifier":
                    name = self.text(left)
            body = node.child_by_field_name("body")
            found = [self.lazy(body)] if body is not None else []
            return Function(node.id, name, start, end, lambda: self._lambda(node), lambda: found)
        name_node = node.child_by_field_name("name")
        if name_node is None:
            return None
        name = self.text(name_node)
        exported = not name.startswith("__") or name in ("__init__", "__call__")
        return Function(
            node.id,
            name,
            start,
            end,
            lambda: self._signature(node),
            lambda: [self.lazy(n) for n in self.returned(node)],
            exported=exported,
        )

    def _lambda(self, node: Node) -> tuple[Params, dict[str, str]]:
        params_node = node.child_by_field_name("parameters")
        return (self._params(params_node) if params_node is not None else []), {}

    def _signature(self, node: Node) -> tuple[Params, dict[str, str]]:
        params_node = node.child_by_field_name("parameters")
        params = self._params(params_node) if params_node is not None else []
        types = self._types(params_node) if params_node is not None else {}
        in_class = (
            node.parent is not None
            and (node.parent.type == "block" or node.parent.type == "decorated_definition")
            and _class_of(node) is not None
        )
        if in_class and params and params[0][0] in ("self", "cls") and not _static(node):
            params = params[1:]
        return params, types

    def _types(self, node: Node) -> dict[str, str]:
        """Declared parameter types (`client: PrtgClient`): the class a receiver is."""
        found: dict[str, str] = {}
        for child in node.named_children:
            if child.type not in ("typed_parameter", "typed_default_parameter"):
                continue
            kind = child.child_by_field_name("type")
            name = child.child_by_field_name("name")
            if name is None and child.named_children:
                name = child.named_children[0]
            if kind is not None and name is not None and name.type == "identifier":
                written = self.text(kind).strip("'\"")
                found[self.text(name)] = (
                    written.split("|")[0].strip().removeprefix("Optional[").rstrip("]")
                )
        return found

    def _params(self, node: Node) -> list[tuple[str, str, Expr | None]]:
        params: list[tuple[str, str, Expr | None]] = []
        for child in node.named_children:
            kind = child.type
            if kind == "identifier":
                params.append((self.text(child), "", None))
            elif kind == "typed_parameter":
                inner = child.named_children[0] if child.named_children else None
                if inner is not None and inner.type == "identifier":
                    params.append((self.text(inner), "", None))
                elif inner is not None and inner.type in (
                    "list_splat_pattern",
                    "dictionary_splat_pattern",
                ):
                    star = "*" if inner.type == "list_splat_pattern" else "**"
                    ident = [c for c in inner.named_children if c.type == "identifier"]
                    if ident:
                        params.append((self.text(ident[0]), star, None))
            elif kind in ("default_parameter", "typed_default_parameter"):
                name = child.child_by_field_name("name")
                value = child.child_by_field_name("value")
                if name is not None:
                    params.append(
                        (self.text(name), "", self.expr(value) if value is not None else None)
                    )
            elif kind in ("list_splat_pattern", "dictionary_splat_pattern"):
                star = "*" if kind == "list_splat_pattern" else "**"
                ident = [c for c in child.named_children if c.type == "identifier"]
                if ident:
                    params.append((self.text(ident[0]), star, None))
        return params

    def targets(self, node: Node) -> list[tuple[str, Expr | None, int | str]]:
        kind = node.type
        if kind == "identifier":
            return [(self.text(node), None, -1)]
        if kind == "attribute":
            obj = node.child_by_field_name("object")
            attr = node.child_by_field_name("attribute")
            if obj is None or attr is None:
                return []
            if obj.type == "identifier" and self.text(obj) in self.self_names:
                return [("@" + self.text(attr), None, -1)]
            return [(self.text(node), None, -1)]
        if kind == "subscript":
            value = node.child_by_field_name("value")
            key = node.child_by_field_name("subscript")
            if value is None or key is None:
                return []
            inner = self.targets(value)
            if len(inner) == 1 and inner[0][1] is None:
                return [(inner[0][0], self.expr(key), -1)]
            return []
        if kind in ("pattern_list", "tuple_pattern", "list_pattern"):
            found: list[tuple[str, Expr | None, int | str]] = []
            for index, child in enumerate(c for c in node.named_children if c.type != "comment"):
                for inner_key, inner_item, _ in self.targets(child):
                    if inner_item is None:
                        found.append((inner_key, None, index))
            return found
        return []

    def imports(self, node: Node) -> Iterator[tuple[str, str]]:
        if node.type == "import_statement":
            for child in node.named_children:
                if child.type == "dotted_name":
                    name = self.text(child)
                    yield name.split(".")[0], name.split(".")[0]
                elif child.type == "aliased_import":
                    original = child.child_by_field_name("name")
                    alias = child.child_by_field_name("alias")
                    if original is not None and alias is not None:
                        yield self.text(alias), self.text(original)
            return
        module_node = node.child_by_field_name("module_name")
        module = self.text(module_node) if module_node is not None else ""
        for child in node.children_by_field_name("name"):
            if child.type == "dotted_name":
                name = self.text(child)
                yield name, f"{module}.{name}"
            elif child.type == "aliased_import":
                original = child.child_by_field_name("name")
                alias = child.child_by_field_name("alias")
                if original is not None and alias is not None:
                    yield self.text(alias), f"{module}.{self.text(original)}"

    def string_root(self, node: Node) -> Node:
        root = node
        parent = node.parent
        while parent is not None:
            if parent.type in (
                "binary_operator",
                "parenthesized_expression",
                "concatenated_string",
            ):
                root, parent = parent, parent.parent
            elif (
                parent.type == "attribute"
                and parent.parent is not None
                and parent.parent.type == "call"
                and (attr := parent.child_by_field_name("attribute")) is not None
                and self.text(attr) == "format"
            ):
                root, parent = parent.parent, parent.parent.parent
            else:
                break
        return root

    def string_context(self, node: Node) -> str:
        parent = node.parent
        if parent is None:
            return "value"
        if parent.type == "concatenated_string":
            return "inner"
        while parent is not None and parent.type in ("parenthesized_expression", "binary_operator"):
            node, parent = parent, parent.parent
        if parent is None:
            return "value"
        kind = parent.type
        if kind == "expression_statement":
            return "doc"
        if kind in ("comparison_operator", "case_pattern", "case_clause"):
            return "compare"
        if kind == "pair":
            key = parent.child_by_field_name("key")
            if key is not None and key.id == node.id:
                return "key"
            if key is not None and self.text(key).strip("'\"").lower() in ("href", "location"):
                return "href"
        if kind == "subscript" and parent.child_by_field_name("subscript") == node:
            return "key"
        if kind == "assignment" and (left := parent.child_by_field_name("left")) is not None:
            key = left.child_by_field_name("subscript") if left.type == "subscript" else None
            written = self.text(key).strip("'\"").lower() if key is not None else ""
            if written in ("location", "content-location", "link"):
                return "href"  # a URL a server answers with
        if (
            kind in ("tuple", "list", "set")
            and parent.parent is not None
            and parent.parent.type in ("comparison_operator", "case_pattern")
        ):
            return "compare"
        if (
            kind == "tuple"
            and parent.parent is not None
            and parent.parent.type == "pair"
            and parent.parent.child_by_field_name("key") == parent
        ):
            return "key"  # `{("GET", "/x"): handler}`: a fake server's route table
        ancestor: Node | None = parent
        while ancestor is not None and ancestor.type not in (
            "module",
            "block",
            "function_definition",
        ):
            if ancestor.type == "decorator":
                return "route"
            ancestor = ancestor.parent
        return "value"

    def class_bases(self, node: Node) -> tuple[str, ...]:
        bases = node.child_by_field_name("superclasses")
        if bases is None:
            return ()
        return tuple(self.text(c) for c in bases.named_children if c.type != "comment")


def _class_of(node: Node) -> Node | None:
    parent = node.parent
    while parent is not None:
        if parent.type == "class_definition":
            return parent
        if parent.type in ("function_definition", "module"):
            return None
        parent = parent.parent
    return None


def _static(node: Node) -> bool:
    parent = node.parent
    if parent is None or parent.type != "decorated_definition":
        return False
    return any(
        c.type == "decorator" and c.text is not None and b"staticmethod" in c.text
        for c in parent.children
    )


_EXPRESSIONS = {
    "string": PythonLowering.string,
    "concatenated_string": PythonLowering._concatenated,
    "identifier": PythonLowering._identifier,
    "integer": PythonLowering._number,
    "float": PythonLowering._number,
    "attribute": PythonLowering._attribute,
    "subscript": PythonLowering._subscript,
    "call": PythonLowering._call_expr,
    "binary_operator": PythonLowering._binary,
    "dictionary": PythonLowering._dictionary,
    "list": PythonLowering._sequence,
    "tuple": PythonLowering._sequence,
    "set": PythonLowering._sequence,
    "expression_list": PythonLowering._sequence,
    "list_comprehension": PythonLowering._comprehension,
    "generator_expression": PythonLowering._comprehension,
    "set_comprehension": PythonLowering._comprehension,
    "conditional_expression": PythonLowering._conditional,
    "boolean_operator": PythonLowering._boolean,
    "parenthesized_expression": PythonLowering._parenthesized,
    "await": PythonLowering._parenthesized,
}

LOWERING = PythonLowering
