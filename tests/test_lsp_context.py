"""Completion and hover read the cursor's line: filter strings and API v2 paths as code writes them."""

from __future__ import annotations

import pytest

from apispec.lsp.completion import complete, escaped
from apispec.lsp.context import filter_region, literal_at, path_prefix
from apispec.lsp.hover import endpoints_at, hover


def _cursor(marked: str) -> tuple[str, int]:
    """A line with `|` where the cursor is."""
    return marked.replace("|", "", 1), marked.index("|")


@pytest.mark.parametrize(
    "marked",
    [
        'r = requests.get(url, params={"filter": "status = up and ty|"})',
        "r = requests.get(url, params={'filter': 'status = up and ty|'})",
        'requests.get(url, filter="status = up and ty|")',
        '$q = @{ filter = "status = up and ty|" }',
        '$items = Get-Objects -Filter "status = up and ty|"',
        "  filter: status = up and ty|",
        'curl --data-urlencode "filter=status = up and ty|" "$B/api/v2/experimental/sensors"',
        "fetch(`${api}/experimental/sensors?filter=status = up and ty|&limit=5`)",
        'q.Set("filter", "status = up and ty|")',
        'url.Values{"filter": {"status = up and ty|"}}',
        'query["filter"] = $"status = up and ty|";',
        "'filter' => 'status = up and ty|',",
    ],
)
def test_a_filter_is_recognised_however_the_code_passes_it(marked, registry):
    line, column = _cursor(marked)
    region = filter_region(line, column)
    assert region is not None and region.text.startswith("status = up and ty")
    labels = [i.label for i in complete(line, column, registry, registry.newest_release, "")]
    assert labels == ["type"]


@pytest.mark.parametrize(
    "marked",
    [
        'print("status = up and ty|")',
        'filtered = "status = up and ty|"',
        'x = filter(lambda s: s, "ty|")',
        "# filter: status = up and ty|",
    ],
)
def test_other_strings_are_not_filters(marked):
    line, column = _cursor(marked)
    assert filter_region(line, column) is None


def test_escapes_of_the_host_string_are_undone_and_redone():
    line, column = _cursor('q.Set("filter", "name = \\"HQ\\" and st|")')
    region = filter_region(line, column)
    assert region.text == 'name = "HQ" and st'
    assert line[region.column(7) : region.column(11)] == '\\"HQ\\"'
    assert escaped('""', '"', "python") == '\\"\\"'
    assert escaped('""', '"', "powershell") == '`"`"'
    assert escaped("''", "'", "yaml") == "''''"
    assert escaped('""', "'", "python") == '""'


def test_an_unclosed_string_runs_to_the_end_of_the_line(registry):
    line, column = _cursor('r = requests.get(url, params={"filter": "status |')
    labels = [i.label for i in complete(line, column, registry, registry.newest_release, "")]
    assert labels == ["=", "!="]


def test_literals_and_their_quotes():
    assert literal_at("x = 'it''s' + y", 6).quote == "'"
    assert literal_at("x = 'a' + y", 9) is None
    assert literal_at('x = ""', 5).start == 5


@pytest.mark.parametrize(
    ("marked", "done", "partial"),
    [
        ('requests.get(f"{BASE}/experimental/dev|")', ("experimental",), "dev"),
        ('x = "https://h:1616/api/v2/sensors/{id}/ov|"', ("sensors", "{id}"), "ov"),
        (
            '$u = "$base/api/v2/experimental/devices/$($d.id)/m|"',
            ("experimental", "devices", "$($d.id)"),
            "m",
        ),
        ('api("GET", "/devi|")', (), "devi"),
        ("client.get('experimental/obj|')", ("experimental",), "obj"),
        ('get "#{base}/api/v2/probes/#{id}/ov|"', ("probes", "#{id}"), "ov"),
    ],
)
def test_the_path_being_typed_is_found_after_its_base(marked, done, partial):
    line, column = _cursor(marked)
    prefix = path_prefix(line, column)
    assert (prefix.done, prefix.partial) == (done, partial)
    assert line[prefix.partial_start : column] == partial


def test_no_path_in_a_query_string_or_in_prose():
    line, column = _cursor('x = "https://h/api/v2/devices?sort_by=na|"')
    assert path_prefix(line, column) is None
    line, column = _cursor('print("see the manual for dev|")')
    assert path_prefix(line, column) is None


def test_path_completion_lists_registry_paths_with_maturity(registry):
    line, column = _cursor('requests.get(f"{BASE}/experimental/devices/{dev}/|")')
    items = {i.label: i for i in complete(line, column, registry, registry.newest_release, "")}
    assert "/experimental/devices/{id}/move" in items
    move = items["/experimental/devices/{id}/move"]
    assert (move.insert, move.detail, move.deprecated) == ("move", "POST experimental", False)
    assert "/experimental/devices/{id}/settings" in items  # removed: offered last, marked
    settings = items["/experimental/devices/{id}/settings"]
    assert settings.deprecated and settings.detail.startswith("GET removed")
    assert max(items.values(), key=lambda i: i.sort).deprecated


def test_a_path_not_yet_in_the_target_says_so(registry):
    line, column = _cursor('requests.get(f"{BASE}/experimental/autodiscoveryjo|")')
    target = registry.release("24.3.100")
    (item,) = [
        i
        for i in complete(line, column, registry, target, "")
        if i.label == "/experimental/autodiscoveryjobs"
    ]
    assert item.deprecated and "not yet available" in item.detail


def test_hover_on_a_path_with_an_interpolated_id(registry):
    line, column = _cursor('requests.get(f"{BASE}/sensors/{s|id}/overview")')
    found = hover(line, column, registry, registry.newest_release)
    assert "**GET** · deprecated" in found.markdown
    assert "successor: GET /sensors/{id}" in found.markdown
    assert "docs/reference/" in found.markdown and "#get_sensor_overview" in found.markdown
    assert line[found.start : found.end] == "/sensors/{sid}/overview"


def test_a_literal_segment_beats_a_parameter(registry):
    (endpoint,) = endpoints_at("/experimental/devices/templates", registry)
    assert endpoint.path == "/experimental/devices/templates"
    assert [e.method for e in endpoints_at("/experimental/devices/42", registry)] == ["DELETE"]


def test_hover_on_a_filter_property(registry):
    line, column = _cursor('params = {"filter": "basic.ta|gs contains \\"x\\""}')
    found = hover(line, column, registry, registry.newest_release)
    assert "**basic.tags**: filter property, text (several values)" in found.markdown
    assert "`contains`" in found.markdown
    assert line[found.start : found.end] == "basic.tags"
