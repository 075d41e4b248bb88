"""The small language-neutral model every language is lowered to.

Two layers. Expressions (`Expr`) are what the code writes, lowered from the tree
on demand: a string with interpolated expressions, a name, an attribute, a call,
a concatenation, a mapping, a list. Values (`Text`, `MapV`, `SeqV`, `ObjV`) are
what an expression is known to hold once names, attributes, parameters and
formats are followed (values.py). A value that is only partly known stays partly
known: an unknown piece of a string is a `Hole` that remembers where it is
written, so a filter's literal parts are still checked and a diagnostic still
points into the file.

Every offset here is a character offset into the decoded text of the file.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

# -- expressions ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Lit:
    """A run of literal characters, decoded (escapes resolved), with where each stands."""

    text: str
    start: int
    # offset of every character when the text is not a contiguous copy of the source
    # (escapes, line continuations); None: text[i] stands at start + i
    offsets: tuple[int, ...] | None = None
    # a word a variable held, put into a larger string: as a path segment it is a
    # parameter (`f"{base}/timeseries/{sid}/{window}"` names `{type}`, whatever
    # `window` held when the code was read)
    var: bool = False

    def offset(self, index: int) -> int:
        if self.offsets is None:
            return self.start + index
        return self.offsets[index] if index < len(self.offsets) else self.offsets[-1] + 1

    @property
    def end(self) -> int:
        return self.offset(len(self.text) - 1) + 1 if self.text else self.start


@dataclass(frozen=True, slots=True)
class Str:
    """A string literal: literal runs and interpolated expressions, in order."""

    pieces: tuple[Lit | Expr, ...]
    start: int
    end: int
    # a format template (`%s`, `{0}`, `{}`): its slots are filled by a format call
    template: bool = False


@dataclass(frozen=True, slots=True)
class Interp:
    """An interpolation inside a string (`{pid}`, `${id}`, `$($g.id)`): its expression, and
    its own span with the delimiters, which a placeholder of unknown value shows."""

    expr: Expr
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class Name:
    name: str
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class Attr:
    """`obj.name`, `obj->name`, `$obj.Name`: a member read."""

    obj: Expr
    name: str
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class Index:
    """`obj[key]`."""

    obj: Expr
    key: Expr
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class Arg:
    """One argument of a call: positional (`name` None), keyword, or spread (`*x`, `**x`)."""

    value: Expr
    name: str | None = None
    spread: str = ""  # "*" a list spread, "**" a mapping spread


class CallE:
    """A call: `callee(args)`; `receiver` is the object a method is called on.

    Its arguments are lowered the first time they are read: most calls of a file
    are never asked about (a call that cannot send a request is looked at no further).
    """

    __slots__ = ("_args", "_lower", "callee", "end", "new", "node_id", "receiver", "start")

    def __init__(
        self,
        callee: str,
        receiver: Expr | None,
        args: tuple[Arg, ...] | None,
        start: int,
        end: int,
        node_id: int = 0,
        lower: Callable[[], tuple[Arg, ...]] | None = None,
        new: bool = False,
    ) -> None:
        self.callee = callee  # the called name as written last (`get`, `Invoke-RestMethod`)
        self.new = new  # a construction of the class named (`new X(...)`, `pkg.T{...}`)
        self.receiver = receiver
        self._args = args
        self._lower = lower
        self.start = start
        self.end = end
        self.node_id = node_id  # the tree node's id, to find the call again

    @property
    def args(self) -> tuple[Arg, ...]:
        if self._args is None:
            self._args = self._lower() if self._lower is not None else ()
            self._lower = None
        return self._args

    def __repr__(self) -> str:
        return f"CallE({self.callee!r}, {self.start}-{self.end})"


@dataclass(frozen=True, slots=True)
class Concat:
    """Operands joined into one string (`a + b`, `a . b`, adjacent literals)."""

    parts: tuple[Expr, ...]
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class Format:
    """A template filled by a format operation (`%`, `.format`, `-f`, `sprintf`)."""

    template: Expr
    args: tuple[Arg, ...]
    style: str  # "printf" (%s), "brace" ({} {0} {name}), "dotnet" ({0})
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class Mapping:
    """A mapping literal; a key of None is a spread of `value` (`**x`, `...x`)."""

    items: tuple[tuple[Expr | None, Expr], ...]
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class ListE:
    items: tuple[Expr, ...]
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class Each:
    """One element per item a loop visits, collected into a list (`[f(k) for k in q]`,
    PowerShell's `$pairs = foreach ($k in $q.Keys) { "$k=..." }`): `element` read with
    the loop variable `key` bound to each item of `iterable`."""

    element: Expr
    key: str
    iterable: Expr
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class Cond:
    """Either of several expressions (`a if c else b`, `c ? a : b`, `a or b`)."""

    options: tuple[Expr, ...]
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class FuncE:
    """A function written where a value goes (a lambda, a block): value flow may call it,
    as a library calls the callback it is given (`uri(b -> b.path("/x").build())`)."""

    node_id: int  # the function's node id (FileModel.functions)
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class Opaque:
    """Anything the model does not follow: a number, an operation, a lambda."""

    text: str
    start: int
    end: int
    kind: str = ""  # "function": a function written inline (a handler, a callback)


Expr = (
    Str
    | Name
    | Attr
    | Index
    | CallE
    | Concat
    | Format
    | Mapping
    | ListE
    | Each
    | Cond
    | FuncE
    | Opaque
    | Interp
)

# -- values -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Param:
    """A parameter of the function a value is read in: what a wrapper's caller fills."""

    function: int  # id of the function (its node id)
    index: int  # position among the parameters a caller passes (receiver not counted)
    name: str
    kind: str = ""  # "*" rest positional, "**" keyword mapping


@dataclass(frozen=True, slots=True)
class Hole:
    """An unknown piece of a string: where it is written, and what the code calls it."""

    text: str  # the source text (a placeholder keeps its width in diagnostics)
    start: int
    end: int
    hint: str = ""  # the last identifier of the expression, lower case (`prtg_url`)
    param: Param | None = None  # set when the piece is a parameter of a wrapper


Piece = Lit | Hole


@dataclass(frozen=True, slots=True)
class Text:
    """A string value, partly known."""

    pieces: tuple[Piece, ...]

    @property
    def known(self) -> str:
        """The literal text with each hole as one U+0000."""
        return "".join(p.text if isinstance(p, Lit) else "\0" for p in self.pieces)

    @property
    def start(self) -> int:
        return self.pieces[0].start if self.pieces else 0

    def plus(self, other: Text) -> Text:
        return Text(self.pieces + other.pieces)


@dataclass(frozen=True, slots=True)
class Entry:
    """One entry of a mapping value: a literal key (or None: spread of an unknown)."""

    key: str | None
    key_start: int
    key_end: int
    value: Value
    # where the value is written in this mapping (a header names its line, not the
    # constant's), when it is an expression of this file
    written: tuple[int, int] | None = None


@dataclass(frozen=True, slots=True)
class MapV:
    entries: tuple[Entry, ...]
    start: int = 0
    end: int = 0
    partial: bool = False  # entries may be missing (an unknown spread, a call's result)
    # a query builder (`URLSearchParams`): where a string is expected it is `k=v&...`
    query: bool = False


@dataclass(frozen=True, slots=True)
class SeqV:
    items: tuple[Value, ...]
    start: int = 0
    end: int = 0
    partial: bool = False


@dataclass(frozen=True, slots=True)
class ObjV:
    """An object a factory made: an HTTP client (its knowledge row), a class instance."""

    kind: str  # "client", "instance", "module", "class"
    name: str  # the row's library / the class / the module
    fields: tuple[tuple[str, Value], ...] = ()
    module: str = ""  # where an instance's class is defined, as the code imports it

    def field(self, name: str) -> Value | None:
        for key, value in self.fields:
            if key == name:
                return value
        return None


@dataclass(frozen=True, slots=True)
class AltV:
    """One of several values (a condition's branches, a loop over a table)."""

    options: tuple[Value, ...]


@dataclass(frozen=True, slots=True)
class ParamV:
    """A whole parameter value (a mapping or an object a wrapper's caller passes)."""

    param: Param
    start: int = 0
    end: int = 0
    default: Value | None = None


Value = Text | MapV | SeqV | ObjV | AltV | ParamV


def hole_of(text: str, start: int, end: int, hint: str = "", param: Param | None = None) -> Text:
    return Text((Hole(text, start, end, hint, param),))


# (name, kind, default); kind "" positional or keyword, "*" rest positional, "**" keyword
# mapping, "kw" keyword only (`def f(*, url)`, Ruby's `def f(url:)`)
Params = list[tuple[str, str, Expr | None]]
Members = dict[str, tuple[int, str, Expr | None]]  # local -> (parameter, entry, default)


class Function:
    """A function or method definition, as scopes, wrappers and returns read it.

    Its parameters and returns are read from the tree the first time they are asked
    for: a file defines many functions, value flow looks into few.
    """

    __slots__ = (
        "_find_returns",
        "_load",
        "_load_members",
        "_members",
        "_params",
        "_returns",
        "_types",
        "end",
        "exported",
        "name",
        "node_id",
        "owner",
        "receiver",
        "start",
    )

    def __init__(
        self,
        node_id: int,
        name: str,
        start: int,
        end: int,
        load: Callable[[], tuple[Params, dict[str, str]]],
        returns: Callable[[], list[Callable[[], Expr]]] | None = None,
        owner: str | None = None,
        exported: bool = True,
        members: Callable[[], Members] | None = None,
    ) -> None:
        self.node_id = node_id
        self.name = name
        self.start = start
        self.end = end
        self.owner = owner  # the class it is a method of
        self.receiver: str | None = None  # Go's `c` in `func (c *Client)`; self is implicit
        self.exported = exported
        self._load = load
        self._find_returns = returns
        self._params: Params | None = None
        self._types: dict[str, str] = {}
        self._returns: list[Callable[[], Expr]] | None = None
        self._load_members = members
        self._members: Members | None = None

    def _loaded(self) -> None:
        if self._params is None:
            self._params, self._types = self._load()

    @property
    def params(self) -> Params:
        self._loaded()
        assert self._params is not None
        return self._params

    @property
    def types(self) -> dict[str, str]:
        """Declared parameter types (`client: PrtgClient`)."""
        self._loaded()
        return self._types

    @property
    def returns(self) -> list[Callable[[], Expr]]:
        """The expressions it returns, each lowered when asked for (found when first asked)."""
        if self._returns is None:
            self._returns = self._find_returns() if self._find_returns is not None else []
        return self._returns

    @property
    def members(self) -> Members:
        """Names a destructured parameter binds (`{ method = "GET", query }`): local name ->
        (the parameter's position, the entry it takes, its default)."""
        if self._members is None:
            self._members = self._load_members() if self._load_members is not None else {}
        return self._members

    def __repr__(self) -> str:
        return f"Function({self.name!r}, {self.start}-{self.end})"


def argument(args: tuple[Arg, ...] | list[Arg], where: tuple[int, str]) -> Arg | None:
    """The argument at position `where[0]` (-1: none) or named `where[1]` ("": none;
    `a|b`: either name, the first given wins)."""
    index, name = where
    for key in name.lower().split("|") if name else ():
        for arg in args:
            if arg.name is not None and arg.name.lower() == key:
                return arg
    if index >= 0:
        positional = [a for a in args if a.name is None and not a.spread]
        if index < len(positional):
            return positional[index]
    return None
