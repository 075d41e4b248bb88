"""Ruby lowered to the IR: interpolation, heredocs, calls without parentheses, bare hashes.

Ruby calls a method without parentheses (`conn.get 'devices'`) and without a
receiver inside its class (`get(path)` is `self.get(path)`); its trailing hash
argument (`conn.get('x', limit: 10)`) is one positional mapping and, for methods
that take keywords, its symbol keys are keywords: both are lowered. A block's
first parameter is what the call yields (`{ |req| req.params['x'] = ... }`), an
iterator's block a loop (ruby.scm). `@x` is a field of the object, `self.class`
the class around it, `Net::HTTP::Get` one name.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import cached_property
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
    Name,
    Params,
    Str,
)
from apispec.lint.extract.lower import Lowering
from apispec.lint.extract.lower.ruby_strings import heredoc_lines, single_quoted
from apispec.lint.extract.lower.strings import c_escapes

if TYPE_CHECKING:
    from tree_sitter import Node

# Iterators whose block maps each element to a value (`ids.map { |i| "p = #{i}" }`)
_MAPPERS = frozenset({"map", "collect", "flat_map", "filter_map"})
# Rails and Sinatra route DSLs: a verb called bare with a handler or a `to:` target
_ROUTE_VERBS = frozenset(
    {"get", "post", "put", "patch", "delete", "head", "options", "match", "root", "mount"}
)
_ROUTE_KEYS = frozenset({"to", "via", "controller", "action", "as", "on"})
_COMPARE = frozenset({"==", "!=", "===", "=~", "!~", "<=>"})
_SINGLE_QUOTED = ("'", "%q", "%w", "%i")


class RubyLowering(Lowering):
    language = "ruby"
    self_names = frozenset({"self"})
    function_types = frozenset({"method", "singleton_method"})
    call_types = frozenset({"call"})

    def expr(self, node: Node) -> Expr:
        method = _EXPRESSIONS.get(node.type)
        return method(self, node) if method is not None else self.opaque(node)

    # -- names ----------------------------------------------------------------------

    def _name(self, node: Node) -> Expr:
        start, end = self.span(node)
        return Name(self.text(node).lstrip(":"), start, end)

    def _scoped(self, node: Node) -> Expr:
        """`Net::HTTP::Get`, `::Faraday`: one constant name."""
        start, end = self.span(node)
        return Name(self.text(node).lstrip(":").replace(" ", ""), start, end)

    def _field(self, node: Node) -> Expr:
        """`@conn`: an attribute of the object (`@@x` of the class)."""
        start, end = self.span(node)
        return Attr(Name("self", start, start), self.text(node).lstrip("@"), start, end)

    def _number(self, node: Node) -> Expr:
        start, end = self.span(node)
        return Str((Lit(self.text(node).replace("_", ""), start),), start, end)

    def _symbol(self, node: Node) -> Expr:
        """`:delete`, `limit:`: the symbol's name as text (a method, a key)."""
        start, end = self.span(node)
        text = self.text(node)
        if text.startswith(":"):
            return Str((Lit(text[1:], start + 1),), start, end)
        return Str((Lit(text.rstrip(":"), start),), start, end)

    # -- strings --------------------------------------------------------------------

    def string(self, node: Node) -> Expr:
        start, end = self.span(node)
        opener = node.children[0] if node.children else None
        raw = opener is not None and self.text(opener).startswith(_SINGLE_QUOTED)
        return Str(tuple(self._pieces(node.children, raw)), start, end)

    def _pieces(self, children: list[Node], raw: bool) -> Iterator[Lit | Expr]:
        for child in children:
            kind = child.type
            if kind in ("string_content", "heredoc_content"):
                at = self.char(child.start_byte)
                text = self.text(child)
                yield single_quoted(text, at) if raw else c_escapes(text, at)
            elif kind == "escape_sequence":
                yield c_escapes(self.text(child), self.char(child.start_byte))
            elif kind == "interpolation":
                inner = [c for c in child.named_children if c.type != "comment"]
                if inner:
                    at, until = self.span(child)
                    yield Interp(self.expr(inner[-1]), at, until)

    def _chained(self, node: Node) -> Expr:
        start, end = self.span(node)
        return Concat(tuple(self.expr(c) for c in node.named_children), start, end)

    def _words(self, node: Node) -> Expr:
        """`%w[a b]`: a list of words."""
        start, end = self.span(node)
        items = []
        for child in node.named_children:
            at, until = self.span(child)
            items.append(Str((Lit(self.text(child), at),), at, until))
        return ListE(tuple(items), start, end)

    @cached_property
    def _heredocs(self) -> tuple[dict[int, Node], dict[int, str]]:
        """Each heredoc's opener -> its body, and each body -> its opener's text (bodies
        follow the line of their openers, in the openers' order)."""
        openers: list[Node] = []
        bodies: list[Node] = []
        stack = [self.parsed.root]
        while stack:
            node = stack.pop()
            if node.type == "heredoc_beginning":
                openers.append(node)
            elif node.type == "heredoc_body":
                bodies.append(node)
            else:
                stack.extend(node.children)
        openers.sort(key=lambda n: n.start_byte)
        bodies.sort(key=lambda n: n.start_byte)
        pairs = list(zip(openers, bodies, strict=False))
        return {o.id: b for o, b in pairs}, {b.id: self.text(o) for o, b in pairs}

    def _heredoc_opener(self, node: Node) -> Expr:
        body = self._heredocs[0].get(node.id)
        if body is None:
            return self.opaque(node)
        return self._heredoc(body, self.text(node))

    def _heredoc_body(self, node: Node) -> Expr:
        return self._heredoc(node, self._heredocs[1].get(node.id, "<<~"))

    def _heredoc(self, body: Node, opener: str) -> Expr:
        """A heredoc's text: its lines without the opening line end and the closing line;
        `<<~` strips the common indentation."""
        pieces = heredoc_lines(list(self._pieces(body.children, "'" in opener)), opener)
        start, end = self.span(body)
        return Str(tuple(pieces), start, end)

    # -- operators ------------------------------------------------------------------

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
        if op in ("||", "or"):
            return Cond((self.expr(left), self.expr(right)), start, end)
        if op in ("&&", "and"):
            return self.expr(right)
        if op == "%":
            if right.type == "array":
                args = tuple(Arg(self.expr(c)) for c in right.named_children if c.type != "comment")
            else:
                args = (Arg(self.expr(right)),)
            return Format(self.expr(left), args, "printf", start, end)
        return self.opaque(node)

    def _conditional(self, node: Node) -> Expr:
        start, end = self.span(node)
        options = [
            self.expr(c)
            for c in (
                node.child_by_field_name("consequence"),
                node.child_by_field_name("alternative"),
            )
            if c is not None
        ]
        return Cond(tuple(options), start, end) if options else self.opaque(node)

    def _assigned(self, node: Node) -> Expr:
        """`@conn ||= Faraday.new(...)` as an expression: what it assigns."""
        right = node.child_by_field_name("right")
        return self.expr(right) if right is not None else self.opaque(node)

    def _parenthesized(self, node: Node) -> Expr:
        inner = [c for c in node.named_children if c.type != "comment"]
        return self.expr(inner[-1]) if inner else self.opaque(node)

    def _element(self, node: Node) -> Expr:
        obj = node.child_by_field_name("object")
        keys = [c for c in node.named_children if c.type != "comment" and c != obj]
        start, end = self.span(node)
        if obj is None or len(keys) != 1:
            return self.opaque(node)
        return Index(self.expr(obj), self.expr(keys[0]), start, end)

    # -- collections ----------------------------------------------------------------

    def _array(self, node: Node) -> Expr:
        start, end = self.span(node)
        items = tuple(
            self.expr(c) for c in node.named_children if c.type not in ("comment", "splat_argument")
        )
        return ListE(items, start, end)

    def _hash(self, node: Node) -> Expr:
        start, end = self.span(node)
        return Mapping(tuple(self._entries(node.named_children)), start, end)

    def _entries(self, children: list[Node]) -> Iterator[tuple[Expr | None, Expr]]:
        for child in children:
            if child.type == "pair":
                key = child.child_by_field_name("key")
                value = child.child_by_field_name("value")
                if key is None:
                    continue
                if value is None:  # `{ name: }`: the local of that name
                    at, until = self.span(key)
                    yield self.expr(key), Name(self.text(key).rstrip(":"), at, until)
                else:
                    yield self.expr(key), self.expr(value)
            elif child.type == "hash_splat_argument":
                inner = [c for c in child.named_children if c.type != "comment"]
                if inner:
                    yield None, self.expr(inner[0])

    # -- calls ----------------------------------------------------------------------

    def _call_expr(self, node: Node) -> Expr:
        method = node.child_by_field_name("method")
        receiver = node.child_by_field_name("receiver")
        name = self.text(method) if method is not None else ""
        if name == "class" and receiver is not None and receiver.type == "self":
            owner = _class_name(node, self.text)
            if owner is not None:  # `self.class`: the class around it
                start, end = self.span(node)
                return Name(owner, start, end)
        block = node.child_by_field_name("block")
        if name in _MAPPERS and block is not None:
            body = _block_value(block)
            if body is not None:  # two copies: what a join puts between elements shows
                start, end = self.span(node)
                element = self.expr(body)
                return ListE((element, element), start, end)
        call = self.call(node)
        return call if call is not None else self.opaque(node)

    def call(self, node: Node) -> CallE | None:
        start, end = self.span(node)
        if node.type == "binary":  # `list << item`
            left = node.child_by_field_name("left")
            right = node.child_by_field_name("right")
            if left is None or right is None:
                return None
            item = self.expr(right)
            return CallE("<<", self.expr(left), (Arg(item),), start, end, node.id)
        method = node.child_by_field_name("method")
        if method is None:
            return None
        receiver_node = node.child_by_field_name("receiver")
        receiver = self.expr(receiver_node) if receiver_node is not None else None
        callee = self.text(method)
        arguments = node.child_by_field_name("arguments")
        if arguments is None:
            return CallE(callee, receiver, (), start, end, node.id)
        return CallE(callee, receiver, None, start, end, node.id, lambda: self.arguments(arguments))

    def call_name(self, node: Node) -> str:
        if node.type == "binary":
            return "<<"
        method = node.child_by_field_name("method")
        return self.text(method) if method is not None else ""

    def arguments(self, node: Node) -> tuple[Arg, ...]:
        """Positional arguments, the trailing hash as one mapping, and its symbol keys as
        keywords too (a method with keyword parameters takes them so)."""
        args: list[Arg] = []
        keywords: list[Arg] = []
        pairs: list[Node] = []
        mapping_at = -1
        for child in node.named_children:
            kind = child.type
            if kind in ("comment", "block_argument"):
                continue
            if kind in ("pair", "hash_splat_argument"):
                if mapping_at < 0:
                    mapping_at = len(args)
                pairs.append(child)
                keywords.extend(self._keyword(child))
            elif kind == "splat_argument":
                inner = [c for c in child.named_children if c.type != "comment"]
                if inner:
                    args.append(Arg(self.expr(inner[0]), None, "*"))
            else:
                args.append(Arg(self.expr(child)))
        if pairs:
            start, _ = self.span(pairs[0])
            _, end = self.span(pairs[-1])
            args.insert(mapping_at, Arg(Mapping(tuple(self._entries(pairs)), start, end)))
        return (*args, *keywords)

    def _keyword(self, node: Node) -> Iterator[Arg]:
        if node.type == "hash_splat_argument":
            inner = [c for c in node.named_children if c.type != "comment"]
            if inner:
                yield Arg(self.expr(inner[0]), None, "**")
            return
        key = node.child_by_field_name("key")
        value = node.child_by_field_name("value")
        if key is None or key.type not in ("hash_key_symbol", "simple_symbol"):
            return
        name = self.text(key).strip(":")
        if value is None:
            at, until = self.span(key)
            yield Arg(Name(name, at, until), name)
        else:
            yield Arg(self.expr(value), name)

    # -- definitions ----------------------------------------------------------------

    def function(self, node: Node) -> Function | None:
        name_node = node.child_by_field_name("name")
        if name_node is None:
            return None
        start, end = self.span(node)
        name = self.text(name_node)
        return Function(
            node.id, name, start, end, lambda: self._signature(node), lambda: self._returns(node)
        )

    def _signature(self, node: Node) -> tuple[Params, dict[str, str]]:
        params_node = node.child_by_field_name("parameters")
        return (self._params(params_node) if params_node is not None else []), {}

    def _returns(self, node: Node) -> list[Callable[[], Expr]]:
        """Its `return` values and the value of its last statement (Ruby returns it)."""
        returned = self.returned(node)
        last = self._last(node)
        if last is not None and all(n.id != last.id for n in returned):
            returned.append(last)
        return [self.lazy(n) for n in returned]

    def _last(self, node: Node) -> Node | None:
        """The method's last statement: Ruby returns its value."""
        body = node.child_by_field_name("body")
        if body is None:
            return None
        if body.type != "body_statement":
            return body  # `def x = expr`
        statements = [c for c in body.named_children if c.type != "comment"]
        if not statements or statements[-1].type in ("rescue", "ensure", "else"):
            return None
        last = statements[-1]
        return None if last.type in ("return", "if", "unless", "case", "while") else last

    def _params(self, node: Node) -> Params:
        params: Params = []
        for child in node.named_children:
            kind = child.type
            name_node = child if kind == "identifier" else child.child_by_field_name("name")
            if name_node is None:
                continue
            name = self.text(name_node)
            value = child.child_by_field_name("value")
            default = self.expr(value) if value is not None else None
            if kind == "identifier":
                params.append((name, "", None))
            elif kind == "optional_parameter":
                params.append((name, "", default))
            elif kind == "keyword_parameter":
                params.append((name, "kw", default))
            elif kind == "splat_parameter":
                params.append((name, "*", None))
            elif kind == "hash_splat_parameter":
                params.append((name, "**", None))
        return params

    def targets(self, node: Node) -> list[tuple[str, Expr | None, int | str]]:
        kind = node.type
        if kind in ("identifier", "constant", "global_variable"):
            return [(self.text(node), None, -1)]
        if kind in ("instance_variable", "class_variable"):
            return [("@" + self.text(node).lstrip("@"), None, -1)]
        if kind == "scope_resolution":
            return [(self.text(node).lstrip(":"), None, -1)]
        if kind == "call":  # `req.body = ...`, `self.base = ...`
            receiver = node.child_by_field_name("receiver")
            method = node.child_by_field_name("method")
            if receiver is None or method is None:
                return []
            if receiver.type == "self":
                return [("@" + self.text(method), None, -1)]
            return [(self._dotted(receiver) + "." + self.text(method), None, -1)]
        if kind == "element_reference":
            obj = node.child_by_field_name("object")
            keys = [c for c in node.named_children if c.type != "comment" and c != obj]
            if obj is None or len(keys) != 1:
                return []
            inner = self.targets(obj)
            if len(inner) == 1 and inner[0][1] is None:
                return [(inner[0][0], self.expr(keys[0]), -1)]
            return []
        if kind in ("left_assignment_list", "destructured_left_assignment"):
            found: list[tuple[str, Expr | None, int | str]] = []
            for index, child in enumerate(c for c in node.named_children if c.type != "comment"):
                for key, item, _ in self.targets(child):
                    if item is None:
                        found.append((key, None, index))
            return found
        return []

    def _dotted(self, node: Node) -> str:
        """A receiver as a key (`req.params`, `@conn`): the text a call's receiver shows."""
        return self.text(node)

    def imports(self, node: Node) -> Iterator[tuple[str, str]]:
        """`require 'prtg/client'`, `require_relative '../lib/prtg'`: the whole file."""
        arguments = node.child_by_field_name("arguments")
        first = arguments.named_children[0] if arguments is not None else None
        if first is None or first.type != "string":
            return
        path = "".join(self.text(c) for c in first.children if c.type == "string_content")
        parts = [p for p in path.removesuffix(".rb").split("/") if p not in ("", ".", "..")]
        if parts:
            module = ".".join(parts)
            yield "*" + module, module

    def class_bases(self, node: Node) -> tuple[str, ...]:
        """The superclass and the modules the class includes (`include HTTParty`)."""
        found: list[str] = []
        superclass = node.child_by_field_name("superclass")
        if superclass is not None:
            found.extend(self.text(c).lstrip(":") for c in superclass.named_children)
        body = node.child_by_field_name("body")
        for child in body.named_children if body is not None else []:
            method = child.child_by_field_name("method") if child.type == "call" else None
            if method is None or self.text(method) not in ("include", "extend"):
                continue
            arguments = child.child_by_field_name("arguments")
            for arg in arguments.named_children if arguments is not None else []:
                found.append(self.text(arg).lstrip(":"))
        return tuple(found)

    # -- where a literal stands -----------------------------------------------------

    def string_root(self, node: Node) -> Node:
        root = node
        parent = node.parent
        while parent is not None:
            if parent.type == "chained_string" or (
                parent.type in ("binary", "parenthesized_statements")
                and _operator(parent, self.text) in ("+", "%", "")
            ):
                root, parent = parent, parent.parent
            else:
                break
        return root

    def string_context(self, node: Node) -> str:
        parent = node.parent
        if parent is None:
            return "value"
        if parent.type == "chained_string":
            return "inner"
        while parent is not None and parent.type in ("parenthesized_statements", "binary"):
            if parent.type == "binary" and _operator(parent, self.text) in _COMPARE:
                return "compare"
            node, parent = parent, parent.parent
        if parent is None:
            return "value"
        kind = parent.type
        if kind in ("when", "pattern", "in_clause"):
            return "compare"
        if kind == "pair":
            key = parent.child_by_field_name("key")
            if key is not None and key.id == node.id:
                return "key"
            written = self.text(key).strip("'\":").lower() if key is not None else ""
            if written in ("href", "location"):
                return "href"
        if kind == "element_reference" and parent.child_by_field_name("object") != node:
            return "key"
        if kind == "argument_list" and _routes(parent, node, self.text):
            return "route"
        return "value"


