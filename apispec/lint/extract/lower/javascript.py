"""JavaScript and TypeScript lowered to the IR: template literals, options objects, destructuring.

One lowering serves the three grammars (javascript, typescript, tsx): TypeScript adds
types, parameter properties and type assertions, which lower to what they wrap.
"""

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
    Function,
    Index,
    ListE,
    Lit,
    Mapping,
    Name,
    Str,
)
from apispec.lint.extract.lower import Lowering
from apispec.lint.extract.lower.javascript_context import string_context
from apispec.lint.extract.lower.strings import c_escapes

if TYPE_CHECKING:
    from tree_sitter import Node

# expressions that stand for what they wrap (TypeScript's assertions, `await`, brackets)
_WRAPPERS = frozenset(
    {
        "parenthesized_expression",
        "await_expression",
        "as_expression",
        "satisfies_expression",
        "non_null_expression",
        "type_assertion",
    }
)
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
_FUNCTIONS = frozenset({"arrow_function", "function_expression", "function"})
_PARAMETERS = frozenset({"required_parameter", "optional_parameter"})
# a module loaded by a call: `require("x")`, `await import("x")`
_LOADERS = frozenset({"require", "import"})


class JavaScriptLowering(Lowering):
    language = "javascript"
    self_names = frozenset({"this"})

    def expr(self, node: Node) -> Expr:
        kind = node.type
        if kind == "string":
            return self.string(node)
        if kind == "template_string":
            return self.template(node)
        if kind in _NAMES:
            start, end = self.span(node)
            return Name(self.text(node), start, end)
        if kind in ("number", "true", "false"):
            start, end = self.span(node)
            return Str((Lit(self.text(node).replace("_", ""), start),), start, end)
        if kind == "member_expression":
            obj = node.child_by_field_name("object")
            prop = node.child_by_field_name("property")
            start, end = self.span(node)
            if obj is None or prop is None:
                return self.opaque(node)
            return Attr(self.expr(obj), self.text(prop), start, end)
        if kind == "subscript_expression":
            obj = node.child_by_field_name("object")
            index = node.child_by_field_name("index")
            start, end = self.span(node)
            if obj is None or index is None:
                return self.opaque(node)
            return Index(self.expr(obj), self.expr(index), start, end)
        if kind == "call_expression":
            return self._call_expr(node)
        if kind == "new_expression":
            call = self.call(node)
            return call if call is not None else self.opaque(node)
        if kind == "binary_expression":
            return self._binary(node)
        if kind == "ternary_expression":
            consequence = node.child_by_field_name("consequence")
            alternative = node.child_by_field_name("alternative")
            start, end = self.span(node)
            if consequence is None or alternative is None:
                return self.opaque(node)
            return Cond((self.expr(consequence), self.expr(alternative)), start, end)
        if kind == "object":
            return self._object(node)
        if kind == "array":
            start, end = self.span(node)
            return ListE(tuple(self.expr(c) for c in _named(node)), start, end)
        if kind in _WRAPPERS:
            inner = list(_named(node))  # `x as T`, `x!`: the expression first; `<T>x`: last
            if kind == "type_assertion":
                inner = inner[-1:]
            return self.expr(inner[0]) if inner else self.opaque(node)
        if kind == "sequence_expression":
            inner = list(_named(node))
            return self.expr(inner[-1]) if inner else self.opaque(node)
        if kind == "assignment_expression":
            right = node.child_by_field_name("right")
            return self.expr(right) if right is not None else self.opaque(node)
        return self.opaque(node)

    # -- strings ------------------------------------------------------------------------

    def string(self, node: Node) -> Str:
        start, end = self.span(node)
        raw = self.text(node)[1:-1] if node.end_byte - node.start_byte >= 2 else ""
        return Str((c_escapes(raw, start + 1),), start, end)

    def template(self, node: Node) -> Str:
        """A template literal: its text runs decoded, each `${...}` an expression."""
        start, end = self.span(node)
        pieces: list[Lit | Expr] = []
        at = node.start_byte + 1  # after the opening backtick
        for child in node.children:
            if child.type != "template_substitution":
                continue
            if child.start_byte > at:
                pieces.append(self._run(at, child.start_byte))
            inner = list(_named(child))
            if inner:  # the hole an unknown value leaves spans `${...}`, as it is written
                sub_start, sub_end = self.span(child)
                pieces.append(Cond((self.expr(inner[0]),), sub_start, sub_end))
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

    # -- operators and literals -----------------------------------------------------------

    def _binary(self, node: Node) -> Expr:
        left = node.child_by_field_name("left")
        right = node.child_by_field_name("right")
        operator = node.child_by_field_name("operator")
        start, end = self.span(node)
        if left is None or right is None or operator is None:
            return self.opaque(node)
        op = self.text(operator)
        if op == "+":
            parts: list[Expr] = []
            for side in (left, right):
                value = self.expr(side)
                parts.extend(value.parts if isinstance(value, Concat) else (value,))
            return Concat(tuple(parts), start, end)
        if op in ("??", "||"):
            return Cond((self.expr(left), self.expr(right)), start, end)
        if op == "&&":
            return self.expr(right)
        return self.opaque(node)

    def _object(self, node: Node) -> Mapping:
        start, end = self.span(node)
        items: list[tuple[Expr | None, Expr]] = []
        for child in _named(node):
            kind = child.type
            if kind == "pair":
                key = child.child_by_field_name("key")
                value = child.child_by_field_name("value")
                if key is None or value is None:
                    continue
                items.append((self._key(key), self.expr(value)))
            elif kind == "shorthand_property_identifier":
                name = self.expr(child)
                key_start, key_end = self.span(child)
                items.append((Str((Lit(self.text(child), key_start),), key_start, key_end), name))
            elif kind == "spread_element":
                inner = list(_named(child))
                if inner:
                    items.append((None, self.expr(inner[0])))
        return Mapping(tuple(items), start, end)

    def _key(self, node: Node) -> Expr:
        """An object key: a bare name or number is its own text, `[expr]` is the expression."""
        if node.type == "computed_property_name":
            inner = list(_named(node))
            return self.expr(inner[0]) if inner else self.opaque(node)
        if node.type in ("string", "template_string"):
            return self.expr(node)
        start, end = self.span(node)
        return Str((Lit(self.text(node), start),), start, end)

    # -- calls ---------------------------------------------------------------------------

    def _call_expr(self, node: Node) -> Expr:
        function = node.child_by_field_name("function")
        arguments = node.child_by_field_name("arguments")
        if (
            function is not None
            and function.type == "member_expression"
            and arguments is not None
            and (prop := function.child_by_field_name("property")) is not None
            and self.text(prop) in ("map", "flatMap")
        ):
            body = _mapped_body(arguments)
            if body is not None:  # `xs.map((x) => `...`)`: two copies show what joins them
                start, end = self.span(node)
                element = self.expr(body)
                return ListE((element, element), start, end)
        call = self.call(node)
        return call if call is not None else self.opaque(node)

    def call(self, node: Node) -> CallE | None:
        is_new = node.type == "new_expression"
        function = node.child_by_field_name("constructor" if is_new else "function")
        arguments = node.child_by_field_name("arguments")
        if function is None:
            return None
        start, end = self.span(node)
        receiver: Expr | None = None
        # `(f)(x)`, `f!(x)`; TypeScript parses `await api.get<T>(x)` as a call of `await api.get`
        while function.type in (
            "parenthesized_expression",
            "non_null_expression",
            "await_expression",
        ) and (inner := list(_named(function))):
            function = inner[0]
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
        args = self.arguments(arguments) if arguments is not None else ()
        return CallE(callee, receiver, args, start, end, node.id)

    def arguments(self, node: Node) -> tuple[Arg, ...]:
        if node.type == "template_string":  # a tagged template: tag`...`
            return (Arg(self.template(node)),)
        args: list[Arg] = []
        for child in _named(node):
            if child.type == "spread_element":
                inner = list(_named(child))
                if inner:
                    args.append(Arg(self.expr(inner[0]), None, "*"))
            else:
                args.append(Arg(self.expr(child)))
        return tuple(args)

    # -- functions -----------------------------------------------------------------------

    def function(self, node: Node) -> Function | None:
        start, end = self.span(node)
        name_node = node.child_by_field_name("name")
        name = self.text(name_node) if name_node is not None else _bound_name(self, node)
        params_node = node.child_by_field_name("parameters")
        if params_node is None and node.type == "arrow_function":
            params_node = node.child_by_field_name("parameter")  # `x => ...`
        params: list[tuple[str, str, Expr | None]] = []
        types: dict[str, str] = {}
        members: dict[str, tuple[int, str, Expr | None]] = {}
        if params_node is not None:
            if params_node.type == "identifier":
                params.append((self.text(params_node), "", None))
            else:
                params, types, members = self._params(params_node)
        function = Function(node.id, name, params, start, end, types=types, members=members)
        function.owner = _object_owner(self, node)
        function.exported = not name.startswith("#") and _accessible(node)
        body = node.child_by_field_name("body")
        if node.type == "arrow_function" and body is not None and body.type != "statement_block":
            function.returns.append(self.expr(body))
        return function

    def _params(
        self, node: Node
    ) -> tuple[
        list[tuple[str, str, Expr | None]], dict[str, str], dict[str, tuple[int, str, Expr | None]]
    ]:
        params: list[tuple[str, str, Expr | None]] = []
        types: dict[str, str] = {}
        members: dict[str, tuple[int, str, Expr | None]] = {}
        for child in _named(node):
            pattern, default = child, None
            if child.type in _PARAMETERS:
                found = child.child_by_field_name("pattern")
                if found is None or found.type == "this":
                    continue
                pattern = found
                value = child.child_by_field_name("value")
                default = self.expr(value) if value is not None else None
                written = child.child_by_field_name("type")
                if written is not None and pattern.type == "identifier":
                    types[self.text(pattern)] = _type_name(self.text(written))
            if pattern.type == "assignment_pattern":
                left = pattern.child_by_field_name("left")
                right = pattern.child_by_field_name("right")
                default = self.expr(right) if right is not None else None
                pattern = left if left is not None else pattern
            if pattern.type == "identifier":
                params.append((self.text(pattern), "", default))
            elif pattern.type == "rest_pattern":
                inner = [c for c in _named(pattern) if c.type == "identifier"]
                params.append((self.text(inner[0]) if inner else "", "*", None))
            else:  # a destructured parameter: its place, and the names it binds
                position = len(params)
                params.append((f"{{{position}}}", "", default))
                if pattern.type == "object_pattern":
                    for local, key, value in self._member_defaults(pattern):
                        members[local] = (position, key, value)
        return params, types, members

    def _member_defaults(self, node: Node) -> Iterator[tuple[str, str, Expr | None]]:
        """`{ method = "GET", query, headers: h }`: each local, its key and its default."""
        defaults: dict[str, Expr] = {}
        for child in _named(node):
            if child.type == "object_assignment_pattern":
                left = child.child_by_field_name("left")
                right = child.child_by_field_name("right")
                if left is not None and right is not None:
                    defaults[self.text(left)] = self.expr(right)
        for local, _, key in self._members(node):
            if isinstance(key, str):
                yield local, key, defaults.get(local)

    # -- assignments, imports, classes ----------------------------------------------------

    def targets(self, node: Node) -> list[tuple[str, Expr | None, int | str]]:
        kind = node.type
        parent = node.parent
        if parent is not None and parent.type == "variable_declarator" and _loads_module(parent):
            return []  # `const x = require("m")`: an import (see `imports`)
        if kind in ("identifier", "property_identifier", "private_property_identifier"):
            if parent is not None and parent.type in _PARAMETERS:
                return [("@" + self.text(node), None, -1)]  # a parameter property
            if parent is not None and parent.type == "method_definition":
                return [("@" + self.text(node), None, -1)]  # a getter
            return [(self.text(node), None, -1)]
        if kind == "member_expression":
            obj = node.child_by_field_name("object")
            prop = node.child_by_field_name("property")
            if obj is None or prop is None:
                return []
            if obj.type == "this":
                return [("@" + self.text(prop), None, -1)]
            if obj.type == "identifier":  # `params.sort = x`: an entry of `params`
                start, end = self.span(prop)
                return [(self.text(obj), Str((Lit(self.text(prop), start),), start, end), -1)]
            return [(self.text(node), None, -1)]
        if kind == "subscript_expression":
            obj = node.child_by_field_name("object")
            index = node.child_by_field_name("index")
            if obj is None or index is None:
                return []
            inner = self.targets(obj)
            if len(inner) == 1 and inner[0][1] is None:
                return [(inner[0][0], self.expr(index), -1)]
            return []
        if kind == "array_pattern":
            found: list[tuple[str, Expr | None, int | str]] = []
            for position, child in enumerate(_named(node)):
                if child.type == "assignment_pattern":
                    child = child.child_by_field_name("left") or child
                if child.type == "identifier":
                    found.append((self.text(child), None, position))
            return found
        if kind == "object_pattern":
            return list(self._members(node))
        return []

    def _members(self, node: Node) -> Iterator[tuple[str, Expr | None, int | str]]:
        """`{ path, params: query, limit = 10 }`: each local takes its key's entry."""
        for child in _named(node):
            if child.type == "shorthand_property_identifier_pattern":
                yield self.text(child), None, self.text(child)
            elif child.type == "object_assignment_pattern":
                left = child.child_by_field_name("left")
                if left is not None:
                    yield self.text(left), None, self.text(left)
            elif child.type == "pair_pattern":
                key = child.child_by_field_name("key")
                value = child.child_by_field_name("value")
                if value is not None and value.type == "assignment_pattern":
                    value = value.child_by_field_name("left")
                if key is not None and value is not None and value.type == "identifier":
                    yield self.text(value), None, self.text(key).strip("'\"")

    def imports(self, node: Node) -> Iterator[tuple[str, str]]:
        if node.type == "variable_declarator":
            yield from self._required(node)
            return
        source = node.child_by_field_name("source")
        if source is None:
            return
        module = self.text(source)[1:-1]
        for clause in _named(node):
            if clause.type != "import_clause":
                continue
            for child in _named(clause):
                if child.type == "identifier":  # the default export
                    yield self.text(child), module
                elif child.type == "namespace_import":
                    names = [c for c in _named(child) if c.type == "identifier"]
                    if names:
                        yield self.text(names[0]), module
                elif child.type == "named_imports":
                    for spec in _named(child):
                        if spec.type != "import_specifier":
                            continue
                        name = spec.child_by_field_name("name")
                        alias = spec.child_by_field_name("alias")
                        if name is not None:
                            local = alias if alias is not None else name
                            yield (
                                self.text(local),
                                f"{module}.{self.text(name).strip(chr(34) + chr(39))}",
                            )

    def _required(self, node: Node) -> Iterator[tuple[str, str]]:
        """`const x = require("m")`, `const { a, b: c } = await import("m")`."""
        module = _loads_module(node)
        target = node.child_by_field_name("name")
        if not module or target is None:
            return
        if target.type == "identifier":
            yield self.text(target), module
            return
        if target.type == "object_pattern":
            for local, _, key in self._members(target):
                yield local, f"{module}.{key}"

    def class_bases(self, node: Node) -> tuple[str, ...]:
        found: list[str] = []
        for child in _named(node):
            if child.type != "class_heritage":
                continue
            for part in _named(child):
                if part.type == "extends_clause":
                    value = part.child_by_field_name("value")
                    if value is not None:
                        found.append(self.text(value))
                elif part.type != "implements_clause":
                    found.append(self.text(part))
        return tuple(found)

    def string_context(self, node: Node) -> str:
        return string_context(self, node)


