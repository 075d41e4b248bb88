"""Ruby: Net::HTTP, Faraday, HTTParty, RestClient, HTTP.rb; ENV; URI, CGI and joins."""

from __future__ import annotations

import re

from apispec.lint.knowledge import NOWHERE, VERBS, Client, EnvReader, Factory, Knowledge

_OPTIONS = (
    "headers",
    "body",
    "json",
    "payload",
    "timeout",
    "open_timeout",
    "read_timeout",
    "verify_ssl",
    "basic_auth",
    "format",
    "content_type",
    "accept",
    "authorization",
    "user",
    "password",
)
_READS = ("get", "head", "delete", "options")
_WRITES = ("post", "put", "patch")
_NET_HTTP_CLASSES = ("Get", "Post", "Put", "Patch", "Delete", "Head", "Options")


def _faraday(on: str) -> tuple[Client, ...]:
    """Faraday: `get(url, params, headers)`, `post(url, body, headers)`, `run_request`."""
    return (
        Client(on, _READS, (0, "url"), "callee", (1, ""), (2, "")),
        Client(on, _WRITES, (0, "url"), "callee", NOWHERE, (2, ""), (1, "")),
        Client(on, ("run_request",), (1, ""), (0, ""), NOWHERE, (3, ""), (2, "")),
    )


def _keywords(on: str) -> tuple[Client, ...]:
    """HTTParty and HTTP.rb: `get(url, query:/params:, headers:, body:)`."""
    return (
        Client(
            on,
            VERBS,
            (0, "url"),
            "callee",
            (-1, "query"),
            (-1, "headers"),
            (-1, "body"),
            _OPTIONS,
            config=(1,),
        ),
        Client(
            on,
            ("request",),
            (1, "url"),
            (0, ""),
            (-1, "query"),
            (-1, "headers"),
            (-1, "body"),
            _OPTIONS,
            config=(2,),
        ),
    )


def _http_rb(on: str) -> tuple[Client, ...]:
    return (
        Client(
            on,
            VERBS,
            (0, "url"),
            "callee",
            (-1, "params"),
            (-1, "headers"),
            (-1, "json"),
            _OPTIONS,
            config=(1,),
        ),
        Client(
            on,
            ("request",),
            (1, ""),
            (0, ""),
            (-1, "params"),
            (-1, "headers"),
            (-1, "json"),
            _OPTIONS,
            config=(2,),
        ),
    )


def _rest_client() -> tuple[Client, ...]:
    """RestClient: the headers hash (its `params:` entry is the query) after the URL, or
    after the payload of a write; `RestClient::Request.execute(method:, url:, ...)`."""
    return (
        Client(
            "RestClient",
            _READS,
            (0, "url"),
            "callee",
            (-1, "params"),
            (1, ""),
            NOWHERE,
            _OPTIONS,
            config=(1,),
        ),
        Client(
            "RestClient",
            _WRITES,
            (0, "url"),
            "callee",
            (-1, "params"),
            (2, ""),
            (1, ""),
            _OPTIONS,
            config=(2,),
        ),
        Client(
            "RestClient::Request",
            ("execute",),
            (-1, "url"),
            (-1, "method"),
            (-1, "params"),
            (-1, "headers"),
            (-1, "payload"),
            _OPTIONS,
            config=(0,),
        ),
    )


def _net_http() -> tuple[Client, ...]:
    """Net::HTTP: a request object per verb class (`Net::HTTP::Get.new(uri, headers)`),
    the module's one-call forms, and a connection's verb methods."""
    rows = [
        Client(f"Net::HTTP::{cls}", ("new",), (0, ""), cls.upper(), NOWHERE, (1, ""))
        for cls in _NET_HTTP_CLASSES
    ]
    rows.append(Client("Net::HTTP", ("get", "get_response", "get_print"), (0, ""), "GET"))
    rows.append(
        Client("Net::HTTP", ("post", "post_form"), (0, ""), "POST", NOWHERE, (2, ""), (1, ""))
    )
    rows.append(Client("Net::HTTP", ("put",), (0, ""), "PUT", NOWHERE, (2, ""), (1, "")))
    rows.append(
        Client(
            "object:net_http",
            ("get", "head", "delete", "request_get", "request_head"),
            (0, ""),
            "callee",
            NOWHERE,
            (1, ""),
        )
    )
    rows.append(
        Client(
            "object:net_http",
            ("post", "put", "patch", "request_post", "request_put"),
            (0, ""),
            "callee",
            NOWHERE,
            (2, ""),
            (1, ""),
        )
    )
    return tuple(rows)