def _routes(arguments: Node, node: Node, text: Callable[[Node], str]) -> bool:
    """The path of a Rails or Sinatra route: `get 'x', to: 'c#a'`, `get '/x' do ... end`."""
    call = arguments.parent
    if call is None or call.type != "call" or call.child_by_field_name("receiver") is not None:
        return False
    method = call.child_by_field_name("method")
    if method is None or text(method) not in _ROUTE_VERBS:
        return False
    first = next((c for c in arguments.named_children if c.type != "comment"), None)
    if first is None or first.id != node.id:
        return False
    if call.child_by_field_name("block") is not None:
        return True
    for child in arguments.named_children:
        key = child.child_by_field_name("key") if child.type == "pair" else None
        if key is not None and text(key).strip(":") in _ROUTE_KEYS:
            return True
    return False


def _operator(node: Node, text: Callable[[Node], str]) -> str:
    operator = node.child_by_field_name("operator")
    return text(operator) if operator is not None else ""


def _class_name(node: Node, text: Callable[[Node], str]) -> str | None:
    parent = node.parent
    while parent is not None:
        if parent.type in ("class", "module"):
            name = parent.child_by_field_name("name")
            if name is None:
                return None
            inner = name.child_by_field_name("name") if name.type == "scope_resolution" else name
            return text(inner) if inner is not None else None
        parent = parent.parent
    return None


