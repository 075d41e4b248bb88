"""C# lowered to the IR: `new` with initializers, fields without `this.`, members, attributes.

An object creation is a call of its type's name whose initializer properties are
keyword arguments (`new HttpClient { BaseAddress = b }`), unless its initializer
lists elements (a collection: `new Dictionary<string, string> { ["k"] = v }` is a
mapping). A field assigned or read without `this.` is the object's field when the
class declares it and no parameter of the method shadows it. A primary constructor
(`class C(HttpClient http)`) is a function whose parameters are fields of the object.
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
    Name,
    Params,
    Str,
)
from apispec.lint.extract.lower import Lowering
from apispec.lint.extract.lower import csharp_scope as scope
from apispec.lint.extract.lower.csharp_strings import interpolated, literal

if TYPE_CHECKING:
    from tree_sitter import Node

    from apispec.lint.extract.parse import Parsed


class CSharpLowering(Lowering):
    language = "csharp"
    self_names = frozenset({"this"})
    function_types = scope.FUNCTIONS
    call_types = frozenset({"invocation_expression"})

    def __init__(self, parsed: Parsed) -> None:
        super().__init__(parsed)
        self.members: dict[int, frozenset[str]] = {}  # a type's fields and properties

    def expr(self, node: Node) -> Expr:
        method = _EXPRESSIONS.get(node.type)
        return method(self, node) if method is not None else self.opaque(node)

    # -- expressions ------------------------------------------------------------

    def _string(self, node: Node) -> Expr:
        return literal(self, node)

    def _interpolated(self, node: Node) -> Expr:
        return interpolated(self, node, self.expr)

    def _generic(self, node: Node) -> Expr:
        start, end = self.span(node)
        name = node.named_children[0] if node.named_children else node
        return Name(self.text(name), start, end)

    def _number(self, node: Node) -> Expr:
        start, end = self.span(node)
        return Str((Lit(self.text(node).rstrip("uUlLmMfFdD"), start),), start, end)

    def _char(self, node: Node) -> Expr:
        start, end = self.span(node)
        return Str((Lit(self.text(node)[1:-1], start + 1),), start, end)

    def _member(self, node: Node) -> Expr:
        obj = node.child_by_field_name("expression")
        name = node.child_by_field_name("name")
        start, end = self.span(node)
        if obj is None or name is None:
            return self.opaque(node)
        return Attr(self.expr(obj), _simple(self, name), start, end)

    def _conditional_access(self, node: Node) -> Expr:
        """`o?.Name`: the member of `o` (a null stays unknown)."""
        obj = node.child_by_field_name("condition")
        binding = node.named_children[-1] if node.named_children else None
        start, end = self.span(node)
        if obj is None or binding is None or binding.type != "member_binding_expression":
            return self.opaque(node)
        name = binding.child_by_field_name("name")
        if name is None:
            return self.opaque(node)
        return Attr(self.expr(obj), _simple(self, name), start, end)

    def _element(self, node: Node) -> Expr:
        obj = node.child_by_field_name("expression")
        subscript = node.child_by_field_name("subscript")
        start, end = self.span(node)
        keys = [c for c in subscript.named_children if c.type == "argument"] if subscript else []
        if obj is None or len(keys) != 1:
            return self.opaque(node)
        return Index(self.expr(obj), self._argument_value(keys[0]), start, end)

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
        if op == "??":
            if right.type == "throw_expression":
                return self.expr(left)
            return Cond((self.expr(left), self.expr(right)), start, end)
        return self.opaque(node)

    def _conditional(self, node: Node) -> Expr:
        consequence = node.child_by_field_name("consequence")
        alternative = node.child_by_field_name("alternative")
        start, end = self.span(node)
        if consequence is None or alternative is None:
            return self.opaque(node)
        return Cond((self.expr(consequence), self.expr(alternative)), start, end)

    def _inner(self, node: Node) -> Expr:
        """`(x)`, `await x`, `x!`, `(T)x`, `checked(x)`: the expression inside."""
        value = node.child_by_field_name("value")
        if value is None:
            inner = [c for c in node.named_children if c.type != "comment"]
            value = inner[-1] if inner else None
        return self.expr(value) if value is not None else self.opaque(node)

    def _array(self, node: Node) -> Expr:
        start, end = self.span(node)
        initializer = next(
            (c for c in node.named_children if c.type == "initializer_expression"), None
        )
        if initializer is None:
            return ListE((), start, end)
        return self._initializer(initializer)

    def _collection(self, node: Node) -> Expr:
        """`["a", "b"]` (a collection expression): its elements."""
        start, end = self.span(node)
        items: list[Expr] = []
        for child in node.named_children:
            inner = child.named_children[0] if child.named_children else None
            if inner is not None and inner.type == "expression_element" and inner.named_children:
                items.append(self.expr(inner.named_children[0]))
        return ListE(tuple(items), start, end)

    def _anonymous(self, node: Node) -> Expr:
        """`new { filter = f, limit = 50 }`: a mapping of its members."""
        start, end = self.span(node)
        items: list[tuple[Expr | None, Expr]] = []
        named = [c for c in node.named_children if c.type != "comment"]
        k = 0
        while k < len(named):
            child = named[k]
            following = child.next_sibling
            if child.type == "identifier" and following is not None and following.type == "=":
                if k + 1 < len(named):
                    items.append((_key(self, child), self.expr(named[k + 1])))
                k += 2
                continue
            # `new { name }`: the member takes the variable's name
            if child.type in ("identifier", "member_access_expression"):
                last = child.child_by_field_name("name") or child
                items.append((_key(self, last), self.expr(child)))
            k += 1
        return Mapping(tuple(items), start, end)

    def _initializer(self, node: Node) -> Expr:
        """A collection initializer: a mapping (`["k"] = v`, `{"k", v}`) or a list."""
        start, end = self.span(node)
        entries: list[tuple[Expr | None, Expr]] = []
        items: list[Expr] = []
        for child in node.named_children:
            if child.type == "comment":
                continue
            if child.type == "assignment_expression":
                left = child.child_by_field_name("left")
                right = child.child_by_field_name("right")
                if left is None or right is None:
                    continue
                if left.type == "element_binding_expression":
                    keys = [c for c in left.named_children if c.type == "argument"]
                    if keys:
                        entries.append((self._argument_value(keys[0]), self.expr(right)))
                elif left.type == "identifier":
                    entries.append((_key(self, left), self.expr(right)))
            elif child.type == "initializer_expression":
                pair = [c for c in child.named_children if c.type != "comment"]
                if len(pair) == 2:
                    entries.append((self.expr(pair[0]), self.expr(pair[1])))
            else:
                items.append(self.expr(child))
        if entries:
            return Mapping(tuple(entries), start, end)
        return ListE(tuple(items), start, end)

    def _creation(self, node: Node) -> Expr:
        """`new T(args) { P = v }`: a call of T, or a collection when it lists elements."""
        initializer = node.child_by_field_name("initializer") or next(
            (c for c in node.named_children if c.type == "initializer_expression"), None
        )
        kind = _type_name(self, node)
        if initializer is not None and not _properties(initializer):
            return self._initializer(initializer)
        if initializer is None and kind.endswith("Dictionary"):
            start, end = self.span(node)
            return Mapping((), start, end)
        if initializer is None and (kind.endswith("List") or kind.endswith("Set")):
            start, end = self.span(node)
            return ListE((), start, end)
        call = self.call(node)
        return call if call is not None else self.opaque(node)

    def _call_expr(self, node: Node) -> Expr:
        call = self.call(node)
        return call if call is not None else self.opaque(node)

    def _argument_value(self, node: Node) -> Expr:
        inner = [c for c in node.named_children if c.type not in ("comment", "identifier")]
        if node.child_by_field_name("name") is None:
            inner = [c for c in node.named_children if c.type != "comment"]
        return self.expr(inner[-1]) if inner else self.opaque(node)

    # -- calls --------------------------------------------------------------------

    def call(self, node: Node) -> CallE | None:
        start, end = self.span(node)
        if node.type == "attribute":
            name = node.child_by_field_name("name")
            args = next(
                (c for c in node.named_children if c.type == "attribute_argument_list"), None
            )
            callee = "@" + _simple(self, name) if name is not None else ""
            lowered = (lambda: self._attribute_args(args)) if args is not None else None
            return CallE(callee, None, None if lowered else (), start, end, node.id, lowered)
        if node.type in ("object_creation_expression", "implicit_object_creation_expression"):
            return CallE(
                _type_name(self, node),
                None,
                None,
                start,
                end,
                node.id,
                lambda: self._new_args(node),
            )
        if node.type == "constructor_initializer":  # `: this(args)`: another constructor
            passed = next((c for c in node.named_children if c.type == "argument_list"), None)
            if passed is None or self.text(node.children[1]) != "this":
                return None
            return CallE(".ctor", None, None, start, end, node.id, lambda: self.arguments(passed))
        function = node.child_by_field_name("function")
        arguments = node.child_by_field_name("arguments")
        if function is None:
            return None
        callee, receiver = self._callee(function)
        if arguments is None:
            return CallE(callee, receiver, (), start, end, node.id)
        return CallE(callee, receiver, None, start, end, node.id, lambda: self.arguments(arguments))

    def _callee(self, function: Node) -> tuple[str, Expr | None]:
        kind = function.type
        if kind in ("identifier", "generic_name"):
            return _simple(self, function), None
        if kind == "member_access_expression":
            name = function.child_by_field_name("name")
            obj = function.child_by_field_name("expression")
            return (
                _simple(self, name) if name is not None else "",
                self.expr(obj) if obj is not None else None,
            )
        if kind == "conditional_access_expression":
            obj = function.child_by_field_name("condition")
            binding = function.named_children[-1] if function.named_children else None
            name = binding.child_by_field_name("name") if binding is not None else None
            return (
                _simple(self, name) if name is not None else "",
                self.expr(obj) if obj is not None else None,
            )
        if kind == "member_binding_expression":  # inside `a?.B()`: the receiver is `a`
            name = function.child_by_field_name("name")
            holder = function.parent
            obj = holder.child_by_field_name("condition") if holder is not None else None
            return (
                _simple(self, name) if name is not None else "",
                self.expr(obj) if obj is not None else None,
            )
        return "", self.expr(function)

    def call_name(self, node: Node) -> str:
        if node.type == "attribute":  # `[Get("/x")]`: written `@Get` as a decorator is
            name = node.child_by_field_name("name")
            return "@" + _simple(self, name) if name is not None else ""
        if node.type in ("object_creation_expression", "implicit_object_creation_expression"):
            return _type_name(self, node)
        if node.type == "constructor_initializer":
            return ".ctor"
        function = node.child_by_field_name("function")
        if function is None:
            return ""
        if function.type in ("identifier", "generic_name"):
            return _simple(self, function)
        if function.type == "conditional_access_expression":
            binding = function.named_children[-1] if function.named_children else None
            function = binding if binding is not None else function
        name = function.child_by_field_name("name")
        return _simple(self, name) if name is not None else ""

    def arguments(self, node: Node) -> tuple[Arg, ...]:
        args: list[Arg] = []
        for child in node.named_children:
            if child.type != "argument":
                continue
            name = child.child_by_field_name("name")
            value = [c for c in child.named_children if c.type != "comment" and c != name]
            if not value:
                continue
            lowered = self.expr(value[-1])
            args.append(Arg(lowered, self.text(name) if name is not None else None))
        return tuple(args)

    def _new_args(self, node: Node) -> tuple[Arg, ...]:
        arguments = node.child_by_field_name("arguments") or next(
            (c for c in node.named_children if c.type == "argument_list"), None
        )
        args = list(self.arguments(arguments)) if arguments is not None else []
        initializer = node.child_by_field_name("initializer") or next(
            (c for c in node.named_children if c.type == "initializer_expression"), None
        )
        for child in initializer.named_children if initializer is not None else []:
            left = child.child_by_field_name("left")
            right = child.child_by_field_name("right")
            if child.type == "assignment_expression" and left is not None and right is not None:
                args.append(Arg(self.expr(right), self.text(left)))
        return tuple(args)

    def _attribute_args(self, node: Node) -> tuple[Arg, ...]:
        args: list[Arg] = []
        for child in node.named_children:
            if child.type != "attribute_argument":
                continue
            inner = [c for c in child.named_children if c.type != "comment"]
            if not inner:
                continue
            named = len(inner) > 1 and inner[0].type == "identifier"
            args.append(Arg(self.expr(inner[-1]), self.text(inner[0]) if named else None))
        return tuple(args)

    # -- functions ------------------------------------------------------------------

    def function(self, node: Node) -> Function | None:
        start, end = self.span(node)
        if node.type == "parameter_list":  # a primary constructor
            return Function(
                node.id, ".ctor", start, end, lambda: (self._params(node), self._types(node))
            )
        if node.type in ("lambda_expression", "anonymous_method_expression"):
            return Function(
                node.id, "", start, end, lambda: self._lambda(node), lambda: self._returns(node)
            )
        name_node = node.child_by_field_name("name")
        if name_node is None:
            return None
        name = ".ctor" if node.type == "constructor_declaration" else self.text(name_node)
        private = any(c.type == "modifier" and self.text(c) == "private" for c in node.children)
        return Function(
            node.id,
            name,
            start,
            end,
            lambda: self._signature(node),
            lambda: [self.lazy(n) for n in self.returned(node)],
            exported=not private,
        )

    def _lambda(self, node: Node) -> tuple[Params, dict[str, str]]:
        params_node = node.child_by_field_name("parameters")
        if params_node is not None and params_node.type == "parameter_list":
            return self._params(params_node), self._types(params_node)
        if params_node is not None and params_node.type in ("identifier", "implicit_parameter"):
            return [(self.text(params_node), "", None)], {}
        return [], {}

    def _returns(self, node: Node) -> list[Callable[[], Expr]]:
        """A lambda's expression body, or what its block's `return`s give."""
        body = node.child_by_field_name("body")
        if body is not None and body.type != "block":
            return [self.lazy(body)]
        return [self.lazy(n) for n in self.returned(node)]

    def _signature(self, node: Node) -> tuple[Params, dict[str, str]]:
        params_node = node.child_by_field_name("parameters")
        params = self._params(params_node) if params_node is not None else []
        types = self._types(params_node) if params_node is not None else {}
        return params, types

    def _params(self, node: Node) -> Params:
        params: Params = []
        for child in node.named_children:
            if child.type != "parameter":
                continue
            name = child.child_by_field_name("name")
            if name is None:
                continue
            default = next(
                (
                    c
                    for c in child.named_children
                    if c.prev_sibling is not None and c.prev_sibling.type == "="
                ),
                None,
            )
            star = (
                "*"
                if any(c.type == "params" or self.text(c) == "params" for c in child.children[:2])
                else ""
            )
            params.append(
                (self.text(name), star, self.expr(default) if default is not None else None)
            )
        return params

    def _types(self, node: Node) -> dict[str, str]:
        """Declared parameter types (`PrtgClient client`, `IOptions<PrtgOptions> o`)."""
        found: dict[str, str] = {}
        for child in node.named_children:
            kind = child.child_by_field_name("type") if child.type == "parameter" else None
            name = child.child_by_field_name("name") if child.type == "parameter" else None
            if kind is not None and name is not None:
                found[self.text(name)] = _written_type(self, kind)
        return found

    # -- assignments and declarations ------------------------------------------------

    def targets(self, node: Node) -> list[tuple[str, Expr | None, int | str]]:
        return scope.targets(self, node)

    def imports(self, node: Node) -> Iterator[tuple[str, str]]:
        """`using A = Noc.Prtg.Client;` names a type; `using Noc.Prtg;` opens a namespace
        (its types are used by their own names: nothing to map)."""
        alias = node.child_by_field_name("name")
        target = next(
            (
                c
                for c in node.named_children
                if c.type in ("qualified_name", "identifier") and c != alias
            ),
            None,
        )
        if alias is not None and target is not None:
            yield self.text(alias), self.text(target)

    def class_bases(self, node: Node) -> tuple[str, ...]:
        bases = next((c for c in node.named_children if c.type == "base_list"), None)
        if bases is None:
            return ()
        return tuple(_written_type(self, c) for c in bases.named_children if c.type != "comment")

    # -- literals ---------------------------------------------------------------------

    def string_root(self, node: Node) -> Node:
        return scope.string_root(self, node)

    def string_context(self, node: Node) -> str:
        return scope.string_context(self, node)


def _simple(lowering: Lowering, node: Node) -> str:
    """A name without its type arguments (`GetFromJsonAsync<T>` -> `GetFromJsonAsync`)."""
    if node.type == "generic_name" and node.named_children:
        return lowering.text(node.named_children[0])
    if node.type == "qualified_name":
        name = node.child_by_field_name("name")
        return _simple(lowering, name) if name is not None else lowering.text(node)
    return lowering.text(node)


def _written_type(lowering: Lowering, node: Node) -> str:
    """A type as declared, without type arguments and `?` (`IOptions<X>?` -> `IOptions`)."""
    if node.type == "nullable_type" and node.named_children:
        return _written_type(lowering, node.named_children[0])
    if node.type == "generic_name" and node.named_children:
        return lowering.text(node.named_children[0])
    if node.type == "qualified_name":
        qualifier = node.child_by_field_name("qualifier")
        name = node.child_by_field_name("name")
        if qualifier is not None and name is not None:
            return lowering.text(qualifier) + "." + _written_type(lowering, name)
    return lowering.text(node)


def _type_name(lowering: Lowering, node: Node) -> str:
    """The type a `new` makes; a target-typed `new(...)` takes its declaration's type."""
    kind = node.child_by_field_name("type")
    if kind is not None:
        return _written_type(lowering, kind).rsplit(".", 1)[-1]
    holder = node.parent
    while holder is not None and holder.type in ("variable_declarator", "arrow_expression_clause"):
        holder = holder.parent
    if holder is not None and holder.type == "variable_declaration":
        declared = holder.child_by_field_name("type")
        if declared is not None and declared.type != "implicit_type":
            return _written_type(lowering, declared).rsplit(".", 1)[-1]
    if holder is not None and holder.type in ("method_declaration", "local_function_statement"):
        declared = holder.child_by_field_name("returns") or holder.child_by_field_name("type")
        if declared is not None:
            return _written_type(lowering, declared).rsplit(".", 1)[-1]
    return ""


