"""Swift clients read on their syntax tree: URLSession, URLRequest, URLComponents, Alamofire.

Each case is a shape real Swift scripts use (a request object whose method and
headers are set before a session sends it, a URL built with components and query
items, a base from the environment with a fallback, an implicit member for the
method), and each negative one a shape that names API paths without calling the API.
"""

from __future__ import annotations

import pytest

from apispec.lint.extract import extract

HEAD = 'import Foundation\nlet base = "https://prtg.example.com:1616/api/v2"\n'


def calls(code: str) -> list[tuple[str | None, str, list[str]]]:
    found = extract(HEAD + code, "Client.swift").references
    return [(r.method, r.path, [q.name for q in r.query]) for r in found]


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        (  # the method set on the request before it is sent
            "func f() async throws {\n"
            '  var req = URLRequest(url: URL(string: "\\(base)/experimental/devices/7")!)\n'
            '  req.httpMethod = "DELETE"\n'
            "  _ = try await URLSession.shared.data(for: req)\n}\n",
            [("DELETE", "/experimental/devices/{}", [])],
        ),
        (  # query items set on URL components after they are made
            "func f() async throws {\n"
            '  var c = URLComponents(string: base + "/experimental/sensors")!\n'
            '  c.queryItems = [URLQueryItem(name: "limit", value: "10")]\n'
            "  _ = try await URLSession.shared.data(from: c.url!)\n}\n",
            [("GET", "/experimental/sensors", ["limit"])],
        ),
        (  # a base from the environment, its fallback a literal
            'let root = ProcessInfo.processInfo.environment["PRTG_URL"] ?? '
            '"https://prtg:1616/api/v2"\n'
            'func f() { AF.request("\\(root)/groups", method: .get, parameters: ["sort_by": "name"]) }\n',
            [("GET", "/groups", ["sort_by"])],
        ),
        (  # a session of a declared type, a field read without self
            "struct P {\n  let session: URLSession\n"
            "  func f() async throws {\n"
            '    _ = try await session.data(from: URL(string: "\\(base)/sensors")!)\n  }\n}\n',
            [("GET", "/sensors", [])],
        ),
    ],
    ids=["method-later", "query-items", "env-default", "typed-session"],
)
def test_shapes_real_swift_clients_use(
    code: str, expected: list[tuple[str | None, str, list[str]]]
) -> None:
    assert calls(code) == expected


@pytest.mark.parametrize(
    "code",
    [
        'func f(_ p: String) -> Bool { p == "/api/v2/devices" || p.hasPrefix("/api/v2/x") }\n',
        'func f(_ p: String) { switch p { case "/api/v2/devices": break\n default: break } }\n',
    ],
    ids=["compare", "switch"],
)
def test_paths_that_are_no_call(code: str) -> None:
    assert calls(code) == []


def test_the_same_calls_with_comments_blank_lines_and_crlf() -> None:
    code = (
        "func f() async throws {\n"
        '  var c = URLComponents(string: "\\(base)/devices")!\n'
        '  c.queryItems = [URLQueryItem(name: "limit", value: "10")]\n'
        "  _ = try await URLSession.shared.data(from: c.url!)\n}\n"
    )
    noisy = (
        "func f() async throws {\n  // the devices\n\n"
        '  var c = URLComponents(string: "\\(base)/devices")! // its base\n'
        "  c.queryItems = [\n    // paging\n\n"
        '    URLQueryItem(name: "limit", value: "10"),\n  ]\n'
        "  _ = try await URLSession.shared.data(from: c.url!) /* sent */\n}\n"
    ).replace("\n", "\r\n")
    assert calls(code) == calls(noisy) == [("GET", "/devices", ["limit"])]
