"""What the linter knows about HTTP clients, web frameworks and mocks, as data rows.

A new client, framework or mock library is a reviewed row here (with a
fixture), not code: the call stage asks `table(language)` for the rows of one
language compiled into sets once, so the per-call work parses nothing.

A `Client` row says what a call with this receiver and callee is:

- `route`: the callee only registers a route or handler of the file's own web
  app (`add_url_rule`, `HandleFunc`): its path is never a call;
- `router`: the receiver is a web app or router; its verb-named calls
  (`app.get("/x", handler)`) register a route when a handler follows the path;
- `mock`: the receiver is a mocking library; a path given to it describes a fake
  (with a callee other than `*`, only that call of it: Laravel's `Http::fake`);
- `url-builder`: the callee only builds the URL (`urljoin`, `URI.create`); the
  call that matters is the one around it;
- `helper`: a word that marks the project's own HTTP helper, in the callee's
  name (`api`, `request`) or, for a verb-named callee (`client.get`), in the
  receiver's; a one-word relative path (`'devices'`) counts only as such a
  helper's argument;
- `request-annotation`: an annotation that declares a request of a client
  interface (Retrofit's `@GET("devices")`, Feign's `@RequestLine("GET /x")`,
  Spring's `@GetExchange`): a call, never a route;
- `mapping-annotation`: a route annotation (`@GetMapping`, JAX-RS `@Path`) that
  declares a request instead when the file's nearest `client-interface`
  annotation before it (`@FeignClient`, `@RegisterRestClient`) is nearer than
  its nearest `server` annotation (`@RestController`).

Receiver and callee are lower case; `*` is any name, `*word*` any name that
contains the word, and `a|b` either name. Language `*` rows hold for every
language.

A `MethodHint` row is a pattern whose first group names the HTTP method where
a client takes it as an argument or option (`http.MethodPost`, `-Method Delete`).

The rows of client_bases.py: a `BaseClient` row is a client object created with a base URL (`axios.create({
baseURL })`, `HttpClient.BaseAddress`, `httpx.Client(base_url=...)`, resty's
`SetBaseURL`): the paths given to its calls are relative to that base and are
joined by the client's own rule (`Join`). A `UrlJoin` row is a function that
joins a relative reference to a base given as another argument (`urljoin`,
`new URL(path, base)`), a `RequestObject` row a request built apart and sent
by a client of the file (`new HttpRequestMessage(method, path)`), a
`ChainCall` row a call of a method chain that adds path segments or query
parameters to the request the chain sends (`.AppendPathSegment("devices")`,
`.SetQueryParam("filter", ...)`).
"""

from __future__ import annotations

import re
from enum import StrEnum
from functools import cache
from typing import NamedTuple

from apispec.lint.languages.client_bases import (
    BASE_CLIENTS,
    CHAIN_CALLS,
    MOCK_MODULES,
    REQUEST_OBJECTS,
    ROUTER_FACTORIES,
    URL_JOINS,
    BaseClient,
    ChainRole,
    RequestObject,
    UrlJoin,
)
from apispec.lint.patterns import lazy

VERBS = ("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS")
_ROUTER_VERBS = "get|post|put|patch|delete|head|options|all|use|any"
_HELPER_VERBS = "get|post|put|patch|delete"


class Role(StrEnum):
    ROUTE = "route"
    ROUTER = "router"
    MOCK = "mock"
    URL_BUILDER = "url-builder"
    HELPER = "helper"
    REQUEST_ANNOTATION = "request-annotation"
    MAPPING_ANNOTATION = "mapping-annotation"
    CLIENT_INTERFACE = "client-interface"
    SERVER = "server"


class Client(NamedTuple):
    language: str
    receiver: str
    callee: str
    role: Role


class MethodHint(NamedTuple):
    language: str
    pattern: str
    client: str  # what the pattern stands for, for readers


def _rows(role: Role, receivers: tuple[str, ...], callee: str) -> tuple[Client, ...]:
    return tuple(Client("*", receiver, callee, role) for receiver in receivers)


def _calls(role: Role, callees: tuple[str, ...]) -> tuple[Client, ...]:
    return tuple(Client("*", "*", callee, role) for callee in callees)


