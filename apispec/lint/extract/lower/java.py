"""Java lowered to the IR: `new`, annotations, text blocks, fields, lambdas over elements.

Groovy's grammar is Java's with more literals (lower/groovy.py builds on this).
A constructor is a function named `<init>` (value flow reads a constructor by that
name); a field declared with a class type and no value holds an object of that type
(an injected one: `@Autowired PrtgClient prtg;`, Lombok's final fields); an
annotation with arguments is a call (a declarative client's request is one), unless
the type it is in is a server's, whose annotations are routes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, ClassVar

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
    ListE,
    Lit,
    Params,
    Str,
)
from apispec.lint.extract.lower import Lowering
from apispec.lint.extract.lower import java_nodes as nodes
from apispec.lint.extract.lower.strings import c_escapes, merged
from apispec.lint.knowledge import knowledge

if TYPE_CHECKING:
    from tree_sitter import Node

    from apispec.lint.extract.parse import Parsed

CONSTRUCTOR = "<init>"
_NUMBER_SUFFIX = "lLfFdD"


class JavaLowering(Lowering):
    language = "java"
    self_names = frozenset({"this"})
    function_types = frozenset(
        {
            "method_declaration",
            "constructor_declaration",
            "compact_constructor_declaration",
            "lambda_expression",
        }
    )
    # nodes a literal's whole expression climbs through (a concatenation, brackets)
    _joining: ClassVar[frozenset[str]] = frozenset(
        {"binary_expression", "parenthesized_expression", "ternary_expression"}
    )

    def __init__(self, parsed: Parsed) -> None:
        super().__init__(parsed)
        self._fields: dict[int, frozenset[str]] = {}
        self._roles: dict[int, str] = {}

    def expr(self, node: Node) -> Expr:
        method = _EXPRESSIONS.get(node.type)
        return method(self, node) if method is not None else self.opaque(node)

    # -- expressions ------------------------------------------------------------------

    def _number(self, node: Node) -> Expr:
        start, end = self.span(node)
        text = self.text(node).replace("_", "")
        if node.type == "decimal_integer_literal":
            text = text.rstrip(_NUMBER_SUFFIX)
        return Str((Lit(text, start),), start, end)

    def _boolean(self, node: Node) -> Expr:
        start, end = self.span(node)
        return Str((Lit(self.text(node), start),), start, end)

    def _field_access(self, node: Node) -> Expr:
        obj = node.child_by_field_name("object")
        field = node.child_by_field_name("field")
        if obj is None or field is None:
            return self.opaque(node)
        start, end = self.span(node)
        return Attr(self.expr(obj), self.text(field), start, end)

    def _array_access(self, node: Node) -> Expr:
        array = node.child_by_field_name("array")
        index = node.child_by_field_name("index")
        if array is None or index is None:
            return self.opaque(node)
        start, end = self.span(node)
        return Index(self.expr(array), self.expr(index), start, end)

    def _binary(self, node: Node) -> Expr:
        left = node.child_by_field_name("left")
        right = node.child_by_field_name("right")
        operator = node.child_by_field_name("operator")
        if left is None or right is None or operator is None or self.text(operator) != "+":
            return self.opaque(node)
        start, end = self.span(node)
        parts: list[Expr] = []
        for side in (left, right):
            value = self.expr(side)
            parts.extend(value.parts if isinstance(value, Concat) else (value,))
        return Concat(tuple(parts), start, end)

    def _ternary(self, node: Node) -> Expr:
        yes = node.child_by_field_name("consequence")
        no = node.child_by_field_name("alternative")
        if yes is None or no is None:
            return self.opaque(node)
        start, end = self.span(node)
        return Cond((self.expr(yes), self.expr(no)), start, end)

    def _inner(self, node: Node) -> Expr:
        """Brackets and casts: the expression inside."""
        value = node.child_by_field_name("value")
        if value is not None:
            return self.expr(value)
        inner = [c for c in node.named_children if c.type not in nodes.COMMENTS]
        return self.expr(inner[-1]) if inner else self.opaque(node)

    def _sequence(self, node: Node) -> Expr:
        start, end = self.span(node)
        items = tuple(self.expr(c) for c in node.named_children if c.type not in nodes.COMMENTS)
        return ListE(items, start, end)

    def _array(self, node: Node) -> Expr:
        value = node.child_by_field_name("value")
        return self._sequence(value) if value is not None else self.opaque(node)

    def string(self, node: Node) -> Expr:
        start, end = self.span(node)
        pieces: list[Lit | Expr] = []
        for child in node.children:
            if child.type in ("string_fragment", "multiline_string_fragment", "escape_sequence"):
                raw = self.text(child)
                pieces.append(c_escapes(raw, self.char(child.start_byte)))
        return Str(merged(pieces), start, end, template=True)

    def _enum_constant(self, node: Node) -> Expr:
        """`PROBES("/experimental/probes")`: an object of the enum, its arguments given."""
        owner = nodes.enclosing_type(node)
        name = owner.child_by_field_name("name") if owner is not None else None
        arguments = node.child_by_field_name("arguments")
        start, end = self.span(node)
        if name is None:
            return self.opaque(node)
        return self._made(self.text(name), None, arguments, start, end, node, new=True)

    def _lambda_value(self, node: Node) -> Expr:
        start, end = self.span(node)
        return FuncE(node.id, start, end)

    def _call_expr(self, node: Node) -> Expr:
        name = node.child_by_field_name("name")
        obj = node.child_by_field_name("object")
        if name is not None and obj is not None and self.text(name) == "formatted":
            start, end = self.span(node)  # `"%s/x".formatted(base)`
            arguments = node.child_by_field_name("arguments")
            args = self.arguments(arguments) if arguments is not None else ()
            return Format(self.expr(obj), args, "printf", start, end)
        body = self._mapped(node)
        if body is not None:  # `items.map(x -> "\"" + x + "\"")`: two copies of the body
            start, end = self.span(node)
            element = self.expr(body)
            return ListE((element, element), start, end)
        call = self.call(node)
        return call if call is not None else self.opaque(node)

    def _mapped(self, node: Node) -> Node | None:
        """The body of the function a `map` call applies to each element, if an expression
        (its parameter takes each element: the `@for` of the query file)."""
        name = node.child_by_field_name("name")
        arguments = node.child_by_field_name("arguments")
        if name is None or arguments is None or self.text(name) not in ("map", "mapToObj"):
            return None
        given = [c for c in arguments.named_children if c.type not in nodes.COMMENTS]
        if len(given) != 1 or given[0].type != "lambda_expression":
            return None
        body = given[0].child_by_field_name("body")
        return body if body is not None and body.type != "block" else None

    def declared(self, node: Node) -> Expr:
        """A field's declared type where it has no value: the object injected into it."""
        name = nodes.simple_type(self, node)
        if not name or not name[:1].isupper() or name in nodes.VALUE_TYPES:
            return self.opaque(node)
        start, end = self.span(node)
        receiver = nodes.type_qualifier(self, node)
        return CallE(name, receiver, (), start, end, node.id, new=True)

    # -- calls --------------------------------------------------------------------------

    def call(self, node: Node) -> CallE | None:
        start, end = self.span(node)
        kind = node.type
        if kind == "object_creation_expression":
            type_node = node.child_by_field_name("type")
            arguments = node.child_by_field_name("arguments")
            if type_node is None:
                return None
            name = nodes.simple_type(self, type_node)
            receiver = nodes.type_qualifier(self, type_node)
            return self._made(name, receiver, arguments, start, end, node, new=True)
        if kind == "annotation":
            if self.annotation_role(node) != "request":
                return None
            name_node = node.child_by_field_name("name")
            arguments = node.child_by_field_name("arguments")
            if name_node is None:
                return None
            name = self.text(name_node).rsplit(".", 1)[-1]
            return self._made(name, None, arguments, start, end, node)
        name_node = node.child_by_field_name("name")
        obj = node.child_by_field_name("object")
        arguments = node.child_by_field_name("arguments")
        if name_node is None:
            return None
        receiver = self.expr(obj) if obj is not None else None
        return self._made(self.text(name_node), receiver, arguments, start, end, node)

    def _made(
        self,
        callee: str,
        receiver: Expr | None,
        arguments: Node | None,
        start: int,
        end: int,
        node: Node,
        new: bool = False,
    ) -> CallE:
        if arguments is None:
            return CallE(callee, receiver, (), start, end, node.id, new=new)
        return CallE(
            callee, receiver, None, start, end, node.id, lambda: self.arguments(arguments), new
        )

    def call_name(self, node: Node) -> str:
        if node.type == "object_creation_expression":
            type_node = node.child_by_field_name("type")
            return nodes.simple_type(self, type_node) if type_node is not None else ""
        name = node.child_by_field_name("name")
        if name is None:
            return ""
        if node.type == "annotation" and self.annotation_role(node) != "request":
            return ""
        return self.text(name).rsplit(".", 1)[-1]

    def arguments(self, node: Node) -> tuple[Arg, ...]:
        args: list[Arg] = []
        for child in node.named_children:
            if child.type in nodes.COMMENTS:
                continue
            if child.type in ("element_value_pair", "map_item"):  # `value = x`, `url: u`
                key = child.child_by_field_name("key")
                value = child.child_by_field_name("value")
                if key is not None and value is not None:
                    args.append(Arg(self.expr(value), self.text(key).strip("'\"")))
                continue
            args.append(Arg(self.expr(child)))
        return tuple(args)

    # -- annotations ----------------------------------------------------------------------

    def annotation_role(self, node: Node) -> str:
        """What an annotation is: "request" (a declarative client's), "route" (a server's)
        or "other" (the knowledge rows' marks say which)."""
        known = self._roles.get(node.id)
        if known is not None:
            return known
        rows = knowledge(self.language)
        name_node = node.child_by_field_name("name")
        name = self.text(name_node).rsplit(".", 1)[-1] if name_node is not None else ""
        role = "other"
        if name in rows.request_marks or name in rows.route_marks:
            owner = nodes.enclosing_type(node)
            marks = nodes.type_marks(self, owner) if owner is not None else set()
            if marks & rows.server_marks:
                role = "route"
            elif name in rows.request_marks or marks & rows.client_marks:
                role = "request"
            else:
                role = "route"
        self._roles[node.id] = role
        return role

    # -- functions ------------------------------------------------------------------------

    def function(self, node: Node) -> Function | None:
        start, end = self.span(node)
        if node.type == "lambda_expression":
            return Function(
                node.id, "", start, end, lambda: self._lambda(node), lambda: self._gives(node)
            )
        if node.type in ("constructor_declaration", "compact_constructor_declaration"):
            return Function(node.id, CONSTRUCTOR, start, end, lambda: self._signature(node))
        name = node.child_by_field_name("name")
        if name is None:
            return None
        exported = not any(
            c.type == "modifiers" and "private" in self.text(c) for c in node.children
        )
        return Function(
            node.id,
            self.text(name),
            start,
            end,
            lambda: self._signature(node),
            lambda: [self.lazy(n) for n in self.returned(node)],
            exported=exported,
        )

    def _lambda(self, node: Node) -> tuple[Params, dict[str, str]]:
        params: Params = []
        parameters = node.child_by_field_name("parameters")
        if parameters is not None:
            if parameters.type == "identifier":
                params.append((self.text(parameters), "", None))
            else:
                for child in parameters.named_children:
                    name = (
                        child.child_by_field_name("name") if child.type != "identifier" else child
                    )
                    if name is not None:
                        params.append((self.text(name), "", None))
        return params, {}

    def _gives(self, node: Node) -> list[Callable[[], Expr]]:
        """What a lambda returns: its expression body, or its block's `return`s."""
        body = node.child_by_field_name("body")
        if body is None:
            return []
        if body.type == "block":
            return [self.lazy(n) for n in self.returned(node)]
        return [self.lazy(body)]

    def _signature(self, node: Node) -> tuple[Params, dict[str, str]]:
        params: Params = []
        types: dict[str, str] = {}
        parameters = node.child_by_field_name("parameters")
        for child in parameters.named_children if parameters is not None else ():
            if child.type == "formal_parameter":
                name = child.child_by_field_name("name")
                kind = ""
            elif child.type == "spread_parameter":
                declarator = next(
                    (c for c in child.named_children if c.type == "variable_declarator"), None
                )
                name = declarator.child_by_field_name("name") if declarator else None
                kind = "*"
            else:
                continue
            if name is None:
                continue
            params.append((self.text(name), kind, None))
            type_node = child.child_by_field_name("type") or next(
                (c for c in child.named_children if c.type in nodes.TYPES), None
            )
            if type_node is not None:
                written = nodes.written_type(self, type_node)
                if written and written.rsplit(".", 1)[-1] not in nodes.VALUE_TYPES:
                    types[self.text(name)] = written
        return params, types

    # -- statements -----------------------------------------------------------------------

    def targets(self, node: Node) -> list[tuple[str, Expr | None, int | str]]:
        kind = node.type
        if kind == "identifier":
            name = self.text(node)
            if nodes.declared_value(self, node):
                return []  # `private String token;`: a value type holds nothing until set
            if nodes.is_field(self, node, self._fields):
                return [("@" + name, None, -1)]
            return [(name, None, -1)]
        if kind == "field_access":
            obj = node.child_by_field_name("object")
            field = node.child_by_field_name("field")
            if obj is None or field is None:
                return []
            if obj.type == "this":
                return [("@" + self.text(field), None, -1)]
            return [(self.text(node), None, -1)]
        if kind == "array_access":
            array = node.child_by_field_name("array")
            index = node.child_by_field_name("index")
            if array is None or index is None:
                return []
            inner = self.targets(array)
            if len(inner) == 1 and inner[0][1] is None:
                return [(inner[0][0], self.expr(index), -1)]
        return []

    def imports(self, node: Node) -> Iterator[tuple[str, str]]:
        if any(c.type == "asterisk" for c in node.children):
            return
        for child in node.named_children:
            if child.type in ("scoped_identifier", "identifier"):
                name = self.text(child)
                yield name.rsplit(".", 1)[-1], name

    def class_bases(self, node: Node) -> tuple[str, ...]:
        found: list[str] = []
        for field_name in ("superclass", "interfaces"):
            part = node.child_by_field_name(field_name)
            if part is None:
                continue
            for child in nodes.walk_types(part):
                found.append(self.text(child))
        return tuple(found)

    def chain_top(self, node: Node) -> Node:
        parent = node.parent
        while (
            parent is not None
            and parent.type == "method_invocation"
            and (obj := parent.child_by_field_name("object")) is not None
            and obj.id == node.id
        ):
            node, parent = parent, parent.parent
        return node

    # -- literals' places -------------------------------------------------------------

    def string_root(self, node: Node) -> Node:
        root = node
        parent = node.parent
        while parent is not None:
            if parent.type in ("binary_expression", "parenthesized_expression"):
                operator = parent.child_by_field_name("operator")
                if parent.type == "binary_expression" and (
                    operator is None or self.text(operator) != "+"
                ):
                    break
                root, parent = parent, parent.parent
            elif (
                parent.type == "method_invocation"
                and (name := parent.child_by_field_name("name")) is not None
                and self.text(name) == "formatted"
                and parent.child_by_field_name("object") == root
            ):
                root, parent = parent, parent.parent
            else:
                break
        return root

    def string_context(self, node: Node) -> str:
        parent = node.parent
        while parent is not None and parent.type in self._joining:
            if parent.type == "binary_expression":
                operator = parent.child_by_field_name("operator")
                if operator is not None and self.text(operator) in ("==", "!="):
                    return "compare"
            node, parent = parent, parent.parent
        if parent is None:
            return "value"
        kind = parent.type
        if kind in ("switch_label", "case_label"):
            return "compare"
        if kind == "argument_list" and nodes.after_key(self, node, parent):
            return "href"  # `Map.of("href", "/api/v2/...")`, `.header("Location", ...)`
        ancestor: Node | None = parent
        while ancestor is not None and ancestor.type not in ("block", "class_body", "program"):
            if ancestor.type in ("annotation", "marker_annotation"):
                return "value" if self.annotation_role(ancestor) == "request" else "route"
            ancestor = ancestor.parent
        return "value"


