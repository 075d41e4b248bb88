"""`apispec registry diff [A] B`: registries, overlays and OpenAPI documents, three formats."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from markdown_it import MarkdownIt

from apispec.generate.openapi import build_document
from apispec.registry.diff import compare, directory_kind, registry_view
from apispec.registry.load import load_registry

FIXTURE = Path(__file__).parent / "fixtures" / "registry_import" / "server"

OVERLAY = """\
overlay: {release: 25.x.130}
releases:
  - id: 25.x.130
endpoints:
  - {method: GET, path: /health, operation_id: get_health, summary: health, tag: System,
     maturity: stable, provenance: {operation_id: getHealth}}
  - {method: GET, path: "/devices/{id}", maturity: deprecated, deprecated_in: 25.x.130,
     successor: to be decided}
properties:
  - {name: status, values: [up, down, warning], values_complete: true}
"""


@pytest.fixture
def overlay(tmp_path: Path) -> Path:
    directory = tmp_path / "overlay"
    directory.mkdir()
    (directory / "overlay.yaml").write_text(OVERLAY)
    return directory


def test_text_lists_each_kind_of_difference(cli, overlay: Path) -> None:
    result = cli("registry", "diff", str(overlay))
    assert result.code == 0  # differences alone are not a failure
    lines = result.out.splitlines()
    assert lines[0] == "--- bundled registry"
    assert lines[1] == f"+++ {overlay} (overlay)"
    assert "Releases added (1)" in lines and "  + 25.x.130" in lines
    assert "Endpoints added (1)" in lines
    assert any(
        line.startswith("  + GET /health  stable  [overlay ") and "operation getHealth" in line
        for line in lines
    )
    assert (
        "  ~ GET /devices/{id}  maturity: stable -> deprecated; deprecated_in: (none) -> "
        "25.x.130; successor: (none) -> to be decided" in lines
    )
    assert "  ~ status  + warning, now complete" in lines
    assert lines[-1] == (
        "1 endpoint added, 0 removed, 1 changed, 1 enumeration changed, 1 release added, 0 removed"
    )
    assert cli("registry", "diff", str(overlay), "--exit-code").code == 1


def test_json_has_every_difference(cli, overlay: Path) -> None:
    data = json.loads(cli("registry", "diff", str(overlay), "--format", "json").out)
    assert data["different"] is True
    assert data["a"] == {"label": "bundled registry", "kind": "registry", "release": None}
    assert data["b"]["kind"] == "overlay"
    assert data["releases_added"] == ["25.x.130"] and data["releases_removed"] == []
    [added] = data["endpoints_added"]
    assert (added["method"], added["path"], added["maturity"]) == ("GET", "/health", "stable")
    assert "getHealth" in added["origin"]
    [changed] = data["endpoints_changed"]
    assert changed["changes"]["maturity"] == {"from": "stable", "to": "deprecated"}
    assert data["enum_values"] == [
        {
            "property": "status",
            "added": ["warning"],
            "removed": [],
            "complete": {"from": False, "to": True},
        }
    ]


def test_markdown_renders_to_tables(cli, overlay: Path) -> None:
    text = cli("registry", "diff", str(overlay), "--format", "markdown").out
    html = MarkdownIt("commonmark").enable("table").render(text)
    assert html.startswith("<h1>Registry diff</h1>")
    assert "<h2>Endpoints added (1)</h2>" in html
    assert "<td><code>/health</code></td>" in html
    assert "<td><code>/devices/{id}</code></td>" in html
    assert html.count("<table>") == 4  # releases, added, changed, enumerations
    assert "<p><strong>1 endpoint added, 0 removed" in html


def test_same_side_twice_and_exit_code(cli, overlay: Path) -> None:
    same = cli("registry", "diff", str(overlay), str(overlay), "--exit-code")
    assert same.code == 0 and same.out.rstrip().endswith("no differences")
    reverse = json.loads(
        cli("registry", "diff", "--overlay", str(overlay), str(overlay), "--format", "json").out
    )
    assert reverse["different"] is False  # A already has the overlay; B adds it again


def test_two_registries_and_a_release(cli, tmp_path: Path, registry_copy: Path) -> None:
    endpoints = registry_copy / "endpoints.yaml"
    text = endpoints.read_text()
    start = text.index("  - method: GET\n    path: /experimental/license\n")
    end = text.index("  - method:", start + 10)
    endpoints.write_text(text[:start] + text[end:])
    removed = cli("registry", "diff", str(registry_copy), "--format", "json")
    data = json.loads(removed.out)
    assert [e["path"] for e in data["endpoints_removed"]] == ["/experimental/license"]
    assert data["endpoints_added"] == []
    assert data["a"]["kind"] == data["b"]["kind"] == "registry"
    older = json.loads(
        cli("registry", "diff", str(registry_copy), "--release", "25.1.104", "--format", "json").out
    )
    assert older["release"] == "25.1.104" and older["different"] is False  # not there yet
    assert cli("registry", "diff", "a", "b", "c").code == 2
    missing = cli("registry", "diff", str(tmp_path / "nope"))
    assert missing.code == 2 and "no such file or directory" in missing.err


def test_an_openapi_document_is_compared_at_its_release(cli, tmp_path: Path) -> None:
    registry = load_registry()
    document = build_document(registry, "25.1.104")
    document["paths"]["/experimental/probes"]["get"].pop("x-since")
    document["paths"]["/sensors/{id}"]["get"]["deprecated"] = True
    del document["paths"]["/sensors/{id}/overview"]
    path = tmp_path / "server.json"
    path.write_text(json.dumps(document))
    data = json.loads(cli("registry", "diff", str(path), "--format", "json").out)
    assert data["release"] == "25.1.104"
    assert data["b"]["kind"] == "openapi" and data["b"]["release"] == "25.1.104"
    assert [e["path"] for e in data["endpoints_removed"]] == ["/sensors/{id}/overview"]
    changes = {(c["method"], c["path"]): c["changes"] for c in data["endpoints_changed"]}
    # an unstated since is not a difference; a stated deprecation is
    assert changes == {
        ("GET", "/sensors/{id}"): {
            "maturity": {"from": "stable", "to": "deprecated"},
        }
    }


def test_directories_are_told_apart_by_what_they_hold(tmp_path: Path, overlay: Path) -> None:
    from apispec.registry.files import default_directory

    assert directory_kind(overlay) == "overlay"
    assert directory_kind(FIXTURE) == "openapi"
    assert directory_kind(default_directory()) == "registry"
    json_dir = tmp_path / "json"
    json_dir.mkdir()
    (json_dir / "api.json").write_text('{"openapi": "3.1.0"}')
    assert directory_kind(json_dir) == "openapi"


def test_a_multi_file_description_against_its_own_import(cli, tmp_path: Path) -> None:
    out = tmp_path / "imported"
    assert cli("registry", "import", str(FIXTURE), "-o", str(out)).code == 0
    data = json.loads(
        cli("registry", "diff", "--overlay", str(out), str(FIXTURE), "--format", "json").out
    )
    # the spec's deprecations and list endpoints the server leaves unmarked remain visible
    assert data["endpoints_added"] == [] and data["enum_values"] == []
    assert {c["path"] for c in data["endpoints_changed"]} <= {"/objects"}
    assert data["release"] == "25.2.130"
    removed = {e["path"] for e in data["endpoints_removed"]}
    assert "/health" not in removed and "/sensors/{id}" in removed


def test_compare_keeps_partial_lists_from_losing_values() -> None:
    registry = load_registry()
    a = registry_view(registry, "a")
    b = registry_view(registry, "b")
    b.enums["status"] = (("up",), False)  # a partial list leaves values out, it removes none
    assert compare(a, b).enums == []
    b.enums["status"] = (("up",), True)
    assert compare(a, b).enums[0]["removed"] == ["down"]


def test_copies_of_the_bundled_registry_show_no_difference(cli, tmp_path: Path) -> None:
    from apispec.registry.files import default_directory

    shutil.copytree(default_directory(), tmp_path / "copy")
    result = cli("registry", "diff", str(tmp_path / "copy"), "--exit-code")
    assert result.code == 0 and result.out.rstrip().endswith("no differences")
