"""Overlays: merged onto the registry at load, later ones winning, checked at their own lines."""

from __future__ import annotations

import hashlib
import re
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from apispec.registry.files import default_directory
from apispec.registry.load import load_registry
from apispec.registry.model import Maturity
from apispec.support.exceptions import RegistryError

OVERLAY = """\
overlay:
  source: https://monitor.example.com/api/v2/oas/
  version: 25.2.130.1841
  release: 25.2.130
releases:
  - id: 25.2.130
endpoints:
  - method: GET
    path: /health
    operation_id: get_health
    summary: health of the server
    tag: System
    maturity: stable
    since: 25.2.130
    auth: false
    provenance: {source: https://monitor.example.com/api/v2/oas/, operation_id: getHealth, version: 25.2.130.1841}
  - method: POST
    path: /devices/{id}/pause
    operation_id: pause_device
    summary: pause a device
    tag: Devices
    maturity: stable
    query: [duration]
  - method: GET
    path: /devices
    maturity: stable
  - method: GET
    path: /experimental/devices
    query: [limit, offset, filter]
  - method: PATCH
    path: /devices/{id}
    operation_id: update_device
    summary: edit a device
    tag: Devices
    maturity: stable
properties:
  - name: status
    values: [up, down, warning, paused]
    values_complete: true
paths:
  - path: /devices/{id}
    methods: [GET, PATCH]
"""


def _overlay(directory: Path, text: str = OVERLAY) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "overlay.yaml").write_text(text)
    return directory


def _digest(directory: Path) -> str:
    digest = hashlib.sha256()
    for path in sorted(directory.iterdir()):
        digest.update(path.name.encode() + path.read_bytes())
    return digest.hexdigest()


def test_an_overlay_adds_and_patches_and_never_changes_the_bundled_registry(
    tmp_path: Path,
) -> None:
    before = _digest(default_directory())
    overlay = _overlay(tmp_path / "ov")
    registry = load_registry(None, (overlay,))
    health = registry.find("GET", "/health")
    assert health is not None and not health.auth and str(health.since) == "25.2.130"
    assert health.provenance is not None
    assert health.provenance.overlay == overlay
    assert health.provenance.operation_id == "getHealth"
    assert health.provenance.version == "25.2.130.1841"
    # a patch keeps what it does not restate, and a new maturity drops the old lifecycle
    devices = registry.find("GET", "/devices")
    assert devices is not None and devices.maturity is Maturity.STABLE
    assert devices.summary == "list of devices" and devices.tag == "Devices"
    assert devices.deprecated_in is None and devices.successor is None
    assert devices.provenance is not None and devices.provenance.source is None
    status = registry.property("status")
    assert status is not None and status.values == ("up", "down", "warning", "paused")
    assert status.values_complete and status.provenance is not None
    assert registry.property("type") is not None and not registry.property("type").values_complete
    assert "25.2.130" in [r.text for r in registry.release_list]
    assert registry.overlays[0].directory == overlay
    assert str(registry.overlays[0].release) == "25.2.130"
    # the bundled registry, loaded alone, is as the spec says
    plain = load_registry()
    assert plain.find("GET", "/health") is None
    assert plain.find("GET", "/devices").maturity is Maturity.DEPRECATED
    assert not plain.property("status").values_complete
    assert _digest(default_directory()) == before


def test_method_lists_and_query_lists_are_exposed_for_the_linter(tmp_path: Path) -> None:
    registry = load_registry(None, (_overlay(tmp_path / "ov"),))
    assert registry.methods_listed("/devices/{id}") == ("GET", "PATCH")
    assert registry.methods_authoritative("/devices/{id}")
    assert registry.methods_listed("/sensors/{id}") is None
    assert not registry.methods_authoritative("/sensors/{id}")
    pause = registry.find("POST", "/devices/{id}/pause")
    assert registry.accepts_query(pause, "duration") is True
    assert registry.accepts_query(pause, "limit") is False
    listed = registry.find("GET", "/experimental/devices")
    assert registry.accepts_query(listed, "filter") is True
    assert registry.accepts_query(listed, "sort_by") is False  # the server's list is complete
    probes = registry.find("GET", "/experimental/probes")
    assert registry.accepts_query(probes, "sort_by") is True  # the common list parameters
    assert registry.accepts_query(registry.find("GET", "/devices/{id}"), "x") is None


