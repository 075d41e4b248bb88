"""`apispec registry import`: a server's own description becomes an overlay the tools use."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

from apispec.registry.load import load_registry
from apispec.registry.model import Maturity

FIXTURE = Path(__file__).parent / "fixtures" / "registry_import" / "server"


def apispec(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "apispec", *args], capture_output=True, text=True, timeout=timeout
    )


MOCK = [sys.executable, "-m", "apispec", "mock"]


@pytest.fixture
def mock_url() -> Iterator[str]:
    """A real `apispec mock` on a loopback port, stopped after the test."""
    process = subprocess.Popen(
        # --release 25.x.1xx: every endpoint the registry has
        [*MOCK, "--port", "0", "--objects", "6", "--release", "25.x.1xx"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        found = re.search(r"at (http://\S+)/api/v2$", process.stdout.readline().strip())
        assert found, process.stderr.read() if process.stderr else ""
        yield found[1]
    finally:
        process.terminate()
        process.communicate(timeout=15)


def test_round_trip_through_the_live_mock_is_empty(tmp_path: Path, mock_url: str) -> None:
    """Acceptance 1: the mock's own description adds nothing to the registry it came from."""
    out = tmp_path / "overlay"
    imported = apispec("registry", "import", f"{mock_url}/api/v2/oas/", "--output", str(out))
    assert imported.returncode == 0, imported.stderr
    assert imported.stderr == ""
    assert "74 operations, 0 new endpoints, 0 changed, 0 enumerations" in imported.stdout
    overlay = yaml.safe_load((out / "overlay.yaml").read_text())
    assert set(overlay) == {"overlay", "paths"}  # only the server's method lists
    assert overlay["overlay"]["source"] == f"{mock_url}/api/v2/oas/"
    assert overlay["overlay"]["release"] == "25.x.1xx"
    assert len(overlay["paths"]) == 71
    against_overlay = apispec("registry", "diff", str(out), "--exit-code")
    assert against_overlay.returncode == 0, against_overlay.stdout
    assert against_overlay.stdout.rstrip().endswith("no differences")
    against_server = apispec("registry", "diff", f"{mock_url}/api/v2/oas/", "--exit-code")
    assert against_server.returncode == 0, against_server.stdout
    assert "(both at release 25.x.1xx)" in against_server.stdout
    assert apispec("registry", "check", "--overlay", str(out)).returncode == 0


def test_importing_the_generated_document_of_each_release_changes_nothing(tmp_path: Path) -> None:
    """Every release's generated description imports to no endpoint and no enumeration."""
    registry = load_registry()
    from apispec.generate.openapi import build_document
    from apispec.registry.importer.overlay import build_overlay
    from apispec.registry.importer.run import read_description

    for release in registry.release_list:
        path = tmp_path / f"{release.text}.json"
        path.write_text(json.dumps(build_document(registry, release)))
        description = read_description(str(path), registry)
        overlay = build_overlay(description, registry)
        assert str(description.release) == release.text
        assert set(overlay) == {"overlay", "paths"}, (release, overlay.get("endpoints"))