def _block_value(block: Node) -> Node | None:
    """The one expression a block's body is (`{ |id| "parentid = #{id}" }`)."""
    body = block.child_by_field_name("body")
    if body is None:
        return None
    statements = [c for c in body.named_children if c.type != "comment"]
    return statements[0] if len(statements) == 1 else None


_EXPRESSIONS = {
    "string": RubyLowering.string,
    "chained_string": RubyLowering._chained,
    "string_array": RubyLowering._words,
    "heredoc_beginning": RubyLowering._heredoc_opener,
    "heredoc_body": RubyLowering._heredoc_body,
    "identifier": RubyLowering._name,
    "constant": RubyLowering._name,
    "global_variable": RubyLowering._name,
    "self": RubyLowering._name,
    "scope_resolution": RubyLowering._scoped,
    "instance_variable": RubyLowering._field,
    "class_variable": RubyLowering._field,
    "integer": RubyLowering._number,
    "float": RubyLowering._number,
    "simple_symbol": RubyLowering._symbol,
    "hash_key_symbol": RubyLowering._symbol,
    "delimited_symbol": RubyLowering.string,
    "binary": RubyLowering._binary,
    "conditional": RubyLowering._conditional,
    "operator_assignment": RubyLowering._assigned,
    "assignment": RubyLowering._assigned,
    "parenthesized_statements": RubyLowering._parenthesized,
    "element_reference": RubyLowering._element,
    "array": RubyLowering._array,
    "hash": RubyLowering._hash,
    "call": RubyLowering._call_expr,
}

LOWERING = RubyLowering
