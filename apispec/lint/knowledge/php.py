"""PHP: curl, Guzzle, Symfony HttpClient, Laravel's Http; getenv; sprintf, implode, encoders."""

from __future__ import annotations

import re

from apispec.lint.knowledge import (
    NOWHERE,
    VERBS,
    Client,
    EnvReader,
    Factory,
    HandleSetter,
    Knowledge,
)

_OPTIONS = (
    "headers",
    "json",
    "body",
    "form_params",
    "multipart",
    "timeout",
    "connect_timeout",
    "verify",
    "auth",
    "auth_bearer",
    "auth_basic",
    "http_errors",
    "allow_redirects",
    "max_redirects",
    "debug",
    "sink",
    "proxy",
)
_GUZZLE = "GuzzleHttp.Client"
_SYMFONY = "Symfony.Component.HttpClient.HttpClient"
_LARAVEL = ("Illuminate.Support.Facades.Http", "Http")
_CURL = {
    "CURLOPT_URL": "url",
    "CURLOPT_CUSTOMREQUEST": "method",
    "CURLOPT_POST": "post",
    "CURLOPT_POSTFIELDS": "body",
    "CURLOPT_HTTPHEADER": "headers",
}


def _guzzle() -> tuple[Client, ...]:
    """Guzzle: `get($uri, ['query' => ..., 'headers' => ...])`, `request($method, $uri, [...])`,
    their `...Async` forms, and a PSR-7 `new Request($method, $uri, $headers)`."""
    query, headers, body = (-1, "query"), (-1, "headers"), (-1, "json")
    rows = [
        Client(
            "object:guzzle",
            VERBS,
            (0, "uri"),
            "callee",
            query=query,
            headers=headers,
            body=body,
            options=_OPTIONS,
            config=(1,),
        ),
        Client(
            "object:guzzle",
            ("request", "requestAsync"),
            (1, "uri"),
            (0, "method"),
            query=query,
            headers=headers,
            body=body,
            options=_OPTIONS,
            config=(2,),
        ),
        Client("GuzzleHttp.Psr7", ("Request",), (1, "uri"), (0, "method"), NOWHERE, (2, "headers")),
    ]
    rows.extend(
        Client(
            "object:guzzle",
            (verb + "Async",),
            (0, "uri"),
            verb.upper(),
            query=query,
            headers=headers,
            body=body,
            config=(1,),
        )
        for verb in VERBS
    )
    return tuple(rows)


def _laravel() -> tuple[Client, ...]:
    """Laravel's Http: a GET's query is the array after the URL, a write's body."""
    return (
        Client("object:laravel", ("get", "head"), (0, "url"), "callee", (1, "query")),
        Client(
            "object:laravel",
            ("post", "put", "patch", "delete"),
            (0, "url"),
            "callee",
            NOWHERE,
            NOWHERE,
            (1, "data"),
        ),
        Client(
            "object:laravel",
            ("send",),
            (1, "url"),
            (0, "method"),
            (-1, "query"),
            (-1, "headers"),
            (-1, "json"),
            _OPTIONS,
            config=(2,),
        ),
    )


_CHAINS = {
    "baseUrl": "base",
    "withToken": "bearer",
    "withHeaders": "headers",
    "withQueryParameters": "params",
    **dict.fromkeys(
        (
            "acceptJson",
            "asJson",
            "asForm",
            "accept",
            "contentType",
            "timeout",
            "connectTimeout",
            "retry",
            "withBasicAuth",
            "withDigestAuth",
            "withOptions",
            "withUserAgent",
            "withoutVerifying",
            "withoutRedirecting",
            "withUrlParameters",
            "withMiddleware",
            "beforeSending",
            "as",
        ),
        "",
    ),
}

KNOWLEDGE = Knowledge(
    language="php",
    factories={
        f.qualified: f
        for f in (
            Factory(
                _GUZZLE,
                "guzzle",
                (-1, "base_uri"),
                (-1, "headers"),
                (-1, "query"),
                "rfc3986",
                config=(0,),
            ),
            Factory("GuzzleHttp.ClientInterface", "guzzle", join="rfc3986"),
            *(
                Factory(
                    f"{on}.createForBaseUri",
                    "symfony",
                    (0, "baseUri"),
                    (-1, "headers"),
                    (-1, "query"),
                    "rfc3986",
                    config=(1,),
                )
                for on in (_SYMFONY, "HttpClient")
            ),
            *(
                Factory(
                    f"{on}.create",
                    "symfony",
                    (-1, "base_uri"),
                    (-1, "headers"),
                    (-1, "query"),
                    "rfc3986",
                    config=(0,),
                )
                for on in (_SYMFONY, "HttpClient")
            ),
            Factory("Symfony.Contracts.HttpClient.HttpClientInterface", "symfony", join="rfc3986"),
            Factory("Illuminate.Http.Client.PendingRequest", "laravel"),
            Factory("Illuminate.Http.Client.Pool", "laravel"),
            Factory("Illuminate.Http.Client.Factory", "laravel"),
        )
    },
    clients=[
        *_guzzle(),
        *_laravel(),
        Client(
            "object:symfony",
            ("request",),
            (1, "url"),
            (0, "method"),
            (-1, "query"),
            (-1, "headers"),
            (-1, "json"),
            _OPTIONS,
            config=(2,),
        ),
        Client("", ("curl_init",), (0, "url"), "GET"),
        Client("", ("file_get_contents",), (0, "filename"), "GET"),
    ],
    env_readers={
        r.qualified: r
        for r in (EnvReader("getenv", (0, ""), NOWHERE), EnvReader("env", (0, ""), (1, "")))
    },
    transforms={
        "sprintf": "format:printf",
        "vsprintf": "format:printf",
        "implode": "join_first",
        "join": "join_first",
        "http_build_query": "query_string",
        "urlencode": "identity",
        "rawurlencode": "identity",
        "trim": "trim",
        "rtrim": "trim_end",
        "ltrim": "trim_start",
        "strval": "identity",
        "array_filter": "identity",
        "array_values": "identity",
        "json_encode": "quoted",
        "array_merge": "merge",
    },
    mutators={"array_push": "append", "array_unshift": "append"},
    self_names=frozenset({"this", "self", "static"}),
    constructors=frozenset({"__construct"}),
    env_pattern=re.compile(r"\$_(?:ENV|SERVER)\[\s*['\"]([A-Za-z_]\w*)['\"]\s*\]"),
    mocks=tuple(f"{on}.{m}" for on in _LARAVEL for m in ("fake", "response", "sequence")),
    routers=frozenset({"route", "router", "app", "group"}),
    route_callees=frozenset({"any", "apiResource", "resource", "redirect", "fallback"}),
    matchers=frozenset(
        {
            "str_contains",
            "str_starts_with",
            "str_ends_with",
            "strpos",
            "stripos",
            "preg_match",
            "preg_match_all",
            "preg_replace",
            "str_replace",
            "explode",
            "assertEquals",
            "assertSame",
            "assertStringContainsString",
            "assertStringStartsWith",
            "assertMatchesRegularExpression",
        }
    ),
    constants={name: name for name in (*_CURL, "CURLOPT_HTTPGET")},  # an option names itself
    module_clients=dict.fromkeys(_LARAVEL, "laravel"),
    chains={"laravel": _CHAINS, "symfony": {"withOptions": ""}},
    handle_setters={
        "curl_setopt": HandleSetter(0, 1, 2),
        "curl_setopt_array": HandleSetter(0, -1, 1),
    },
    handle_options=_CURL,
)
