"""What the linter knows about HTTP clients, web frameworks and mocks, as data rows.

A new client, framework or mock library is a reviewed row here (with a
fixture), not code: the call stage asks `table(language)` for the rows of one
language compiled into sets once, so the per-call work parses nothing.

A `Client` row says what a call with this receiver and callee is:

- `route`: the callee only registers a route or handler of the file's own web
  app (`add_url_rule`, `HandleFunc`): its path is never a call;
- `router`: the receiver is a web app or router; its verb-named calls
  (`app.get("/x", handler)`) register a route when a handler follows the path;
- `mock`: the receiver is a mocking library; a path given to it describes a fake;
- `url-builder`: the callee only builds the URL (`urljoin`, `URI.create`); the
  call that matters is the one around it;
- `helper`: a word that marks the project's own HTTP helper, in the callee's
  name (`api`, `request`) or, for a verb-named callee (`client.get`), in the
  receiver's; a one-word relative path (`'devices'`) counts only as such a
  helper's argument;
- `segments`: a link of a URL builder chain that appends path segments, its
  arguments joined by `/` (`.pathSegment("experimental", "devices")`,
  `.addPathSegment("groups").addPathSegment(id)`);
- `query`: a link (or a call in a request's block) that adds one query
  parameter, name then value (`.queryParam("filter", f)`, Ktor's `parameter`);
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
"""

from __future__ import annotations

import re
from enum import StrEnum
from functools import cache
from typing import NamedTuple

VERBS = ("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS")
_ROUTER_VERBS = "get|post|put|patch|delete|head|options|all|use|any"
_HELPER_VERBS = "get|post|put|patch|delete"


class Role(StrEnum):
    ROUTE = "route"
    ROUTER = "router"
    MOCK = "mock"
    URL_BUILDER = "url-builder"
    HELPER = "helper"
    SEGMENTS = "segments"
    QUERY = "query"
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
    # Spring UriComponentsBuilder, OkHttp HttpUrl.Builder, Ktor URLBuilder, JAX-RS UriBuilder
    *_each(
        "java",
        Role.SEGMENTS,
        (
            "pathsegment",
            "addpathsegment",
            "addpathsegments",
            "addencodedpathsegment",
            "addencodedpathsegments",
            "appendpathsegments",
            "appendencodedpathsegments",
            "segment",
        ),
    ),
    *_each(
        "java",
        Role.QUERY,
        (
            "queryparam",
            "addqueryparameter",
            "addencodedqueryparameter",
            "setqueryparameter",
            "setencodedqueryparameter",
            "parameter",
        ),
    ),
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
    *_each("java", Role.SERVER, ("restcontroller", "controller")),
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

    segment_calls: frozenset[str]
    query_calls: frozenset[str]
    request_annotations: frozenset[str]
    mapping_annotations: frozenset[str]
    client_interfaces: frozenset[str]
    servers: frozenset[str]
    route_calls: frozenset[str]
    router_calls: dict[str, frozenset[str]]  # receiver: its calls that register a route
    mock_receivers: frozenset[str]
    url_builders: frozenset[str]
    helper_words: tuple[str, ...]  # in a helper's own name
    helper_receivers: tuple[tuple[str, frozenset[str]], ...]  # (word in receiver, its calls)
    method_hints: tuple[re.Pattern[str], ...]


@cache
def table(language: str) -> ClientTable:
    """The rows for `language` (and every language), compiled once per process."""
    rows = [row for row in (*CLIENTS, *JVM) if row.language in ("*", language)]

    def of(role: Role) -> list[Client]:
        return [row for row in rows if row.role is role]

    router_calls: dict[str, frozenset[str]] = {}
    for row in of(Role.ROUTER):
        router_calls[row.receiver] = router_calls.get(row.receiver, frozenset()) | _names(
            row.callee
        )
    helpers = of(Role.HELPER)
    return ClientTable(
        segment_calls=frozenset(row.callee for row in of(Role.SEGMENTS)),
        query_calls=frozenset(row.callee for row in of(Role.QUERY)),
        request_annotations=frozenset(row.callee for row in of(Role.REQUEST_ANNOTATION)),
        mapping_annotations=frozenset(row.callee for row in of(Role.MAPPING_ANNOTATION)),
        client_interfaces=frozenset(row.callee for row in of(Role.CLIENT_INTERFACE)),
        servers=frozenset(row.callee for row in of(Role.SERVER)),
        route_calls=frozenset(row.callee for row in of(Role.ROUTE)),
        router_calls=router_calls,
        mock_receivers=frozenset(row.receiver for row in of(Role.MOCK)),
        url_builders=frozenset(row.callee for row in of(Role.URL_BUILDER)),
        helper_words=tuple(row.callee.strip("*") for row in helpers if row.receiver == "*"),
        helper_receivers=tuple(
            (row.receiver.strip("*"), _names(row.callee)) for row in helpers if row.receiver != "*"
        ),
        method_hints=tuple(
            re.compile(hint.pattern) for hint in METHOD_HINTS if hint.language in ("*", language)
        ),
    )


def _names(callee: str) -> frozenset[str]:
    return frozenset(callee.split("|"))
