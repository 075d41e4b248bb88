"""Rust lowered to the IR: paths (`reqwest::Client::new`), `impl` blocks, struct literals,
macros whose arguments are values.

A macro's arguments are a token tree, not expressions. The macros whose value matters
(`format!`, `vec!`, `concat!`) are parsed again with tree-sitter over the same bytes,
limited to the macro's name and its token tree (`format(...)` is a call, `[...]` an
array), so every node keeps its place in the file. `format!` names its arguments
inline (`"{base}/devices"`): a name written in a slot is an argument of that name.

`x?`, `x.await`, `&x`, `*x` and `x as T` are `x`. A struct literal is its type's
constructor called with its fields as keywords; inside an `impl` block its fields
are the object's fields (`Self { base, http: Client::new() }` in `new`).
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
    Function,
    Index,
    ListE,
    Lit,
    Name,
    Params,
    Str,
)
from apispec.lint.extract.lower import Lowering
from apispec.lint.extract.lower.strings import c_escapes

if TYPE_CHECKING:
    from tree_sitter import Node, Tree

    from apispec.lint.extract.parse import Parsed

_SKIP = frozenset({"line_comment", "block_comment", "attribute_item"})
# macros whose arguments are read as the text they make
_VALUE_MACROS = frozenset({"format", "vec", "concat"})
# macros that print or log: their strings are prose, never a call
_PROSE_MACROS = frozenset(
    {
        "println",
        "print",
        "eprintln",
        "eprint",
        "info",
        "debug",
        "warn",
        "error",
        "trace",
        "log",
        "panic",
        "assert",
        "assert_eq",
        "assert_ne",
        "debug_assert",
        "todo",
        "unimplemented",
        "unreachable",
        "write",
        "writeln",
    }
)
_INLINE = re.compile(r"(?<!\{)\{([A-Za-z_]\w*)(?::[^{}]*)?\}")
# `&'a mut reqwest::Client<T>` -> `reqwest.Client`
_TYPE_NOISE = re.compile(r"&|'\w+\s|\bmut\s+|\bdyn\s+|\bimpl\s+")


class RustLowering(Lowering):
    language = "rust"
    self_names = frozenset({"self"})
    function_types = frozenset({"function_item", "closure_expression"})

    def __init__(self, parsed: Parsed) -> None:
        super().__init__(parsed)
        self._macro_trees: list[Tree] = []  # kept alive: their nodes' ids stay unique

    def expr(self, node: Node) -> Expr:
        method = _EXPRESSIONS.get(node.type)
        return method(self, node) if method is not None else self.opaque(node)

    # -- expressions ------------------------------------------------------------

    def _string(self, node: Node) -> Expr:
        start, end = self.span(node)
        pieces: list[Lit | Expr] = []
        raw = node.type == "raw_string_literal"
        for child in node.named_children:
            if child.type == "string_content":
                at = self.char(child.start_byte)
                content = self.text(child)
                pieces.append(Lit(content, at) if raw else c_escapes(content, at))
            elif child.type == "escape_sequence":
                pieces.append(c_escapes(self.text(child), self.char(child.start_byte)))
        return Str(tuple(pieces), start, end)

    def _char(self, node: Node) -> Expr:
        start, end = self.span(node)
        return Str((c_escapes(self.text(node)[1:-1], start + 1),), start, end)

    def _inner(self, node: Node) -> Expr:
        """`x?`, `x.await`, `&x`, `*x`, `(x)`, `x as T`: the value of `x`."""
        named = [c for c in node.named_children if c.type not in _SKIP]
        return self.expr(named[0]) if named else self.opaque(node)

    def _field(self, node: Node) -> Expr:
        value = node.child_by_field_name("value")
        name = node.child_by_field_name("field")
        start, end = self.span(node)
        if value is None or name is None:
            return self.opaque(node)
        return Attr(self.expr(value), self.text(name), start, end)

    def _path(self, node: Node) -> Expr:
        """`a::b::c` as `a.b.c`; `Self::X` names the impl's type."""
        path = node.child_by_field_name("path")
        name = node.child_by_field_name("name")
        start, end = self.span(node)
        if name is None:
            return self.opaque(node)
        if path is None:
            return Name(self.text(name), start, end)
        return Attr(self._type_head(path), self.text(name), start, end)

    def _type_head(self, node: Node) -> Expr:
        if node.type == "self" or (node.type == "identifier" and self.text(node) == "Self"):
            owner = _impl_type(self, node)
            if owner is not None:
                start, end = self.span(node)
                return Name(owner, start, end)
        return self.expr(node)

    def _index(self, node: Node) -> Expr:
        named = [c for c in node.named_children if c.type not in _SKIP]
        start, end = self.span(node)
        if len(named) != 2:
            return self.opaque(node)
        return Index(self.expr(named[0]), self.expr(named[1]), start, end)

    def _binary(self, node: Node) -> Expr:
        left = node.child_by_field_name("left")
        right = node.child_by_field_name("right")
        operator = node.child_by_field_name("operator")
        start, end = self.span(node)
        if left is None or right is None or operator is None:
            return self.opaque(node)
        if self.text(operator) == "+":  # `String + &str`
            return self.concatenated((left, right), start, end)
        return self.opaque(node)

    def _sequence(self, node: Node) -> Expr:
        start, end = self.span(node)
        items = tuple(self.expr(c) for c in node.named_children if c.type not in _SKIP)
        return ListE(items, start, end)

    def _if(self, node: Node) -> Expr:
        """`if c { a } else { b }`: either block's last expression."""
        start, end = self.span(node)
        found: list[Expr] = []
        consequence = node.child_by_field_name("consequence")
        alternative = node.child_by_field_name("alternative")
        for block in (consequence, alternative):
            if block is None:
                continue
            if block.type == "else_clause":
                block = next((c for c in block.named_children if c.type not in _SKIP), None)
            if block is None:
                continue
            value = self._tail(block) if block.type == "block" else self.expr(block)
            if value is not None:
                found.append(value)
        return Cond(tuple(found), start, end) if found else self.opaque(node)

    def _block(self, node: Node) -> Expr:
        tail = self._tail(node)
        return tail if tail is not None else self.opaque(node)

    def _tail(self, block: Node) -> Expr | None:
        named = [c for c in block.named_children if c.type not in _SKIP]
        if not named or not _is_value(named[-1]):
            return None
        return self.expr(named[-1])

    def _closure(self, node: Node) -> Expr:
        """A closure as a value (`unwrap_or_else(|_| "https://...".into())`): its body's."""
        body = node.child_by_field_name("body")
        return self.expr(body) if body is not None else self.opaque(node)

    def _struct(self, node: Node) -> Expr:
        """`Prtg { base, http: c }`: the type's constructor with the fields as keywords."""
        name = node.child_by_field_name("name")
        body = node.child_by_field_name("body")
        start, end = self.span(node)
        if name is None:
            return self.opaque(node)
        kind = _struct_type(self, node) or self.text(name)
        args: list[Arg] = []
        for child in body.named_children if body is not None else ():
            if child.type == "field_initializer":
                field = child.child_by_field_name("field")
                value = child.child_by_field_name("value")
                if field is not None and value is not None:
                    args.append(Arg(self.expr(value), self.text(field)))
            elif child.type == "shorthand_field_initializer" and child.named_children:
                ident = child.named_children[0]
                args.append(Arg(self.expr(ident), self.text(ident)))
        return CallE(kind, None, tuple(args), start, end, node.id)

    def _call_expr(self, node: Node) -> Expr:
        call = self.call(node)
        return call if call is not None else self.opaque(node)

    def _macro(self, node: Node) -> Expr:
        name_node = node.child_by_field_name("macro")
        name = self.text(name_node) if name_node is not None else ""
        tree = next((c for c in node.named_children if c.type == "token_tree"), None)
        if name_node is None or tree is None or name not in _VALUE_MACROS:
            return self.opaque(node)
        inner = self._reparsed(name_node, tree, call=name != "vec")
        if inner is None:
            return self.opaque(node)
        start, end = self.span(node)
        if name == "vec":
            return self.expr(inner)
        arguments = inner.child_by_field_name("arguments")
        args = self.arguments(arguments) if arguments is not None else ()
        if name == "concat":
            return Concat(tuple(a.value for a in args), start, end)
        if not args or not isinstance(args[0].value, Str):
            return self.opaque(node)
        template = args[0].value
        given = {a.name for a in args if a.name}
        rest = list(args[1:])
        for piece in template.pieces:  # `{base}` names a variable in scope
            if not isinstance(piece, Lit):
                continue
            for m in _INLINE.finditer(piece.text):
                if m.group(1) not in given:
                    given.add(m.group(1))
                    at = piece.offset(m.start(1))
                    rest.append(Arg(Name(m.group(1), at, at + len(m.group(1))), m.group(1)))
        return Format(template, tuple(rest), "brace", start, end)

    def _reparsed(self, name: Node, tree: Node, *, call: bool) -> Node | None:
        """The macro's arguments as an expression: its name and token tree parsed alone
        (`format("{}/x", base)`), or the token tree alone (`[a, b]`)."""
        from tree_sitter import Parser, Range

        from apispec.lint.extract.parse import grammar

        ranges = [name, tree] if call else [tree]
        parse = Parser(
            grammar("rust"),
            included_ranges=[
                Range(n.start_point, n.end_point, n.start_byte, n.end_byte) for n in ranges
            ],
        )
        reparsed = parse.parse(self.data)
        self._macro_trees.append(reparsed)
        statement = reparsed.root_node.named_children
        if not statement or statement[0].type != "expression_statement":
            return None
        inner = statement[0].named_children
        wanted = "call_expression" if call else "array_expression"
        return inner[0] if inner and inner[0].type == wanted else None

    # -- calls ------------------------------------------------------------------

    def call(self, node: Node) -> CallE | None:
        function = node.child_by_field_name("function")
        arguments = node.child_by_field_name("arguments")
        if function is None:
            return None
        if function.type == "generic_function":  # `parse::<T>(x)`
            function = function.child_by_field_name("function") or function
        start, end = self.span(node)
        receiver: Expr | None = None
        if function.type == "identifier":
            callee = self.text(function)
        elif function.type == "field_expression":
            field = function.child_by_field_name("field")
            value = function.child_by_field_name("value")
            callee = self.text(field) if field is not None else ""
            receiver = self.expr(value) if value is not None else None
        elif function.type == "scoped_identifier":
            name = function.child_by_field_name("name")
            path = function.child_by_field_name("path")
            callee = self.text(name) if name is not None else ""
            receiver = self._type_head(path) if path is not None else None
        else:
            callee = ""
            receiver = self.expr(function)
        if arguments is None:
            return CallE(callee, receiver, (), start, end, node.id)
        return CallE(callee, receiver, None, start, end, node.id, lambda: self.arguments(arguments))

    def call_name(self, node: Node) -> str:
        function = node.child_by_field_name("function")
        if function is not None and function.type == "generic_function":
            function = function.child_by_field_name("function")
        if function is None:
            return ""
        if function.type == "identifier":
            return self.text(function)
        field = function.child_by_field_name(
            "field" if function.type == "field_expression" else "name"
        )
        return self.text(field) if field is not None else ""

    def arguments(self, node: Node) -> tuple[Arg, ...]:
        args: list[Arg] = []
        for child in node.named_children:
            if child.type in _SKIP:
                continue
            if child.type == "assignment_expression":  # `format!("{x}", x = v)`
                left = child.child_by_field_name("left")
                right = child.child_by_field_name("right")
                if left is not None and right is not None and left.type == "identifier":
                    args.append(Arg(self.expr(right), self.text(left)))
                    continue
            args.append(Arg(self.expr(child)))
        return tuple(args)

    # -- functions --------------------------------------------------------------

    def function(self, node: Node) -> Function | None:
        start, end = self.span(node)
        if node.type == "closure_expression":
            body = node.child_by_field_name("body")
            found = [self.lazy(body)] if body is not None else []
            return Function(node.id, "", start, end, lambda: self._signature(node), lambda: found)
        name_node = node.child_by_field_name("name")
        if name_node is None:
            return None
        return Function(
            node.id,
            self.text(name_node),
            start,
            end,
            lambda: self._signature(node),
            lambda: self._returns(node),
        )

    def _returns(self, node: Node) -> list[Callable[[], Expr]]:
        return [self.lazy(n) for n in self.returned(node) if _is_value(n)]

    def _signature(self, node: Node) -> tuple[Params, dict[str, str]]:
        params_node = node.child_by_field_name("parameters")
        params: Params = []
        types: dict[str, str] = {}
        for child in params_node.named_children if params_node is not None else ():
            if child.type != "parameter":
                continue  # `self`, `&self`: the object the method is called on
            pattern = child.child_by_field_name("pattern")
            if pattern is None or pattern.type != "identifier":
                continue
            name = self.text(pattern)
            params.append((name, "", None))
            kind = child.child_by_field_name("type")
            if kind is not None:
                types[name] = _type_name(self.text(kind))
        return params, types

    # -- statements -------------------------------------------------------------

    def targets(self, node: Node) -> list[tuple[str, Expr | None, int | str]]:
        kind = node.type
        parent = node.parent
        if parent is not None and parent.type in (
            "field_initializer",
            "shorthand_field_initializer",
        ):
            owner = _struct_type(self, parent.parent.parent) if parent.parent else None
            return [(f"@{owner}.{self.text(node)}", None, -1)] if owner else []
        if kind == "identifier":
            return [(self.text(node), None, -1)]
        if kind == "mut_pattern":
            inner = [c for c in node.named_children if c.type == "identifier"]
            return [(self.text(inner[0]), None, -1)] if inner else []
        if kind == "field_expression":
            value = node.child_by_field_name("value")
            field = node.child_by_field_name("field")
            if value is None or field is None:
                return []
            if value.type == "self":
                return [("@" + self.text(field), None, -1)]
            return [(self.text(node), None, -1)]
        if kind == "index_expression":
            named = [c for c in node.named_children if c.type not in _SKIP]
            if len(named) == 2:
                held = self.targets(named[0])
                if len(held) == 1 and held[0][1] is None:
                    return [(held[0][0], self.expr(named[1]), -1)]
            return []
        if kind == "tuple_pattern":
            found: list[tuple[str, Expr | None, int | str]] = []
            for index, child in enumerate(c for c in node.named_children if c.type not in _SKIP):
                for key, item, _ in self.targets(child):
                    if item is None:
                        found.append((key, None, index))
            return found
        return []

    def field_key(self, owner: str | None, name: str) -> str:
        if "." in name:  # a struct literal's field: its type is known (`@Prtg.base`)
            return "@" + name
        return super().field_key(owner, name)

    def imports(self, node: Node) -> Iterator[tuple[str, str]]:
        argument = node.child_by_field_name("argument")
        if argument is not None:
            yield from self._uses(argument, "")

    def _uses(self, node: Node, prefix: str) -> Iterator[tuple[str, str]]:
        """`use a::b::{C, d as e}`: local name -> dotted path (`crate::` is the crate's
        root: the path of a module file under `src/`)."""
        for local, target in self._used(node, prefix):
            yield local, target.removeprefix("crate.").removeprefix("self.")

    def _used(self, node: Node, prefix: str) -> Iterator[tuple[str, str]]:
        kind = node.type
        if kind in ("identifier", "scoped_identifier", "self", "crate", "super"):
            dotted = _dotted(self.text(node))
            full = f"{prefix}.{dotted}" if prefix else dotted
            yield full.rsplit(".", 1)[-1], full
        elif kind == "use_as_clause":
            path = node.child_by_field_name("path")
            alias = node.child_by_field_name("alias")
            if path is not None and alias is not None:
                dotted = _dotted(self.text(path))
                yield self.text(alias), f"{prefix}.{dotted}" if prefix else dotted
        elif kind == "scoped_use_list":
            path = node.child_by_field_name("path")
            listed = node.child_by_field_name("list")
            inner = _dotted(self.text(path)) if path is not None else ""
            joined = f"{prefix}.{inner}" if prefix and inner else prefix or inner
            if listed is not None:
                for child in listed.named_children:
                    yield from self._used(child, joined)
        elif kind == "use_list":
            for child in node.named_children:
                yield from self._used(child, prefix)

    def string_root(self, node: Node) -> Node:
        """A literal inside `format!(...)` or `concat!(...)` is part of the macro's text."""
        parent = node.parent
        if parent is not None and parent.type == "token_tree":
            macro = parent.parent
            if macro is not None and macro.type == "macro_invocation":
                name = macro.child_by_field_name("macro")
                if name is not None and self.text(name) in ("format", "concat"):
                    return macro
        root = node
        while root.parent is not None and root.parent.type == "binary_expression":
            root = root.parent
        return root

    def string_context(self, node: Node) -> str:
        ancestor = node.parent
        while ancestor is not None and ancestor.type in ("token_tree", "parenthesized_expression"):
            if ancestor.type == "token_tree" and ancestor.parent is not None:
                macro = ancestor.parent
                if macro.type == "macro_invocation":
                    name = macro.child_by_field_name("macro")
                    written = self.text(name) if name is not None else ""
                    if written in _PROSE_MACROS:
                        return "doc"
                elif macro.type == "attribute":
                    return "route"
            ancestor = ancestor.parent
        if ancestor is None:
            return "value"
        if _in_test(self, ancestor):
            return "test"  # a test's literals are its data; a request it sends still counts
        kind = ancestor.type
        if kind == "binary_expression":
            operator = ancestor.child_by_field_name("operator")
            if operator is not None and self.text(operator) in ("==", "!="):
                return "compare"
        if kind in ("match_pattern", "match_arm") or kind.endswith("_pattern"):
            return "compare"
        if kind == "attribute":
            return "route"
        return "value"


