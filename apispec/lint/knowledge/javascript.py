"""JavaScript and TypeScript: fetch, axios, ky, got, ofetch, openapi-fetch; process.env; URL.

Options objects carry what Python passes as keywords: `fetch(url, { method, headers })`,
`axios.get(url, { params })`, `axios.create({ baseURL })`, so places name entries of
the options object at the row's `config` positions.
"""

from __future__ import annotations

import re
from dataclasses import replace

from apispec.lint.knowledge import VERBS, Client, Factory, Knowledge

_READS = ("get", "delete", "head", "options")  # axios: (url, config)
_WRITES = ("post", "put", "patch")  # axios: (url, data, config)
_OPTIONS = (
    "method",
    "headers",
    "body",
    "json",
    "data",
    "timeout",
    "signal",
    "credentials",
    "mode",
    "cache",
    "retry",
    "responseType",
    "baseURL",
    "prefixUrl",
)


def _axios(on: str) -> tuple[Client, ...]:
    """An axios module or instance: verbs and `request(config)`."""
    read = Client(
        on,
        _READS,
        url=(0, "url"),
        query=(-1, "params"),
        headers=(-1, "headers"),
        options=_OPTIONS,
        config=(1,),
    )
    return (
        read,
        replace(read, callees=_WRITES, body=(1, "data"), config=(2,)),
        replace(read, callees=("request",), url=(-1, "url"), method=(-1, "method"), config=(0,)),
    )


def _ky(on: str, query: str = "searchParams") -> tuple[Client, ...]:
    """ky, got, ofetch: verbs and the object called itself, options after the URL."""
    verbs = Client(
        on,
        (*_READS, *_WRITES),
        url=(0, "url"),
        query=(-1, query),
        headers=(-1, "headers"),
        body=(-1, "json"),
        options=_OPTIONS,
        config=(1,),
    )
    return verbs, replace(verbs, callees=("()",), method=(-1, "method"), body=(-1, ""))


_FETCH = Client(
    "",
    ("fetch",),
    url=(0, "url"),
    method=(-1, "method"),
    headers=(-1, "headers"),
    body=(-1, "body"),
    options=_OPTIONS,
    config=(1,),
)

