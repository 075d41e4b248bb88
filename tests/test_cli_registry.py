"""`apispec registry list|show`, `apispec releases` and `--version` as a user runs them."""

from __future__ import annotations

import json
import subprocess
import sys


def test_version_names_package_and_the_default_release(cli):
    result = cli("--version")
    assert result.code == 0
    assert result.out.startswith("apispec ")
    assert result.out.rstrip().endswith(
        "(default release 25.x.122: the newest concrete release; it also knows 25.x.1xx, "
        "used only when named)"
    )


def test_python_dash_m_is_the_same_command():
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "apispec",
            "registry",
            "show",
            "GET",
            "/devices/{id}",
            "--format",
            "json",
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert json.loads(out)["operation_id"] == "get_device"


def test_list_json_keys_and_successor_strings(cli, registry):
    result = cli("registry", "list", "--format", "json")
    assert result.code == 0
    rows = json.loads(result.out)
    assert len(rows) == len(registry.endpoints) == 76
    required = {
        "method",
        "path",
        "maturity",
        "since",
        "deprecated_in",
        "removed_in",
        "successor",
        "operation_id",
        "tag",
        "summary",
        "auth",
        "notes",
    }
    assert all(required <= row.keys() for row in rows)
    by_key = {(r["method"], r["path"]): r for r in rows}
    assert by_key[("GET", "/channels")]["successor"] == "GET /experimental/channels"
    assert by_key[("GET", "/users")]["successor"] == "to be decided"
    assert by_key[("GET", "/objects")]["successor"] == "none planned"
    assert by_key[("GET", "/experimental/devices")]["successor"] is None
    assert by_key[("GET", "/settings/public")]["auth"] is False


def test_list_filters_by_release_maturity_and_tag(cli, registry):
    rows = json.loads(cli("registry", "list", "--release", "24.3.100", "--format", "json").out)
    first = registry.first_release
    assert {(r["method"], r["path"]) for r in rows} == {e.key for e in registry.endpoints_in(first)}
    assert ("GET", "/experimental/users") not in {(r["method"], r["path"]) for r in rows}
    rows = json.loads(
        cli(
            "registry", "list", "--maturity", "deprecated", "--tag", "Sensors", "--format", "json"
        ).out
    )
    assert {r["path"] for r in rows} == {
        "/sensors",
        "/sensors/{id}/overview",
        "/sensors/{id}/clone",
        "/sensors/alarms",
        "/experimental/sensors/{id}/settings",
    }


def test_list_table_is_readable_and_counted(cli):
    result = cli("registry", "list", "--maturity", "stable")
    assert result.code == 0
    lines = result.out.splitlines()
    assert lines[0].split() == [
        "METHOD",
        "PATH",
        "MATURITY",
        "SINCE",
        "DEPRECATED",
        "REMOVED",
        "SUCCESSOR",
    ]
    assert lines[-1] == "8 endpoints"


def test_show_lists_releases_where_available(cli):
    result = cli(
        "registry", "show", "post", "/experimental/devices/{id}/sensor", "--format", "json"
    )
    data = json.loads(result.out)
    assert data["creates"] is True
    assert data["available_in"] == ["25.x.110", "25.x.112", "25.x.122", "25.x.1xx"]


def test_unknown_release_path_method_and_tag_are_one_line_errors_with_exit_2(cli):
    cases = [
        (
            ("registry", "list", "--release", "25.x.12"),
            "unknown release '25.x.12' (did you mean 25.x.122?)",
        ),
        (("registry", "list", "--release", "latest"), "invalid release 'latest'"),
        (
            ("registry", "show", "GET", "/experimental/devcies"),
            "unknown path '/experimental/devcies' (did you mean /experimental/devices?)",
        ),
        (("registry", "show", "GRT", "/devices"), "unknown method 'GRT' (did you mean GET?)"),
        (
            ("registry", "show", "POST", "/experimental/sensors/{id}"),
            "POST is not defined for /experimental/sensors/{id} (defined: DELETE, PATCH)",
        ),
        (("registry", "list", "--tag", "Device"), "unknown tag 'Device' (did you mean Devices?)"),
    ]
    for args, message in cases:
        result = cli(*args)
        assert result.code == 2, args
        assert result.err.startswith(f"apispec: error: {message}"), result.err
        assert result.err.count("\n") == 1


def test_bad_option_is_usage_error_exit_2(cli):
    result = cli("registry", "list", "--format", "xml")
    assert result.code == 2
    assert "invalid choice: 'xml'" in result.err


def test_releases_in_order_with_counts(cli, registry):
    result = cli("releases", "--format", "json")
    rows = json.loads(result.out)
    assert [r["release"] for r in rows] == [r.text for r in registry.release_list]
    assert rows[-1] == {
        "release": "25.x.1xx",
        "placeholder": True,
        "available": 74,
        "added": 2,
        "notes": [
            "Placeholder for an unreleased build; orders after every concrete build of major 25."
        ],
    }


def test_show_takes_the_endpoint_as_one_argument_or_two(cli):
    """`registry show 'GET /devices/{id}'` is how the linter and the docs write it."""
    two = cli("registry", "show", "GET", "/devices/{id}")
    one = cli("registry", "show", "GET /devices/{id}")
    assert one.code == two.code == 0 and one.out == two.out
    assert one.out.startswith("method           GET\npath             /devices/{id}\n")
    alone = cli("registry", "show", "GET")
    assert alone.code == 2 and alone.err == (
        "apispec: error: name the path too, as in GET /devices/{id}, /devices/{id}, "
        "/api/v2/devices/42 or https://host/api/v2/devices/42 (got 'GET')\n"
    )


def test_tag_names_in_any_case_and_singular_summaries(cli, tmp_path):
    upper = cli("registry", "list", "--tag", "DEVICES")
    lower = cli("registry", "list", "--tag", "devices")
    assert upper.code == lower.code == 0 and upper.out == lower.out
    assert upper.out.endswith("\n11 endpoints\n")
    one = cli("registry", "list", "--tag", "license")
    assert one.out.endswith("\n1 endpoint\n")
    assert cli("registry", "check").out.splitlines()[-1] == (
        "registry ok: 76 endpoints, 0 errors, 9 warnings"
    )