def _is_value(node: Node) -> bool:
    """A block's last node is its value unless it is a statement or an item."""
    kind = node.type
    return not (
        kind.endswith("_item")
        or kind.endswith("_declaration")
        or kind in ("expression_statement", "empty_statement", "line_comment", "block_comment")
    )


def _in_test(lowering: Lowering, node: Node) -> bool:
    """Inside a `#[test]` function or a `#[cfg(test)]` module."""
    parent: Node | None = node
    while parent is not None:
        if parent.type in ("function_item", "mod_item"):
            before = parent.prev_named_sibling
            while before is not None and before.type in ("attribute_item", "line_comment"):
                written = lowering.text(before)
                if "test" in written and before.type == "attribute_item":
                    return True
                before = before.prev_named_sibling
        parent = parent.parent
    return False


def _dotted(written: str) -> str:
    return ".".join(part.strip() for part in written.split("::") if part.strip())


def _type_name(written: str) -> str:
    """A declared type as the resolver reads it: `&'a mut reqwest::Client` ->
    `reqwest.Client`; `Option<Client>` and `Arc<Client>` -> `Client`."""
    text = _TYPE_NOISE.sub("", written).strip()
    for wrapper in ("Option<", "Arc<", "Rc<", "Box<", "RefCell<", "Mutex<"):
        while text.startswith(wrapper) and text.endswith(">"):
            text = text[len(wrapper) : -1].strip()
    return _dotted(text.split("<", 1)[0])