CLIENTS: tuple[Client, ...] = (
    # Flask, FastAPI, Starlette, Express, chi, echo, gin, ASP.NET minimal APIs ...
    *_calls(
        Role.ROUTE,
        (
            "route",
            "add_url_rule",
            "add_api_route",
            "add_route",
            "handlefunc",
            "handle",
            "mount",
            "add_websocket_route",
            "api_route",
            "websocket",
            "map",
            "mapget",
            "mappost",
            "mapput",
            "mapdelete",
            "mapmethods",
        ),
    ),
    *_rows(
        Role.ROUTER,
        (
            "app",
            "router",
            "server",
            "bp",
            "blueprint",
            "routes",
            "route",
            "r",
            "e",
            "g",
            "mux",
            "engine",
            "fastify",
            "srv",
            "application",
            "api_router",
            "apirouter",
            "subrouter",
            "rg",
            "v1",
            "group",
        ),
        _ROUTER_VERBS,
    ),
    # responses, respx, requests-mock, httpretty, aioresponses, pytest-mock, nock,
    # httpmock (Go), WireMock
    *_rows(
        Role.MOCK,
        (
            "responses",
            "respx",
            "requests_mock",
            "httpretty",
            "aioresponses",
            "mocker",
            "nock",
            "httpmock",
            "wiremock",
        ),
        "*",
    ),
    # MSW's handlers (`rest.get('/x', resolver)`); elsewhere `rest` is a client (Spring's RestTemplate)
    Client("javascript", "msw", "*", Role.MOCK),
    Client("javascript", "rest", "*", Role.MOCK),
    *_calls(
        Role.URL_BUILDER,
        (
            "urljoin",
            "join",
            "format",
            "sprintf",
            "str",
            "quote",
            "uri",
            "create",
            "parse",
            "resolve",
            "url",
            "encodeuri",
            "tostring",
            "string",
            "concat",
            "combine",
            "path",
            "joinpath",
            "appendpathsegment",
            "appendpathsegments",
        ),
    ),
    *_calls(
        Role.HELPER, ("*api*", "*rest*", "*request*", "*fetch*", "*http*", "*call*", "*invoke*")
    ),
    *_rows(
        Role.HELPER,
        ("*client*", "*session*", "*api*", "*http*", "*prtg*", "*conn*", "*rest*"),
        _HELPER_VERBS,
    ),
)


def _each(language: str, role: Role, callees: tuple[str, ...]) -> tuple[Client, ...]:
    return tuple(Client(language, "*", callee, role) for callee in callees)


# Java and Kotlin (the `java` dialect): URL builders, query links, declarative clients.
JVM: tuple[Client, ...] = (
    # Retrofit (`@GET("devices")`, `@HTTP(method = ..., path = ...)`), Feign, Spring HTTP interfaces
    *_each(
        "java",
        Role.REQUEST_ANNOTATION,
        (
            "get",
            "post",
            "put",
            "patch",
            "delete",
            "head",
            "options",
            "http",
            "requestline",
            "getexchange",
            "postexchange",
            "putexchange",
            "patchexchange",
            "deleteexchange",
            "httpexchange",
        ),
    ),
    *_each(
        "java",
        Role.MAPPING_ANNOTATION,
        (
            "getmapping",
            "postmapping",
            "putmapping",
            "patchmapping",
            "deletemapping",
            "requestmapping",
            "path",
        ),
    ),
    *_each("java", Role.CLIENT_INTERFACE, ("feignclient", "registerrestclient", "client")),
    # WireMock stubs and the responses they return: nothing in them is requested
    *_each("java", Role.ROUTE, ("stubfor", "giventhat", "willreturn", "okjson", "aresponse")),
    *_each("java", Role.SERVER, ("restcontroller", "controller")),
)

# Ruby and PHP: test doubles and the app's own routes.
DOUBLES: tuple[Client, ...] = (
    # WebMock (`stub_request(:get, url).to_return(...)`, `have_requested(:get, url)`)
    *_each(
        "ruby",
        Role.ROUTE,
        (
            "stub_request",
            "a_request",
            "have_requested",
            "have_not_requested",
            "assert_requested",
            "assert_not_requested",
            "to_return",
        ),
    ),
    # Laravel's Http::fake([...]) and the responses it returns
    Client("php", "http", "fake|response|sequence|assertsent|assertnotsent", Role.MOCK),
)