KNOWLEDGE = Knowledge(
    language="ruby",
    factories={
        f.qualified: f
        for f in (
            Factory(
                "Faraday.new",
                "faraday",
                (0, "url"),
                (-1, "headers"),
                (-1, "params"),
                "directory",
                config=(1,),
            ),
            Factory(
                "Faraday::Connection.new",
                "faraday",
                (0, "url"),
                (-1, "headers"),
                (-1, "params"),
                "directory",
                config=(1,),
            ),
            Factory("HTTParty", "httparty", join="concat"),
            Factory("Net::HTTP.new", "net_http"),
            Factory("Net::HTTP.start", "net_http"),
            Factory(
                "RestClient::Resource.new",
                "rest_resource",
                (0, "url"),
                (-1, "headers"),
                config=(1,),
            ),
        )
    },
    clients=[
        *_faraday("object:faraday"),
        *_faraday("Faraday"),
        *_keywords("HTTParty"),
        *_keywords("object:httparty"),
        *_http_rb("object:httprb"),
        *_rest_client(),
        *_net_http(),
    ],
    env_readers={r.qualified: r for r in (EnvReader("ENV.fetch"), EnvReader("ENV.[]"))},
    transforms={
        "URI": "identity",
        "URI.parse": "identity",
        "URI.join": "urljoin",
        "URI.encode_www_form": "query_string",
        "URI.encode_www_form_component": "identity",
        "URI.encode_uri_component": "identity",
        "URI.encode": "identity",
        "URI.escape": "identity",
        "CGI.escape": "identity",
        "ERB::Util.url_encode": "identity",
        "ERB::Util.u": "identity",
        "format": "format:printf",
        "sprintf": "format:printf",
        "Kernel.format": "format:printf",
        ".join": "items_join",
        ".fetch": "item",
        ".dig": "item",
        ".merge": "merge",
        ".to_s": "receiver",
        ".to_str": "receiver",
        ".strip": "trim",
        ".lstrip": "trim_start",
        ".rstrip": "trim_end",
        ".chomp": "trim_end",
        ".delete_prefix": "trim_start",
        ".delete_suffix": "trim_end",
        ".freeze": "receiver",
        ".dup": "receiver",
        ".compact": "receiver",
        ".to_h": "receiver",
        ".squish": "receiver",
        ".to_json": "quoted",
        ".to_query": "query_string",
    },
    mutators={
        "<<": "append",
        "push": "append",
        "append": "append",
        "unshift": "append",
        "concat": "extend",
        "merge!": "merge",
        "update": "merge",
        "store": "set",
    },
    header_setters=frozenset({"add_field", "initialize_http_header", "update", "merge!"}),
    self_names=frozenset({"self"}),
    constructors=frozenset({"initialize"}),
    modules=frozenset(
        {
            "Net::HTTP",
            *(f"Net::HTTP::{cls}" for cls in _NET_HTTP_CLASSES),
            "Faraday",
            "HTTParty",
            "RestClient",
            "RestClient::Request",
            "URI",
            "CGI",
            "ERB::Util",
            "ENV",
            "Kernel",
        }
    ),
    env_pattern=re.compile(r"ENV\[\s*['\"]([A-Za-z_]\w*)['\"]\s*\]"),
    mocks=(
        "stub_request",
        "a_request",
        "have_requested",
        "have_not_requested",
        "assert_requested",
        "assert_not_requested",
        "WebMock",
        "stub_const",
    ),
    matchers=frozenset(
        {
            "start_with?",
            "end_with?",
            "include?",
            "match?",
            "match",
            "=~",
            "gsub",
            "sub",
            "scan",
            "split",
            "index",
            "delete_prefix",
            "delete_suffix",
            "expect",
            "eq",
            "eql",
            "equal",
            "include",
            "start_with",
            "end_with",
            "receive",
            "have_key",
            "assert_equal",
            "assert_match",
            "assert_includes",
            "refute_equal",
            "with",
        }
    ),
    paren_free=True,
    implicit_this=True,
    new_method="new",
    module_clients={"HTTP": "httprb"},
    chains={
        "httprb": {
            "headers": "headers",
            "auth": "",
            "timeout": "",
            "accept": "",
            "basic_auth": "",
            "follow": "",
            "use": "",
            "via": "",
            "persistent": "",
        },
    },
    class_setters={"base_uri": "base", "headers": "headers", "default_params": "params"},
    holder_parts={"": "headers", "params": "query", "headers": "headers"},
    holder_calls={"url": "url"},
    url_parts={"query": "query"},
)
