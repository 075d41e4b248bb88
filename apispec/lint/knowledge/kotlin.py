"""Kotlin: the JVM's clients (knowledge/jvm.py), Ktor's client and the standard library.

A Ktor request is configured by the block after it (`client.get("x") { parameter(k, v)
}`), a client by its own (`HttpClient(CIO) { defaultRequest { url(base) } }`): calls
written in the block with no object are links of the builder the block receives.
"""

from __future__ import annotations

from apispec.lint.knowledge import VERBS, Client, Factory, Link
from apispec.lint.knowledge.jvm import rows

_KTOR = "io.ktor.client.HttpClient"

KNOWLEDGE = rows(
    "kotlin",
    factories=(
        Factory(_KTOR, "ktor", join="rfc3986", configure="ktor"),
        Factory("buildString", "java.text", configure="java.text"),  # `buildString { append(x) }`
    ),
    clients=(
        Client(
            "object:ktor",
            (*VERBS, "request", *(f"prepare{v.title()}" for v in VERBS)),
            (0, "urlString"),
            configure="ktor.request",
        ),
    ),
    links=(
        Link("object:ktor", ("defaultRequest",), "callback", argument="ktor.defaults"),
        Link("object:ktor.defaults", ("url",), "base"),
        Link("object:ktor.defaults", ("header",), "headers"),
        Link("object:ktor.request", ("parameter",), "query"),
        Link("object:ktor.request", ("header",), "headers"),
        Link("object:ktor.request", ("url",), "url", argument="ktor.url"),
        Link("object:ktor.url", ("takeFrom",), "url"),
        Link(
            "object:ktor.url",
            ("appendPathSegments", "appendEncodedPathSegments", "path"),
            "appended",
        ),
    ),
    transforms={
        "listOf": "list",
        "mutableListOf": "list",
        "arrayOf": "list",
        "setOf": "list",
        "mapOf": "pair_args",
        "mutableMapOf": "pair_args",
        ".joinToString": "join_items",
        ".toHttpUrl": "object:okhttp.url",
        ".toHttpUrlOrNull": "object:okhttp.url",
        ".orEmpty": "receiver",
        ".trimEnd": "receiver",
        ".removeSuffix": "receiver",
    },
    mocks=("io.ktor.client.engine.mock",),
    fluent=frozenset({"ktor.defaults", "ktor.request", "ktor.url"}),
    # a Kotlin snippet's `HttpClient` is Ktor's (an import of java.net.http's wins)
    default_imports={"HttpClient": _KTOR},
)
