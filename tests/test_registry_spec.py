"""The registry against the spec's own tables: every row, every lifecycle fact.

The spec is read here, at test time only (never at run time), so that a typo in
the hand-written registry cannot hide: each table row must appear in the
registry exactly as the spec gives it.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

SPEC = Path(__file__).resolve().parents[2] / "shared" / "spec" / "monitoring-api-v2.md"

pytestmark = pytest.mark.skipif(
    not SPEC.exists() and not os.environ.get("CI"),
    reason="the spec (../shared/spec) is not beside this checkout",
)


def _table(section: str) -> list[list[str]]:
    text = SPEC.read_text(encoding="utf-8")
    body = text.split(f"### {section}", 1)[1]
    rows = []
    for line in body.splitlines()[1:]:
        if line.startswith("#"):
            break
        if line.startswith("|") and not line.startswith("|---"):
            rows.append([c.strip() for c in line.strip().strip("|").split("|")])
    return rows[1:]  # without the header row


def _strip(cell: str) -> str:
    return cell.strip("`")


@pytest.fixture(scope="module")
def listed(cli_module) -> dict[tuple[str, str], dict]:
    return {(e["method"], e["path"]): e for e in cli_module}


@pytest.fixture(scope="module")
def cli_module() -> list[dict]:
    import subprocess
    import sys

    out = subprocess.run(
        [sys.executable, "-m", "apispec", "registry", "list", "--format", "json"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return json.loads(out)


def test_registry_list_has_the_76_distinct_endpoints_of_the_three_tables(listed):
    experimental = {
        (r[0], r[1]) for r in _table("Experimental endpoints (path prefix /experimental)")
    }
    stable = {(r[0], r[1]) for r in _table("Stable endpoints (no prefix)")}
    deprecated = {tuple(r[0].split(" ", 1)) for r in _table("Deprecated endpoints")}
    spec = experimental | stable | deprecated
    assert len(spec) == 76
    assert set(listed) == spec


def test_experimental_rows_keep_since_and_maturity(listed):
    deprecated = {tuple(r[0].split(" ", 1)) for r in _table("Deprecated endpoints")}
    for method, path, _purpose, since in _table(
        "Experimental endpoints (path prefix /experimental)"
    ):
        entry = listed[(method, path)]
        first = re.match(r"\S+", since).group(0)
        assert entry["since"] == first, (method, path)
        if "also listed with" in since:
            other = re.search(r"also listed with (\S+?)\)", since).group(1)
            assert any(other in note for note in entry["notes"]), (method, path)
        expected = "deprecated" if (method, path) in deprecated else "experimental"
        assert entry["maturity"] == expected, (method, path)


def test_stable_rows_are_stable_and_auth_follows_the_spec(listed):
    for method, path in _table("Stable endpoints (no prefix)"):
        entry = listed[(method, path)]
        assert entry["maturity"] == "stable"
        assert entry["auth"] is (
            (method, path) not in {("POST", "/session"), ("GET", "/settings/public")}
        )


def test_deprecated_rows_keep_release_removal_and_successor(listed):
    for method_path, _feature, removed, successor in _table("Deprecated endpoints"):
        method, path = method_path.split(" ", 1)
        entry = listed[(method, path)]
        assert entry["maturity"] == "deprecated"
        assert entry["deprecated_in"] == "24.3.100"
        assert entry["removed_in"] == (None if removed == "no version" else removed)
        assert entry["successor"] == _strip(successor)


def test_only_the_spec_creating_rows_create(listed):
    creating = {
        (r[0], r[1])
        for r in _table("Experimental endpoints (path prefix /experimental)")
        if r[2].startswith("Creates")
    }
    assert {k for k, e in listed.items() if e["creates"]} == creating


def test_operation_ids_are_unique_snake_case(listed):
    ids = [e["operation_id"] for e in listed.values()]
    assert len(set(ids)) == len(ids) == 76
    assert all(re.fullmatch(r"[a-z][a-z0-9]*(_[a-z0-9]+)*", i) and len(i) <= 64 for i in ids)


def test_error_codes_and_statuses_match_the_spec(registry):
    spec_codes = {r[0].strip("`"): r[1] for r in _table("Error codes")}
    assert {e.code: e.meaning for e in registry.error_codes} == spec_codes
    statuses = {int(r[0]) for r in _table("HTTP status codes")}
    assert {s.status for s in registry.http_statuses} == statuses
    stated = {
        "NOT_FOUND": 404,
        "SERVICE_UNAVAILABLE": 503,
        "GATEWAY_TIMEOUT": 504,
        "BAD_GATEWAY": 502,
        "INVALID_FILTER": 400,
    }
    assert {e.code: e.status for e in registry.error_codes if e.status_source == "stated"} == stated


def test_filter_properties_match_the_spec_table(registry):
    rows = _table("Filter grammar")
    props = {
        r[0]: r
        for r in rows
        if "." in r[0]
        or (
            r[0].islower()
            and len(r) == 3
            and r[0] not in {"=", "!=", "<", "<=", ">", ">=", "in", "contains", "matches"}
        )
    }
    assert len(props) == len(registry.properties) == 13
    for name, _type, operators in props.values():
        prop = registry.property(name)
        assert prop is not None, name
        spec_ops = [o.strip() for o in operators.split("(")[0].split(",")]
        assert list(prop.operators) == spec_ops, name
