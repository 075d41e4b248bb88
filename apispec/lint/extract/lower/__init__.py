"""Lowering: a parsed file -> the IR's statements (calls, assignments, functions, imports).

Each language has a query file (`<language>.scm`) in one capture vocabulary and a
small `Lowering` subclass that turns the captured nodes into IR (`ir.py`): how its
calls, strings, functions and assignment targets are spelled. Everything after this
(values, wrappers, clients, references) is one engine for all languages.

Capture vocabulary: `@call`; `@assign` / `@assign.add` with `@assign.name` and
`@assign.value`; `@function`; `@class` with `@class.name`; `@return` with
`@return.value`; `@for` with `@for.target` and `@for.iter`; `@import`; `@decorator`
(a call in a decorator or annotation: a route or a declarative client); `@region.<lang>`
(a literal holding code of another language: a Jenkinsfile's `sh` step is shell).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from functools import cache
from importlib import import_module
from importlib.resources import files
from typing import TYPE_CHECKING, ClassVar

from apispec.lint.budget import check
from apispec.lint.extract.ir import CallE, Concat, Expr, Function, Lit, Name, Opaque, Str
from apispec.lint.extract.lower.model import Assign, FileModel, Loop, StringRef
from apispec.lint.extract.parse import Parsed, grammar

if TYPE_CHECKING:
    from tree_sitter import Node, Query, QueryCursor

# the deepest node a query match starts at, below the node the query runs on
MAX_DEPTH = 10_000


# expressions lowered inside one another at most: deeper ones (3,000 nested brackets, a
# concatenation of 6,000 operands) are opaque, never a RecursionError
MAX_NESTING = 150


def _bounded(lower: Callable[[Lowering, Node], Expr]) -> Callable[[Lowering, Node], Expr]:
    def bounded(self: Lowering, node: Node) -> Expr:
        if self.nesting >= MAX_NESTING:
            return self.opaque(node)
        self.nesting += 1
        try:
            return lower(self, node)
        finally:
            self.nesting -= 1

    return bounded


class Lowering:
    """How one language spells the IR; subclasses fill in the node kinds."""

    language: ClassVar[str]
    query_name: ClassVar[str] = ""  # the .scm file (default: the language's name)
    # statement blocks that may not run (branches, loop bodies, cases); a function's own
    # body is one too, but what it holds always runs before what follows in the function
    block_types: ClassVar[frozenset[str]] = frozenset({"block"})
    self_names: ClassVar[frozenset[str]] = frozenset()  # receivers meaning "this object"
    function_types: ClassVar[frozenset[str]] = frozenset()  # node types of function bodies
    # calls lowered whatever their name: a command of this shape may be a request through
    # a module no file of the tree defines (PowerShell's `Verb-Noun` commands)
    kept_calls: ClassVar[re.Pattern[str] | None] = None
    call_types: ClassVar[frozenset[str]] = frozenset()  # node types of calls

    def __init_subclass__(cls) -> None:
        super().__init_subclass__()
        if "expr" in cls.__dict__:  # every language's expressions, nested a bounded depth
            cls.expr = _bounded(cls.__dict__["expr"])  # type: ignore[method-assign, assignment]  # a wrapper of the same signature

    def __init__(self, parsed: Parsed) -> None:
        self.parsed = parsed
        self.char = parsed.offsets.char
        self.data = parsed.data
        self._roots: dict[int, Expr] = {}
        self.nesting = 0

    def root(self, node: Node) -> Expr:
        """The expression around literals, lowered once for all of them (`a + "/x" + "/y"
        + ...` holds a literal per operand: lowering it per literal costs their square)."""
        found = self._roots.get(node.id)
        if found is None:
            found = self._roots[node.id] = self.expr(node)
        return found

    # -- helpers for subclasses -----------------------------------------------------

    def text(self, node: Node) -> str:
        return self.data[node.start_byte : node.end_byte].decode("utf-8", "surrogatepass")

    def span(self, node: Node) -> tuple[int, int]:
        return self.char(node.start_byte), self.char(node.end_byte)

    def lazy(self, node: Node) -> Callable[[], Expr]:
        """The node's expression, lowered when first asked for."""
        found: list[Expr] = []

        def get() -> Expr:
            if not found:
                found.append(self.expr(node))
            return found[0]

        return get

    def returned(self, function: Node) -> list[Node]:
        """The expressions a function's own `return` statements give (nested functions' not)."""
        cursor = query_cursor(
            self.parsed.language, f"{self.query_name or self.parsed.language}-returns"
        )
        cursor.set_byte_range(function.start_byte, function.end_byte)
        found = []
        for _, captures in cursor.matches(function):
            node = captures["return.value"][0]
            if node.is_extra:  # `=> // why` then the value: the comment is no value
                continue
            owner = node.parent
            while owner is not None and owner.type not in self.function_types:
                owner = owner.parent
            if owner is not None and owner.id == function.id:
                found.append(node)
        return found

    def concatenated(self, sides: tuple[Node, ...], start: int, end: int) -> Concat:
        """`a + b + c`: the operands of nested concatenations as one list."""
        parts: list[Expr] = []
        for side in sides:
            value = self.expr(side)
            parts.extend(value.parts if isinstance(value, Concat) else (value,))
        return Concat(tuple(parts), start, end)

    def _identifier(self, node: Node) -> Expr:
        """A name as written; the expression tables of the languages share it."""
        start, end = self.span(node)
        return Name(self.text(node), start, end)

    def _number(self, node: Node) -> Expr:
        """A number or a boolean as its text (`limit=5000` must be checkable)."""
        start, end = self.span(node)
        return Str((Lit(self.text(node), start),), start, end)

    def opaque(self, node: Node) -> Opaque:
        start, end = self.span(node)
        return Opaque(self.text(node), start, end)

    # -- what subclasses provide ----------------------------------------------------

    @classmethod
    def repair(cls, parsed: Parsed) -> Parsed | None:
        """The text parsed again where the grammar misreads a common construct and its
        error recovery would cost more than the construct (None: nothing to repair).
        A repair keeps every offset: it only swaps characters for others."""
        return None

    def expr(self, node: Node) -> Expr:
        raise NotImplementedError

    def call(self, node: Node) -> CallE | None:
        raise NotImplementedError

    def call_name(self, node: Node) -> str:
        """The called name alone (`get` of `session.get(...)`), read without lowering."""
        call = self.call(node)
        return call.callee if call is not None else ""

    def function(self, node: Node) -> Function | None:
        raise NotImplementedError

    def targets(self, node: Node) -> list[tuple[str, Expr | None, int | str]]:
        """Assignment target -> [(key, item, unpack)]; key "" when it is not followed.

        `unpack`: -1 the whole value, a position in a sequence (`a, b = ...`), or the key
        of a mapping's entry (a destructuring `{ path, params } = ...`)."""
        raise NotImplementedError

    def imports(self, node: Node) -> Iterator[tuple[str, str]]:
        return iter(())

    def module_target(self, node: Node) -> bool:
        """Whether an assignment target names the module's own variable wherever it is
        written (PowerShell's `$script:base = ...` inside a function): the assignment is
        then the module's, seen by every function that reads the name."""
        return False

    def class_bases(self, node: Node) -> tuple[str, ...]:
        return ()

    def pairs(self, node: Node) -> bool:
        """Whether a loop walks (key, value) pairs (see Loop.pairs)."""
        return False

    def string_root(self, node: Node) -> Node:
        """The whole expression a literal is part of (a concatenation, a format call)."""
        return node

    def chain_top(self, node: Node) -> Node:
        """The last link of the method chain a call is part of (the call itself if none)."""
        return node

    def string_context(self, node: Node) -> str:
        """Where a string literal stands: "value", or why it is no call ("compare", "key",
        "doc", "matcher", "route", "href", "inner": part of a larger literal)."""
        return "value"

    def block(self, node: Node) -> tuple[int, int] | None:
        """The span of the innermost statement block around `node` (None: the module's)."""
        parent = node.parent
        while parent is not None and parent.type not in self.block_types:
            parent = parent.parent
        return self.span(parent) if parent is not None else None

    def field_key(self, owner: str | None, name: str) -> str:
        return f"@{owner}.{name}" if owner else name


