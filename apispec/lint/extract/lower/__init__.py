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
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import cache
from importlib import import_module
from importlib.resources import files
from typing import TYPE_CHECKING, ClassVar

from apispec.lint.budget import check
from apispec.lint.extract.ir import Attr, CallE, Concat, Expr, Function, Name, Opaque, Str
from apispec.lint.extract.parse import Parsed, grammar

if TYPE_CHECKING:
    from tree_sitter import Node, Query, QueryCursor

# the deepest node a query match starts at, below the node the query runs on
MAX_DEPTH = 10_000


# expressions that only wrap the value they hold (a cast, brackets)
_WRAPPERS = frozenset({"cast_expression", "parenthesized_expression", "as_expression"})


class Assign:
    """One assignment: `key = value` (or `key[item] = value`, `key += value`).

    The value is lowered the first time it is read: a file's assignments are many,
    the names a request's values follow are few.
    """

    __slots__ = (
        "_lowering",
        "_node",
        "_value",
        "add",
        "block",
        "end",
        "item",
        "key",
        "scope",
        "start",
        "unpack",
    )

    def __init__(
        self,
        key: str,
        node: Node,
        lowering: Lowering,
        start: int,
        end: int,
        scope: int,
        add: bool = False,
        item: Expr | None = None,
        unpack: int | str = -1,
    ) -> None:
        self.key = key  # a name, or "@Class.field" for an attribute of the object
        self._node = node
        self._lowering = lowering
        self._value: Expr | None = None
        self.start = start  # where the statement starts (a use sees assignments before it)
        self.end = end
        self.scope = scope  # node id of the function it is in (0: the module)
        self.add = add  # `+=`: appended to what the key held
        self.item = item  # `key[item] = value`: one entry of a mapping or list
        # `a, b = ...`: the position of this key in the target; `{ path } = ...`: the
        # entry of the mapping it takes (a destructuring by key)
        self.unpack = unpack
        # the statement block it is in (a branch, a loop body): a read outside it may not
        # see this assignment; None: it always runs before what follows it
        self.block: tuple[int, int] | None = None

    @property
    def value(self) -> Expr:
        if self._value is None:
            self._value = self._lowering.expr(self._node)
        return self._value

    @property
    def value_node(self) -> Node:
        return self._node


class Loop:
    """`for target in iterable`: the target takes each element's value (or its `unpack`-th).

    The iterable is lowered the first time a name asks for it. `pairs`: the loop walks
    (key, value) pairs: a list's (index, item), a mapping's (key, value) (Go's
    `for k, v := range m`)."""

    __slots__ = ("_iterable", "_lower", "end", "key", "pairs", "scope", "start", "unpack")

    def __init__(
        self,
        key: str,
        unpack: int | str,
        lower: Callable[[], Expr],
        start: int,
        end: int,
        scope: int,
        pairs: bool = False,
    ) -> None:
        self.key = key
        self.unpack = unpack
        self._lower = lower
        self._iterable: Expr | None = None
        self.start = start
        self.end = end
        self.scope = scope
        self.pairs = pairs

    @property
    def iterable(self) -> Expr:
        if self._iterable is None:
            self._iterable = self._lower()
        return self._iterable