_EXPRESSIONS: dict[str, Callable[[JavaLowering, Node], Expr]] = {
    "string_literal": JavaLowering.string,
    "identifier": JavaLowering._identifier,
    "this": JavaLowering._identifier,
    "decimal_integer_literal": JavaLowering._number,
    "hex_integer_literal": JavaLowering._number,
    "decimal_floating_point_literal": JavaLowering._number,
    "true": JavaLowering._boolean,
    "false": JavaLowering._boolean,
    "field_access": JavaLowering._field_access,
    "array_access": JavaLowering._array_access,
    "method_invocation": JavaLowering._call_expr,
    "object_creation_expression": JavaLowering._call_expr,
    "binary_expression": JavaLowering._binary,
    "ternary_expression": JavaLowering._ternary,
    "parenthesized_expression": JavaLowering._inner,
    "cast_expression": JavaLowering._inner,
    "array_initializer": JavaLowering._sequence,
    "element_value_array_initializer": JavaLowering._sequence,
    "array_creation_expression": JavaLowering._array,
    "lambda_expression": JavaLowering._lambda_value,
    "enum_constant": JavaLowering._enum_constant,
    "type_identifier": JavaLowering.declared,
    "scoped_type_identifier": JavaLowering.declared,
    "generic_type": JavaLowering.declared,
}

LOWERING = JavaLowering
