"""Matching written paths to the registry's templates (issue 5, "Matching")."""

from __future__ import annotations

import pytest

from apispec.lint.config import Config
from apispec.lint.engine import Options, lint_text
from apispec.lint.finding import Severity
from apispec.lint.match import match


@pytest.mark.parametrize(
    ("written", "template"),
    [
        ("/sensors/alarms", "/sensors/alarms"),  # a literal segment wins over {id}
        ("/sensors/2048", "/sensors/{id}"),  # {id} matches a number
        ("/sensors/{sid}", "/sensors/{id}"),  # ... and an interpolation
        ("/sensors/$SensorId", "/sensors/{id}"),
        ("/sensors/status", None),  # ... but never a word
        ("/api/v2/sensors/12/", "/sensors/{id}"),  # /api/v2 prefix and trailing slash
        ("https://mon:1616/api/v2/sensors/12?limit=5#x", "/sensors/{id}"),  # URL and query
        ("/experimental/timeseries/2048/live", "/experimental/timeseries/{id}/{type}"),
        ("/experimental/devices", "/experimental/devices"),
        ("/health", None),
    ],
)
def test_templates(registry, written: str, template: str | None) -> None:
    assert match(registry, written).template == template


def test_method_is_checked_against_the_path(registry) -> None:
    allowed = match(registry, "/experimental/sensors/1", "PATCH")
    assert allowed.endpoint is not None and allowed.endpoint.key == (
        "PATCH",
        "/experimental/sensors/{id}",
    )
    found = match(registry, "/experimental/sensors/1", "POST")
    assert found.matched and found.endpoint is None
    unknown = match(registry, "/experimental/sensors/1")  # the method is not known
    assert unknown.matched and unknown.method is None and unknown.endpoint is None


def test_close_registry_path_is_a_likely_typo(registry) -> None:
    typo = match(registry, "/experimental/devcies")
    assert typo.likely_typo and typo.suggestions[0] == "/experimental/devices"
    assert not match(registry, "/health").likely_typo


def test_unknown_path_is_a_warning_when_a_typo_else_info(registry) -> None:
    base = 'BASE = "https://mon.example.com:1616/api/v2"\n'
    text = base + 'requests.get(f"{BASE}/experimental/devcies")\nrequests.get(f"{BASE}/health")\n'
    options = Options(Config(), (registry.newest_release.text,))
    found = [(f.line, f.code, f.severity) for f in lint_text(text, "x.py", options)]
    assert found == [(2, "API004", Severity.WARNING), (3, "API004", Severity.INFO)]
    (typo,) = [f for f in lint_text(text, "x.py", options) if f.line == 2]
    assert typo.message.endswith("(did you mean /experimental/devices?)")