class StringRef:
    """A string literal of the file, lowered only when its text may matter."""

    __slots__ = ("_lowering", "_node", "_root", "context", "raw")

    def __init__(self, node: Node, root: Node, context: str, lowering: Lowering) -> None:
        self._node = node
        self._root = root
        self._lowering = lowering
        self.context = context  # "value", or why it is no call ("compare", "key", "doc", ...)
        self.raw = lowering.text(node)  # as written, quotes and escapes included

    @property
    def literal(self) -> Str:
        value = self._lowering.expr(self._node)
        return value if isinstance(value, Str) else Str((value,), value.start, value.end)

    @property
    def whole(self) -> Expr:
        """The whole expression the literal is part of (`base + "/x?" + query`)."""
        return self.literal if self._root is self._node else self._lowering.root(self._root)

    def calls(self) -> list[CallE]:
        """The calls whose arguments hold the literal, innermost first, in its function
        (lowered here: a call of a name the file never defines, `call("DELETE", url)`)."""
        found: list[CallE] = []
        lowering = self._lowering
        node = self._node.parent
        while node is not None and node.type not in lowering.function_types:
            if node.type in lowering.call_types:
                call = lowering.call(node)
                if call is not None:
                    found.append(call)
            node = node.parent
        return found


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
    strings: list[StringRef] = field(default_factory=list)
    calls_on: dict[str, list[CallE]] = field(default_factory=dict)  # receiver name -> calls
    # code of another language inside a literal (a Jenkinsfile's `sh` step): (language, node)
    regions: list[tuple[str, Node]] = field(default_factory=list)
    by_name: dict[str, list[Function]] = field(default_factory=dict)
    _starts: list[int] = field(default_factory=list)
    _ordered: list[Function] = field(default_factory=list)
    _parent: dict[int, Function | None] = field(default_factory=dict)
    _classes: list[tuple[int, int, str]] = field(default_factory=list)
    _class_starts: list[int] = field(default_factory=list)
    lowering: Lowering | None = None
    call_nodes: dict[int, Node] = field(default_factory=dict)  # call node id -> its node
    _chains: dict[int, Expr | None] = field(default_factory=dict)
    _by_id: dict[int, Function] = field(default_factory=dict)
    _by_function: dict[int, list[CallE]] | None = None
    _by_scope: dict[tuple[str, int], list[Assign]] | None = None
    _call_starts: dict[str, list[int]] = field(default_factory=dict)
    _starts_of_calls: list[int] = field(default_factory=list)
    _assign_starts: dict[str, list[int]] = field(default_factory=dict)
    _holders: dict[int, list[str]] | None = None

    def calls_in(self, function: Function) -> list[CallE]:
        """The calls in a function's own body (not in functions nested inside it), in order."""
        if self._by_function is None:
            self._by_function = {}
            for call in self.calls:
                owner = self.function_at(call.start)
                if owner is not None:
                    self._by_function.setdefault(owner.node_id, []).append(call)
        return self._by_function.get(function.node_id, [])

    def holder(self, node_id: int) -> str | None:
        """The first name the value of node `node_id` is assigned to (see `holders`)."""
        found = self.holders(node_id)
        return found[0] if found else None

    def function_by_id(self, node_id: int) -> Function | None:
        if not self._by_id and self.functions:
            self._by_id = {f.node_id: f for f in self.functions}
        return self._by_id.get(node_id)

    def chain(self, call: CallE) -> Expr | None:
        """The whole method chain a call is a link of (`newBuilder(u).header(k, v).GET()`
        for `newBuilder(u)`), lowered on first use; None when the call is its last link."""
        if call.node_id in self._chains:
            return self._chains[call.node_id]
        node = self.call_nodes.get(call.node_id)
        found: Expr | None = None
        if node is not None and self.lowering is not None:
            top = self.lowering.chain_top(node)
            if top.id != node.id:
                found = self.lowering.expr(top)
        self._chains[call.node_id] = found
        return found

    _receivers: bool = False  # some method names its receiver (Go)

    def index_functions(self) -> None:
        """Order the functions and link each to the one around it (statements need scopes).

        Function bodies nest, so the innermost one around a position is found from the
        last function starting before it by climbing to enclosing functions: a few steps,
        however many functions the file has.
        """
        self._ordered = sorted(self.functions, key=lambda f: (f.start, -f.end))
        self._starts = [f.start for f in self._ordered]
        self._parent = {}
        stack: list[Function] = []
        for function in self._ordered:
            while stack and not function.start < stack[-1].end:
                stack.pop()
            self._parent[function.node_id] = stack[-1] if stack else None
            stack.append(function)
        for function in self.functions:
            self.by_name.setdefault(function.name, []).append(function)
            self._receivers = self._receivers or function.receiver is not None
        self._classes = sorted(
            ((start, end, name) for name, (start, end, _) in self.classes.items()),
            key=lambda c: (c[0], -c[1]),
        )
        self._class_starts = [c[0] for c in self._classes]

    def index_statements(self) -> None:
        """Order calls and assignments by position, and calls by their receiver's name."""
        self.calls.sort(key=lambda c: c.start)
        for call in self.calls:
            dotted = _dotted(call.receiver)
            if dotted:  # `q`, `url.searchParams`
                self.calls_on.setdefault(dotted, []).append(call)
        for assigns in self.assigns.values():
            assigns.sort(key=lambda a: a.start)
        self._call_starts = {k: [c.start for c in v] for k, v in self.calls_on.items()}

    def assigns_in(self, key: str, scope: int) -> list[Assign]:
        """`key`'s assignments in one scope (a function's node id, 0 the module), in order:
        a name reused by every function of a file is looked up in one, never scanned."""
        if self._by_scope is None:
            self._by_scope = {}
            for name, assigns in self.assigns.items():
                for assign in assigns:
                    self._by_scope.setdefault((name, assign.scope), []).append(assign)
        return self._by_scope.get((key, scope), [])

    def assigns_within(self, key: str, start: int, end: int) -> list[Assign]:
        """`key`'s assignments that start strictly between two positions, in order."""
        assigns = self.assigns.get(key)
        if not assigns:
            return []
        starts = self._assign_starts.get(key)
        if starts is None or len(starts) != len(assigns):
            starts = self._assign_starts[key] = [a.start for a in assigns]
        return assigns[bisect_right(starts, start) : bisect_left(starts, end)]

    def calls_within(self, start: int, end: int) -> list[CallE]:
        """The file's calls that start at or after `start` and before `end`, in order."""
        if len(self._starts_of_calls) != len(self.calls):
            self._starts_of_calls = [c.start for c in self.calls]
        starts = self._starts_of_calls
        return self.calls[bisect_left(starts, start) : bisect_left(starts, end)]

    def calls_between(self, key: str, after: int, before: int) -> list[CallE]:
        """The calls on `key` that start strictly between two positions, in order."""
        calls = self.calls_on.get(key)
        if not calls:
            return []
        starts = self._call_starts.get(key) or [c.start for c in calls]
        return calls[bisect_right(starts, after) : bisect_left(starts, before)]

    def holders(self, node_id: int) -> list[str]:
        """The names the value of a node (a call) is assigned to, or its block is given
        (`req = Request(url)`, `conn.get('x') { |req| ... }`), read without lowering."""
        if self._holders is None:
            ranked: dict[int, list[tuple[int, str]]] = {}
            for key, assigns in self.assigns.items():
                for assign in assigns:
                    if assign.item is not None or assign.add:
                        continue
                    node = assign.value_node
                    while node.type in _WRAPPERS and node.named_children:
                        node = node.named_children[-1]  # `(Request) x`, `(x)`: x itself
                    # the first target first (`req, err := ...`: req), whatever the names' order
                    rank = assign.unpack if isinstance(assign.unpack, int) else 1 << 20
                    ranked.setdefault(node.id, []).append((rank, key))
                    if assign.unpack != -1 and node.named_child_count == 1:
                        # `req, err := http.NewRequest(...)`: the one value unpacked
                        ranked.setdefault(node.named_children[0].id, []).append((rank, key))
            self._holders = {
                node: [key for _, key in sorted(found, key=lambda pair: pair[0])]
                for node, found in ranked.items()
            }
        return self._holders.get(node_id, [])

    def function_at(self, pos: int) -> Function | None:
        """The innermost function whose body holds `pos`."""
        k = bisect_right(self._starts, pos) - 1
        candidate = self._ordered[k] if k >= 0 else None
        while candidate is not None and not candidate.start <= pos < candidate.end:
            candidate = self._parent.get(candidate.node_id)
        return candidate

    def receiver_at(self, pos: int, name: str) -> Function | None:
        """The method around `pos` whose receiver is called `name` (Go's `c` in
        `func (c *Client) get(...)`, visible in the function literals inside it too)."""
        if not self._receivers:
            return None
        function = self.function_at(pos)
        while function is not None:
            if function.receiver == name:
                return function
            function = self._parent.get(function.node_id)
        return None

    def functions_at(self, pos: int) -> list[Function]:
        """The functions around `pos`, innermost first."""
        found = []
        function = self.function_at(pos)
        while function is not None:
            found.append(function)
            function = self._parent.get(function.node_id)
        return found

    def parent_of(self, function: Function) -> Function | None:
        """The function a function is written in, if any."""
        return self._parent.get(function.node_id)

    def scopes_at(self, pos: int) -> list[int]:
        """Node ids of the functions around `pos`, innermost first, then 0 (the module)."""
        return [*(f.node_id for f in self.functions_at(pos)), 0]

    def class_at(self, pos: int) -> str | None:
        """The innermost class around `pos` (classes nest rarely: a short scan back)."""
        k = bisect_right(self._class_starts, pos) - 1
        best: tuple[int, str] | None = None
        while k >= 0:
            start, end, name = self._classes[k]
            if start <= pos < end and (best is None or end - start < best[0]):
                best = (end - start, name)
                if best is not None and k > 0 and self._classes[k - 1][1] <= start:
                    break
            k -= 1
        return best[1] if best else None


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


def _dotted(expr: Expr | None) -> str:
    """A receiver written as a name and its attributes (`url.searchParams`), else ""."""
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
