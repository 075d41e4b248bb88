"""Lowering: a parsed file -> the IR's statements (calls, assignments, functions, imports).

Each language has a query file (`<language>.scm`) in one capture vocabulary and a
small `Lowering` subclass that turns the captured nodes into IR (`ir.py`): how its
calls, strings, functions and assignment targets are spelled. Everything after this
(values, wrappers, clients, references) is one engine for all languages.

Capture vocabulary: `@call`; `@assign` / `@assign.add` with `@assign.name` and
`@assign.value`; `@function`; `@class` with `@class.name`; `@return` with
`@return.value`; `@for` with `@for.target` and `@for.iter`; `@import`; `@decorator`
(a call in a decorator or annotation: a route or a declarative client).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from importlib import import_module
from importlib.resources import files
from typing import TYPE_CHECKING, ClassVar

from apispec.lint.extract.ir import Attr, CallE, Expr, Function, Name, Opaque, Str
from apispec.lint.extract.parse import Parsed, grammar

if TYPE_CHECKING:
    from tree_sitter import Node, Query


@dataclass
class Assign:
    """One assignment: `key = value` (or `key[item] = value`, `key += value`)."""

    key: str  # a name, or "@Class.field" for an attribute of the object
    value: Expr
    start: int  # where the statement starts (a use sees assignments before it)
    end: int
    scope: int  # node id of the function it is in (0: the module)
    add: bool = False  # `+=`: appended to what the key held
    item: Expr | None = None  # `key[item] = value`: one entry of a mapping or list
    # `a, b = ...`: the position of this key in the target; `{ path } = ...`: the entry it takes
    unpack: int | str = -1


@dataclass
class Loop:
    """`for target in iterable`: the target takes each element's value (or its `unpack`-th)."""

    key: str
    unpack: int | str
    iterable: Expr
    start: int
    end: int
    scope: int


@dataclass
class FileModel:
    """What lowering knows of one file (or one region of it)."""

    language: str
    parsed: Parsed
    calls: list[CallE] = field(default_factory=list)
    functions: list[Function] = field(default_factory=list)
    classes: dict[str, tuple[int, int, tuple[str, ...]]] = field(default_factory=dict)
    assigns: dict[str, list[Assign]] = field(default_factory=dict)
    loops: dict[str, list[Loop]] = field(default_factory=dict)
    imports: dict[str, str] = field(default_factory=dict)  # local name -> "module.name"
    decorators: set[int] = field(default_factory=set)  # call node ids inside decorators
    strings: list[tuple[Str, str]] = field(default_factory=list)  # (literal, its context)
    calls_on: dict[str, list[CallE]] = field(default_factory=dict)  # receiver name -> calls
    by_name: dict[str, list[Function]] = field(default_factory=dict)
    _starts: list[int] = field(default_factory=list)
    _ordered: list[Function] = field(default_factory=list)

    def index_functions(self) -> None:
        """Order the functions for `function_at` (statements need their scope)."""
        self._ordered = sorted(self.functions, key=lambda f: (f.start, -f.end))
        self._starts = [f.start for f in self._ordered]
        for function in self.functions:
            self.by_name.setdefault(function.name, []).append(function)

    def index_statements(self) -> None:
        """Order calls and assignments by position, and calls by their receiver's name."""
        self.calls.sort(key=lambda c: c.start)
        for call in self.calls:
            dotted = _dotted(call.receiver)
            if dotted:
                self.calls_on.setdefault(dotted, []).append(call)
        for assigns in self.assigns.values():
            assigns.sort(key=lambda a: a.start)

    def function_at(self, pos: int) -> Function | None:
        """The innermost function whose body holds `pos`."""
        k = bisect_right(self._starts, pos)
        best: Function | None = None
        for function in reversed(self._ordered[:k]):
            if function.start <= pos < function.end and (
                best is None or function.end - function.start < best.end - best.start
            ):
                best = function
            if best is not None and function.end < best.start:
                break
        return best

    def scopes_at(self, pos: int) -> list[int]:
        """Node ids of the functions around `pos`, innermost first, then 0 (the module)."""
        found = [f for f in self._ordered if f.start <= pos < f.end]
        found.sort(key=lambda f: f.end - f.start)
        return [f.node_id for f in found] + [0]

    def class_at(self, pos: int) -> str | None:
        best: tuple[int, str] | None = None
        for name, (start, end, _) in self.classes.items():
            if start <= pos < end and (best is None or end - start < best[0]):
                best = (end - start, name)
        return best[1] if best else None


class Lowering:
    """How one language spells the IR; subclasses fill in the node kinds."""

    language: ClassVar[str]
    query_name: ClassVar[str] = ""  # the .scm file (default: the language's name)
    self_names: ClassVar[frozenset[str]] = frozenset()  # receivers meaning "this object"

    def __init__(self, parsed: Parsed) -> None:
        self.parsed = parsed
        self.char = parsed.offsets.char
        self.data = parsed.data

    # -- helpers for subclasses -----------------------------------------------------

    def text(self, node: Node) -> str:
        return self.data[node.start_byte : node.end_byte].decode("utf-8", "surrogatepass")

    def span(self, node: Node) -> tuple[int, int]:
        return self.char(node.start_byte), self.char(node.end_byte)

    def opaque(self, node: Node) -> Opaque:
        start, end = self.span(node)
        return Opaque(self.text(node), start, end)

    # -- what subclasses provide ----------------------------------------------------

    def expr(self, node: Node) -> Expr:
        raise NotImplementedError

    def call(self, node: Node) -> CallE | None:
        raise NotImplementedError

    def function(self, node: Node) -> Function | None:
        raise NotImplementedError

    def targets(self, node: Node) -> list[tuple[str, Expr | None, int | str]]:
        """Assignment target -> [(key, item, unpack)]; key "" when it is not followed.

        `unpack`: -1 the whole value, a position in a sequence (`a, b = ...`), or the key
        of a mapping's entry (a destructuring `{ path, params } = ...`)."""
        raise NotImplementedError

    def imports(self, node: Node) -> Iterator[tuple[str, str]]:
        return iter(())

    def class_bases(self, node: Node) -> tuple[str, ...]:
        return ()

    def string_context(self, node: Node) -> str:
        """Where a string literal stands: "value", or why it is no call ("compare", "key",
        "doc", "matcher", "route", "href", "markup", "type", "import", "inner": part of a
        larger literal)."""
        return "value"

    def field_key(self, owner: str | None, name: str) -> str:
        return f"@{owner}.{name}" if owner else name


