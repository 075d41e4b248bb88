"""PowerShell: the web cmdlets (`Invoke-RestMethod`, `Invoke-WebRequest` and their aliases),
`$env:` variables, URL encoders, `-join`; Pester's `Mock` and `Should` as test doubles.

The cmdlets' parameters are named (`-Uri`, `-Method`, `-Headers`, `-Body`); the URL is
also the first positional argument. Without `-Method` they send GET, and the body of a
GET is sent as the query string (`-Body @{ filter = ... }`).
"""

from __future__ import annotations

import re

from apispec.lint.knowledge import Client, Factory, Knowledge

_OPTIONS = (
    "uri",
    "method",
    "headers",
    "body",
    "contenttype",
    "usebasicparsing",
    "timeoutsec",
    "credential",
    "authentication",
    "token",
    "outfile",
    "erroraction",
    "websession",
    "sessionvariable",
    "maximumretrycount",
    "retryintervalsec",
    "skiphttperrorcheck",
    "statuscodevariable",
    "responseheaderstvariable",
)

KNOWLEDGE = Knowledge(
    language="powershell",
    clients=[
        Client(
            "",
            ("invoke-restmethod", "invoke-webrequest", "irm", "iwr"),
            url=(0, "uri"),
            method=(-1, "method"),
            headers=(-1, "headers"),
            body=(-1, "body"),
            options=_OPTIONS,
            default_method="GET",
            body_query=("GET",),
        ),
        Client(
            "object:webclient",
            ("downloadstring", "downloaddata", "downloadfile", "openread"),
            url=(0, "address"),
            method="GET",
        ),
        Client(
            "object:webclient",
            ("uploadstring", "uploaddata", "uploadfile", "uploadvalues"),
            url=(0, "address"),
            method="POST",
        ),
    ],
    factories={
        f.qualified: f
        for f in (
            Factory("System.Net.WebClient", "webclient"),
            Factory("Net.WebClient", "webclient"),
        )
    },
    transforms={
        "string.format": "format:brace",
        "system.string.format": "format:brace",
        ".escapedatastring": "identity",
        ".escapeuristring": "identity",
        ".urlencode": "identity",
        ".urlpathencode": "identity",
        ".-join": "join",
        ".trim": "receiver",
        ".trimend": "receiver",
        ".trimstart": "receiver",
        ".tostring": "receiver",
        ".replace": "receiver",
        "uri": "urljoin",
        "Uri": "urljoin",
        "System.Uri": "urljoin",
        ".tolower": "receiver",
        ".toupper": "receiver",
    },
    mutators={"add": "set", "set_item": "set"},
    header_setters=frozenset({"add"}),
    self_names=frozenset({"this"}),
    constructors=frozenset({"new"}),
    modules=frozenset(
        {
            "string",
            "system.string",
            "uri",
            "system.uri",
            "system.web.httputility",
            "web.httputility",
            "httputility",
            "system.net.webutility",
            "net.webutility",
            "webutility",
        }
    ),
    env_pattern=re.compile(r"\$\{?env:([A-Za-z_]\w*)\}?", re.I),
    mocks=("mock", "should", "assert-mockcalled"),
    # calls that compare or match a string, and Pester's test doubles and assertions
    # (`Mock Invoke-RestMethod { ... }`, `... | Should -Be '/api/v2/x'`)
    matchers=frozenset(
        {
            "where-object",
            "select-string",
            "startswith",
            "endswith",
            "contains",
            "mock",
            "should",
            "assert-mockcalled",
        }
    ),
    positional_fill=True,
    keys_ignore_case=True,
    key_attrs=frozenset({"Keys", "keys"}),
    global_functions=re.compile(r"[a-z]+-[a-z][\w]*"),
)