def test_multi_file_description_imports_with_provenance(tmp_path: Path) -> None:
    """Acceptance 2: three kinds of file, relative $refs, new paths, an x- extension, enums."""
    out = tmp_path / "overlay"
    result = apispec("registry", "import", str(FIXTURE), "--output", str(out))
    assert result.returncode == 0, result.stderr
    assert "release 25.2.130): 8 operations, 5 new endpoints, 1 changed, 2 enumerations" in (
        result.stdout
    )
    doc = yaml.safe_load((out / "overlay.yaml").read_text())
    assert doc["overlay"]["version"] == "25.2.130.1841"
    assert doc["releases"][0]["id"] == "25.2.130"
    endpoints = {(e["method"], e["path"]): e for e in doc["endpoints"]}
    health = endpoints[("GET", "/health")]
    assert health["provenance"] == {
        "source": str(FIXTURE),
        "operation_id": "getHealth",
        "version": "25.2.130.1841",
    }
    assert health["operation_id"] == "get_health" and health["auth"] is False
    assert health["tag"] == "System"
    pause = endpoints[("POST", "/devices/{id}/pause")]  # {deviceId} follows the registry's {id}
    assert pause["query"] == ["duration"] and pause["maturity"] == "stable"
    summary = endpoints[("GET", "/sensor-status-summary")]
    assert summary["maturity"] == "experimental"  # x-stability-level: beta
    assert endpoints[("GET", "/objects")] == {
        "method": "GET",
        "path": "/objects",
        "query": ["filter", "limit", "offset"],
        "provenance": {
            "source": str(FIXTURE),
            "operation_id": "listObjects",
            "version": "25.2.130.1841",
        },
    }
    assert ("GET", "/experimental/devices") not in endpoints  # nothing new about it
    values = {p["name"]: p["values"] for p in doc["properties"]}
    assert values["status"] == ["up", "down", "warning", "paused", "unusual", "unknown"]
    assert values["type"] == ["probe", "group", "device", "sensor", "channel"]
    assert all(p["values_complete"] for p in doc["properties"])
    assert {"path": "/devices/{id}", "methods": ["GET", "PATCH"]} in doc["paths"]
    registry = load_registry(None, (out,))
    assert registry.find("GET", "/sensor-status-summary").maturity is Maturity.EXPERIMENTAL
    assert registry.methods_authoritative("/devices/{id}")
    assert registry.property("status").values_complete


CLIENT = """\
import requests

BASE = "https://monitor.example.com/api/v2"


def health(session):
    return session.get(f"{BASE}/health").json()


def version(session):
    return session.get(f"{BASE}/version").json()


def pause(session, device_id):
    return session.post(f"{BASE}/devices/{device_id}/pause")


def warnings(session):
    return session.get(f"{BASE}/experimental/devices", params={"filter": "status = warning"})
"""


def test_lint_and_filter_check_know_the_server_with_the_overlay(tmp_path: Path) -> None:
    """Acceptance 2: no API004 for the server's paths; `status = warning` passes only with it."""
    out = tmp_path / "overlay"
    assert apispec("registry", "import", str(FIXTURE), "-o", str(out)).returncode == 0
    script = tmp_path / "client.py"
    script.write_text(CLIENT)
    without = apispec("lint", str(script), "--format", "json")
    codes = [f["code"] for f in json.loads(without.stdout)["findings"]]
    assert codes.count("API004") == 3 and "API006" in codes
    with_overlay = apispec("lint", "--overlay", str(out), str(script), "--format", "json")
    report = json.loads(with_overlay.stdout)
    codes = [f["code"] for f in report["findings"]]
    assert "API004" not in codes and "API006" not in codes, report["findings"]
    # /experimental/devices stays experimental, but it is GET /devices' named successor:
    # API003 leaves it to API002's advice (docs/linter.md, API003)
    assert codes == []
    plain = apispec("filter", "check", "status = warning")
    assert "FLT005" in plain.stdout and "(0 errors, 1 warning)" in plain.stdout
    known = apispec("filter", "check", "--overlay", str(out), "status = warning")
    assert known.returncode == 0 and "FLT005" not in known.stdout
    assert "(0 errors, 0 warnings)" in known.stdout
    typo = apispec("filter", "check", "--overlay", str(out), "status = warnnig")
    assert "did you mean `warning`?" in typo.stdout


def test_output_directory_rules(cli, tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / "mine.yaml").write_text("overlay: {}\n")
    refused = cli("registry", "import", str(FIXTURE), "-o", str(out))
    assert refused.code == 2
    assert "holds mine.yaml, which is not an imported overlay" in refused.err
    (out / "mine.yaml").unlink()
    (out / "overlay.yaml").write_text("# an earlier import\n")
    again = cli("registry", "import", str(FIXTURE), "-o", str(out))
    assert again.code == 0 and "getHealth" in (out / "overlay.yaml").read_text()
    a_file = tmp_path / "file"
    a_file.write_text("")
    assert (
        "exists and is not a directory"
        in cli("registry", "import", str(FIXTURE), "-o", str(a_file)).err
    )


