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
    # positions of an options mapping whose entries stand for keyword arguments
    # (`axios.create({ baseURL })`, Guzzle's `new Client(['base_uri' => ...])`): a place's
    # keyword is then an entry of it
    config: tuple[int, ...] = ()
    url: Place = NOWHERE  # a request or URL builder made with its URL (`HttpUrl.parse(u)`)
    # the method a request builder sends until a link sets another (OkHttp's GET)
    method: str = ""
    # the kind of builder a function given to the factory configures (a Kotlin DSL block:
    # `HttpClient(CIO) { defaultRequest { url(base) } }`); "": none
    configure: str = ""

    @property
    def fields(self) -> tuple[tuple[str, Place], ...]:
        return (
            ("base", self.base),
            ("headers", self.headers),
            ("params", self.params),
            ("url", self.url),
        )


@dataclass(frozen=True)
class Client:
    """A call that sends a request.

    `on` is what the callee is called on: a module (`requests`), a client object kind
    (`object:httpx`), `object:*` for an object of unknown class (a method name no other
    library shares: HttpClient's `GetFromJsonAsync`), `text` for a URL the verb is called
    on (Flurl), or "" for a function imported or called bare; the callee "()" is the
    object called itself (`api("/x")` for an `ofetch.create(...)` instance). `method` is
    "callee" (the callee's name is the verb), "prefix" (the verb it starts with:
    `getForObject`, `PostMapping`), "line" (the URL argument is a request line, `GET
    /x`), a fixed verb, or an argument place.
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
    # the verb sent when the call names none (PowerShell's `Invoke-RestMethod`: GET)
    default_method: str | None = None
    # methods whose body the library sends as the query string instead (PowerShell's
    # `-Body @{...}` on a GET)
    body_query: tuple[str, ...] = ()
    # the call is one link of a builder chain: the request is the object the whole
    # chain builds (its links before and after set the method, headers and query)
    chain: bool = False
    # position of the first argument that fills the URL template's `{name}` slots, in
    # order (Spring's `getForObject(url, type, id)`: 2); -1: none
    template: int = -1
    # a declarative client's annotation: its base and headers are where the interface
    # is bound to a URL (Knowledge.binders)
    declared: bool = False
    # the kind of builder a function given to the call configures (Ktor's
    # `client.get("x") { parameter("filter", f) }`); "": none
    configure: str = ""

    # positions of an options object whose entries stand for keyword arguments
    # (`fetch(url, { method, headers })`, `$client->get($url, ['query' => [...]])`); a
    # keyword may name a nested entry (`params.query`) or alternatives (`query|params`)
    config: tuple[int, ...] = ()


@dataclass(frozen=True)
class Link:
    """A method of a builder object that returns the object with one part set.

    `part`: "" (unchanged), "url" or "base" (argument 0 is it), "path" (argument 0 is
    appended to the URL's path), "segments" (each argument is one more path segment),
    "query" or "headers" (argument 0 names an entry, argument 1 is its value),
    "queries" (argument 0 is a mapping of entries), "method" (argument 0 is the verb),
    "verb" (the callee's name is the verb), "resolve" (argument 0 is resolved against
    the URL, RFC 3986), "scheme", "host" or "port" (a piece of the URL), "callback" (the
    argument is a function given a builder of kind `argument`: the headers and query it
    sets are this object's, as Feign's `requestInterceptor(t -> t.header(k, v))`).
    "appended" (as "segments", but relative where the URL is still empty, as Ktor's
    URLBuilder). "base" takes the last argument (Feign's `target(Api.class, url)`). `kind`: the kind
    of object it returns when not the same. A function given where the URL goes
    (`uri(b -> b.path("/x").build())`) is called with a builder of kind `argument`.
    """

    on: str  # `object:<kind>`
    callees: tuple[str, ...]
    part: str = ""
    kind: str = ""
    argument: str = ""
    template: int = -1  # as Client.template, for a URL link (`uri("/x/{id}", id)`)


@dataclass(frozen=True)
class Command:
    """A command-line client (curl, wget, httpie): what its words say about the request.

    Options are read as getopt reads them: `-Xvalue`, `-X value`, `--opt=value`,
    `--opt value`, short switches run together (`-qO-`). An option listed in a role
    takes a value unless it is a switch role (`get`, `head`); an option listed nowhere
    takes none unless `valued` names it. The first operand that looks like a URL is the
    URL (`url` options name one too). `items`: after the URL, httpie's request items
    (`Header:value`, `name==value` query, `name=value` and `name:=json` body fields).
    """

    names: tuple[str, ...]
    method: tuple[str, ...] = ()  # the value is the method (`-X`, `--request`, `--method`)
    header: tuple[str, ...] = ()  # the value is one `Name: value` header
    data: tuple[str, ...] = ()  # the value is (part of) the body: a POST, unless `get`
    encoded: tuple[str, ...] = ()  # data the client URL-encodes (`--data-urlencode`)
    query: tuple[str, ...] = ()  # the value is one query item the client encodes (`--url-query`)
    get: tuple[str, ...] = ()  # switches that send the data as the query of a GET (`-G`)
    head: tuple[str, ...] = ()  # switches that send a HEAD request (`-I`)
    upload: tuple[str, ...] = ()  # the value is a file sent with PUT (`-T`, `--upload-file`)
    url: tuple[str, ...] = ()  # the value is a URL (`--url`)
    valued: tuple[str, ...] = ()  # other options that take a value (`-o FILE`)
    items: bool = False
    default: str = "GET"  # the method when nothing says another


@dataclass(frozen=True)
class EnvReader:
    """`os.environ.get(name, default)`: the default is the value, else a hole named `name`."""

    qualified: str
    name: Place = (0, "")
    default: Place = (1, "")


@dataclass(frozen=True)
class HandleSetter:
    """A call that sets an option of a request handle apart from the call that makes the
    handle (`curl_setopt($ch, CURLOPT_URL, $url)`); `option` -1: the value is a mapping
    of options (`curl_setopt_array($ch, [CURLOPT_POST => true])`). The options' names
    say which part of the request each sets (`Knowledge.handle_options`)."""

    handle: int = 0
    option: int = 1
    value: int = 2


@dataclass(frozen=True)
class Builder:
    """A method of a client or request object that returns the object with a field set.

    resty's `SetBaseURL(url)` sets the base, `SetQueryParam(k, v)` adds a query entry,
    `SetHeaders(map)` merges headers, `R()` returns a request of the same client.
    `field` "" returns the object unchanged; `effect` is "set" (the field holds argument
    0), "entry" (argument 0 names an entry, argument 1 is its value) or "merge" (argument
    0 is a mapping of entries).
    """

    on: str  # `object:<kind>` of the factory that made the object
    callees: tuple[str, ...]
    field: str = ""
    effect: str = "set"


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
    links: list[Link] = field(default_factory=list)
    # builder kinds whose other methods return the object unchanged (`.timeout(d)`)
    fluent_kinds: frozenset[str] = frozenset()
    # declarative clients: annotations that declare a request wherever they stand
    # (Retrofit's `@GET`), annotations that do so inside a type marked a client
    # (`@GetMapping` in a `@FeignClient`) and are routes elsewhere, and the marks of
    # client and server types
    request_marks: frozenset[str] = frozenset()
    route_marks: frozenset[str] = frozenset()
    client_marks: frozenset[str] = frozenset()
    server_marks: frozenset[str] = frozenset()
    # calls that bind a declarative client's interface to a base URL, the interface
    # named by a class literal among their arguments (`target(Api.class, url)`)
    binders: frozenset[str] = frozenset()
    # command-line clients by command name (shell's curl, wget, httpie)
    commands: dict[str, Command] = field(default_factory=dict)
    # attributes of a string-valued object that are its text (an enum member's `value`,
    # a URL object's `href`)
    text_attrs: frozenset[str] = frozenset({"value"})
    # attributes of a client module or object that set its base URL after it is made
    # (`axios.defaults.baseURL = ...`)
    base_attrs: tuple[str, ...] = ()
    # calls that make a web app or router: its verb calls register routes (`express()`)
    router_factories: frozenset[str] = frozenset()
    # calls later in a chain that make it a test double's stub (`nock(h).get(p).reply()`)
    mock_links: frozenset[str] = frozenset()
    # attributes of a URL object that hold its query: "map" a mapping mutated in place
    # (`url.searchParams.set(...)`), "text" a query string assigned (`url.search = ...`)
    query_attrs: dict[str, str] = field(default_factory=dict)
    # the properties that hold an object's headers (`headers`, .NET's `DefaultRequestHeaders`):
    # a setter called on one sets the object's headers
    header_holders: tuple[str, ...] = ("headers",)
    # the label that names the header a setter sets, where the value comes first
    # (Swift's `req.setValue(v, forHTTPHeaderField: "Authorization")`)
    header_name_labels: tuple[str, ...] = ()
    # calls that add a query entry to the request object they are called on, chained on it
    # or on the name it is held by (RestSharp's `request.AddQueryParameter(k, v)`)
    query_setters: frozenset[str] = frozenset()
    # calls on a request that set its Authorization from a token, by scheme
    # (Flurl's `.WithOAuthBearerToken(t)` -> `Bearer t`)
    auth_setters: dict[str, str] = field(default_factory=dict)
    # library constants that name a text, as written or qualified (`HttpMethod.Patch` ->
    # PATCH, `CURLOPT_URL` names its option)
    constants: dict[str, str] = field(default_factory=dict)
    # a declared type is a class by its own name, wherever it is defined (C#'s namespaces
    # bring every type of a namespace into scope, Java's and Kotlin's a package's; no
    # import names it)
    types_by_name: bool = False
    # how the language calls: a name alone may call a method and a call without
    # arguments may read an attribute (Ruby); a method of the class is called without
    # its object (`get(path)` inside the class: Ruby, C#, Java); a class is made by a
    # method (`Cls.new`)
    paren_free: bool = False
    implicit_this: bool = False
    new_method: str = ""
    # modules that are client objects themselves (Laravel's `Http`, HTTP.rb's `HTTP`):
    # module -> the client kind their rows name
    module_clients: dict[str, str] = field(default_factory=dict)
    # methods of a client object that return it configured (`->withToken($t)`,
    # `.headers(h)`): client kind -> method -> the field its first argument sets
    # ("" none, "base", "headers", "params", "bearer": an Authorization header)
    chains: dict[str, dict[str, str]] = field(default_factory=dict)
    # calls in a class body that configure the class as a client (HTTParty's
    # `base_uri x`): callee -> the field they set
    class_setters: dict[str, str] = field(default_factory=dict)
    # handles configured apart (curl): setter callee -> places; option name -> part
    # ("url", "method", "post": POST when set, "body", "headers")
    handle_setters: dict[str, HandleSetter] = field(default_factory=dict)
    handle_options: dict[str, str] = field(default_factory=dict)
    # parts of a request set on the name that holds it (the call's result, or what its
    # block is given): attribute -> part ("" the holder itself: `req['X'] = ...`), and
    # calls on the holder -> part (`req.url 'x'`); parts "query", "headers", "url"
    holder_parts: dict[str, str] = field(default_factory=dict)
    holder_calls: dict[str, str] = field(default_factory=dict)
    builders: list[Builder] = field(default_factory=list)
    # packages code uses without importing them (snippets in documentation, scripts):
    # local name -> module, where the file does not import or assign the name itself
    default_imports: dict[str, str] = field(default_factory=dict)
    # parts of a URL object set by assignment (`u.RawQuery` -> "query", `u.Path` -> "path")
    url_parts: dict[str, str] = field(default_factory=dict)
    # the field of a request object that holds its URL (Go's `req.URL`), whose parts
    # the code may set after making the request
    request_url: str = ""
    # method name prefixes of fluent objects (`object:<kind>`) that return the object
    fluent: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # "directory": the files of one directory share one scope (Go's packages), so a
    # function of a sibling file is called without an import; "file": each file its own
    scope: str = "file"
    # a capitalized callee of another module constructs its class (Python's `Client()`);
    # where it does not (Go: exported functions), it is a function of that module
    class_calls: bool = True
    # functions every file of the language may call by name once a file defines them
    # (PowerShell: one command namespace per session; a `Verb-Noun` name is a command
    # of the project's own), also where the file shows no import of the definer
    global_functions: re.Pattern[str] | None = None
    # positional arguments bind the parameters not given by name, in order (PowerShell's
    # `Invoke-Api -Method Post '/x'` gives `/x` to the first parameter); else by index
    positional_fill: bool = False
    # mapping keys compared without case (PowerShell's hashtables)
    keys_ignore_case: bool = False
    # attributes of a mapping that list its keys (PowerShell's `$q.Keys`)
    key_attrs: frozenset[str] = frozenset()
    _by_on: dict[str, list[Client]] = field(default_factory=dict)
    _links: dict[tuple[str, str], Link] = field(default_factory=dict)
    _builders: dict[tuple[str, str], Builder] = field(default_factory=dict)
    _builder_names: set[str] = field(default_factory=set)
    _prefixes: tuple[str, ...] = ()
    chain_methods: frozenset[str] = frozenset()  # every method of `chains`

    def __post_init__(self) -> None:
        for client in self.clients:
            self._by_on.setdefault(client.on, []).append(client)
        for link in self.links:
            for callee in link.callees:
                self._links.setdefault((link.on, callee), link)
        self.chain_methods = frozenset(m for links in self.chains.values() for m in links)
        for builder in self.builders:
            for callee in builder.callees:
                self._builders[(builder.on, callee)] = builder
                self._builder_names.add(callee)
        self._prefixes = tuple(p for prefixes in self.fluent.values() for p in prefixes)

    def link(self, kind: str, callee: str) -> Link | None:
        """What a method of a builder object of `kind` does (None: not a builder's)."""
        found = self._links.get(("object:" + kind, callee))
        if found is None and kind in self.fluent_kinds:
            return Link("object:" + kind, (callee,))
        return found

    @property
    def link_names(self) -> frozenset[str]:
        return frozenset(callee for _, callee in self._links)

    def sole_builder(self, callee: str) -> Link | None:
        """The link a method name is of, where only one kind of builder has it and it
        builds the URL (`addPathSegment`: OkHttp's `HttpUrl.Builder`): an object the
        file says nothing of, called with it, is a builder of that kind."""
        found = [link for (_, name), link in self._links.items() if name == callee]
        if len({link.on for link in found}) != 1 or found[0].part not in _URL_PARTS:
            return None
        return found[0]

    def builder(self, on: str, callee: str) -> Builder | None:
        """What a method of a fluent object does (None: not a method that returns it)."""
        found = self._builders.get((on, callee))
        if found is not None:
            return found
        if any(callee.startswith(prefix) for prefix in self.fluent.get(on, ())):
            return Builder(on, (callee,))
        return None

    @property
    def builder_names(self) -> frozenset[str]:
        return frozenset(self._builder_names)

    def may_build(self, callee: str) -> bool:
        """Whether a method of this name may return a fluent object (read its receiver)."""
        return callee in self._builder_names or callee.startswith(self._prefixes)

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

    def command(self, name: str) -> Command | None:
        return self.commands.get(name)

    def client(self, on: str, callee: str) -> Client | None:
        for row in self._by_on.get(on, ()):
            if callee in row.callees or callee.lower() in row.callees:
                return row
        return None


# the parts of a link that build a URL's path or query
_URL_PARTS = frozenset({"segments", "query", "queries", "appended"})


@cache
def knowledge(language: str) -> Knowledge:
    """The rows of `language` (its module under apispec.lint.knowledge)."""
    found: Knowledge = import_module(f"apispec.lint.knowledge.{language}").KNOWLEDGE
    return found