KNOWLEDGE = Knowledge(
    language="javascript",
    factories={
        f.qualified: f
        for f in (
            Factory(
                "axios.create",
                "axios",
                (-1, "baseURL"),
                (-1, "headers"),
                (-1, "params"),
                config=(0,),
            ),
            Factory("@nestjs/axios.HttpService", "axios"),
            Factory("XMLHttpRequest", "xhr"),
            Factory("@angular/common/http.HttpClient", "angular"),
            Factory(
                "ky.create",
                "ky",
                (-1, "prefixUrl"),
                (-1, "headers"),
                (-1, "searchParams"),
                "prefix",
                (0,),
            ),
            Factory(
                "ky.extend",
                "ky",
                (-1, "prefixUrl"),
                (-1, "headers"),
                (-1, "searchParams"),
                "prefix",
                (0,),
            ),
            Factory(
                "got.extend",
                "got",
                (-1, "prefixUrl"),
                (-1, "headers"),
                (-1, "searchParams"),
                "prefix",
                (0,),
            ),
            Factory(
                "ofetch.ofetch.create",
                "ofetch",
                (-1, "baseURL"),
                (-1, "headers"),
                (-1, "query|params"),
                config=(0,),
            ),
            Factory(
                "ofetch.$fetch.create",
                "ofetch",
                (-1, "baseURL"),
                (-1, "headers"),
                (-1, "query|params"),
                config=(0,),
            ),
            Factory(
                "openapi-fetch", "openapi-fetch", (-1, "baseUrl"), (-1, "headers"), config=(0,)
            ),
            Factory(
                "openapi-fetch.createClient",
                "openapi-fetch",
                (-1, "baseUrl"),
                (-1, "headers"),
                config=(0,),
            ),
        )
    },
    clients=[
        _FETCH,
        replace(_FETCH, on="window"),
        replace(_FETCH, on="globalThis"),
        replace(_FETCH, callees=("node-fetch", "cross-fetch", "undici.fetch")),
        Client(
            "",
            ("$fetch", "ofetch.ofetch", "ofetch.$fetch"),
            url=(0, "url"),
            method=(-1, "method"),
            query=(-1, "query|params"),
            headers=(-1, "headers"),
            body=(-1, "body"),
            config=(1,),
            options=_OPTIONS,
        ),
        Client(
            "",
            ("axios",),
            url=(0, "url"),
            method=(-1, "method"),
            query=(-1, "params"),
            headers=(-1, "headers"),
            config=(0, 1),
            options=_OPTIONS,
        ),
        *_axios("axios"),
        *_axios("object:axios"),
        Client(
            "object:axios",
            ("()",),
            url=(0, "url"),
            method=(-1, "method"),
            query=(-1, "params"),
            headers=(-1, "headers"),
            config=(0, 1),
            options=_OPTIONS,
        ),
        *_ky("ky"),
        *_ky("object:ky"),
        Client(
            "",
            ("ky", "got"),
            url=(0, "url"),
            method=(-1, "method"),
            query=(-1, "searchParams"),
            headers=(-1, "headers"),
            config=(1,),
            options=_OPTIONS,
        ),
        *_ky("got"),
        *_ky("object:got"),
        *_ky("object:ofetch", "query|params"),
        Client(
            "object:openapi-fetch",
            ("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"),
            url=(0, "url"),
            query=(-1, "params.query"),
            headers=(-1, "headers"),
            body=(-1, "body"),
            config=(1,),
            options=_OPTIONS,
        ),
        # k6 load tests: `http.get(url, params)`, `http.del(url, body, params)`
        Client(
            "k6/http",
            ("get", "head", "options"),
            url=(0, "url"),
            headers=(-1, "headers"),
            config=(1,),
            options=_OPTIONS,
        ),
        Client(
            "k6/http",
            ("post", "put", "patch"),
            url=(0, "url"),
            body=(1, "body"),
            headers=(-1, "headers"),
            config=(2,),
            options=_OPTIONS,
        ),
        Client(
            "k6/http",
            ("del",),
            url=(0, "url"),
            method="DELETE",
            headers=(-1, "headers"),
            config=(2,),
            options=_OPTIONS,
        ),
        Client(
            "k6/http",
            ("request",),
            url=(1, "url"),
            method=(0, "method"),
            headers=(-1, "headers"),
            config=(3,),
            options=_OPTIONS,
        ),
        # Node's http and https: `https.get(url, opts)`, `https.request({ path, method })`
        *(
            Client(
                module,
                (callee,),
                url=(0, "path"),
                method=(-1, "method") if callee == "request" else "GET",
                headers=(-1, "headers"),
                config=(0, 1),
                options=_OPTIONS,
            )
            for module in ("https", "http", "node:https", "node:http")
            for callee in ("request", "get")
        ),
        Client(
            "undici",
            ("request", "fetch"),
            url=(0, "url"),
            method=(-1, "method"),
            query=(-1, "query"),
            headers=(-1, "headers"),
            config=(1,),
            options=_OPTIONS,
        ),
        replace(_FETCH, callees=("Request",)),
        Client("object:xhr", ("open",), url=(1, ""), method=(0, "")),
        # jQuery: `$.get(url, data)`, `$.ajax({ url, method, data })`
        *(
            Client(
                module,
                ("get", "getJSON"),
                url=(0, "url"),
                query=(1, "data"),
                method="GET",
                headers=(-1, "headers"),
                config=(0,),
            )
            for module in ("$", "jQuery", "jquery")
        ),
        *(
            Client(
                module,
                ("ajax",),
                url=(0, "url"),
                method=(-1, "method|type"),
                query=(-1, "data"),
                headers=(-1, "headers"),
                config=(0, 1),
            )
            for module in ("$", "jQuery", "jquery")
        ),
        Client("superagent", VERBS, url=(0, "url")),
        Client(
            "object:angular",
            ("get", "delete", "head", "options"),
            url=(0, "url"),
            query=(-1, "params"),
            headers=(-1, "headers"),
            config=(1,),
            options=_OPTIONS,
        ),
        Client(
            "object:angular",
            ("post", "put", "patch"),
            url=(0, "url"),
            body=(1, "body"),
            query=(-1, "params"),
            headers=(-1, "headers"),
            config=(2,),
            options=_OPTIONS,
        ),
    ],
    transforms={
        ".replace": "replace",
        ".replaceAll": "replace",
        "encodeURIComponent": "identity",
        "encodeURI": "identity",
        "decodeURIComponent": "identity",
        "String": "identity",
        "Headers": "identity",
        "URLSearchParams": "query_map",
        "Object.entries": "identity",  # a loop over it unpacks (key, value) pairs
        "URL": "urljoin:1,0",
        "url.URL": "urljoin:1,0",
        "querystring.stringify": "query_string",
        "node:querystring.stringify": "query_string",
        "qs.stringify": "query_string",
        "util.format": "format:printf",
        ".toString": "receiver",
        ".trim": "trim",
        ".join": "items_join",
    },
    mutators={
        "set": "set",
        "append": "append",
        "push": "append",
        "unshift": "append",
    },
    self_names=frozenset({"this"}),
    constructors=frozenset({"constructor"}),
    modules=frozenset({"axios", "ky", "got", "window", "globalThis", "$", "jQuery", "Object"}),
    env_pattern=re.compile(
        r"(?:process\.env|import\.meta\.env|Deno\.env\.get\()"
        r"(?:\.|\??\.?\[\s*|\s*)['\"`]?([A-Za-z_]\w*)['\"`]?\s*[\])]?"
    ),
    mocks=(
        "nock",
        "msw",
        "fetch-mock",
        "jest-fetch-mock",
        "vitest-fetch-mock",
        "axios-mock-adapter",
        "miragejs",
        "undici.MockAgent",
    ),
    routers=frozenset(
        {"app", "router", "server", "fastify", "routes", "route", "api", "hono", "koa"}
    ),
    route_callees=frozenset({"route", "use", "mount"}),
    router_factories=frozenset(
        {
            "express",
            "express.Router",
            "express.express",
            "hono.Hono",
            "fastify",
            "fastify.fastify",
            "koa",
            "@koa/router",
            "koa-router",
            "@hapi/hapi.server",
        }
    ),
    matchers=frozenset(
        {
            "includes",
            "startsWith",
            "endsWith",
            "match",
            "matchAll",
            "test",
            "search",
            "replace",
            "replaceAll",
            "split",
            "indexOf",
            "lastIndexOf",
            "RegExp",
            "expect",
            "toBe",
            "toEqual",
            "toMatch",
            "toContain",
            "toHaveBeenCalledWith",
            "toHaveBeenLastCalledWith",
            "toStrictEqual",
            "equal",
            "deepEqual",
            "strictEqual",
            "assert",
            "ok",
        }
    ),
    query_attrs={"searchParams": "map", "search": "text"},
    text_attrs=frozenset({"href"}),
    base_attrs=("defaults.baseURL",),
    mock_links=frozenset(
        {
            "reply",
            "replyWithError",
            "replyOnce",
            "respond",
            "intercept",
            "mockResolvedValue",
            "mockResolvedValueOnce",
            "mockReturnValue",
            "mockImplementation",
        }
    ),
)
