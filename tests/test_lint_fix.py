"""--fix: deprecated paths rewritten to their successors, interpolations and quoting kept."""

from __future__ import annotations

import pytest
from lint_refs import reference

from apispec.lint.finding import Applicability, Finding, Severity
from apispec.lint.fix import apply_fixes, build_fix


def fix_text(
    registry, text: str, parts: list[str], deprecated: str, unsafe: bool = False, after: str = ""
) -> str:
    endpoint = registry.find("GET", deprecated)
    successor = registry.successor_of(endpoint)
    fix = build_fix(text, reference(text, parts, after=after), endpoint, successor)
    assert fix is not None
    finding = Finding("f", 1, 1, 1, 1, "API002", Severity.WARNING, "m", fix=fix)
    fixed, count = apply_fixes(text, [finding], unsafe)
    return fixed if count else text


@pytest.mark.parametrize(
    ("text", "parts", "expected"),
    [
        (
            'r = requests.get(f"{base}/sensors/{sid}/overview", headers=h)',
            ["sensors", "{sid}", "overview"],
            'r = requests.get(f"{base}/sensors/{sid}", headers=h)',
        ),
        (
            'Invoke-RestMethod -Uri "$base/api/v2/devices/$($d.id)/overview/"',
            ["devices", "$($d.id)", "overview"],
            'Invoke-RestMethod -Uri "$base/api/v2/devices/$($d.id)/"',
        ),
        (
            "fetch(`${api}/groups/${g}/overview?x=1`)",
            ["groups", "${g}", "overview"],
            "fetch(`${api}/groups/${g}?x=1`)",
        ),
        (
            'url := fmt.Sprintf("%s/probes/%d/overview", base, id)',
            ["probes", "%d", "overview"],
            'url := fmt.Sprintf("%s/probes/%d", base, id)',
        ),
    ],
)
def test_safe_fix_drops_the_overview_segment(registry, text, parts, expected) -> None:
    deprecated = "/" + "/".join("{id}" if p[0] in "{$%" else p for p in parts)
    assert fix_text(registry, text, parts, deprecated) == expected


def test_experimental_successor_is_an_unsafe_fix(registry) -> None:
    text = "devices = client.get('devices', params={'limit': 10})"
    endpoint = registry.find("GET", "/devices")
    fix = build_fix(
        text, reference(text, ["devices"], after="("), endpoint, registry.successor_of(endpoint)
    )
    assert (
        fix is not None
        and fix.applicability is Applicability.UNSAFE
        and fix.message == "replace with GET /experimental/devices"
    )
    assert (
        fix_text(registry, text, ["devices"], "/devices", after="(") == text
    )  # not without --unsafe-fixes
    fixed = fix_text(registry, text, ["devices"], "/devices", unsafe=True, after="(")
    assert fixed == "devices = client.get('experimental/devices', params={'limit': 10})"


def test_no_fix_when_a_segment_is_not_literally_in_the_file(registry) -> None:
    text = 'u = base + "/sensors/" + sid + "/over" + "view"'
    ref = reference(text, ["sensors", "+ sid +", "over"])
    endpoint = registry.find("GET", "/sensors/{id}/overview")
    assert build_fix(text, ref, endpoint, registry.successor_of(endpoint)) is None


def test_another_method_is_a_display_only_fix_that_is_never_written(registry) -> None:
    text = 'requests.get(f"{b}/sensors/{s}/overview")'
    ref = reference(text, ["sensors", "{s}", "overview"])
    endpoint = registry.find("GET", "/sensors/{id}/overview")
    other = registry.find("DELETE", "/experimental/sensors/{id}")
    fix = build_fix(text, ref, endpoint, other)
    assert fix is not None and fix.applicability is Applicability.DISPLAY_ONLY
    assert fix.message == (
        "replace with DELETE /experimental/sensors/{id} (change the method from GET to DELETE too)"
    )
    finding = Finding("f", 1, 1, 1, 1, "API002", Severity.WARNING, "m", fix=fix)
    assert apply_fixes(text, [finding], unsafe=True) == (text, 0)
    assert not fix.applies(unsafe=True) and not fix.applies(unsafe=False)


