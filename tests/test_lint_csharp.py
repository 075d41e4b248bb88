"""C# on the tree path: clients as .NET code builds them, read as a .NET programmer means it.

HttpClient joins by RFC 3986 (a base without a trailing slash loses its last segment,
a leading slash goes to the host's root), a request object carries its own method,
RestSharp and Flurl build requests by chained calls, Refit declares them in
attributes, a class's fields are read without `this.`, and routes, handler fakes and
comparisons are never calls.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from apispec.lint.config import Config
from apispec.lint.engine import Options, lint_text
from apispec.lint.extract import TREE, extract, extract_references
from apispec.lint.helpers import HelperTable

NEWEST = Options(Config(), ("25.x.122",))
BASE = 'new HttpClient { BaseAddress = new Uri("https://prtg.example.com:1616/api/v2/") }'


def calls(text: str, filename: str = "Client.cs") -> list[tuple[int, str | None, str]]:
    return [(r.line, r.method, r.path) for r in extract_references(text, filename)]


def findings(text: str, filename: str = "Client.cs") -> list[tuple[int, str]]:
    return [(f.line, f.code) for f in lint_text(text, filename, NEWEST)]


def test_csharp_is_read_on_its_tree() -> None:
    assert "csharp" in TREE


@pytest.mark.parametrize(
    ("base", "path", "expected"),
    [
        ("/api/v2/", "experimental/devices", "/experimental/devices"),
        ("/api/v2/", "sensor-status-summary", "/sensor-status-summary"),
        ("/api/v2", "experimental/groups", None),  # `v2` is replaced: /api/experimental/...
        ("/api/v2/", "/experimental/probes", None),  # the host's root
    ],
)
def test_httpclient_joins_as_rfc_3986_says(base: str, path: str, expected: str | None) -> None:
    text = (
        "class Joins {\n"
        "  private readonly HttpClient _api = new HttpClient"
        f' {{ BaseAddress = new Uri("https://prtg.example.com:1616{base}") }};\n'
        f'  public Task Run() => _api.GetStringAsync("{path}");\n'
        "}\n"
    )
    assert calls(text) == ([(3, "GET", expected)] if expected else [])


def test_a_base_set_in_the_constructor_on_an_injected_client() -> None:
    text = (
        "public sealed class Prtg\n{\n"
        "    private readonly HttpClient _http;\n"
        "    public Prtg(HttpClient http, IOptions<PrtgOptions> o)\n    {\n"
        "        _http = http;\n"
        "        _http.BaseAddress = new Uri(o.Value.Url.TrimEnd('/') + \"/api/v2/\");\n"
        "    }\n"
        '    public Task<string> Summary() => _http.GetStringAsync("sensor-status-summary");\n'
        '    public Task<string> Root() => _http.GetStringAsync("/version");\n'
        "}\n"
    )
    assert calls(text) == [(9, "GET", "/sensor-status-summary")]


def test_verbs_request_messages_and_their_headers() -> None:
    text = (
        f"var http = {BASE};\n"
        'await http.PatchAsJsonAsync($"experimental/devices/{id}", body);\n'
        'var req = new HttpRequestMessage(HttpMethod.Delete, $"experimental/sensors/{id}");\n'
        'req.Headers.TryAddWithoutValidation("Authorization", token);\n'
        "await http.SendAsync(req);\n"
    )
    assert calls(text) == [
        (2, "PATCH", "/experimental/devices/{}"),
        (3, "DELETE", "/experimental/sensors/{}"),
    ]
    assert (4, "API009") in findings(text)  # the header has no Bearer scheme


def test_restsharp_requests_with_their_query() -> None:
    text = (
        "// prtg\n"
        'var request = new RestRequest("experimental/sensors", Method.Get)\n'
        '    .AddQueryParameter("filter", "status = down")\n'
        '    .AddQueryParameter("take", "10");\n'
        'var more = new RestRequest("experimental/devices");\n'
        'more.AddQueryParameter("sort_by", "name");\n'
        "await rest.ExecuteAsync(request);\n"
    )
    refs = extract_references(text, "Jobs.cs")
    assert [(r.line, r.method, r.path) for r in refs] == [
        (2, "GET", "/experimental/sensors"),
        (5, None, "/experimental/devices"),
    ]
    assert [(q.name, q.value) for q in refs[0].query] == [
        ("filter", "status = down"),
        ("take", "10"),
    ]
    assert [(q.name, q.value) for q in refs[1].query] == [("sort_by", "name")]


def test_flurl_builds_the_url_it_sends_from() -> None:
    text = (
        'const string Api = "https://prtg.example.com:1616/api/v2";\n'
        'await Api.AppendPathSegments("experimental", "sensors", id)'
        ".WithOAuthBearerToken(t).PatchJsonAsync(body);\n"
        'await Api.AppendPathSegment("groups").SetQueryParam("includes", "x")'
        '.WithHeader("Authorization", t).GetStringAsync();\n'
        'await $"{Api}/experimental/devices/{id}".DeleteAsync();\n'
    )
    refs = extract_references(text, "Flurl.cs")
    assert [(r.line, r.method, r.path) for r in refs] == [
        (2, "PATCH", "/experimental/sensors/{}"),
        (3, "GET", "/groups"),
        (4, "DELETE", "/experimental/devices/{}"),
    ]
    assert [(q.name, q.value) for q in refs[1].query] == [("includes", "x")]
    assert [h[:2] for h in refs[0].headers] == [("Authorization", "Bearer {}")]
    assert (3, "API009") in findings(text, "Flurl.cs")


def test_refit_attributes_declare_requests() -> None:
    text = (
        "// prtg\npublic interface IPrtgApi\n{\n"
        '    [Get("/experimental/sensors?filter=status%20eq%20down")]\n'
        "    Task<List<Sensor>> Down();\n"
        '    [Patch("/experimental/sensors/{id}")]\n'
        "    Task Rename(string id, [Body] object body);\n"
        "}\n"
    )
    assert calls(text) == [
        (4, "GET", "/experimental/sensors"),
        (6, "PATCH", "/experimental/sensors/{}"),
    ]


def test_strings_of_every_kind() -> None:
    text = (
        f"var http = {BASE};\n"
        'await http.GetStringAsync(@"sensors/" + id + @"/overview");\n'
        'await http.GetStringAsync(string.Format("devices/{0}/clone", id));\n'
        'await http.GetStringAsync($@"experimental/devices/{id}/settings");\n'
        'await http.GetStringAsync("""experimental/probes""");\n'
    )
    assert calls(text) == [
        (2, "GET", "/sensors/{}/overview"),
        (3, "GET", "/devices/{}/clone"),
        (4, "GET", "/experimental/devices/{}/settings"),
        (5, "GET", "/experimental/probes"),
    ]


def test_filters_joined_and_escaped_reach_the_query() -> None:
    text = (
        f"var http = {BASE};\n"
        "var parts = new List<string>();\n"
        'parts.Add("status = down");\n'
        'parts.Add($"parentid = \\"{id}\\"");\n'
        'var filter = string.Join(" AND ", parts);\n'
        'await http.GetStringAsync("experimental/sensors?filter=" + Uri.EscapeDataString(filter));\n'
    )
    refs = extract_references(text, "Report.cs")
    assert [(q.name, q.value) for q in refs[0].query] == [
        ("filter", 'status = down AND parentid = "{id}"')  # the placeholder as written
    ]
    assert (5, "API006") in findings(text, "Report.cs")  # the upper-case AND, where written


def test_a_table_walked_by_foreach_is_one_call_per_entry() -> None:
    text = (
        "class Export {\n"
        f"  private readonly HttpClient _http = {BASE};\n"
        "  static readonly Dictionary<string, string> Paths = new()\n  {\n"
        '      ["probes"] = "experimental/probes",\n'
        '      ["users"] = "experimental/users",\n'
        "  };\n"
        "  public async Task Run() {\n"
        "    foreach (var (name, path) in Paths) { await _http.GetStringAsync(path); }\n"
        "  }\n}\n"
    )
    assert calls(text) == [(5, "GET", "/experimental/probes"), (6, "GET", "/experimental/users")]


def test_own_wrapper_with_primary_constructor_and_this_chaining() -> None:
    text = (
        "public sealed class PrtgClient\n{\n"
        "    private readonly HttpClient _http;\n"
        "    public PrtgClient(string server)\n"
        '        : this(new HttpClient { BaseAddress = new Uri($"https://{server}:1616/api/v2/") }) { }\n'
        "    internal PrtgClient(HttpClient http) { _http = http; }\n"
        "    public Task<string> GetAsync(string path) => _http.GetStringAsync(path.TrimStart('/'));\n"
        '    public Task<string> Version() => GetAsync("/version");\n'
        "}\n"
        "public sealed class Report(PrtgClient prtg)\n{\n"
        '    public Task<string> Probes() => prtg.GetAsync("experimental/probes");\n'
        "}\n"
    )
    assert calls(text) == [(8, "GET", "/version"), (12, "GET", "/experimental/probes")]


def test_a_wrapper_of_another_file_applies_where_its_class_is_known() -> None:
    client = (
        "namespace Noc.Prtg;\npublic sealed class PrtgClient(HttpClient http)\n{\n"
        "    public Task SendAsync(HttpMethod method, string path) =>\n"
        "        http.SendAsync(new HttpRequestMessage(method, path.TrimStart('/')));\n"
        "}\n"
    )
    helpers = HelperTable(extract(client, "PrtgClient.cs").helpers)
    user = (
        "using Noc.Prtg;\n"
        "public sealed class Jobs(PrtgClient prtg, Other other)\n{\n"
        '    public Task Move(string id) => prtg.SendAsync(HttpMethod.Post, $"experimental/devices/{id}/move");\n'
        '    public Task Elsewhere() => other.SendAsync(HttpMethod.Post, "probes");\n'
        "}\n"
    )
    found = extract(user, "Jobs.cs", helpers=helpers).references
    assert [(r.line, r.method, r.path) for r in found] == [
        (4, "POST", "/experimental/devices/{}/move")
    ]


@pytest.mark.parametrize(
    "code",
    [
        'app.MapGet("/api/v2/experimental/devices", () => Results.Ok());',
        '[HttpGet("/api/v2/experimental/sensors")] public IActionResult List() => Ok();',
        'var body = path switch { "/api/v2/experimental/probes" => "[]", _ => null };',
        'if (request.RequestUri!.AbsolutePath == "/api/v2/devices/4242") return;',
        'Assert.Equal("/api/v2/experimental/sensors", sent.AbsolutePath);',
        'if (path.StartsWith("/api/v2/experimental/sensors/")) return;',
        'server.Given(Request.Create().WithPath("/api/v2/experimental/sensors").UsingGet());',
    ],
)
def test_routes_fakes_and_comparisons_are_never_calls(code: str) -> None:
    text = "// a stand-in for PRTG on port 1616\n" + code + "\n"
    assert calls(text, "Fake.cs") == []


def test_a_csharp_block_in_markdown(tmp_path: Path) -> None:
    page = tmp_path / "guide.md"
    page.write_text(
        "# PRTG from .NET\n\n```csharp\n"
        f"var http = {BASE};\n"
        'await http.DeleteAsync($"experimental/sensors/{id}");\n'
        "```\n",
        encoding="utf-8",
    )
    done = subprocess.run(
        [sys.executable, "-m", "apispec", "lint", "--show-calls", str(page)],
        capture_output=True,
        text=True,
        check=False,
        cwd=tmp_path,
    )
    assert done.returncode in (0, 1), done.stderr
    assert "DELETE /experimental/sensors/{id}" in done.stdout
    assert "guide.md:5" in done.stdout