@pytest.mark.parametrize(
    ("document", "args", "code", "message"),
    [
        (
            "swagger: '2.0'\ninfo: {title: t, version: '1'}\npaths: {}\n",
            [],
            2,
            "not an OpenAPI 3.x description (swagger: 2.0)",
        ),
        (
            "openapi: 3.1.0\ninfo: {title: t, version: v2}\npaths: {}\n",
            [],
            2,
            "info.version 'v2' is not a release (MAJOR.MINOR.BUILD such as 25.1.104); pass --release R",
        ),
        (
            "openapi: 3.1.0\ninfo: {title: t, version: v2}\npaths: {}\n",
            ["--release", "25.x.122"],
            0,
            "release 25.x.122): 0 operations",
        ),
        (
            "openapi: 3.1.0\ninfo: {title: t, version: 1.0.0}\npaths: {}\n",
            [],
            0,
            "orders before every release the registry knows; pass --release R",
        ),
        (
            "openapi: 3.1.0\ninfo: {title: t, version: 25.x.122}\npaths:\n  /Odd_Path: {get: {}}\n",
            [],
            0,
            "/Odd_Path: left out",
        ),
        ("openapi: 3.1.0\ninfo: {title: t, version: 25.x.122}\n", [], 2, "has no `paths` mapping"),
        ("- a list\n", [], 2, "the top level is not a mapping"),
        (
            "openapi: 3.1.0\ninfo: {title: t, version: 25.x.122}\npaths:\n  /a: {$ref: '#/x/y'}\n",
            [],
            2,
            "does not resolve: no ",
        ),
    ],
    ids=[
        "swagger-2",
        "no-release",
        "release-given",
        "early-version",
        "odd-path",
        "no-paths",
        "not-a-mapping",
        "broken-ref",
    ],
)
def test_documents_that_cannot_be_imported_as_they_are(
    cli, tmp_path: Path, document: str, args: list[str], code: int, message: str
) -> None:
    source = tmp_path / "api.yaml"
    source.write_text(document)
    result = cli("registry", "import", str(source), "-o", str(tmp_path / "o"), *args)
    assert result.code == code, result.err
    assert message in result.out + result.err
    assert "Traceback" not in result.err
    if code == 2:
        assert len(result.err.strip().splitlines()) == 1


def test_a_directory_needs_exactly_one_root_document(cli, tmp_path: Path) -> None:
    (tmp_path / "a.yaml").write_text("openapi: 3.0.0\n")
    (tmp_path / "b.json").write_text('{"openapi": "3.0.0"}')
    several = cli("registry", "import", str(tmp_path), "-o", str(tmp_path / "o"))
    assert several.code == 2 and "several OpenAPI documents (a.yaml, b.json)" in several.err
    empty = tmp_path / "empty"
    empty.mkdir()
    none = cli("registry", "import", str(empty), "-o", str(tmp_path / "o"))
    assert none.code == 2 and "no OpenAPI document in it" in none.err
    missing = cli("registry", "import", str(tmp_path / "nope"), "-o", str(tmp_path / "o"))
    assert missing.code == 2 and "no such file or directory" in missing.err
    scheme = cli("registry", "import", "ftp://host/x.yaml", "-o", str(tmp_path / "o"))
    assert scheme.code == 2 and "unsupported scheme ftp:" in scheme.err
    unreachable = cli("registry", "import", "http://127.0.0.1:9/oas/", "-o", str(tmp_path / "o"))
    assert unreachable.code == 2 and "cannot fetch" in unreachable.err


