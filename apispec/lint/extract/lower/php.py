"""PHP lowered to the IR: interpolated strings, heredocs, arrays, `new`, static calls.

Variables are named without their `$`; `$this->http` is a field of the object and
`self::PAGE_SIZE` a constant of the class; `Http::get(...)` is a call on the name
`Http`, which a `use` statement imports (namespaces are dotted: `GuzzleHttp.Client`).
An array with `=>` keys is a mapping, one without a list. `array_push($a, $x)`
appends to `$a`; `array_map(fn ($id) => "...", $ids)` is a list of the literal.
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
    Params,
    Str,
)
from apispec.lint.extract.lower import Lowering, php_scope
from apispec.lint.extract.lower.strings import c_escapes, dedent

if TYPE_CHECKING:
    from tree_sitter import Node

_CALLS = frozenset(
    {
        "function_call_expression",
        "member_call_expression",
        "nullsafe_member_call_expression",
        "scoped_call_expression",
        "object_creation_expression",
    }
)
# functions that change the array given first (by reference)
_APPENDS = frozenset({"array_push", "array_unshift"})
_SKIP = frozenset({"comment", "text_interpolation"})


class PhpLowering(Lowering):
    language = "php"
    query_name = "php"  # also for the grammar of code without `<?php`
    self_names = frozenset({"this", "self", "static"})
    function_types = frozenset(
        {"function_definition", "method_declaration", "arrow_function", "anonymous_function"}
    )
    call_types = _CALLS

    def expr(self, node: Node) -> Expr:
        method = _EXPRESSIONS.get(node.type)
        return method(self, node) if method is not None else self.opaque(node)

    # -- names ----------------------------------------------------------------------

    def _variable(self, node: Node) -> Expr:
        start, end = self.span(node)
        return Name(self.text(node).lstrip("$"), start, end)

    def _name(self, node: Node) -> Expr:
        start, end = self.span(node)
        return Name(_dotted(self.text(node)), start, end)

    def _member(self, node: Node) -> Expr:
        """`$this->http`, `$obj?->prop`."""
        obj = node.child_by_field_name("object")
        name = node.child_by_field_name("name")
        start, end = self.span(node)
        if obj is None or name is None:
            return self.opaque(node)
        return Attr(self.expr(obj), self.text(name).lstrip("$"), start, end)

    def _scoped(self, node: Node) -> Expr:
        """`self::PAGE_SIZE`, `static::$base`, `Config::URL`; `Foo::class` names a class."""
        named = [c for c in node.named_children if c.type != "comment"]
        start, end = self.span(node)
        if len(named) != 2:
            return self.opaque(node)
        scope, member = named
        written = self.text(member).lstrip("$")
        if written == "class":
            return self.opaque(node)
        return Attr(self._scope(scope), written, start, end)

    def _scope(self, node: Node) -> Name:
        start, end = self.span(node)
        return Name(_dotted(self.text(node)), start, end)

    def _promoted(self, node: Node) -> Expr:
        """A promoted constructor parameter as the value of its property: the parameter."""
        name = node.child_by_field_name("name")
        return self._variable(name) if name is not None else self.opaque(node)

    def _number(self, node: Node) -> Expr:
        start, end = self.span(node)
        return Str((Lit(self.text(node).replace("_", ""), start),), start, end)

    # -- strings --------------------------------------------------------------------

    def string(self, node: Node) -> Expr:
        """A single-quoted string: only `\\'` and `\\\\` are escapes."""
        start, end = self.span(node)
        pieces: list[Lit | Expr] = []
        for child in node.children:
            if child.type == "string_content":
                pieces.append(Lit(self.text(child), self.char(child.start_byte)))
            elif child.type == "escape_sequence":
                text = self.text(child)
                at = self.char(child.start_byte)
                pieces.append(
                    Lit(text[1:], at, (at,)) if text in ("\\'", "\\\\") else Lit(text, at)
                )
        return Str(tuple(pieces), start, end)

    def _encapsed(self, node: Node) -> Expr:
        start, end = self.span(node)
        quotes = [c for c in node.children if c.type == '"']
        inside = (quotes[0].end_byte, quotes[-1].start_byte) if len(quotes) >= 2 else None
        if inside is None:
            return Str((), start, end)
        return Str(tuple(self._pieces(node, *inside)), start, end)

    def _pieces(self, node: Node, start: int, end: int) -> Iterator[Lit | Expr]:
        """A double-quoted or heredoc text from byte `start` to `end`: literal runs (every
        byte between the interpolations, escapes decoded) and interpolations."""
        at = start
        for child in node.children:
            if child.end_byte <= start or child.start_byte >= end:
                continue
            kind = child.type
            if not child.is_named or kind in ("string_content", "escape_sequence", *_SKIP):
                continue
            braced = child.prev_sibling is not None and child.prev_sibling.type == "{"
            opens = child.start_byte - 1 if braced else child.start_byte
            if opens > at:
                yield self._literal(at, opens)
            until = child.end_byte + 1 if braced else child.end_byte
            yield Interp(self.expr(child), self.char(opens), self.char(until))
            at = until
        if end > at:
            yield self._literal(at, end)

    def _literal(self, start: int, end: int) -> Lit:
        raw = self.data[start:end].decode("utf-8", "surrogatepass")
        return c_escapes(raw, self.char(start), continuation=False)

    def _heredoc(self, node: Node) -> Expr:
        body = node.child_by_field_name("value")
        closing = node.child_by_field_name("end_tag")
        start, end = self.span(node)
        if body is None:
            return Str((), start, end)
        if node.type == "nowdoc":
            inner = self.data[body.start_byte : body.end_byte].decode("utf-8", "surrogatepass")
            pieces: list[Lit | Expr] = [Lit(inner, self.char(body.start_byte))]
        else:
            pieces = list(self._pieces(body, body.start_byte, body.end_byte))
        if pieces and isinstance(pieces[0], Lit) and pieces[0].text.startswith("\n"):
            first = pieces[0]  # the line end after `<<<EOT`
            offsets = first.offsets[1:] if first.offsets else None
            pieces[0] = Lit(first.text[1:], first.offset(1), offsets)
        if pieces and isinstance(pieces[-1], Lit) and pieces[-1].text.endswith("\n"):
            last = pieces[-1]
            pieces[-1] = Lit(
                last.text[:-1], last.start, last.offsets[:-1] if last.offsets else None
            )
        if closing is not None and closing.start_point.column:  # PHP 7.3: indented closer
            pieces = dedent(pieces, closing.start_point.column)
        return Str(tuple(p for p in pieces if not isinstance(p, Lit) or p.text), start, end)

    # -- operators ------------------------------------------------------------------

    def _binary(self, node: Node) -> Expr:
        left = node.child_by_field_name("left")
        right = node.child_by_field_name("right")
        operator = node.child_by_field_name("operator")
        start, end = self.span(node)
        if left is None or right is None or operator is None:
            return self.opaque(node)
        op = self.text(operator)
        if op == ".":
            parts: list[Expr] = []
            for side in (left, right):
                value = self.expr(side)
                parts.extend(value.parts if isinstance(value, Concat) else (value,))
            return Concat(tuple(parts), start, end)
        if op in ("??", "?:", "||", "or"):
            return Cond((self.expr(left), self.expr(right)), start, end)
        if op == "+" and left.type == right.type == "array_creation_expression":
            return self._union(left, right, start, end)
        return self.opaque(node)

    def _union(self, left: Node, right: Node, start: int, end: int) -> Expr:
        items: list[tuple[Expr | None, Expr]] = []
        for side in (right, left):  # `$a + $b`: the left array's keys win
            value = self.expr(side)
            if isinstance(value, Mapping):
                items.extend(value.items)
        return Mapping(tuple(items), start, end)

    def _conditional(self, node: Node) -> Expr:
        start, end = self.span(node)
        body = node.child_by_field_name("body")
        alternative = node.child_by_field_name("alternative")
        condition = node.child_by_field_name("condition")
        first = body if body is not None else condition  # `$a ?: $b`: $a when truthy
        options = [self.expr(c) for c in (first, alternative) if c is not None]
        return Cond(tuple(options), start, end) if options else self.opaque(node)

    def _inner(self, node: Node) -> Expr:
        """`(string) $x`, `($x)`, `@$x`, `clone $x`: the expression inside."""
        named = [c for c in node.named_children if c.type not in ("comment", "cast_type")]
        return self.expr(named[-1]) if named else self.opaque(node)

    def _subscript(self, node: Node) -> Expr:
        named = [c for c in node.named_children if c.type != "comment"]
        start, end = self.span(node)
        if len(named) != 2:
            return self.opaque(node)
        return Index(self.expr(named[0]), self.expr(named[1]), start, end)

    def _array(self, node: Node) -> Expr:
        start, end = self.span(node)
        elements = [c for c in node.named_children if c.type == "array_element_initializer"]
        keyed = any(_is_pair(e) for e in elements)
        if not keyed:
            items = tuple(
                self.expr(named[0])
                for e in elements
                if (named := [c for c in e.named_children if c.type not in _SKIP])
                and named[0].type != "variadic_unpacking"
            )
            return ListE(items, start, end)
        entries: list[tuple[Expr | None, Expr]] = []
        for element in elements:
            named = [c for c in element.named_children if c.type not in _SKIP]
            if len(named) == 2 and _is_pair(element):
                entries.append((self.expr(named[0]), self.expr(named[1])))
            elif len(named) == 1 and named[0].type == "variadic_unpacking":
                inner = [c for c in named[0].named_children if c.type not in _SKIP]
                if inner:
                    entries.append((None, self.expr(inner[0])))
        return Mapping(tuple(entries), start, end)

    def _match(self, node: Node) -> Expr:
        """`match ($x) { 'a' => ..., default => ... }`: any of its arms."""
        start, end = self.span(node)
        body = node.child_by_field_name("body")
        options = []
        for arm in body.named_children if body is not None else []:
            value = arm.child_by_field_name("return_expression")
            if value is not None:
                options.append(self.expr(value))
        return Cond(tuple(options), start, end) if options else self.opaque(node)

    # -- calls ----------------------------------------------------------------------

    def _call_expr(self, node: Node) -> Expr:
        callee = self.call_name(node)
        if callee == "array_map":
            mapped = self._mapped(node)
            if mapped is not None:
                return mapped
        call = self.call(node)
        return call if call is not None else self.opaque(node)

    def _mapped(self, node: Node) -> Expr | None:
        """`array_map(fn ($id) => "parentid = {$id}", $ids)`: two copies of the literal
        (what a join puts between elements shows)."""
        arguments = node.child_by_field_name("arguments")
        first = (
            _arguments(arguments)[0] if arguments is not None and _arguments(arguments) else None
        )
        inner = _argument_value(first) if first is not None else None
        if inner is None or inner.type != "arrow_function":
            return None
        body = inner.child_by_field_name("body")
        if body is None:
            return None
        start, end = self.span(node)
        element = self.expr(body)
        return ListE((element, element), start, end)

    def call(self, node: Node) -> CallE | None:
        start, end = self.span(node)
        kind = node.type
        arguments = node.child_by_field_name("arguments")
        receiver: Expr | None = None
        if kind == "function_call_expression":
            function = node.child_by_field_name("function")
            if function is None:
                return None
            if function.type not in ("name", "qualified_name"):
                receiver = self.expr(function)  # `$handler(...)`
                callee = ""
            else:
                callee = _dotted(self.text(function)).rsplit(".", 1)[-1]
                if callee in _APPENDS and arguments is not None:
                    return self._append(node, callee, arguments)
        elif kind == "object_creation_expression":
            named = [c for c in node.named_children if c.type not in _SKIP and c != arguments]
            if not named or named[0].type not in ("name", "qualified_name"):
                return None
            callee = _dotted(self.text(named[0]))
            arguments = next((c for c in node.named_children if c.type == "arguments"), None)
        else:
            name = node.child_by_field_name("name")
            holder = node.child_by_field_name("object") or node.child_by_field_name("scope")
            if name is None or holder is None:
                return None
            callee = self.text(name)
            receiver = (
                self.expr(holder) if kind != "scoped_call_expression" else self._scope(holder)
            )
        if arguments is None:
            return CallE(callee, receiver, (), start, end, node.id)
        return CallE(callee, receiver, None, start, end, node.id, lambda: self.arguments(arguments))

    def _append(self, node: Node, callee: str, arguments: Node) -> CallE | None:
        """`array_push($parts, $x)`: an append to `$parts`."""
        args = self.arguments(arguments)
        if not args:
            return None
        start, end = self.span(node)
        return CallE(callee, args[0].value, args[1:], start, end, node.id)

    def call_name(self, node: Node) -> str:
        kind = node.type
        if kind == "function_call_expression":
            function = node.child_by_field_name("function")
            if function is None or function.type not in ("name", "qualified_name"):
                return ""
            return _dotted(self.text(function)).rsplit(".", 1)[-1]
        if kind == "object_creation_expression":
            named = [c for c in node.named_children if c.type in ("name", "qualified_name")]
            return _dotted(self.text(named[0])) if named else ""
        name = node.child_by_field_name("name")
        return self.text(name) if name is not None else ""

    def arguments(self, node: Node) -> tuple[Arg, ...]:
        args: list[Arg] = []
        for child in _arguments(node):
            value = _argument_value(child)
            if value is None:
                continue
            name = child.child_by_field_name("name")
            if value.type == "variadic_unpacking":
                inner = [c for c in value.named_children if c.type not in _SKIP]
                if inner:
                    args.append(Arg(self.expr(inner[0]), None, "*"))
            elif name is not None:
                args.append(Arg(self.expr(value), self.text(name)))
            else:
                args.append(Arg(self.expr(value)))
        return tuple(args)

    # -- definitions ----------------------------------------------------------------

    def function(self, node: Node) -> Function | None:
        start, end = self.span(node)
        if node.type in ("arrow_function", "anonymous_function"):
            return Function(
                node.id,
                "",
                start,
                end,
                lambda: self._signature(node),
                lambda: self._returns(node),
                exported=False,
            )
        name_node = node.child_by_field_name("name")
        if name_node is None:
            return None
        name = self.text(name_node)
        return Function(
            node.id, name, start, end, lambda: self._signature(node), lambda: self._returns(node)
        )

    def _signature(self, node: Node) -> tuple[Params, dict[str, str]]:
        params_node = node.child_by_field_name("parameters")
        params: Params = []
        types: dict[str, str] = {}
        for child in params_node.named_children if params_node is not None else []:
            name_node = child.child_by_field_name("name")
            if name_node is None:
                continue
            name = self.text(name_node).lstrip("$&")
            default = child.child_by_field_name("default_value")
            kind = "*" if child.type == "variadic_parameter" else ""
            params.append((name, kind, self.expr(default) if default is not None else None))
            written = child.child_by_field_name("type")
            if written is not None:
                types[name] = _dotted(self.text(written).lstrip("?").split("|")[0])
        return params, types

    def _returns(self, node: Node) -> list[Callable[[], Expr]]:
        """What a function returns; an arrow function's body is its value."""
        if node.type == "arrow_function":
            body = node.child_by_field_name("body")
            return [self.lazy(body)] if body is not None else []
        return [self.lazy(n) for n in self.returned(node)]

    def targets(self, node: Node) -> list[tuple[str, Expr | None, int | str]]:
        kind = node.type
        if kind == "variable_name":
            parent = node.parent
            name = self.text(node).lstrip("$")
            if parent is not None and parent.type == "property_promotion_parameter":
                return [("@" + name, None, -1)]  # `private string $base` in a constructor
            return [(name, None, -1)]  # (a property's default: a field of its class)
        if kind == "name":
            return [(self.text(node), None, -1)]
        if kind in ("member_access_expression", "nullsafe_member_access_expression"):
            obj = node.child_by_field_name("object")
            member = node.child_by_field_name("name")
            if obj is None or member is None:
                return []
            if self.text(obj) == "$this":
                return [("@" + self.text(member), None, -1)]
            return [(self.text(node), None, -1)]
        if kind == "scoped_property_access_expression":
            named = [c for c in node.named_children if c.type not in _SKIP]
            if len(named) == 2 and self.text(named[0]) in ("self", "static"):
                return [("@" + self.text(named[1]).lstrip("$"), None, -1)]
            return []
        if kind == "subscript_expression":
            named = [c for c in node.named_children if c.type not in _SKIP]
            if len(named) != 2:
                return []  # `$parts[] = $x`: an append (php.scm)
            inner = self.targets(named[0])
            if len(inner) == 1 and inner[0][1] is None:
                return [(inner[0][0], self.expr(named[1]), -1)]
            return []
        if kind in ("list_literal", "array_creation_expression"):
            found: list[tuple[str, Expr | None, int | str]] = []
            elements = [c for c in node.named_children if c.type not in _SKIP]
            for index, element in enumerate(elements):
                inner_nodes = [c for c in element.named_children if c.type not in _SKIP]
                target = inner_nodes[-1] if inner_nodes else element
                for key, item, _ in self.targets(target):
                    if item is None:
                        found.append((key, None, index))
            return found
        return []

    def imports(self, node: Node) -> Iterator[tuple[str, str]]:
        if node.type != "namespace_use_declaration":
            yield from self._included(node)
            return
        prefix = ""
        group = node.child_by_field_name("body")
        if group is not None:
            prefix = "".join(
                self.text(c) for c in node.named_children if c.type == "namespace_name"
            )
        clauses = (group or node).named_children
        for clause in clauses:
            if clause.type != "namespace_use_clause":
                continue
            written = [c for c in clause.named_children if c.type in ("name", "qualified_name")]
            alias = clause.child_by_field_name("alias")
            if not written:
                continue
            full = _dotted((prefix + "\\" if prefix else "") + self.text(written[0]))
            local = self.text(alias) if alias is not None else full.rsplit(".", 1)[-1]
            yield local, full

    def _included(self, node: Node) -> Iterator[tuple[str, str]]:
        """`require_once __DIR__ . '/lib/prtg.php'`: the whole file is in scope."""
        strings = [c for c in _descendants(node) if c.type in ("string", "encapsed_string")]
        if not strings:
            return
        path = "".join(
            self.text(c) for c in _descendants(strings[-1]) if c.type == "string_content"
        )
        parts = [p for p in path.removesuffix(".php").split("/") if p not in ("", ".", "..")]
        if parts:
            module = ".".join(parts)
            yield "*" + module, module

    def class_bases(self, node: Node) -> tuple[str, ...]:
        found: list[str] = []
        for child in node.named_children:
            if child.type in ("base_clause", "class_interface_clause"):
                found.extend(
                    _dotted(self.text(c))
                    for c in child.named_children
                    if c.type in ("name", "qualified_name")
                )
        return tuple(found)

    # -- where a literal stands -----------------------------------------------------

    def string_root(self, node: Node) -> Node:
        return php_scope.string_root(self, node)

    def string_context(self, node: Node) -> str:
        return php_scope.string_context(self, node)


