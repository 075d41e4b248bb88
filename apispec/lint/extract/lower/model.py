"""What lowering knows of one file: its assignments, loops, string literals, functions,
classes and calls (`FileModel`), and the indexes the later passes query them by (the
assignments of a name in a scope, the calls between two positions, the function or
class around a position).

Apart from the package's `__init__` (the `Lowering` base and the statement table that
fills a model) because the model is what every later pass reads, and its indexes are
a concern of their own.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from apispec.lint.extract.ir import Attr, CallE, Expr, Function, Name, Str
from apispec.lint.extract.parse import Parsed

if TYPE_CHECKING:
    from tree_sitter import Node

    from apispec.lint.extract.lower import Lowering


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


def _dotted(expr: Expr | None) -> str:
    """A receiver written as a name and its attributes (`url.searchParams`), else ""."""
    if isinstance(expr, Name):
        return expr.name
    if isinstance(expr, Attr):
        head = _dotted(expr.obj)
        return f"{head}.{expr.name}" if head else ""
    return ""