def test_deprecation_and_lifecycle_stated_by_the_server(tmp_path: Path) -> None:
    """A server may deprecate a stable endpoint; it cannot undo the spec's deprecation."""
    source = tmp_path / "api.yaml"
    source.write_text(
        """\
openapi: 3.1.0
info: {title: t, version: 25.x.122}
paths:
  /devices/{id}:
    get: {deprecated: true, x-successor: GET /experimental/devices, x-removed-in: 25.x.1xx}
  /devices:
    get: {summary: still listed without a deprecation mark}
  /experimental/license:
    get: {x-since: 25.x.112}
"""
    )
    out = tmp_path / "o"
    assert apispec("registry", "import", str(source), "-o", str(out)).returncode == 0
    entries = {
        e["path"]: e for e in yaml.safe_load((out / "overlay.yaml").read_text())["endpoints"]
    }
    assert entries["/devices/{id}"] == {
        "method": "GET",
        "path": "/devices/{id}",
        "maturity": "deprecated",
        "deprecated_in": "25.x.122",
        "removed_in": "25.x.1xx",
        "successor": "GET /experimental/devices",
        "provenance": {"source": str(source), "version": "25.x.122"},
    }
    assert "/devices" not in entries  # the spec's deprecation stands
    assert entries["/experimental/license"]["since"] == "25.x.112"
    registry = load_registry(None, (out,))
    assert registry.find("GET", "/devices/{id}").maturity is Maturity.DEPRECATED
    diff = apispec("registry", "diff", str(source))
    assert "~ GET /devices  maturity: deprecated -> stable" in diff.stdout


def test_the_document_generated_with_an_overlay_imports_back_to_nothing_new(
    cli, tmp_path: Path
) -> None:
    """openapi --overlay carries what the overlay says (complete enumerations as `enum`,
    listed query parameters), so importing its output adds nothing to the same overlay."""
    first = tmp_path / "first"
    assert cli("registry", "import", str(FIXTURE), "-o", str(first)).code == 0
    generated = tmp_path / "generated.json"
    made = cli("openapi", "--overlay", str(first), "--release", "25.2.130", "-o", str(generated))
    assert made.code == 0, made.err
    document = json.loads(generated.read_text())
    status = document["components"]["schemas"]["ObjectRecord"]["properties"]["status"]
    assert status["enum"] == ["up", "down", "warning", "paused", "unusual", "unknown"]
    pause = document["paths"]["/devices/{id}/pause"]["post"]
    assert [p["name"] for p in pause["parameters"] if p["in"] == "query"] == ["duration"]
    assert cli("openapi", "--check", str(generated)).code == 0
    second = tmp_path / "second"
    again = cli("registry", "import", str(generated), "--overlay", str(first), "-o", str(second))
    assert again.code == 0, again.err
    assert set(yaml.safe_load((second / "overlay.yaml").read_text())) == {"overlay", "paths"}
    same = cli("registry", "diff", "--overlay", str(first), str(generated), "--exit-code")
    assert same.code == 0, same.out


def test_contradicting_lifecycle_extensions_are_resolved_with_notes(cli, tmp_path: Path) -> None:
    """The overlay must load: contradictions become notes, never a broken registry."""
    source = tmp_path / "api.yaml"
    source.write_text(
        """\
openapi: 3.1.0
info: {title: t, version: 25.x.122}
paths:
  /health:
    get: {deprecated: true, x-since: 25.x.1xx, x-successor: GET /nowhere}
  /version:
    get: {deprecated: true, x-successor: GET /status, x-removed-in: 24.3.100}
  /status:
    get: {deprecated: true, x-successor: GET /version}
  /devices/{deviceId}:
    get: {operationId: first}
  /devices/{id}:
    get: {operationId: second}
"""
    )
    out = tmp_path / "o"
    result = cli("registry", "import", str(source), "-o", str(out))
    assert result.code == 0, result.err
    notes = result.err
    assert "GET /health: deprecated in 25.x.1xx, the release it appears in" in notes
    assert "GET /health: successor 'GET /nowhere' left out" in notes
    assert "GET /version: removed_in 24.3.100 left out" in notes
    assert "the successors lead back to it" in notes
    assert "GET /devices/{id}: left out: the same endpoint as GET /devices/{deviceId}" in notes
    check = cli("registry", "check", "--overlay", str(out))
    assert check.code == 0, check.out
    registry = load_registry(None, (out,))
    assert str(registry.find("GET", "/health").successor) == "to be decided"
