"""What the linter knows about how clients put a URL together, as data rows: clients
made with a base URL and how each joins a relative path to it (`Join`), URL-joining
calls, request objects, chained calls that carry the path, mock modules and web-app
factories.

Apart from clients.py (which calls are requests, routes, mocks: the `Client` rows and
`table`, which compiles both files' rows per language) because base URLs and joins
are a reviewed concern of their own (docs/linter-detection.md).
"""

from __future__ import annotations

from enum import StrEnum
from typing import Literal, NamedTuple


class Join(StrEnum):
    """How a client joins a relative path to its base URL (docs/linter-detection.md)."""

    # One slash between the two, whatever either has (axios, httpx, resty, RestSharp, Flurl).
    PREFIX = "prefix"
    # As PREFIX, but a path with a leading slash is refused before sending (ky, got).
    PREFIX_STRICT = "prefix-strict"
    # RFC 3986 resolution (.NET Uri, urljoin, new URL, aiohttp, Guzzle): a leading slash
    # replaces the base's path, and a base without a trailing slash loses its last segment.
    URL = "url"
    # The base is made a directory (trailing slash added), then URL resolution (Faraday).
    URL_DIRECTORY = "url-directory"
    # Plain concatenation (HTTParty): a path without a leading slash runs into the base.
    CONCAT = "concat"


class BaseClient(NamedTuple):
    language: str
    factory: str  # regex that finds the expression creating the object ("" none: see `base`)
    # Where the base URL is given, several with `|`: `name` an option, keyword or
    # initializer property among the factory's arguments; `#0` its first argument;
    # `~name` a class-level declaration after the factory (HTTParty's `base_uri X`);
    # `.Name` a call chained on the object (`.SetBaseURL(x)`); `=name` a property
    # set on the object later (`http.BaseAddress = ...`, `self.base_url = ...`).
    base: str
    join: Join
    client: str  # what the row stands for, for readers


class UrlJoin(NamedTuple):
    language: str
    callee: str  # lower-case names, `a|b`; `new X` for a constructor
    base_argument: int
    path_argument: int
    join: Join


class RequestObject(NamedTuple):
    language: str
    constructor: str  # the class whose `new X(...)` builds a request
    path_argument: int
    client: str  # the BaseClient.client whose base applies


# What a chained call's arguments are: path segments, a query name and value, or a
# mapping of query values.
ChainRole = Literal["segments", "query", "query-map"]


class ChainCall(NamedTuple):
    language: str
    names: str  # lower-case method names, `a|b`
    role: ChainRole


_HTTP_VERBS_LINKS = "get|post|put|patch|delete|head|options"