def test_overlapping_fixes_apply_one_at_a_time(registry) -> None:
    text = 'requests.get(f"{b}/sensors/{s}/overview")'
    ref = reference(text, ["sensors", "{s}", "overview"])
    endpoint = registry.find("GET", "/sensors/{id}/overview")
    fix = build_fix(text, ref, endpoint, registry.successor_of(endpoint))
    twice = [
        Finding("f", 1, 1, 1, 1, "API002", Severity.WARNING, "m", target=t, fix=fix) for t in "ab"
    ]
    assert apply_fixes(text, twice, False) == ('requests.get(f"{b}/sensors/{s}")', 1)


def test_display_only_fix_end_to_end(cli, registry_copy, tmp_path, monkeypatch) -> None:
    """A successor with another method: shown in JSON and SARIF, never written by --fix."""
    import json

    endpoints = registry_copy / "endpoints.yaml"
    text = endpoints.read_text()
    old = "path: /devices/{id}/overview"
    at = text.index(old)
    successor = text.index("successor: GET /devices/{id}", at)
    endpoints.write_text(
        text[:successor]
        + "successor: DELETE /experimental/devices/{id}"
        + text[successor + len("successor: GET /devices/{id}") :]
    )
    monkeypatch.chdir(tmp_path)
    source = 'BASE = "https://m:1616/api/v2"\nrequests.get(f"{BASE}/devices/{dev}/overview")\n'
    (tmp_path / "client.py").write_text(source)
    common = ("lint", "--registry", str(registry_copy), "--target", "25.x.122", "client.py")
    report = json.loads(cli(*common, "--format", "json").out)
    fix = report["findings"][0]["fix"]
    assert report["findings"][0]["code"] == "API002"
    assert fix["applicability"] == "display-only"
    assert fix["message"] == (
        "replace with DELETE /experimental/devices/{id} (change the method from GET to DELETE too)"
    )
    assert [(e["start"], e["end"], e["content"]) for e in fix["edits"]] == [
        (source.index("devices/{dev}"), source.index("devices/{dev}"), "experimental/"),
        (source.index("/overview"), source.index("/overview") + len("/overview"), ""),
    ]
    sarif = json.loads(cli(*common, "--format", "sarif").out)
    assert sarif["runs"][0]["results"][0]["fixes"][0]["properties"] == {
        "applicability": "display-only"
    }
    assert "fixable" not in cli(*common).out  # the summary counts what --fix can do
    cli(*common, "--fix", "--unsafe-fixes")
    assert (tmp_path / "client.py").read_text() == source


def test_bearer_is_written_into_the_string_a_syntax_tree_gives_by_its_content(
    cli, tmp_path, monkeypatch
) -> None:
    """Python and C# are read on their syntax tree, whose header span starts inside the
    quotes: the fix still writes `Bearer ` at the string's start (unsafe before an
    interpolation), and none into a bare variable or a triple-quoted string."""
    monkeypatch.chdir(tmp_path)
    url = "https://m:1616/api/v2/experimental/devices"
    (tmp_path / "client.py").write_text(
        "import requests\ntok = input()\n"
        f'requests.get("{url}", headers={{"Authorization": "abc"}})\n'
        f'requests.get("{url}", headers={{"Authorization": f"{{tok}}"}})\n'
        f'requests.get("{url}", headers={{"Authorization": tok}})\n'
        f'requests.get("{url}", headers={{"Authorization": """abc"""}})\n'
    )
    (tmp_path / "Client.cs").write_text(
        f'var req = new HttpRequestMessage(HttpMethod.Get, "{url}");\n'
        'req.Headers.Add("Authorization", @"abc");\n'
        "await new HttpClient().SendAsync(req);\n"
    )
    found = cli("lint", "--format", "concise", "client.py", "Client.cs").out
    assert found.count(": API009 ") == 5, found
    cli("lint", "--fix", "client.py", "Client.cs")
    safe = (tmp_path / "client.py").read_text().splitlines()
    assert safe[2].endswith('{"Authorization": "Bearer abc"})')
    assert safe[3].endswith('{"Authorization": f"{tok}"})')  # unsafe: waits
    assert (
        'req.Headers.Add("Authorization", @"Bearer abc");' in (tmp_path / "Client.cs").read_text()
    )
    cli("lint", "--fix", "--unsafe-fixes", "client.py")
    fixed = (tmp_path / "client.py").read_text().splitlines()
    assert fixed[3].endswith('{"Authorization": f"Bearer {tok}"})')
    assert fixed[4].endswith('{"Authorization": tok})')
    assert fixed[5].endswith('{"Authorization": """abc"""})')