def _named(node: Node) -> Iterator[Node]:
    for child in node.named_children:
        if child.type != "comment":
            yield child


def _mapped_body(arguments: Node) -> Node | None:
    """The expression an `.map(x => expr)` callback returns for each element."""
    args = list(_named(arguments))
    if len(args) != 1 or args[0].type not in _FUNCTIONS:
        return None
    body = args[0].child_by_field_name("body")
    if body is None:
        return None
    if body.type != "statement_block":
        return body
    statements = list(_named(body))
    if len(statements) == 1 and statements[0].type == "return_statement":
        inner = list(_named(statements[0]))
        return inner[0] if inner else None
    return None


def _bound_name(lowering: JavaScriptLowering, node: Node) -> str:
    """The name a function expression is bound to: `const get = (p) => ...`, `get: function`."""
    parent = node.parent
    while parent is not None and parent.type in _WRAPPERS:
        parent = parent.parent
    if parent is None:
        return ""
    if parent.type == "variable_declarator":
        name = parent.child_by_field_name("name")
        return lowering.text(name) if name is not None and name.type == "identifier" else ""
    if parent.type == "assignment_expression":
        left = parent.child_by_field_name("left")
        if left is not None and left.type == "member_expression":
            left = left.child_by_field_name("property")
        return (
            lowering.text(left)
            if left is not None and left.type in _NAMES | {"property_identifier"}
            else ""
        )
    if parent.type == "pair":
        key = parent.child_by_field_name("key")
        return lowering.text(key).strip("'\"") if key is not None else ""
    if parent.type in ("public_field_definition", "field_definition"):
        name = parent.child_by_field_name("name") or parent.child_by_field_name("property")
        return lowering.text(name) if name is not None else ""
    return ""