@cache
def query(language: str, name: str) -> Query:
    from tree_sitter import Query

    source = files("apispec.lint.extract.lower").joinpath(f"{name}.scm").read_text("utf-8")
    return Query(grammar(language), source)


# grammars read by another grammar's lowering (the same node types)
LOWERED_AS = {"php_only": "php"}


def query_cursor(language: str, name: str) -> QueryCursor:
    """A cursor over the query `name` that starts no match deeper than MAX_DEPTH below the
    node it is run on: the cursor counts depth in 16 bits, and past that a tree nested
    tens of thousands deep (`$($($(...`) makes matching quadratic; no code a person
    writes nests that far."""
    from tree_sitter import QueryCursor

    cursor = QueryCursor(query(language, name))
    cursor.set_max_start_depth(MAX_DEPTH)
    return cursor


@cache
def lowering_class(language: str) -> type[Lowering]:
    module = import_module(f"apispec.lint.extract.lower.{LOWERED_AS.get(language, language)}")
    found: type[Lowering] = module.LOWERING
    return found


def lower(
    parsed: Parsed,
    callees: frozenset[str] | set[str] = frozenset(),
    start_byte: int = 0,
    end_byte: int | None = None,
) -> FileModel:
    """The file's calls, assignments, functions, classes, loops and imports.

    Only calls named in `callees` (what can send a request, fill a mapping or set a
    header) or named like a function the file defines are kept; a file's other calls
    are never lowered. Only string literals that may name a URL or a host are kept.
    """
    kind_of = lowering_class(parsed.language)
    parsed = kind_of.repair(parsed) or parsed
    lowering = kind_of(parsed)
    model = FileModel(parsed.language, parsed, lowering=lowering)
    cursor = query_cursor(parsed.language, lowering.query_name or parsed.language)
    if start_byte or end_byte is not None:
        cursor.set_byte_range(start_byte, end_byte if end_byte is not None else len(parsed.data))
    functions: dict[int, Function] = {}
    pending: list[tuple[str, dict[str, list[Node]]]] = []
    for k, (_, captures) in enumerate(cursor.matches(parsed.root)):
        if not k & 63:
            check()  # the time budget, where no alarm can interrupt (budget.py)
        if _comment_captured(captures):
            continue
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
        else:  # names starting `_` are a pattern's own (a predicate's operand)
            kind = next((k for k in captures if not k.startswith("_")), "")
            pending.append((kind, captures))
    model.functions = list(functions.values())
    model.index_functions()
    for function in model.functions:  # method owners: the class around each function
        if function.owner is None:
            function.owner = model.class_at(function.start)
    for kind, captures in pending:  # imports first: an imported name may be a sender
        if kind == "import":
            _statement(lowering, model, kind, captures)
    wanted = set(callees) | set(model.by_name)
    if "()" in wanted:  # a client object called itself: the names the file binds may be one
        wanted.update(
            lowering.text(captures["assign.name"][0])
            for kind, captures in pending
            if kind == "assign" and "assign.name" in captures
        )
        wanted.update(model.imports)
    lowered = {name.lower() for name in wanted}
    for kind, captures in pending:
        if kind == "call":
            name = lowering.call_name(captures["call"][0])
            if (
                name not in wanted
                and name.lower() not in lowered
                and not VERB_NAME.search(name)
                and not _kept(kind_of, name)
            ):
                continue  # (a call named like a request is kept: its name is its method)
        elif kind == "string" and not _may_name_url(lowering.text(captures["string"][0])):
            continue
        elif kind == "import":
            continue  # read above
        _statement(lowering, model, kind, captures)
    model.index_statements()
    return model