def _dotted(written: str) -> str:
    """`\\GuzzleHttp\\Client` -> `GuzzleHttp.Client` (a namespace path as imports name it)."""
    return written.strip().lstrip("\\").replace("\\", ".")


def _is_pair(element: Node) -> bool:
    return any(c.type == "=>" for c in element.children)


def _arguments(node: Node) -> list[Node]:
    return [c for c in node.named_children if c.type == "argument"]


def _argument_value(node: Node) -> Node | None:
    name = node.child_by_field_name("name")
    named = [c for c in node.named_children if c.type not in _SKIP and c != name]
    return named[-1] if named else None


def _descendants(node: Node) -> Iterator[Node]:
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        stack.extend(reversed(current.children))


_EXPRESSIONS: dict[str, Callable[[PhpLowering, Node], Expr]] = {
    "string": PhpLowering.string,
    "encapsed_string": PhpLowering._encapsed,
    "heredoc": PhpLowering._heredoc,
    "nowdoc": PhpLowering._heredoc,
    "variable_name": PhpLowering._variable,
    "name": PhpLowering._name,
    "qualified_name": PhpLowering._name,
    "member_access_expression": PhpLowering._member,
    "nullsafe_member_access_expression": PhpLowering._member,
    "class_constant_access_expression": PhpLowering._scoped,
    "scoped_property_access_expression": PhpLowering._scoped,
    "integer": PhpLowering._number,
    "float": PhpLowering._number,
    "binary_expression": PhpLowering._binary,
    "conditional_expression": PhpLowering._conditional,
    "parenthesized_expression": PhpLowering._inner,
    "cast_expression": PhpLowering._inner,
    "error_suppression_expression": PhpLowering._inner,
    "clone_expression": PhpLowering._inner,
    "subscript_expression": PhpLowering._subscript,
    "array_creation_expression": PhpLowering._array,
    "match_expression": PhpLowering._match,
    "property_promotion_parameter": PhpLowering._promoted,
    **dict.fromkeys(_CALLS, PhpLowering._call_expr),
}

LOWERING = PhpLowering