def _object_owner(lowering: JavaScriptLowering, node: Node) -> str | None:
    """`const api = { get(path) {...} }`: a method of an object literal bound to a name
    belongs to that name, as a class's method to its class."""
    holder = node.parent
    if holder is not None and holder.type == "pair":
        holder = holder.parent
    if holder is None or holder.type != "object":
        return None
    parent = holder.parent
    while parent is not None and parent.type in _WRAPPERS:
        parent = parent.parent
    if parent is None or parent.type != "variable_declarator":
        return None
    name = parent.child_by_field_name("name")
    return lowering.text(name) if name is not None and name.type == "identifier" else None


def _accessible(node: Node) -> bool:
    """A method marked `private` or `#name` is not called from other files."""
    for child in node.children:
        if child.type == "accessibility_modifier":
            return child.text is None or child.text.decode() != "private"
    return True


def _loads_module(declarator: Node) -> str:
    """The module `const x = require("m")` (or `await import("m")`) loads, else ""."""
    value = declarator.child_by_field_name("value")
    if value is not None and value.type == "await_expression":
        inner = list(_named(value))
        value = inner[0] if inner else None
    if value is None or value.type != "call_expression":
        return ""
    function = value.child_by_field_name("function")
    arguments = value.child_by_field_name("arguments")
    if function is None or arguments is None or function.text is None:
        return ""
    if function.text.decode() not in _LOADERS:
        return ""
    args = list(_named(arguments))
    if len(args) != 1 or args[0].type != "string" or args[0].text is None:
        return ""
    return args[0].text.decode("utf-8", "replace")[1:-1]


def _type_name(written: str) -> str:
    """`: PrtgClient | undefined`, `: Promise<X>` -> the class the value is (`PrtgClient`)."""
    written = written.lstrip(":").strip()
    first = written.split("|")[0].strip()
    return first.split("<")[0].strip()


LOWERING = JavaScriptLowering