def _comment_captured(captures: dict[str, list[Node]]) -> bool:
    """Whether a pattern's `(_)` took a comment (an extra, which may stand between any two
    nodes: `var q = /* why */ "x"`); the same pattern matches again with the real node."""
    return any(node.is_extra for nodes in captures.values() for node in nodes)


def _kept(kind: type[Lowering], name: str) -> bool:
    return kind.kept_calls is not None and kind.kept_calls.fullmatch(name) is not None


# a name that says a method: `http_get`, `postJson`, `GetAsync`, `delete_group`, `Get-Item`
VERB_NAME = re.compile(
    r"(?:^|_|(?<=[a-z]))(get|post|put|patch|delete|head)(?=$|_|-|[A-Z]|Async)", re.IGNORECASE
)


def _may_name_url(raw: str) -> bool:
    """A literal worth reading: a path, a URL, a host naming this API, an `api` name."""
    return "/" in raw or "prtg" in raw.lower() or ":1616" in raw or "api" in raw.lower()


Captures = dict[str, list["Node"]]


def _statement(lowering: Lowering, model: FileModel, kind: str, captures: Captures) -> None:
    handler = _STATEMENTS.get(kind.split(".")[0])
    if handler is not None:
        handler(lowering, model, captures)


def _call(lowering: Lowering, model: FileModel, captures: Captures) -> None:
    node = captures["call"][0]
    call = lowering.call(node)
    if call is not None:
        model.calls.append(call)
        model.call_nodes[call.node_id] = node