def _impl_type(lowering: Lowering, node: Node) -> str | None:
    """The type of the `impl` block around a node (`Self` names it)."""
    parent = node.parent
    while parent is not None:
        if parent.type == "impl_item":
            kind = parent.child_by_field_name("type")
            return (
                lowering.text(kind) if kind is not None and kind.type == "type_identifier" else None
            )
        parent = parent.parent
    return None


def _struct_type(lowering: Lowering, node: Node | None) -> str | None:
    """The type a struct literal makes (`Self` inside an `impl` is the impl's type)."""
    if node is None or node.type != "struct_expression":
        return None
    name = node.child_by_field_name("name")
    if name is None:
        return None
    written = lowering.text(name)
    if written == "Self":
        return _impl_type(lowering, node)
    return written.split("::")[-1].split("<")[0]


_Method = Callable[[RustLowering, "Node"], Expr]
_EXPRESSIONS: dict[str, _Method] = {
    "identifier": RustLowering._identifier,
    "self": RustLowering._identifier,
    "string_literal": RustLowering._string,
    "raw_string_literal": RustLowering._string,
    "integer_literal": RustLowering._number,
    "float_literal": RustLowering._number,
    "boolean_literal": RustLowering._number,
    "char_literal": RustLowering._char,
    "try_expression": RustLowering._inner,
    "await_expression": RustLowering._inner,
    "reference_expression": RustLowering._inner,
    "unary_expression": RustLowering._inner,
    "parenthesized_expression": RustLowering._inner,
    "type_cast_expression": RustLowering._inner,
    "field_expression": RustLowering._field,
    "scoped_identifier": RustLowering._path,
    "index_expression": RustLowering._index,
    "binary_expression": RustLowering._binary,
    "array_expression": RustLowering._sequence,
    "tuple_expression": RustLowering._sequence,
    "if_expression": RustLowering._if,
    "block": RustLowering._block,
    "closure_expression": RustLowering._closure,
    "struct_expression": RustLowering._struct,
    "call_expression": RustLowering._call_expr,
    "macro_invocation": RustLowering._macro,
}

LOWERING = RustLowering