METHOD_HINTS: tuple[MethodHint, ...] = (
    MethodHint("*", r"\bhttp\.Method(Get|Post|Put|Patch|Delete|Head|Options)\b", "Go net/http"),
    MethodHint(
        "*", r"(?i)\bHttpMethod\.(Get|Post|Put|Patch|Delete|Head|Options)\b", ".NET, Spring"
    ),
    MethodHint("*", r"\bnew\s+HttpMethod\(\s*\"(\w+)\"\s*\)", ".NET HttpMethod"),
    MethodHint("*", r"(?i)\bMethod\.(Get|Post|Put|Patch|Delete|Head|Options)\b", "RestSharp"),
    MethodHint(
        "*", r"(?i)['\"]?\bmethod['\"]?\s*(?::|=>|=)\s*['\":]?([A-Za-z]+)\b", "option `method`"
    ),
    MethodHint("*", r"(?i)-Method\s+['\"]?([A-Za-z]+)", "PowerShell -Method"),
    MethodHint("*", r"\bCURLOPT_CUSTOMREQUEST\s*,\s*['\"](\w+)['\"]", "PHP curl"),
    MethodHint(
        "ruby", r"\bNet::HTTP::(Get|Post|Put|Patch|Delete|Head|Options)\b", "Net::HTTP class"
    ),
    MethodHint(
        "java", r"\bRequestMethod\.(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)\b", "Spring mapping"
    ),
    MethodHint("java", r"^\s*\"(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS) ", "Feign @RequestLine"),
    MethodHint(
        "ruby", r"(?<![:\w]):(get|post|put|patch|delete|head|options)\b", "Faraday run_request"
    ),
)


class ClientTable(NamedTuple):
    """The rows of one language, compiled for look-ups."""

    request_annotations: frozenset[str]
    mapping_annotations: frozenset[str]
    client_interfaces: frozenset[str]
    servers: frozenset[str]
    route_calls: frozenset[str]
    router_calls: dict[str, frozenset[str]]  # receiver: its calls that register a route
    mock_receivers: frozenset[str]
    mock_calls: dict[str, frozenset[str]]  # receiver: the calls of it that make a fake
    url_builders: frozenset[str]
    helper_words: tuple[str, ...]  # in a helper's own name
    helper_receivers: tuple[tuple[str, frozenset[str]], ...]  # (word in receiver, its calls)
    method_hints: tuple[re.Pattern[str], ...]
    url_joins: dict[str, UrlJoin]  # callee (lower case, `new x` for a constructor): row
    request_objects: dict[str, RequestObject]  # class name: row
    chain_roles: dict[str, ChainRole]  # method name (lower case): role
    builder_names: re.Pattern[str]  # finds any URL-join or path-segment call's name in a text
    mock_modules: frozenset[str]
    router_factory: re.Pattern[str] | None
    # (row, its factory compiled, its `=property` setters compiled), and one pattern
    # that finds any of them, to pass over the many files that create no such client.
    base_factories: tuple[
        tuple[BaseClient, re.Pattern[str] | None, tuple[re.Pattern[str], ...]], ...
    ]
    base_finder: re.Pattern[str] | None
    # The finder's pieces without a leading `\b`: each begins with a literal, which the
    # regex engine looks for as a string, so a file holding none is passed over fast.
    base_hints: tuple[re.Pattern[str], ...]
    # builder_names as lower-case words, for a text in ASCII (`in` instead of a search
    # for several words ignoring case); empty when a name is not ASCII.
    builder_words: tuple[str, ...]