def test_later_overlays_win(tmp_path: Path) -> None:
    first = _overlay(tmp_path / "first")
    second = _overlay(
        tmp_path / "second",
        "overlay: {}\nproperties:\n  - name: status\n    values: [up, down, paused]\n"
        "endpoints:\n  - {method: GET, path: /health, summary: liveness probe}\n",
    )
    both = load_registry(None, (first, second))
    assert both.property("status").values == ("up", "down", "paused")
    assert both.find("GET", "/health").summary == "liveness probe"
    assert both.find("GET", "/health").provenance.overlay == second
    assert both.find("GET", "/health").operation_id == "get_health"  # kept from the first
    assert [o.directory for o in both.overlays] == [first, second]
    reversed_ = load_registry(None, (second, first))
    assert reversed_.property("status").values == ("up", "down", "warning", "paused")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "overlay: {}\nendpoints:\n  - method: GET\n    path: /devices\n    sinse: 1\n",
            r"ov/overlay.yaml:5: error: endpoints/0/sinse: unknown field 'sinse'",
        ),
        (
            "overlay: {}\nendpoints:\n  - method: GET\n    path: /health\n",
            r"ov/overlay.yaml:3: error: endpoints/0: 'operation_id' is a required property",
        ),
        (
            "overlay: {}\nendpoints:\n  - {method: GET, path: /users, maturity: stable}\n"
            "  - {method: GET, path: /users, maturity: stable}\n",
            r"ov/overlay.yaml:4: error: endpoint GET /users is listed twice in the overlay",
        ),
        (
            "overlay: {}\nendpoints:\n  - method: GET\n    path: /devices/{id}\n"
            "    maturity: deprecated\n",
            r"ov/overlay.yaml:5: error: GET /devices/\{id\} is deprecated but has no deprecated_in",
        ),
        (
            'overlay: {}\npaths:\n  - {path: "/devices/{id}", methods: [GET, PATCH]}\n',
            r"ov/overlay.yaml:3: error: /devices/\{id\} is listed with PATCH, but no endpoint "
            r"PATCH /devices/\{id\} is defined",
        ),
    ],
    ids=[
        "misspelt-field",
        "new-endpoint-incomplete",
        "listed-twice",
        "merged-result-invalid",
        "method-list-names-no-endpoint",
    ],
)
def test_check_names_the_overlay_file_and_line(
    cli, tmp_path: Path, monkeypatch, text: str, message: str
) -> None:
    overlay = _overlay(tmp_path / "ov", text)
    monkeypatch.chdir(tmp_path)
    result = cli("registry", "check", "--overlay", str(overlay))
    assert result.code == 1
    assert re.search(message, result.out), result.out
    assert "FAILED" in result.out.splitlines()[-1]
    listed = cli("registry", "list", "--overlay", str(overlay))
    assert listed.code == 2 and "Traceback" not in listed.err
    assert len(listed.err.strip().splitlines()) == 1


def test_check_reports_conflicts_with_the_base_as_warnings(cli, tmp_path: Path) -> None:
    overlay = _overlay(
        tmp_path / "ov",
        """\
overlay: {release: 25.x.122}
endpoints:
  - {method: GET, path: "/experimental/devices/{id}/settings"}
  - {method: GET, path: /devices, maturity: stable}
  - {method: GET, path: "/experimental/devices/{id}/autodiscoveryjob", since: 25.x.122}
  - {method: GET, path: /experimental/autodiscoveryjobs/history}
properties:
  - {name: status, values: [up, warning]}
paths:
  - {path: "/experimental/autodiscoveryjobs/{id}", methods: [GET]}
""",
    )
    result = cli("registry", "check", "--overlay", str(overlay))
    assert result.code == 0, result.out
    out = result.out
    assert "listed by the server (release 25.x.122) but the registry removes it in 24.3.100" in out
    assert "GET /devices is deprecated in the registry; this overlay makes it stable" in out
    assert "says it appears only in 25.x.1xx" in out
    assert "the registry also defines DELETE, PATCH there" in out
    assert "the registry lists down, which this overlay's values leave out" in out
    assert all(line.startswith(str(overlay)) or "ov/" in line for line in out.splitlines()[:-1])
    assert "endpoints.yaml" not in out  # the bundled registry's own doubts are not news here
    assert out.splitlines()[-1] == "registry with 1 overlay ok: 76 endpoints, 0 errors, 5 warnings"


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda p: p, "overlay directory does not exist"),
        (lambda p: (p.write_text("overlay: {}\n"), p)[1], "an overlay is a directory"),
        (lambda p: (p.mkdir(), p)[1], "no overlay files (*.yaml)"),
        (
            lambda p: (p.mkdir(), (p / "x.yaml").write_text("endpoints: []\n"), p)[2],
            "not an overlay: no file has an `overlay` section",
        ),
    ],
    ids=["missing", "a-file", "empty", "a-registry"],
)
def test_a_wrong_overlay_directory_is_one_line_exit_2(cli, tmp_path: Path, make, message) -> None:
    path = make(tmp_path / "ov")
    result = cli("releases", "--overlay", str(path))
    assert result.code == 2
    assert result.err.count("\n") == 1 and message in result.err, result.err


def test_a_loader_error_is_a_registry_error(tmp_path: Path) -> None:
    with pytest.raises(RegistryError, match="not an overlay"):
        (tmp_path / "reg").mkdir()
        (tmp_path / "reg" / "x.yaml").write_text("endpoints: []\n")
        load_registry(None, (tmp_path / "reg",))


