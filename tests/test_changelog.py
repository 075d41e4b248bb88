"""`apispec changelog`: the changes and the migration guide, checked against the registry."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import yaml

from apispec.generate.changelog import build_changelog, render_markdown
from apispec.registry.load import load_registry
from apispec.registry.model import NONE_PLANNED, TO_BE_DECIDED, Registry


def _keys(entries: list[dict]) -> set[tuple[str, str]]:
    return {(e["method"], e["path"]) for e in entries}


def _json(cli, *args: str) -> dict:
    result = cli("changelog", *args, "--format", "json")
    assert result.code == 0, result.err
    return json.loads(result.out)


def test_first_release_lists_every_deprecation_and_the_two_removals(
    cli, registry: Registry
) -> None:
    first = registry.first_release
    data = _json(cli, first.text)
    assert data["from"] is None and [r["release"] for r in data["releases"]] == [first.text]
    (changes,) = data["releases"]
    assert _keys(changes["deprecated"]) == {
        e.key for e in registry.endpoints if e.deprecated_in == first
    }
    assert _keys(changes["removed"]) == {e.key for e in registry.endpoints if e.removed_in == first}
    # Hand-checked against the spec's deprecated table.
    assert _keys(changes["removed"]) == {
        ("GET", "/experimental/devices/{id}/settings"),
        ("GET", "/experimental/sensors/{id}/settings"),
    }
    assert _keys(changes["appeared"]) == {e.key for e in registry.endpoints_in(first)}
    # Every deprecated or removed endpoint has a migration row with the registry's successor.
    guide = {(m["method"], m["path"]): m for m in data["migration"]}
    assert set(guide) == _keys(changes["deprecated"]) | _keys(changes["removed"])
    for endpoint in registry.endpoints:
        if endpoint.key in guide:
            assert guide[endpoint.key]["successor"] == endpoint.successor.text

    text = cli("changelog", first.text).out
    for endpoint in registry.endpoints:
        if endpoint.deprecated_in == first:
            assert f"`{endpoint.path}`" in text
    assert NONE_PLANNED in text and TO_BE_DECIDED in text


def test_range_lists_exactly_the_endpoints_added_after_from(cli, registry: Registry) -> None:
    start, end = registry.release("24.3.100"), registry.release("25.x.122")
    data = _json(cli, start.text, end.text)
    appeared = set().union(*(_keys(r["appeared"]) for r in data["releases"]))
    added = {e.key for e in registry.endpoints_in(end)} - {
        e.key for e in registry.endpoints_in(start)
    }
    assert appeared == added
    assert len(appeared) == 28  # hand count of the spec's experimental table
    assert ("GET", "/experimental/autodiscoveryjobs/history") not in appeared  # 25.x.1xx
    assert [r["release"] for r in data["releases"]] == [
        r.text for r in registry.release_list if start < r <= end
    ]
    assert data["migration"] == []
    for rc in data["releases"]:
        for entry in rc["appeared"]:
            assert entry["since"] == rc["release"]


def test_every_range_accounts_for_every_available_endpoint(registry: Registry) -> None:
    order = registry.release_list
    for i, j in itertools.combinations_with_replacement(range(len(order)), 2):
        start, end = order[i], order[j]
        log = build_changelog(registry, start.text, end.text)
        appeared = {e.key for rc in log.releases for e in rc.appeared}
        removed = {e.key for rc in log.releases for e in rc.removed}
        before = {e.key for e in registry.endpoints_in(start)}
        assert {e.key for e in registry.endpoints_in(end)} == (before | appeared) - removed
    for end in order:
        log = build_changelog(registry, None, end.text)
        appeared = {e.key for rc in log.releases for e in rc.appeared}
        removed = {e.key for rc in log.releases for e in rc.removed}
        assert {e.key for e in registry.endpoints_in(end)} == appeared - removed


def test_edge_cases_are_explained(registry: Registry) -> None:
    log = build_changelog(registry, None, registry.first_release.text)
    remarks = {m.endpoint.key: m.remarks for m in log.migrations}
    born_deprecated = [
        e for e in registry.endpoints if e.since and e.deprecated_in and e.since == e.deprecated_in
    ]
    assert born_deprecated
    for endpoint in born_deprecated:
        assert any("appeared already deprecated" in r for r in remarks[endpoint.key])
    same_release = [
        e for e in registry.endpoints if e.deprecated_in and e.deprecated_in == e.removed_in
    ]
    assert same_release
    for endpoint in same_release:
        migration = next(m for m in log.migrations if m.endpoint is endpoint)
        assert migration.change == "deprecated and removed"
        assert any("same release" in r for r in migration.remarks)


def test_successor_not_yet_available_is_noted(registry_copy: Path, cli) -> None:
    path = registry_copy / "endpoints.yaml"
    doc = yaml.safe_load(path.read_text())
    late = next(e for e in doc["endpoints"] if str(e.get("since")) == "25.x.122")
    moved = next(e for e in doc["endpoints"] if e.get("successor") == TO_BE_DECIDED)
    moved["successor"] = f"{late['method']} {late['path']}"
    path.write_text(yaml.safe_dump(doc, sort_keys=False))
    reg = load_registry(registry_copy)
    first = reg.first_release.text
    result = cli("changelog", first, "--format", "json", "--registry", str(registry_copy))
    entry = next(m for m in json.loads(result.out)["migration"] if m["path"] == moved["path"])
    assert entry["successor_available_in_to"] is False
    assert entry["successor_available_from"] == "25.x.122"
    assert any("not yet available in" in r for r in entry["remarks"])
    assert "not yet available in" in render_markdown(build_changelog(reg, None, first))


def test_from_equal_to_is_empty(cli, registry: Registry) -> None:
    result = cli("changelog", "25.x.110", "25.x.110")
    assert result.code == 0
    assert "Nothing to migrate" in result.out and "0 releases" in result.out


def test_bad_releases_are_usage_errors(cli) -> None:
    result = cli("changelog", "24.3.10", "25.x.122")
    assert result.code == 2
    assert result.err.count("\n") == 1 and "did you mean 24.3.10" in result.err
    result = cli("changelog", "25.x.122", "24.3.100")
    assert result.code == 2 and "comes after" in result.err
    assert result.err.count("\n") == 1
    assert cli("changelog", "nonsense").code == 2


def test_without_to_the_changelog_ends_at_the_newest_concrete_release(cli) -> None:
    result = cli("changelog")
    assert result.code == 0
    assert result.out.startswith("# API changes up to 25.x.122, from the first release\n")
    assert result.err == (
        "apispec: note: release 25.x.122 (default: the newest concrete release; "
        "pass TO for another)\n"
    )
    named = cli("changelog", "25.x.1xx")
    assert named.out.startswith("# API changes up to 25.x.1xx,") and named.err == ""


def test_markdown_changelog_neutralises_registry_markup(registry_copy: Path) -> None:
    path = registry_copy / "endpoints.yaml"
    doc = yaml.safe_load(path.read_text())
    doc["endpoints"][0]["summary"] = "<script>alert(1)</script>"
    path.write_text(yaml.safe_dump(doc, sort_keys=False))
    text = render_markdown(build_changelog(load_registry(registry_copy), None, "24.3.100"))
    assert "<script>" not in text and "&lt;script&gt;alert(1)&lt;/script&gt;" in text