@cache
def table(language: str) -> ClientTable:
    """The rows for `language` (and every language), compiled once per process.

    The patterns asked only once a file looks like it needs them (a client's factory
    and setters, the finder of them all, a router's factory, the builder names) are
    compiled on first use: most files of a language never need them.
    """
    rows = [row for row in (*CLIENTS, *JVM, *DOUBLES) if row.language in ("*", language)]

    def of(role: Role) -> list[Client]:
        return [row for row in rows if row.role is role]

    router_calls: dict[str, frozenset[str]] = {}
    for row in of(Role.ROUTER):
        router_calls[row.receiver] = router_calls.get(row.receiver, frozenset()) | _names(
            row.callee
        )
    helpers = of(Role.HELPER)
    return ClientTable(
        request_annotations=frozenset(row.callee for row in of(Role.REQUEST_ANNOTATION)),
        mapping_annotations=frozenset(row.callee for row in of(Role.MAPPING_ANNOTATION)),
        client_interfaces=frozenset(row.callee for row in of(Role.CLIENT_INTERFACE)),
        servers=frozenset(row.callee for row in of(Role.SERVER)),
        route_calls=frozenset(row.callee for row in of(Role.ROUTE)),
        router_calls=router_calls,
        mock_receivers=frozenset(row.receiver for row in of(Role.MOCK) if row.callee == "*"),
        mock_calls={row.receiver: _names(row.callee) for row in of(Role.MOCK) if row.callee != "*"},
        url_builders=frozenset(row.callee for row in of(Role.URL_BUILDER)),
        helper_words=tuple(row.callee.strip("*") for row in helpers if row.receiver == "*"),
        helper_receivers=tuple(
            (row.receiver.strip("*"), _names(row.callee)) for row in helpers if row.receiver != "*"
        ),
        method_hints=tuple(
            re.compile(hint.pattern) for hint in METHOD_HINTS if hint.language in ("*", language)
        ),
        url_joins={
            name: row
            for row in URL_JOINS
            if row.language in ("*", language)
            for name in row.callee.split("|")
        },
        request_objects={
            row.constructor: row for row in REQUEST_OBJECTS if row.language in ("*", language)
        },
        chain_roles={
            name: row.role
            for row in CHAIN_CALLS
            if row.language in ("*", language)
            for name in row.names.split("|")
        },
        base_factories=tuple(
            (
                row,
                lazy(row.factory, re.M) if row.factory else None,
                tuple(
                    lazy(r"\.\s*" + re.escape(kind[1:]) + r"\s*(?::|=>|=(?!=))\s*")
                    for kind in row.base.split("|")
                    if kind.startswith("=") and not row.factory.startswith("^class")
                ),
            )
            for row in BASE_CLIENTS
            if row.language in ("*", language)
        ),
        base_finder=_finder(language),
        base_hints=tuple(
            re.compile(piece.removeprefix(r"\b"), re.M) for piece in _finder_pieces(language)
        ),
        builder_words=_builder_words(language),
        mock_modules=frozenset(
            name
            for lang, names in MOCK_MODULES
            if lang in ("*", language)
            for name in names.split("|")
        ),
        router_factory=next(
            (lazy(p) for lang, p in ROUTER_FACTORIES if lang in ("*", language)), None
        ),
        builder_names=lazy(
            "(?i)" + "|".join(sorted(re.escape(name) for name in _builder_names(language)))
        ),
    )


def _builder_names(language: str) -> set[str]:
    """The names of the language's URL-join and path-segment calls."""
    return {
        name.split()[-1]
        for row in URL_JOINS
        if row.language in ("*", language)
        for name in row.callee.split("|")
    } | {
        name
        for row in CHAIN_CALLS
        if row.language in ("*", language) and row.role == "segments"
        for name in row.names.split("|")
    }


def _builder_words(language: str) -> tuple[str, ...]:
    words = tuple(sorted(name.lower() for name in _builder_names(language)))
    return words if all(word.isascii() for word in words) else ()


def _finder_pieces(language: str) -> list[str]:
    pieces = []
    for row in BASE_CLIENTS:
        if row.language not in ("*", language):
            continue
        if row.factory:
            pieces.append(row.factory)
        pieces.extend(
            r"\." + re.escape(kind[1:]) + r"\b" for kind in row.base.split("|") if kind[0] == "="
        )
    return pieces


def _finder(language: str) -> re.Pattern[str] | None:
    """One pattern for every way a client of the language gets its base URL."""
    pieces = _finder_pieces(language)
    return lazy("|".join(f"(?:{p})" for p in pieces), re.M) if pieces else None


def _names(callee: str) -> frozenset[str]:
    return frozenset(callee.split("|"))
