"""Python: requests, httpx, aiohttp, urllib, urllib3; os.environ; urlencode, quote, join."""

from __future__ import annotations

import re

from apispec.lint.knowledge import NOWHERE, VERBS, Client, EnvReader, Factory, Knowledge

_OPTIONS = (
    "headers",
    "json",
    "data",
    "timeout",
    "verify",
    "auth",
    "cookies",
    "files",
    "allow_redirects",
    "follow_redirects",
    "proxies",
    "stream",
    "cert",
    "ssl",
    "content",
)


def _verbs(on: str) -> tuple[Client, ...]:
    """The verb methods and `request(method, url)` of one library or client object."""
    query, headers, body = (-1, "params"), (-1, "headers"), (-1, "json")
    return (
        Client(on, VERBS, (0, "url"), "callee", query, headers, body, _OPTIONS),
        Client(
            on, ("request", "stream"), (1, "url"), (0, "method"), query, headers, body, _OPTIONS
        ),
    )


KNOWLEDGE = Knowledge(
    language="python",
    factories={
        f.qualified: f
        for f in (
            Factory("requests.Session", "requests"),
            Factory("requests.session", "requests"),
            Factory("requests.sessions.Session", "requests"),
            Factory("httpx.Client", "httpx", (-1, "base_url"), (-1, "headers"), (-1, "params")),
            Factory(
                "httpx.AsyncClient", "httpx", (-1, "base_url"), (-1, "headers"), (-1, "params")
            ),
            Factory(
                "aiohttp.ClientSession",
                "aiohttp",
                (0, "base_url"),
                (-1, "headers"),
                NOWHERE,
                "rfc3986",
            ),
            Factory("urllib3.PoolManager", "urllib3", NOWHERE, (-1, "headers")),
        )
    },
    clients=[
        *_verbs("requests"),
        *_verbs("object:requests"),
        *_verbs("httpx"),
        *_verbs("object:httpx"),
        *_verbs("object:aiohttp"),
        Client(
            "object:urllib3",
            ("request", "request_encode_url", "urlopen"),
            url=(1, "url"),
            method=(0, "method"),
            query=(-1, "fields"),
            headers=(-1, "headers"),
            options=_OPTIONS,
        ),
        Client(
            "object:httpx",
            ("build_request",),
            url=(1, "url"),
            method=(0, "method"),
            query=(-1, "params"),
            headers=(-1, "headers"),
            options=_OPTIONS,
        ),
        Client("urllib.request", ("urlopen",), url=(0, "url"), method="GET"),
        Client(
            "urllib.request",
            ("Request",),
            url=(0, "url"),
            method=(-1, "method"),
            headers=(2, "headers"),
        ),
    ],
    env_readers={
        r.qualified: r
        for r in (
            EnvReader("os.environ.get"),
            EnvReader("os.getenv"),
            EnvReader("environ.get"),
            EnvReader("os.environ.setdefault"),
        )
    },
    transforms={
        "urllib.parse.quote": "identity",
        "urllib.parse.quote_plus": "identity",
        "urllib.parse.unquote": "identity",
        ".quote": "identity",
        ".quote_plus": "identity",
        "urllib.parse.urlencode": "query_string",
        "urllib.parse.urljoin": "urljoin",
        ".urljoin": "urljoin",
        ".urlencode": "query_string",
        "str.join": "join",
        "json.dumps": "quoted",
        "dict": "dict",
        ".strip": "trim",
        ".rstrip": "trim_end",
        ".lstrip": "trim_start",
        "str": "identity",
        ".encode": "receiver",
    },
    mutators={
        "update": "merge",
        "setdefault": "set",
        "append": "append",
        "extend": "extend",
        "add": "append",
        "insert": "append",
    },
    header_setters=frozenset({"add_header", "update", "setdefault", "putheader"}),
    self_names=frozenset({"self", "cls"}),
    constructors=frozenset({"__init__", "__post_init__"}),
    modules=frozenset({"requests", "httpx", "aiohttp", "urllib", "os", "urllib3"}),
    env_pattern=re.compile(r"os\.environ\[\s*['\"]([A-Za-z_][\w]*)['\"]\s*\]"),
    mocks=(
        "responses",
        "respx",
        "requests_mock",
        "httpretty",
        "aioresponses",
        "pytest_httpx",
        "httpx_mock",
        "respx_mock",
        "unittest.mock",
        "mock",
    ),
    routers=frozenset(
        {"app", "router", "api", "bp", "blueprint", "server", "application", "route", "routes"}
    ),
    route_callees=frozenset(
        {"route", "add_url_rule", "add_api_route", "add_route", "api_route", "websocket"}
    ),
    matchers=frozenset(
        {
            "startswith",
            "endswith",
            "match",
            "fullmatch",
            "search",
            "compile",
            "sub",
            "findall",
            "assertEqual",
            "assertIn",
            "assert_called_with",
            "assert_called_once_with",
            "index",
            "count",
            "replace",
            "split",
            "removeprefix",
            "removesuffix",
        }
    ),
)
