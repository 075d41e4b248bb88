"""Client knowledge as data: one module of rows per language.

A row says what a library call means, never how to find it in text: which
argument holds the URL, the method, the query, the headers; which factory makes a
client object and where its base URL and default headers are given, and how the
library joins a path onto that base; which calls read environment variables,
encode, join or format values; which calls fill a mapping or a list. Adding a
client library is a row (and a line in the inline-expectation fixtures).

Argument places are `(index, keyword)`: position among positional arguments (-1:
never positional) and keyword (""): never by keyword).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache
from importlib import import_module

from apispec.lint.extract.ir import Arg, CallE, Expr, argument

Place = tuple[int, str]
NOWHERE: Place = (-1, "")
# the object a method is called on (Flurl's `"https://...".GetJsonAsync<T>()`)
RECEIVER: Place = (-2, "")
VERBS = ("get", "post", "put", "patch", "delete", "head", "options")


@dataclass(frozen=True)
class Factory:
    """A call that makes a client object: `requests.Session()`, `httpx.Client(base_url=...)`."""

    qualified: str  # `httpx.Client`, `axios.create`, or a bare constructor name
    name: str  # the object kind its client rows name
    base: Place = NOWHERE
    headers: Place = NOWHERE
    params: Place = NOWHERE
    join: str = "slash"  # how the library joins a relative path onto the base

    @property
    def fields(self) -> tuple[tuple[str, Place], ...]:
        return (("base", self.base), ("headers", self.headers), ("params", self.params))


@dataclass(frozen=True)
class Client:
    """A call that sends a request.

    `on` is what the callee is called on: a module (`requests`), a client object kind
    (`object:httpx`), `object:*` for an object of unknown class (a method name no other
    library shares: HttpClient's `GetFromJsonAsync`), `text` for a URL the verb is called
    on (Flurl), or "" for a function imported or called bare. `method` is
    "callee" (the callee's name is the verb), a fixed verb, or an argument place.
    """

    on: str
    callees: tuple[str, ...]
    url: Place = (0, "url")
    method: str | Place = "callee"
    query: Place = NOWHERE
    headers: Place = NOWHERE
    body: Place = NOWHERE
    # the keyword arguments that are request options, never query values
    options: tuple[str, ...] = ()


@dataclass(frozen=True)
class EnvReader:
    """`os.environ.get(name, default)`: the default is the value, else a hole named `name`."""

    qualified: str
    name: Place = (0, "")
    default: Place = (1, "")


@dataclass
class Knowledge:
    """The rows of one language, indexed for the resolver and the client matcher."""

    language: str
    factories: dict[str, Factory] = field(default_factory=dict)
    clients: list[Client] = field(default_factory=list)
    env_readers: dict[str, EnvReader] = field(default_factory=dict)
    transforms: dict[str, str] = field(default_factory=dict)  # qualified or callee -> kind
    mutators: dict[str, str] = field(default_factory=dict)  # callee -> effect
    self_names: frozenset[str] = frozenset()
    constructors: frozenset[str] = frozenset()
    modules: frozenset[str] = frozenset()  # names usable as modules without an import
    env_pattern: re.Pattern[str] | None = None  # `os.environ["X"]`, `process.env.X`
    mocks: tuple[str, ...] = ()  # module prefixes of test doubles
    routers: frozenset[str] = frozenset()  # receivers whose verb calls register routes
    route_callees: frozenset[str] = frozenset()
    matchers: frozenset[str] = frozenset()  # calls that compare or match a string
    # calls that set headers on the object they are called on (`req.add_header(k, v)`,
    # `session.headers.update({...})`)
    header_setters: frozenset[str] = frozenset()
    # the properties that hold an object's headers (`headers`, .NET's `DefaultRequestHeaders`):
    # a setter called on one sets the object's headers
    header_holders: tuple[str, ...] = ("headers",)
    # calls that add a query entry to the request object they are called on, chained on it
    # or on the name it is held by (RestSharp's `request.AddQueryParameter(k, v)`)
    query_setters: frozenset[str] = frozenset()
    # calls on a request that set its Authorization from a token, by scheme
    # (Flurl's `.WithOAuthBearerToken(t)` -> `Bearer t`)
    auth_setters: dict[str, str] = field(default_factory=dict)
    # library constants that name a text (`HttpMethod.Patch` -> PATCH), as written or qualified
    constants: dict[str, str] = field(default_factory=dict)
    # a declared type is a class by its own name, wherever it is defined (C#'s namespaces
    # bring every type of a namespace into scope; no import names it)
    types_by_name: bool = False
    # a method of the class is called without `this.` (C#, Java): a bare call may be one
    implicit_this: bool = False
    _by_on: dict[str, list[Client]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for client in self.clients:
            self._by_on.setdefault(client.on, []).append(client)

    def factory(self, qualified: str) -> Factory | None:
        return self.factories.get(qualified)

    def env_reader(self, qualified: str, call: CallE) -> tuple[Arg | None, Arg | None] | None:
        reader = self.env_readers.get(qualified)
        if reader is None:
            return None
        return argument(call.args, reader.name), argument(call.args, reader.default)

    def environment(self, expr: Expr, text: str) -> str | None:
        """The variable an environment read names (`os.environ["PRTG_URL"]` -> `prtg_url`)."""
        if self.env_pattern is None:
            return None
        m = self.env_pattern.fullmatch(text[expr.start : expr.end])
        return m.group(1).lower() if m else None

    def transform(self, qualified: str, callee: str) -> str | None:
        return self.transforms.get(qualified) or self.transforms.get("." + callee)

    def client(self, on: str, callee: str) -> Client | None:
        for row in self._by_on.get(on, ()):
            if callee in row.callees or callee.lower() in row.callees:
                return row
        return None


@cache
def knowledge(language: str) -> Knowledge:
    """The rows of `language` (its module under apispec.lint.knowledge)."""
    found: Knowledge = import_module(f"apispec.lint.knowledge.{language}").KNOWLEDGE
    return found