def _properties(initializer: Node) -> bool:
    """Whether an initializer sets properties (`{ P = v }`) rather than listing elements."""
    named = [c for c in initializer.named_children if c.type != "comment"]
    return not named or all(
        c.type == "assignment_expression"
        and (left := c.child_by_field_name("left")) is not None
        and left.type == "identifier"
        for c in named
    )


def _key(lowering: Lowering, node: Node) -> Str:
    start, end = lowering.span(node)
    return Str((Lit(lowering.text(node), start),), start, end)


_EXPRESSIONS: dict[str, Callable[[CSharpLowering, Node], Expr]] = {
    "string_literal": CSharpLowering._string,
    "verbatim_string_literal": CSharpLowering._string,
    "raw_string_literal": CSharpLowering._string,
    "interpolated_string_expression": CSharpLowering._interpolated,
    "identifier": CSharpLowering._identifier,
    "generic_name": CSharpLowering._generic,
    "predefined_type": CSharpLowering._identifier,
    "integer_literal": CSharpLowering._number,
    "real_literal": CSharpLowering._number,
    "character_literal": CSharpLowering._char,
    "member_access_expression": CSharpLowering._member,
    "conditional_access_expression": CSharpLowering._conditional_access,
    "element_access_expression": CSharpLowering._element,
    "binary_expression": CSharpLowering._binary,
    "conditional_expression": CSharpLowering._conditional,
    "parenthesized_expression": CSharpLowering._inner,
    "await_expression": CSharpLowering._inner,
    "postfix_unary_expression": CSharpLowering._inner,
    "cast_expression": CSharpLowering._inner,
    "checked_expression": CSharpLowering._inner,
    "arrow_expression_clause": CSharpLowering._inner,
    "invocation_expression": CSharpLowering._call_expr,
    "object_creation_expression": CSharpLowering._creation,
    "implicit_object_creation_expression": CSharpLowering._creation,
    "anonymous_object_creation_expression": CSharpLowering._anonymous,
    "array_creation_expression": CSharpLowering._array,
    "implicit_array_creation_expression": CSharpLowering._array,
    "stackalloc_expression": CSharpLowering._array,
    "collection_expression": CSharpLowering._collection,
    "initializer_expression": CSharpLowering._initializer,
}

LOWERING = CSharpLowering
