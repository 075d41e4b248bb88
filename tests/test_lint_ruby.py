"""Ruby: its literal forms, calls without parentheses, Faraday's params, routes and WebMock.

Ruby writes strings in more ways than any other language the linter reads,
calls methods without parentheses, and Faraday takes a GET's query as the
hash after the path: each is read as a Ruby programmer means it.
"""

from __future__ import annotations

import pytest

from apispec.lint.config import Config
from apispec.lint.engine import Options, lint_text
from apispec.lint.extract import dialect, extract_references
from apispec.lint.scan import Source

NEWEST = Options(Config(), ("25.x.122",))
HEAD = "# prtg client\nBASE = 'https://prtg.example.com:1616/api/v2'\n"


def calls(text: str, filename: str = "client.rb") -> list[tuple[int, str | None, str]]:
    return [(r.line, r.method, r.path) for r in extract_references(text, filename)]


def findings(text: str, filename: str = "client.rb") -> list[tuple[int, str]]:
    return [(f.line, f.code) for f in lint_text(text, filename, NEWEST)]


@pytest.mark.parametrize(
    ("literal", "content"),
    [
        ('%(a "b" (c))', 'a "b" (c)'),  # brackets nest
        ("%Q{x #{y} z}", "x \x00 z"),  # interpolates
        ("%q[it's]", "it's"),  # does not
        ("%|---|", "---"),
        ('<<~EOS.strip\n  body "x\n  EOS', '  body "x'),  # a heredoc's body, code after it
        ("<<~'RAW'\n  #{not} here\n  RAW", "  #{not} here"),  # a quoted heredoc: no holes
    ],
)
def test_literal_forms(literal: str, content: str) -> None:
    text = "X = " + literal + "\nY = 'after'\n"
    lits = Source(text, dialect("ruby")).lits
    assert [lit.raw for lit in lits] == [content, "after"]


@pytest.mark.parametrize(
    "odd", ['QUOTE = ?"', 'LOADED = $".size', "STRIP = /[\"'`]/", "WORDS = %w[it's \"odd]"]
)
def test_lookalikes_of_quotes_open_no_string(odd: str) -> None:
    text = HEAD + odd + '\ncall(Net::HTTP::Delete, "#{BASE}/experimental/devices/#{id}")\n'
    assert calls(text) == [(4, "DELETE", "/experimental/devices/{}")]


def test_an_unclosed_string_costs_its_line_only() -> None:
    text = (
        HEAD
        + "NOTE = 'an unclosed string\n"
        + "".join(f'call(Net::HTTP::Get, "#{{BASE}}/experimental/probes/{i}")\n' for i in range(5))
    )
    assert [line for line, _, _ in calls(text)] == [4, 5, 6, 7, 8]


def test_a_double_quoted_string_runs_to_the_next_quote_as_ruby_reads_it() -> None:
    # Ruby strings span lines: the first call up to its quote is the string's text, and
    # what follows that quote is a comment; Ruby runs the calls after it, and so they count
    text = (
        HEAD
        + 'NOTE = "a string over lines\n'
        + "".join(f'call(Net::HTTP::Get, "#{{BASE}}/experimental/probes/{i}")\n' for i in range(5))
    )
    assert [line for line, _, _ in calls(text)] == [5, 6, 7, 8]


def test_instance_variables_at_a_line_start_are_no_decorators() -> None:
    text = HEAD + 'def go\n  @conn.patch("experimental/sensors/#{id}", body)\nend\n'
    assert calls(text) == [(4, "PATCH", "/experimental/sensors/{}")]


def test_calls_without_parentheses() -> None:
    text = HEAD + "conn.delete \"experimental/groups/#{id}\"\nreq.url 'experimental/sensors'\n"
    assert calls(text) == [
        (3, "DELETE", "/experimental/groups/{}"),
        (4, None, "/experimental/sensors"),
    ]


def test_rails_and_sinatra_routes_are_not_calls() -> None:
    text = (
        "# prtg proxy\nRails.application.routes.draw do\n"
        "  get 'experimental/devices', to: 'devices#index'\n"
        "  match 'experimental/*rest', to: 'proxy#forward', via: :all\n"
        "end\nget '/experimental/sensors' do\n  'ok'\nend\n"
    )
    assert calls(text, "config/routes.rb") == []


def test_webmock_stubs_are_not_calls() -> None:
    text = (
        HEAD + 'stub_request(:get, "#{BASE}/experimental/devices")\n'
        "  .to_return(body: [{ href: '/api/v2/devices/2048' }].to_json)\n"
        'expect(WebMock).to have_requested(:delete, "#{BASE}/experimental/groups/7")\n'
    )
    assert calls(text, "spec/client_spec.rb") == []


def test_faraday_params_in_every_form() -> None:
    text = (
        HEAD
        + "conn = Faraday.new(url: BASE)\n"
        + "conn.get('experimental/devices', take: 10)\n"
        + "conn.get('experimental/sensors', { sort: 'name' })\n"
        + "conn.get('experimental/groups') { |req| req.params['filter'] = 'status = Down' }\n"
        + "conn.get('experimental/probes') do |req|\n"
        + "  req.params.update(includes: 'all_sections')\n"
        + "end\n"
        + "opts = { headers: { 'Accept' => 'json' }, params: { filter_objid: 0 } }\n"
        + 'RestClient.get("#{BASE}/experimental/channels", opts)\n'
    )
    found = findings(text)
    for line, code in [(4, "API011"), (5, "API011"), (6, "API006"), (8, "API011"), (10, "API011")]:
        assert (line, code) in found, (line, code, found)
    assert (9, "API011") not in found  # the options' own keys (`headers`) are no parameters


def test_a_faraday_client_joins_relative_paths_to_its_base() -> None:
    text = (
        HEAD
        + 'conn = Faraday.new(url: "#{ENV["PRTG"]}/api/v2")\n'
        + "conn.get('sensor-status-summary')\n"
        + "conn.get('/health')\n"  # a leading slash leaves /api/v2 under Faraday's join
    )
    assert calls(text) == [(4, "GET", "/sensor-status-summary")]


def test_an_httparty_class_joins_paths_to_its_base_uri() -> None:
    text = (
        HEAD
        + "class PrtgApi\n  include HTTParty\n  base_uri BASE\n"
        + "  def health = self.class.get('/health')\nend\n"
        + "PrtgApi.post('/devices/7/pause')\n"
    )
    assert calls(text) == [(6, "GET", "/health"), (8, "POST", "/devices/{}/pause")]
