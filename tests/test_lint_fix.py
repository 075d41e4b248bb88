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
