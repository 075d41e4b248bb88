"""Rust: reqwest (async and blocking), ureq, surf; `format!`, `std::env::var`.

A reqwest `Client` has no base URL: every request names its whole URL, so a
script's base comes from a constant, an environment variable with a fallback
(`env::var("PRTG_URL").unwrap_or_else(|_| "https://...".into())`) or a field of
the struct that holds the client. The request a verb method makes is configured by
the calls chained on it: `.query(&[("limit", "10")])` (pairs or a map),
`.header(k, v)`, `.bearer_auth(token)`; ureq's `.query(k, v)` names one pair.
"""

from __future__ import annotations

from apispec.lint.knowledge import VERBS, Client, EnvReader, Factory, Knowledge

_REQWEST_TYPES = ("reqwest.Client", "reqwest.blocking.Client")
_AGENTS = ("ureq.Agent",)

KNOWLEDGE = Knowledge(
    language="rust",
    factories={
        f.qualified: f
        for f in (
            *(Factory(t, "reqwest") for t in _REQWEST_TYPES),
            *(
                Factory(f"{t}.{how}", "reqwest")
                for t in _REQWEST_TYPES
                for how in ("new", "builder")
            ),
            *(Factory(t, "ureq") for t in _AGENTS),
            *(Factory(f"{t}.new", "ureq") for t in _AGENTS),
            Factory("ureq.agent", "ureq"),
            Factory("ureq.AgentBuilder.new", "ureq"),
            Factory("surf.Client.new", "surf"),
            Factory("surf.client", "surf"),
        )
    },
    clients=[
        Client("object:reqwest", VERBS, (0, "")),
        Client("object:reqwest", ("request",), (1, ""), (0, "")),
        Client("reqwest", ("get",), (0, "")),
        Client("reqwest.blocking", ("get",), (0, "")),
        Client("object:ureq", VERBS, (0, "")),
        Client("object:ureq", ("request",), (1, ""), (0, "")),
        Client("ureq", VERBS, (0, "")),
        Client("ureq", ("request",), (1, ""), (0, "")),
        Client("object:surf", VERBS, (0, "")),
        Client("surf", VERBS, (0, "")),
    ],
    env_readers={
        r.qualified: r
        for r in (
            EnvReader("std.env.var", (0, ""), (-1, "")),
            EnvReader("std.env.var_os", (0, ""), (-1, "")),
            EnvReader("dotenv.var", (0, ""), (-1, "")),
            EnvReader("dotenvy.var", (0, ""), (-1, "")),
        )
    },
    transforms={
        "String.from": "identity",
        "Url.parse": "identity",
        "url.Url.parse": "identity",
        "reqwest.Url.parse": "identity",
        "urlencoding.encode": "identity",
        "Ok": "identity",
        "Some": "identity",
        "HashMap.from": "pairs",
        "std.collections.HashMap.from": "pairs",
        "BTreeMap.from": "pairs",
        "HashMap.new": "dict",
        "std.collections.HashMap.new": "dict",
        "BTreeMap.new": "dict",
        "Vec.new": "list",
        ".join": "join_or_url",
        ".unwrap_or": "or_default",
        ".unwrap_or_else": "or_default",
        ".trim_start_matches": "trim_start",
        ".trim_end_matches": "trim_end",
        ".trim_matches": "trim",
        **{
            "." + name: "receiver"
            for name in (
                "to_string",
                "to_owned",
                "into",
                "clone",
                "as_str",
                "as_ref",
                "borrow",
                "unwrap",
                "expect",
                "unwrap_or_default",
                "to_lowercase",
                "trim",
                "build",
                "timeout",
                "user_agent",
                "default_headers",
                "connect_timeout",
                "danger_accept_invalid_certs",
                "iter",
                "into_iter",
                "collect",
            )
        },
    },
    mutators={"insert": "set", "push": "append", "extend": "extend"},
    header_setters=frozenset({"header", "set"}),
    query_setters=frozenset({"query"}),
    auth_setters={"bearer_auth": "Bearer"},
    constants={
        f"{owner}::{verb}": verb
        for owner in ("Method", "reqwest::Method", "http::Method")
        for verb in ("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS")
    },
    self_names=frozenset({"self"}),
    constructors=frozenset({"new"}),
    modules=frozenset(
        {
            "reqwest",
            "ureq",
            "surf",
            "std",
            "url",
            "urlencoding",
            "dotenv",
            "dotenvy",
            "HashMap",
            "BTreeMap",
            "String",
            "Vec",
            "Url",
            "Method",
        }
    ),
    mocks=("mockito", "wiremock", "httpmock"),
    routers=frozenset({"web", "Router", "App", "route", "router", "app"}),
    # routes of a server (actix-web, axum) and a test double's expectations (mockito's
    # `server.mock("GET", path)`, httpmock's `when.path(path)`)
    route_callees=frozenset({"route", "service", "resource", "to", "nest", "mock", "path"}),
    matchers=frozenset(
        {"starts_with", "ends_with", "contains", "strip_prefix", "matches", "eq", "split"}
    ),
)
