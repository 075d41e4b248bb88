"""Swift: URLSession with URLRequest and URLComponents, Alamofire; `ProcessInfo` variables.

A `URLRequest(url:)` is the request: its method and headers are set on the variable
that holds it before a session sends it (`req.httpMethod = "DELETE"`,
`req.setValue("Bearer \\(t)", forHTTPHeaderField: "Authorization")`), so the session's
`data(for:)` adds nothing. `URLComponents` holds a URL whose `queryItems` are set
later; its `.url` is its text with that query. `session.data(from: url)` and
`dataTask(with: url)` send a GET to a URL. Alamofire's `AF.request(url, method:
.post, parameters: [...])` names its method by an implicit member.
"""

from __future__ import annotations

import re

from apispec.lint.knowledge import NOWHERE, Client, EnvReader, Factory, Knowledge

_SESSION = ("data", "dataTask", "bytes", "download", "downloadTask")

KNOWLEDGE = Knowledge(
    language="swift",
    factories={"URLSession": Factory("URLSession", "URLSession")},
    clients=[
        Client("object:URLSession", _SESSION, (-1, "from"), "GET"),
        Client("", ("URLRequest",), (0, "url"), "GET"),
        # a session called with a URL (a request object names its own URL, above)
        Client("object:*", _SESSION, (-1, "from"), "GET"),
        Client("URLSession.shared", _SESSION, (-1, "from"), "GET"),
        Client("AF", ("request",), (0, ""), (-1, "method"), (-1, "parameters"), (-1, "headers")),
        Client("Session.default", ("request",), (0, ""), (-1, "method"), (-1, "parameters")),
    ],
    env_readers={
        "ProcessInfo.processInfo.environment": EnvReader(
            "ProcessInfo.processInfo.environment", (0, ""), NOWHERE
        ),
    },
    transforms={
        "URL": "identity",
        "URLComponents": "identity",
        "URLQueryItem": "pair",
        "String": "identity",
        ".appendingPathComponent": "append_segments",
        ".appending": "append_segments",
        ".addingPercentEncoding": "receiver",
        ".trimmingCharacters": "receiver",
        ".lowercased": "receiver",
        ".joined": "join_items",
    },
    mutators={"append": "append"},
    header_setters=frozenset({"setValue", "addValue"}),
    header_holders=("allHTTPHeaderFields",),
    header_name_labels=("forHTTPHeaderField",),
    holder_parts={"httpMethod": "method"},
    query_attrs={"queryItems": "items"},
    text_attrs=frozenset({"value", "url", "string", "absoluteString", "absoluteURL"}),
    self_names=frozenset({"self"}),
    implicit_this=True,
    types_by_name=True,
    constructors=frozenset({"init"}),
    modules=frozenset({"URLSession", "ProcessInfo", "AF", "Session", "Foundation"}),
    env_pattern=re.compile(r'ProcessInfo\.processInfo\.environment\["([A-Za-z_]\w*)"\]'),
    mocks=("URLProtocolStub", "MockURLProtocol", "OHHTTPStubs", "Mocker"),
    routers=frozenset({"app", "router", "routes"}),
    route_callees=frozenset({"on", "grouped"}),
    matchers=frozenset({"hasPrefix", "hasSuffix", "contains", "starts", "range"}),
)