def _dotted(expr: Expr | None) -> str:
    """`q`, `url.searchParams`: a receiver written as a name and its attributes, else ""."""
    if isinstance(expr, Name):
        return expr.name
    if isinstance(expr, Attr):
        head = _dotted(expr.obj)
        return f"{head}.{expr.name}" if head else ""
    return ""


@cache
def query(language: str, name: str) -> Query:
    from tree_sitter import Query

    source = files("apispec.lint.extract.lower").joinpath(f"{name}.scm").read_text("utf-8")
    return Query(grammar(language), source)


@cache
def lowering_class(language: str) -> type[Lowering]:
    module = import_module(f"apispec.lint.extract.lower.{language}")
    return module.LOWERING  # type: ignore[no-any-return]


def lower(parsed: Parsed, start_byte: int = 0, end_byte: int | None = None) -> FileModel:
    """The file's calls, assignments, functions, classes, loops and imports."""
    from tree_sitter import QueryCursor

    lowering = lowering_class(parsed.language)(parsed)
    model = FileModel(parsed.language, parsed)
    cursor = QueryCursor(query(parsed.language, lowering.query_name or parsed.language))
    if start_byte or end_byte is not None:
        cursor.set_byte_range(start_byte, end_byte if end_byte is not None else len(parsed.data))
    functions: dict[int, Function] = {}
    pending: list[tuple[str, dict[str, list[Node]]]] = []
    for _, captures in cursor.matches(parsed.root):
        if "function" in captures:
            node = captures["function"][0]
            function = lowering.function(node)
            if function is not None:
                functions[node.id] = function
        elif "class" in captures:
            node = captures["class"][0]
            name = lowering.text(captures["class.name"][0])
            start, end = lowering.span(node)
            model.classes[name] = (start, end, lowering.class_bases(node))
        else:
            kind = next(k for k in captures if not k.startswith("_"))  # `_x`: for predicates
            pending.append((kind, captures))
    model.functions = list(functions.values())
    # method owners: the class around each function
    for function in model.functions:
        if function.owner is None:
            function.owner = model.class_at(function.start)
    model.index_functions()
    for kind, captures in pending:
        _statement(lowering, model, kind, captures)
    model.index_statements()
    return model


def _statement(
    lowering: Lowering, model: FileModel, kind: str, captures: dict[str, list[Node]]
) -> None:
    if kind == "call":
        call = lowering.call(captures["call"][0])
        if call is not None:
            model.calls.append(call)
    elif kind in ("assign", "assign.add", "assign.name", "assign.value"):
        node = (captures.get("assign") or captures.get("assign.add") or [None])[0]
        if node is None or "assign.value" not in captures:
            return
        start, end = lowering.span(node)
        value = lowering.expr(captures["assign.value"][0])
        function = model.function_at(start)
        scope = function.node_id if function else 0
        owner = model.class_at(start)
        for key, item, unpack in lowering.targets(captures["assign.name"][0]):
            if not key:
                continue
            if key.startswith("@"):  # an attribute of the object: a field of its class
                key = lowering.field_key(owner, key[1:])
            elif owner is not None and function is None and "." not in key:
                key = lowering.field_key(owner, key)  # a class attribute (an enum member)
            model.assigns.setdefault(key, []).append(
                Assign(key, value, start, end, scope, "assign.add" in captures, item, unpack)
            )
    elif kind in ("return", "return.value"):
        if "return.value" not in captures:
            return
        node = captures["return.value"][0]
        start, _ = lowering.span(node)
        function = model.function_at(start)
        if function is not None:
            function.returns.append(lowering.expr(node))
    elif kind in ("for", "for.target", "for.iter"):
        if "for.iter" not in captures:
            return
        node = captures["for"][0]
        start, end = lowering.span(node)
        function = model.function_at(start)
        iterable = lowering.expr(captures["for.iter"][0])
        for key, _, unpack in lowering.targets(captures["for.target"][0]):
            if key:
                model.loops.setdefault(key, []).append(
                    Loop(key, unpack, iterable, start, end, function.node_id if function else 0)
                )
    elif kind == "import":
        for local, target in lowering.imports(captures["import"][0]):
            model.imports[local] = target
    elif kind == "string":
        node = captures["string"][0]
        context = lowering.string_context(node)
        if context != "inner":
            value = lowering.expr(node)
            if isinstance(value, Str):
                model.strings.append((value, context))
            else:  # a concatenation of literals
                model.strings.append((Str((value,), value.start, value.end), context))
    elif kind == "decorator":
        for node in captures["decorator"][0].children:
            if node.type in ("call", "call_expression", "annotation", "attribute"):
                model.decorators.add(node.id)
