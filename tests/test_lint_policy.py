"""The rule policy where the spec is partial (issue 12 points 4, 11-13).

The spec lists only some enumeration values and only some stable endpoints, so
what it does not list is reported softly until an overlay says more; a path
whose collection is a variable is reported by what every candidate shares.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from apispec.lint.config import Config
from apispec.lint.engine import Options, lint_text
from apispec.lint.finding import Severity

HEAD = 'import requests\nBASE = "https://mon.example.com:1616/api/v2"\n'

OVERLAY = """\
overlay:
  source: https://mon.example.com/api/v2/oas/
properties:
  - name: status
    values: [up, down, warning, paused]
    values_complete: true
paths:
  - path: /devices/{id}
    methods: [GET]
"""


def _lint(body: str, overlay: Path | None = None) -> list[tuple[int, str, Severity, str]]:
    options = Options(Config(), ("25.x.122",), None, (overlay,) if overlay else ())
    return [
        (f.line, f.code, f.severity, f.message) for f in lint_text(HEAD + body, "x.py", options)
    ]


@pytest.fixture
def overlay(tmp_path: Path) -> Path:
    directory = tmp_path / "server"
    directory.mkdir()
    (directory / "overlay.yaml").write_text(OVERLAY)
    return directory


def _only(found: list[tuple[int, str, Severity, str]], code: str) -> tuple[Severity, str]:
    (finding,) = [(severity, message) for _, c, severity, message in found if c == code]
    return finding


def test_an_unknown_enumeration_value_alone_is_info_unless_the_list_is_complete(
    overlay: Path,
) -> None:
    body = 'requests.get(f"{BASE}/experimental/devices", params={"filter": "status = frozen"})\n'
    severity, message = _only(_lint(body), "API006")
    assert severity is Severity.INFO and "FLT005" in message
    severity, message = _only(_lint(body, overlay), "API006")  # the overlay lists them all
    assert severity is Severity.WARNING and "FLT005" in message
    other = 'requests.get(f"{BASE}/experimental/devices", params={"filter": "status eq down"})\n'
    assert _only(_lint(other), "API006")[0] is Severity.ERROR  # other codes keep theirs


def test_a_method_missing_on_a_stable_path_is_a_warning_unless_an_overlay_lists_its_methods(
    overlay: Path,
) -> None:
    stable = 'requests.patch(f"{BASE}/devices/{dev}", json={})\n'
    severity, message = _only(_lint(stable), "API007")
    assert severity is Severity.WARNING and "PATCH" in message and "/devices/{id}" in message
    assert _only(_lint(stable, overlay), "API007")[0] is Severity.ERROR
    experimental = 'requests.post(f"{BASE}/experimental/sensors/{sid}", json={})\n'
    assert _only(_lint(experimental), "API007")[0] is Severity.ERROR


@pytest.mark.parametrize(
    ("path", "suggestion"),
    [
        ("/experimental/devcies", "/experimental/devices"),  # a close edit
        ("/experimental/devices/{dev}/metascans", "/experimental/devices/{id}/metascan"),
        ("/experimental/devices/template", "/experimental/devices/templates"),
        ("/groups/{gid}/devices", "/experimental/groups/{id}/devices"),  # prefix left out
        ("/experimental/schemas/{kind}", "/schemas/{kind}"),  # prefix added
        ("/experimental/users/{uid}/apikeys", None),  # no likely typo: not users/{id}
        ("/experimental/libraryitems", None),
        ("/health", None),
    ],
)
def test_did_you_mean_only_for_likely_typos(path: str, suggestion: str | None) -> None:
    severity, message = _only(_lint(f'requests.get(f"{{BASE}}{path}")\n'), "API004")
    assert "{}" not in message
    if suggestion is None:
        assert severity is Severity.INFO and "did you mean" not in message
    else:
        assert severity is Severity.WARNING and f"did you mean {suggestion}" in message


def test_unknown_path_messages_name_parameters_as_templates_do() -> None:
    (_, message) = _only(_lint('requests.post(f"{BASE}/devices/{dev}/pause")\n'), "API004")
    assert message.startswith("POST /devices/{id}/pause is not in the registry")


def test_a_variable_collection_reports_what_every_candidate_shares() -> None:
    body = "\n".join(
        [
            'requests.post(f"{BASE}/experimental/{kind}/{oid}/move")',  # all experimental
            'requests.get(f"{BASE}/experimental/{kind}/{oid}")',  # users vs timeseries: differ
            'requests.get(f"{BASE}/{kind}/{oid}/overview")',  # all deprecated
            'requests.put(f"{BASE}/experimental/{kind}/{oid}/move")',  # no candidate has PUT
            'requests.get(f"{BASE}/{kind}/{oid}")',  # stable and deprecated: differ
            "",
        ]
    )
    found = {(line, code): (severity, message) for line, code, severity, message in _lint(body)}
    assert set(found) == {(3, "API003"), (5, "API002"), (6, "API007")}
    assert "POST /experimental/{collection}/{id}/move is experimental" in found[3, "API003"][1]
    assert "devices, groups, probes, sensors" in found[3, "API003"][1]
    assert "GET /{collection}/{id}/overview is deprecated" in found[5, "API002"][1]
    assert "use GET" not in found[5, "API002"][1]  # each candidate has its own successor


def test_a_variable_collection_with_a_recommended_successor_among_its_candidates(
    registry_copy: Path,
) -> None:
    """API003 leaves alone an endpoint that API002 recommends: when one candidate is such a
    successor, the candidates disagree and nothing is reported (the linter crashed here)."""
    endpoints = registry_copy / "endpoints.yaml"
    text = endpoints.read_text()
    at = text.index("successor: GET /devices/{id}", text.index("path: /devices/{id}/overview"))
    moved = "successor: POST /experimental/devices/{id}/move"
    endpoints.write_text(text[:at] + moved + text[at + len("successor: GET /devices/{id}") :])
    options = Options(Config(), ("25.x.122",), registry_copy)
    body = 'requests.post(f"{BASE}/experimental/{kind}/{oid}/move")\n'
    assert lint_text(HEAD + body, "x.py", options) == []