BASE_CLIENTS: tuple[BaseClient, ...] = (
    BaseClient("javascript", r"\baxios\s*\.\s*create\s*(?=\()", "baseURL", Join.PREFIX, "axios"),
    BaseClient(
        "javascript",
        r"\b(?:ky|got)\s*\.\s*(?:create|extend)\s*(?=\()",
        "prefixUrl",
        Join.PREFIX_STRICT,
        "ky, got",
    ),
    BaseClient(
        "javascript",
        r"(?:\bofetch|\$fetch)\s*\.\s*create\s*(?=\()",
        "baseURL",
        Join.PREFIX,
        "ofetch",
    ),
    BaseClient(
        "javascript",
        r"\bcreateClient\b\s*(?:<[^<>()]*>)?\s*(?=\()",
        "baseUrl",
        Join.PREFIX,
        "openapi-fetch",
    ),
    BaseClient(
        "python",
        r"\bhttpx\s*\.\s*(?:Async)?Client\s*(?=\()",
        "base_url",
        Join.PREFIX,
        "httpx",
    ),
    BaseClient(
        "python", r"\baiohttp\s*\.\s*ClientSession\s*(?=\()", "base_url", Join.URL, "aiohttp"
    ),
    BaseClient(
        "python", r"\bBaseUrlSession\s*(?=\()", "base_url|#0", Join.URL, "requests-toolbelt"
    ),
    # A requests.Session subclass whose request() joins self.base_url (the receiver is `self`).
    BaseClient(
        "python",
        r"^class\s+\w+\s*\(\s*(?:requests\s*\.\s*)?Session\s*\)",
        "=base_url|=prefix_url|=base",
        Join.PREFIX,
        "requests.Session subclass",
    ),
    BaseClient(
        "go", r"\bresty\s*\.\s*New\s*(?=\()", ".SetBaseURL|.SetHostURL", Join.PREFIX, "resty"
    ),
    BaseClient(
        "csharp",
        r"\bnew\s+HttpClient\b",
        "BaseAddress|=BaseAddress",
        Join.URL,
        "HttpClient",
    ),
    BaseClient("csharp", r"\bnew\s+RestClient\b", "#0|BaseUrl", Join.PREFIX, "RestSharp"),
    BaseClient("csharp", r"\bnew\s+FlurlClient\b", "#0|BaseUrl", Join.PREFIX, "Flurl"),
    BaseClient("ruby", r"\bFaraday\s*\.\s*new\s*(?=\()", "url|#0", Join.URL_DIRECTORY, "Faraday"),
    # A class that includes HTTParty and declares `base_uri X`: its `get(...)` class methods
    # are called as `Api.get`, `self.class.get` (the class's name, `class`) or `get`.
    BaseClient(
        "ruby",
        r"^[ \t]*class\s+(?P<cls>\w+)[^\n]*\n(?:[^\n]*\n){0,12}?[ \t]*include\s+HTTParty\b",
        "~base_uri",
        Join.CONCAT,
        "HTTParty",
    ),
    BaseClient(
        "php",
        r"\bnew\s+(?:\\?GuzzleHttp\\)?Client\s*(?=\()",
        "base_uri",
        Join.URL,
        "Guzzle",
    ),
    BaseClient(
        "php",
        r"\bHttpClient\s*::\s*createForBaseUri\s*(?=\()",
        "#0",
        Join.URL,
        "Symfony HttpClient",
    ),
    # Spring: WebClient.create(base), WebClient.builder().baseUrl(base), and a
    # RestTemplate built with rootUri(base) (a path without a leading slash is no join)
    BaseClient("java", r"\bWebClient\s*\.\s*create\s*(?=\()", "#0", Join.CONCAT, "WebClient"),
    BaseClient(
        "java", r"\bWebClient\s*\.\s*builder\s*\(\s*\)", ".baseUrl", Join.CONCAT, "WebClient"
    ),
    BaseClient(
        "java",
        r"(?<==\s)\s*\w+\s*(?:\.\s*\w+\s*\([^()]*\)\s*)*\.\s*rootUri\s*(?=\()",
        "#0",
        Join.CONCAT,
        "RestTemplate",
    ),
)

URL_JOINS: tuple[UrlJoin, ...] = (
    UrlJoin("python", "urljoin", 0, 1, Join.URL),
    UrlJoin("javascript", "new url", 1, 0, Join.URL),
    UrlJoin("csharp", "new uri", 0, 1, Join.URL),
)

REQUEST_OBJECTS: tuple[RequestObject, ...] = (
    RequestObject("csharp", "HttpRequestMessage", 1, "HttpClient"),
    RequestObject("csharp", "RestRequest", 0, "RestSharp"),
)

CHAIN_CALLS: tuple[ChainCall, ...] = (
    ChainCall("*", "appendpathsegment|appendpathsegments|joinpath", "segments"),
    ChainCall("*", "setqueryparam|addqueryparameter|addparameter|queryparam", "query"),
    ChainCall("*", "setqueryparams|setquerystring", "query-map"),
    # Spring UriComponentsBuilder, OkHttp HttpUrl.Builder, Ktor URLBuilder, JAX-RS UriBuilder
    ChainCall(
        "java",
        "pathsegment|addpathsegment|addpathsegments|addencodedpathsegment|addencodedpathsegments"
        "|appendencodedpathsegments|segment",
        "segments",
    ),
    # OkHttp's set/encoded variants; Ktor's parameter(...) in a request block (calls/chains.py)
    ChainCall(
        "java",
        "setqueryparameter|setencodedqueryparameter|addencodedqueryparameter|parameter"
        "|querystring",  # Unirest
        "query",
    ),
    ChainCall("java", "queryparams", "query-map"),
)


# Modules whose imported names are fakes (`import { http } from "msw"`, `import nock from "nock"`).
MOCK_MODULES: tuple[tuple[str, str], ...] = (
    (
        "javascript",
        "msw|msw/node|msw/browser|nock|fetch-mock|axios-mock-adapter|jest-fetch-mock|miragejs",
    ),
)
# Expressions that make a web app or router of the file's own (`const api = express.Router()`):
# the verb calls of the object they are assigned to register routes.
ROUTER_FACTORIES: tuple[tuple[str, str], ...] = (
    (
        "javascript",
        r"\bexpress\s*(?:\.\s*Router\s*)?\(|\bRouter\s*\(|\bnew\s+(?:Hono|Elysia|Router|KoaRouter)\b"
        r"|\bfastify\s*\(|\bpolka\s*\(",
    ),
)
