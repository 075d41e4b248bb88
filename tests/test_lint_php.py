"""PHP: heredocs and page text, Guzzle and Symfony bases, Laravel's query arrays, joined filters.

A PHP file is a page with code in it; its clients take a base URL (Guzzle's
`base_uri`) and, for Laravel's Http, a GET's query as the array after the
path; filters are often joined with `implode`.
"""

from __future__ import annotations

from apispec.lint.config import Config
from apispec.lint.engine import Options, lint_text
from apispec.lint.extract import extract_references

NEWEST = Options(Config(), ("25.x.122",))
HEAD = "<?php\n// prtg sync\n$base = 'https://prtg.example.com:1616/api/v2';\n"


def calls(text: str, filename: str = "sync.php") -> list[tuple[int, str | None, str]]:
    return [(r.line, r.method, r.path) for r in extract_references(text, filename)]


def findings(text: str, filename: str = "sync.php") -> list[tuple[int, str]]:
    return [(f.line, f.code) for f in lint_text(text, filename, NEWEST)]


def test_heredocs_nowdocs_and_page_text_hold_no_code() -> None:
    text = (
        "#!/usr/bin/env php\n<html>it's a page</html>\n"
        + HEAD[6:]
        + "$help = <<<EOT\nan odd ' or \" here\nEOT;\n"
        + "$sql = <<<'SQL'\nSELECT 'it''s\nSQL;\n"
        + "?>\nplain output, it's \"odd\n<?php\n"
        + "http_get($base . '/experimental/devices/' . 2048);\n"
    )
    assert calls(text) == [(14, "GET", "/experimental/devices/{}")]


def test_guzzle_and_symfony_clients_join_paths_to_their_base() -> None:
    text = (
        HEAD
        + "$http = new Client(['base_uri' => $base . '/']);\n"
        + "$http->get('objects/count');\n"
        + "$http->get('experimental/devices', ['query' => ['take' => 5]]);\n"
        + "$http->get('/health');\n"  # a leading slash replaces the base's path
        + "$sym = HttpClient::createForBaseUri($base . '/');\n"
        + "$sym->request('DELETE', 'experimental/autodiscoveryjobs/' . $job);\n"
    )
    assert calls(text) == [
        (5, "GET", "/objects/count"),
        (6, "GET", "/experimental/devices"),
        (9, "DELETE", "/experimental/autodiscoveryjobs/{}"),
    ]
    assert (6, "API011") in findings(text)


def test_laravel_takes_a_gets_query_as_the_array_after_the_path() -> None:
    text = (
        HEAD
        + "Http::get($base . '/experimental/devices', ['take' => 10, 'filter' => 'status = Down']);\n"
        + "Http::post($base . '/experimental/devices/7/move', ['targetid' => '9']);\n"
    )
    found = findings(text)
    assert (4, "API011") in found and (4, "API006") in found
    assert not [f for f in found if f[0] == 5 and f[1] in ("API011", "API006")]  # a body


def test_filters_joined_with_implode_are_checked() -> None:
    text = (
        HEAD
        + "$f = implode(' AND ', ['status = down', sprintf('parentid = \"%d\"', $id)]);\n"
        + "$g = implode(' or ', array_map(fn ($id) => \"parentid = {$id}\", $ids));\n"
        + "http_get($base . '/experimental/sensors?' . http_build_query(['filter' => $f]));\n"
        + "http_get($base . '/experimental/channels?' . http_build_query(['filter' => $g]));\n"
    )
    found = findings(text)
    assert (4, "API006") in found  # upper-case AND
    assert (5, "API006") in found  # an unquoted id, in the mapped literal


def test_laravel_http_fake_holds_no_calls() -> None:
    text = (
        "<?php\n// prtg tests\nHttp::fake([\n"
        "    'prtg.example.com:1616/api/v2/experimental/groups?*' => Http::response([], 200),\n"
        "]);\n"
    )
    assert calls(text, "tests/SyncTest.php") == []


def test_curl_headers_belong_to_their_handle() -> None:
    text = (
        HEAD
        + "$ch = curl_init($base . '/experimental/sensors');\n"
        + "curl_setopt($ch, CURLOPT_RETURNTRANSFER, true);\n"
        + "curl_setopt($ch, CURLOPT_HTTPHEADER, ['Authorization: ' . $token]);\n"
    )
    assert (6, "API009") in findings(text)
