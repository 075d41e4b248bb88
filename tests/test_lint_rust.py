"""Rust clients read on their syntax tree: reqwest, ureq and the values they are handed.

Each case is a shape real Rust scripts use (a base from the environment with a
fallback, an SDK struct whose `new` builds the base, a query given as pairs or a map,
`format!` with inline names, `reqwest::Method` constants), and each negative one a
shape that names API paths without calling the API (routes, mocks, tests, logs).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from apispec.lint.extract import extract
from tests.conftest import CliResult

HEAD = "use reqwest::Client;\nuse std::env;\n"


def calls(code: str, name: str = "client.rs") -> list[tuple[str | None, str, list[str]]]:
    """(method, path, query names) of each call, in file order."""
    found = extract(HEAD + code, name).references
    return [(r.method, r.path, [q.name for q in r.query]) for r in found]


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        (  # the base from the environment, its fallback a literal
            'async fn f() { let base = env::var("PRTG_URL").unwrap_or_else(|_| '
            '"https://prtg.example.com:1616/api/v2".to_string());\n'
            'Client::new().get(format!("{base}/experimental/sensors")).send().await; }',
            [("GET", "/experimental/sensors", [])],
        ),
        (  # a method constant and positional format arguments
            'const BASE: &str = "https://prtg:1616/api/v2";\n'
            "async fn f(c: &Client) { c.request(reqwest::Method::DELETE, "
            'format!("{}/experimental/devices/{}", BASE, 7)).send().await; }',
            [("DELETE", "/experimental/devices/{}", [])],
        ),
        (  # a query as pairs, filled after it is made
            'async fn f(c: Client) { let mut q = vec![("limit", "10")];\nq.push(("take", "5"));\n'
            'c.get("https://prtg:1616/api/v2/devices").query(&q).send().await; }',
            [("GET", "/devices", ["limit", "take"])],
        ),
        (  # a query as a map filled by insert
            "use std::collections::HashMap;\n"
            "async fn f(c: Client) { let mut m = HashMap::new();\n"
            'm.insert("sort_by", "name");\n'
            'c.get("https://prtg:1616/api/v2/devices").query(&m).send().await; }',
            [("GET", "/devices", ["sort_by"])],
        ),
        (  # a struct's field set in `new`, read by a method that wraps the client
            "struct P { http: Client, base: String }\n"
            "impl P {\n"
            "  fn new(base: &str) -> Self { Self { http: Client::new(), "
            "base: base.trim_end_matches('/').to_string() } }\n"
            "  async fn get(&self, path: &str) -> String { self.http.get("
            'format!("{}/api/v2/{}", self.base, path)).send().await.unwrap().text().await.unwrap() }\n'
            "}\n"
            'async fn main() { let p = P::new("https://prtg:1616/"); p.get("groups").await; }',
            [("GET", "/groups", [])],
        ),
        (  # ureq: a module function and a one-pair query
            'fn f() { ureq::get("https://prtg:1616/api/v2/sensors").query("filter", "x").call(); }',
            [("GET", "/sensors", ["filter"])],
        ),
    ],
    ids=["env-default", "method-constant", "pairs", "map", "sdk-struct", "ureq"],
)
def test_shapes_real_rust_clients_use(
    code: str, expected: list[tuple[str | None, str, list[str]]]
) -> None:
    assert calls(code) == expected


@pytest.mark.parametrize(
    "code",
    [
        '#[get("/api/v2/devices")]\nasync fn devices() -> String { String::new() }',
        'fn r(cfg: &mut web::ServiceConfig) { cfg.route("/api/v2/devices", web::get().to(h)); }',
        'fn t() { let mut s = mockito::Server::new(); s.mock("GET", "/api/v2/devices").create(); }',
        '#[test]\nfn t() { let p = "/api/v2/devices"; assert_eq!(p, "/api/v2/devices"); }',
        'fn f() { println!("GET https://prtg:1616/api/v2/devices"); }',
        'fn f(p: &str) -> bool { p == "/api/v2/devices" }',
    ],
    ids=["route-attribute", "route-call", "mock", "test", "log", "compare"],
)
def test_paths_that_are_no_call(code: str) -> None:
    assert calls(code) == []


def test_the_same_calls_with_comments_blank_lines_and_crlf() -> None:
    code = (
        "async fn f(c: Client) {\n"
        '    c.get("https://prtg:1616/api/v2/devices")\n'
        '        .query(&[("limit", "10")])\n'
        "        .send().await;\n"
        "}\n"
    )
    noisy = (
        "async fn f(c: Client) {\n"
        "    // the devices\n\n"
        '    c.get(/* full URL */ "https://prtg:1616/api/v2/devices")\n\n'
        "        // paging\n"
        '        .query(&[\n            // first page\n            ("limit", "10"),\n        ])\n'
        "        .send().await;\n"
        "}\n"
    ).replace("\n", "\r\n")
    assert calls(code) == calls(noisy) == [("GET", "/devices", ["limit"])]


def test_a_rust_block_in_markdown_is_read_on_its_tree(
    tmp_path: Path, cli: Callable[..., CliResult]
) -> None:
    page = tmp_path / "guide.md"
    page.write_text(
        "# From Rust\n\n```rust\n"
        'let base = "https://prtg:1616/api/v2";\n'
        'let r = client.delete(format!("{base}/experimental/devices/{id}")).send().await?;\n'
        "```\n",
        encoding="utf-8",
    )
    done = cli("lint", "--show-calls", str(page))
    assert done.code == 0, done.err
    assert "guide.md:5:" in done.out
    assert "DELETE /experimental/devices/{id}" in done.out


def test_deep_macros_and_a_broken_file_are_read_without_an_internal_error() -> None:
    """Macros nested past the lowering's bound are opaque, and a construct the grammar
    cannot finish costs its own node: the call after both is still read."""
    code = (
        "fn main() { let u = "
        + 'format!("{}", ' * 400
        + '"https://prtg:1616/api/v2/devices"'
        + ")" * 400
        + "; }\n"
        + 'fn g() { reqwest::get("https://prtg:1616/api/v2/sensors"); let x = {{{ ; }\n'
    )
    assert ("GET", "/sensors", []) in calls(code)
