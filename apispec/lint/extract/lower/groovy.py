"""Groovy (and Jenkinsfiles) lowered to the IR: Java's grammar with Groovy's literals.

Single-quoted strings are strings (the grammar calls them character literals); in a
double-quoted or triple-double-quoted GString `$name`, `$a.b` and `${expr}` are
interpolations; a command call (`sh "..."`, `httpRequest url: u`) is a call; a map
entry among a call's arguments is a keyword argument; a closure is a function value but
no scope of its own (a pipeline's blocks share their script's names). A `sh` or `bat`
step's literal is shell code (`@region.shell`), read by the shell language.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from apispec.lint.extract.ir import (
    Arg,
    Attr,
    CallE,
    Expr,
    FuncE,
    Function,
    Interp,
    Lit,
    Mapping,
    Name,
    Opaque,
    Str,
)
from apispec.lint.extract.lower import java_nodes as nodes
from apispec.lint.extract.lower.java import _EXPRESSIONS as _JAVA
from apispec.lint.extract.lower.java import JavaLowering
from apispec.lint.extract.lower.strings import c_escapes, merged

if TYPE_CHECKING:
    from tree_sitter import Node

# `${expr}` (no nested braces) and `$name.name` in a GString
_INTERPOLATION = re.compile(r"\$\{([^{}]*)\}|\$([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)")
_DOTTED = re.compile(r"\s*([A-Za-z_]\w*(?:\s*\.\s*[A-Za-z_]\w*)*)\s*")
_SHELL_STEPS = frozenset({"sh", "bat", "powershell", "pwsh"})


class GroovyLowering(JavaLowering):
    language = "groovy"
    function_types = frozenset(
        {"method_declaration", "constructor_declaration", "function_definition"}
    )

    def expr(self, node: Node) -> Expr:
        method = _EXPRESSIONS.get(node.type)
        return method(self, node) if method is not None else self.opaque(node)

    # -- literals -----------------------------------------------------------------------

    def string(self, node: Node) -> Expr:
        """A GString (`"..."`, `\"\"\"...\"\"\"`) with its interpolations, or a plain string."""
        start, end = self.span(node)
        opener = node.children[0] if node.children else None
        if node.type == "character_literal" or (opener is not None and opener.type == "'''"):
            return self._plain(node)
        pieces: list[Lit | Expr] = []
        for child in node.children:
            if child.type in ("string_fragment", "multiline_string_fragment"):
                pieces.extend(self._fragment(child))
            elif child.type == "escape_sequence":
                pieces.append(c_escapes(self.text(child), self.char(child.start_byte)))
        return Str(merged(pieces), start, end, template=True)

    def _plain(self, node: Node) -> Expr:
        start, end = self.span(node)
        raw = self.text(node)
        quote = 3 if raw.startswith("'''") else 1
        inner = raw[quote : len(raw) - quote] if len(raw) >= 2 * quote else ""
        return Str((c_escapes(inner, start + quote),), start, end, template=True)

    def _fragment(self, node: Node) -> list[Lit | Expr]:
        text = self.text(node)
        at = self.char(node.start_byte)
        found: list[Lit | Expr] = []
        done = 0
        for m in _INTERPOLATION.finditer(text):
            if m.start() > 0 and text[m.start() - 1] == "\\":
                continue  # `\$`: a dollar
            if m.start() > done:
                found.append(c_escapes(text[done : m.start()], at + done))
            inner = m.group(1) if m.group(1) is not None else m.group(2)
            offset = m.start(1) if m.group(1) is not None else m.start(2)
            found.append(Interp(self._dotted(inner, at + offset), at + m.start(), at + m.end()))
            done = m.end()
        if done < len(text):
            found.append(c_escapes(text[done:], at + done))
        return found

    def _dotted(self, written: str, at: int) -> Expr:
        """An interpolated name or property path (`env.PRTG_URL`); anything else is opaque."""
        m = _DOTTED.fullmatch(written)
        if m is None:
            return Opaque(written, at, at + len(written))
        parts = [p.strip() for p in m.group(1).split(".")]
        start = at + m.start(1)
        expr: Expr = Name(parts[0], start, start + len(parts[0]))
        for part in parts[1:]:
            expr = Attr(expr, part, start, at + m.end(1))
        return expr

    def _mapping(self, node: Node) -> Expr:
        start, end = self.span(node)
        items: list[tuple[Expr | None, Expr]] = []
        for item in node.named_children:
            if item.type != "map_item":
                continue
            key = item.child_by_field_name("key")
            value = item.child_by_field_name("value")
            if key is None or value is None:
                continue
            written = self._key(key)
            items.append((written, self.expr(value)))
        return Mapping(tuple(items), start, end)

    def _key(self, key: Node) -> Expr:
        if key.type == "identifier":
            start, end = self.span(key)
            return Str((Lit(self.text(key), start),), start, end)
        return self.expr(key)

    def _closure(self, node: Node) -> Expr:
        start, end = self.span(node)
        return FuncE(node.id, start, end)

    # -- calls --------------------------------------------------------------------------

    def call(self, node: Node) -> CallE | None:
        start, end = self.span(node)
        if node.type == "assignment_expression":  # `conn.requestMethod = 'POST'`
            left = node.child_by_field_name("left")
            right = node.child_by_field_name("right")
            obj = left.child_by_field_name("object") if left is not None else None
            field = left.child_by_field_name("field") if left is not None else None
            if obj is None or field is None or right is None:
                return None
            setter = nodes.setter_name(self.text(field))
            return CallE(setter, self.expr(obj), (Arg(self.expr(right)),), start, end, node.id)
        if node.type == "field_access":  # `url.text`: its getter
            obj = node.child_by_field_name("object")
            if obj is None:
                return None
            return CallE("getText", self.expr(obj), (), start, end, node.id)
        if node.type == "juxt_function_call":
            name = node.child_by_field_name("name")
            arguments = node.child_by_field_name("args")
            if name is None:
                return None
            return self._made(self.text(name), None, arguments, start, end, node)
        return super().call(node)

    def call_name(self, node: Node) -> str:
        if node.type == "assignment_expression":
            left = node.child_by_field_name("left")
            field = left.child_by_field_name("field") if left is not None else None
            return nodes.setter_name(self.text(field)) if field is not None else ""
        if node.type == "field_access":
            return "getText"
        if node.type == "juxt_function_call":
            name = node.child_by_field_name("name")
            return self.text(name) if name is not None else ""
        return super().call_name(node)

    def arguments(self, node: Node) -> tuple[Arg, ...]:
        args = super().arguments(node)
        body = node.parent.child_by_field_name("body") if node.parent is not None else None
        if body is not None and body.type == "closure":  # `withX(...) { ... }`
            return (*args, Arg(self._closure(body)))
        return args

    def function(self, node: Node) -> Function | None:
        if node.type == "function_definition":  # `def get(String path) { ... }`
            name = node.child_by_field_name("name")
            if name is None:
                return None
            start, end = self.span(node)
            return Function(
                node.id,
                self.text(name),
                start,
                end,
                lambda: self._signature(node),
                lambda: [self.lazy(n) for n in self.returned(node)],
            )
        return super().function(node)

    # -- literals' places -------------------------------------------------------------

    def string_context(self, node: Node) -> str:
        if _shell_step(self, node):
            return "shell"  # read by the shell language (tree.py)
        return super().string_context(node)


def _shell_step(lowering: GroovyLowering, node: Node) -> bool:
    """Whether a literal is the script of a shell or PowerShell step."""
    parent = node.parent
    if parent is not None and parent.type == "map_item":
        key = parent.child_by_field_name("key")
        if key is None or lowering.text(key) != "script":
            return False
        parent = parent.parent
    if parent is None or parent.type != "argument_list" or parent.parent is None:
        return False
    step = parent.parent
    name = step.child_by_field_name("name")
    return (
        step.type in ("juxt_function_call", "method_invocation")
        and name is not None
        and lowering.text(name) in _SHELL_STEPS
    )


_EXPRESSIONS: dict[str, Callable[[GroovyLowering, Node], Expr]] = {
    **_JAVA,
    "string_literal": GroovyLowering.string,
    "character_literal": GroovyLowering.string,
    "map_literal": GroovyLowering._mapping,
    "array_literal": JavaLowering._sequence,
    "closure": GroovyLowering._closure,
    "juxt_function_call": JavaLowering._call_expr,
}

LOWERING = GroovyLowering