def test_every_command_that_reads_the_registry_takes_overlays(cli, tmp_path: Path) -> None:
    overlay = str(_overlay(tmp_path / "ov"))
    releases = cli("releases", "--overlay", overlay)
    assert releases.code == 0 and "25.2.130" in releases.out
    listed = cli("registry", "list", "--overlay", overlay)
    assert listed.code == 0 and "/health" in listed.out and "79 endpoints" in listed.out
    shown = cli("registry", "show", "GET", "/health", "--overlay", overlay, "--format", "json")
    assert '"operation_id": "getHealth"' in shown.out and overlay in shown.out
    document = cli("openapi", "--overlay", overlay, "--release", "25.2.130", "--format", "json")
    assert document.code == 0 and '"/health"' in document.out
    tools = cli("mcp-tools", "--overlay", overlay, "--release", "25.2.130", "--format", "json")
    assert tools.code == 0 and '"get_health"' in tools.out
    log = cli("changelog", "25.x.122", "25.2.130", "--overlay", overlay)
    assert log.code == 0 and "/health" in log.out
    site = cli("docs", "--overlay", overlay, "--release", "25.2.130", "-o", str(tmp_path / "site"))
    assert site.code == 0
    assert any("/health" in p.read_text() for p in (tmp_path / "site").rglob("*.md"))
    checked = cli("filter", "check", "--overlay", overlay, "status = paused")
    assert checked.code == 0 and "0 warnings" in checked.out
    completed = cli("filter", "complete", "--overlay", overlay, "status = ")
    assert "paused" in completed.out and "warning" in completed.out
    fixed = cli("filter", "fix", "--unsafe-fixes", "--overlay", overlay, "status = Paused")
    assert (fixed.code, fixed.out) == (0, "status = paused\n")
    assert cli("filter", "fix", "--unsafe-fixes", "status = Paused").out == "status = Paused\n"


def test_the_mock_serves_an_overlay(tmp_path: Path) -> None:
    overlay = _overlay(tmp_path / "ov")
    command = [sys.executable, "-m", "apispec", "mock", "--port", "0", "--objects", "6"]
    process = subprocess.Popen(
        [*command, "--overlay", str(overlay)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        url = re.search(r"at (http://\S+/api/v2)$", process.stdout.readline().strip())
        assert url, process.stderr.read() if process.stderr else ""
        document = httpx.get(f"{url[1]}/oas/", timeout=10).json()
        assert document["info"]["version"] == "25.2.130"  # the server the overlay describes
        assert "/health" in document["paths"]
        answer = httpx.get(f"{url[1]}/health", timeout=10)
        assert answer.status_code == 500
        assert answer.json()["code"] == "METHOD_NOT_IMPLEMENTED"
        assert "the mock has no behaviour for GET /health" in answer.json()["message"]
        token = httpx.post(
            f"{url[1]}/session", json={"username": "prtgadmin", "password": "prtgadmin"}
        ).json()["token"]
        devices = httpx.get(
            f"{url[1]}/experimental/devices",
            params={"filter": "status = up"},
            headers={"Authorization": f"Bearer {token}"},
            timeout=10,
        )
        assert devices.status_code == 200
    finally:
        process.terminate()
        process.communicate(timeout=15)


LINTED = """\
import requests

BASE = "https://monitor.example.com/api/v2"


def pause(device_id):
    requests.post(f"{BASE}/devices/{device_id}/pause", params={"duration": 60, "force": 1})


def listing():
    requests.get(f"{BASE}/experimental/devices", params={"sort_by": "name"})
"""


def test_lint_checks_query_parameters_against_the_overlay(cli, tmp_path: Path) -> None:
    overlay = _overlay(tmp_path / "ov")
    (tmp_path / "client.py").write_text(LINTED)
    plain = cli("lint", str(tmp_path / "client.py"), "--format", "json")
    assert '"API004"' in plain.out and "force" not in plain.out
    result = cli("lint", "--overlay", str(overlay), str(tmp_path / "client.py"), "--format", "json")
    assert '"API004"' not in result.out
    assert "unknown query parameter 'force' for POST /devices/{id}/pause" in result.out
    assert "'duration'" not in result.out
    assert "unknown query parameter 'sort_by' for GET /experimental/devices" in result.out
    assert '"25.2.130"' in result.out  # the release the overlay describes is the target


def test_config_overlays_come_first_and_the_command_line_wins(cli, tmp_path: Path, monkeypatch):
    _overlay(tmp_path / "ov")
    _overlay(
        tmp_path / "later",
        "overlay: {}\nendpoints:\n"
        '  - {method: POST, path: "/devices/{id}/pause", query: [duration, force]}\n',
    )
    (tmp_path / "pyproject.toml").write_text('[tool.apispec]\noverlays = ["ov"]\n')
    (tmp_path / "client.py").write_text(LINTED)
    monkeypatch.chdir(tmp_path)
    configured = cli("lint", "client.py", "--format", "json")
    assert '"API004"' not in configured.out and "'force'" in configured.out
    both = cli("lint", "client.py", "--overlay", "later", "--format", "json")
    assert "'force'" not in both.out
    (tmp_path / "pyproject.toml").write_text('[tool.apispec]\noverlays = "ov"\n')
    wrong = cli("lint", "client.py")
    assert wrong.code == 2 and "overlays: expected a list of strings" in wrong.err