def _assign(lowering: Lowering, model: FileModel, captures: Captures) -> None:
    nodes = captures.get("assign") or captures.get("assign.add")
    if not nodes or "assign.value" not in captures:
        return
    node = nodes[0]
    start, end = lowering.span(node)
    function = model.function_at(start)
    scope = function.node_id if function else 0
    owner = model.class_at(start)
    value_node = captures["assign.value"][0]
    add = "assign.add" in captures
    if scope and lowering.module_target(captures["assign.name"][0]):
        scope = 0
    block = lowering.block(node)
    for key, item, unpack in lowering.targets(captures["assign.name"][0]):
        if not key:
            continue
        if key.startswith("@") and "." not in key:  # an attribute of the object: a field
            key = lowering.field_key(owner, key[1:])  # of the class around (`@T.f`: of T)
        elif owner is not None and function is None and "." not in key:
            key = lowering.field_key(owner, key)  # a class attribute (an enum member)
        assign = Assign(key, value_node, lowering, start, end, scope, add, item, unpack)
        assign.block = block
        model.assigns.setdefault(key, []).append(assign)


def _for(lowering: Lowering, model: FileModel, captures: Captures) -> None:
    if "for.iter" not in captures:
        return
    start, end = lowering.span(captures["for"][0])
    function = model.function_at(start)
    scope = function.node_id if function else 0
    iterable = lowering.lazy(captures["for.iter"][0])
    pairs = lowering.pairs(captures["for"][0])
    for key, _, unpack in lowering.targets(captures["for.target"][0]):
        if key:
            loop = Loop(key, unpack, iterable, start, end, scope, pairs)
            model.loops.setdefault(key, []).append(loop)


def _import(lowering: Lowering, model: FileModel, captures: Captures) -> None:
    for local, target in lowering.imports(captures["import"][0]):
        model.imports[local] = target


def _string(lowering: Lowering, model: FileModel, captures: Captures) -> None:
    node = captures["string"][0]
    context = lowering.string_context(node)
    if context != "inner":
        model.strings.append(StringRef(node, lowering.string_root(node), context, lowering))


def _region(lowering: Lowering, model: FileModel, captures: Captures) -> None:
    for kind, nodes in captures.items():
        if kind.startswith("region."):
            model.regions.append((kind.split(".", 1)[1], nodes[0]))


def _decorator(lowering: Lowering, model: FileModel, captures: Captures) -> None:
    for node in captures["decorator"][0].children:
        if node.type in ("call", "call_expression", "annotation", "attribute"):
            model.decorators.add(node.id)


_STATEMENTS = {
    "call": _call,
    "assign": _assign,
    "for": _for,
    "import": _import,
    "string": _string,
    "decorator": _decorator,
    "region": _region,
}
