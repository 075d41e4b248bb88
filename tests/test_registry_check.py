"""`apispec registry check` on the bundled registry and on copies broken on purpose.

Each broken copy changes one thing, as a hand edit would, and the check must
name the file, the line of the offending node and say what is wrong.
"""

from __future__ import annotations

from pathlib import Path

import pytest


def _edit(directory: Path, name: str, old: str, new: str) -> Path:
    path = directory / name
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


def _line_of(path: Path, needle: str, occurrence: int = 1) -> int:
    seen = 0
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if needle in line:
            seen += 1
            if seen == occurrence:
                return number
    raise AssertionError(needle)


def _errors(result) -> list[str]:
    return [
        line for line in result.out.splitlines() if ": error: " in line or "invalid YAML" in line
    ]


def test_bundled_registry_passes_with_warnings_that_name_spec_rows(cli):
    result = cli("registry", "check")
    assert result.code == 0
    assert result.out.splitlines()[-1] == "registry ok: 76 endpoints, 0 errors, 9 warnings"
    assert (
        "GET /experimental/devices/{id}/settings is deprecated and removed in the same release "
        '24.3.100, so no release offers it (spec table "Deprecated endpoints", row '
        "GET /experimental/devices/{id}/settings)" in result.out
    )
    assert "since 25.x.102 orders before 25.1.104, 25.1.108 by build number" in result.out
    assert "release 25.x.108 orders level with 25.1.108" in result.out


BROKEN = [
    pytest.param(
        "endpoints.yaml",
        "    path: /experimental/groups\n",
        "    path: /experimental/probes\n",
        "path: /experimental/probes",
        2,
        "GET /experimental/probes is defined twice (first as endpoint #1)",
        id="duplicate-method-path",
    ),
    pytest.param(
        "endpoints.yaml",
        "operation_id: list_experimental_groups",
        "operation_id: list_experimental_probes",
        "operation_id: list_experimental_probes",
        2,
        "operation id 'list_experimental_probes' is already used by GET /experimental/probes",
        id="duplicate-operation-id",
    ),
    pytest.param(
        "endpoints.yaml",
        "successor: GET /experimental/channels",
        "successor: GET /experimental/chanels",
        "successor: GET /experimental/chanels",
        1,
        "GET /channels: successor GET /experimental/chanels does not exist",
        id="successor-missing",
    ),
    pytest.param(
        "endpoints.yaml",
        "    since: 24.3.102\n",
        "    since: 26.1.100\n",
        "since: 26.1.100",
        1,
        "GET /experimental/users/{id}: since 26.1.100 is not a release the registry knows "
        "(add it to releases.yaml)",
        id="unknown-release",
    ),
    pytest.param(
        "endpoints.yaml",
        "    since: 24.3.102\n",
        "    since: 24.three.102\n",
        "since: 24.three.102",
        1,
        "endpoints/13/since: '24.three.102' does not match "
        "'^[0-9]+\\\\.([0-9]+|x)\\\\.([0-9]+|[0-9]*x+)$'",
        id="release-does-not-parse",
    ),
    pytest.param(
        "endpoints.yaml",
        "    deprecated_in: 24.3.100\n    successor: GET /experimental/channels\n",
        "    successor: GET /experimental/channels\n",
        "maturity: deprecated",
        3,
        "GET /channels is deprecated but has no deprecated_in",
        id="deprecated-without-deprecated-in",
    ),
    pytest.param(
        "endpoints.yaml",
        "    since: 24.3.100\n    deprecated_in: 24.3.100\n    successor: none planned\n    list: true",
        "    since: 25.x.122\n    deprecated_in: 24.3.100\n    successor: none planned\n    list: true",
        "deprecated_in: 24.3.100",
        2,
        "GET /experimental/feature-toggles: deprecated_in 24.3.100 orders before since 25.x.122",
        id="deprecated-before-since",
    ),
    pytest.param(
        "endpoints.yaml",
        "    deprecated_in: 24.3.100\n    successor: GET /experimental/channels\n",
        "    deprecated_in: 25.x.122\n    removed_in: 25.1.104\n    successor: GET /experimental/channels\n",
        "removed_in: 25.1.104",
        1,
        "GET /channels: removed_in 25.1.104 orders before deprecated_in 25.x.122",
        id="removed-before-deprecated",
    ),
    pytest.param(
        "endpoints.yaml",
        "successor: GET /devices/{id}\n",
        "successor: GET /experimental/devices/{id}/settings\n",
        "successor: GET /experimental/devices/{id}/settings",
        1,
        "GET /devices/{id}/overview: successor GET /experimental/devices/{id}/settings is itself "
        "removed in 24.3.100",
        id="successor-removed",
    ),
    pytest.param(
        "endpoints.yaml",
        "    successor: GET /experimental/groups\n",
        "    removed_in: 24.3.102\n    successor: GET /experimental/groups/{id}/move\n",
        "successor: GET /experimental/groups/{id}/move",
        1,
        "GET /groups: successor GET /experimental/groups/{id}/move does not exist",
        id="successor-method-wrong",
    ),
    pytest.param(
        "endpoints.yaml",
        "    successor: GET /experimental/groups\n",
        "    removed_in: 24.3.102\n    successor: GET /experimental/autodiscoveryjobs\n",
        "successor: GET /experimental/autodiscoveryjobs",
        1,
        "GET /groups: successor GET /experimental/autodiscoveryjobs arrives in 25.x.122, after "
        "this endpoint's removal in 24.3.102",
        id="successor-after-removal",
    ),
    pytest.param(
        "endpoints.yaml",
        "    tag: Probes\n    maturity: experimental\n    since: 24.3.100\n",
        "    tag: Probes\n    maturity: experimental\n    sinse: 24.3.100\n",
        "sinse: 24.3.100",
        1,
        "endpoints/0/sinse: unknown field 'sinse' (allowed: auth, creates, deprecated_in, list, "
        "maturity, method, notes, operation_id, path, provenance, query, removed_in, "
        "request_fields, response_fields, since, successor, summary, tag)",
        id="misspelt-field",
    ),
    pytest.param(
        "endpoints.yaml",
        "    path: /experimental/probes\n",
        "    path: /probes-new\n",
        "maturity: experimental",
        1,
        "GET /probes-new is experimental but has no /experimental prefix",
        id="experimental-without-prefix",
    ),
    pytest.param(
        "errors.yaml",
        "{code: BAD_GATEWAY, meaning: response from the core server was invalid, status: 502",
        "{code: BAD_GATEWAY, meaning: response from the core server was invalid, status: 599",
        "code: BAD_GATEWAY",
        1,
        "error code BAD_GATEWAY maps to HTTP 599, which the status table does not list",
        id="error-status-not-in-table",
    ),
    pytest.param(
        "filters.yaml",
        "    applies_to: [channel]",
        "    applies_to: [chanel]",
        "applies_to: [chanel]",
        1,
        "property 'primary' applies to unknown object kind 'chanel'",
        id="property-applies-to-unknown-kind",
    ),
    pytest.param(
        "endpoints.yaml",
        "    operation_id: list_experimental_groups\n",
        "    operation_id: list_experimental_groups\n    operation_id: list_groups_again\n",
        "operation_id: list_groups_again",
        1,
        "duplicate key 'operation_id'",
        id="duplicate-yaml-key",
    ),
]


@pytest.mark.parametrize(("name", "old", "new", "needle", "occurrence", "message"), BROKEN)
def test_broken_registry_names_file_line_and_problem(
    cli, registry_copy, name, old, new, needle, occurrence, message
):
    path = _edit(registry_copy, name, old, new)
    line = _line_of(path, needle, occurrence)
    result = cli("registry", "check", "--registry", str(registry_copy))
    assert result.code == 1
    assert f"{path}:{line}: error: {message}" in _errors(result), result.out
    assert "FAILED" in result.out.splitlines()[-1]


def test_successor_cycle_is_reported(cli, registry_copy):
    path = _edit(
        registry_copy,
        "endpoints.yaml",
        "    maturity: stable\n",
        "    maturity: deprecated\n    deprecated_in: 24.3.100\n"
        "    successor: GET /channels/{id}/overview\n",
    )
    result = cli("registry", "check", "--registry", str(registry_copy))
    assert result.code == 1
    line = _line_of(path, "successor: GET /channels/{id}/overview")
    assert (
        f"{path}:{line}: error: successor chain has a cycle: GET /channels/{{id}} -> "
        "GET /channels/{id}/overview -> GET /channels/{id}"
    ) in _errors(result)


def test_yaml_syntax_error_names_the_line(cli, registry_copy):
    path = _edit(
        registry_copy,
        "limits.yaml",
        "  - {name: limit, type: integer,",
        "  - {name: limit, type: [integer,",
    )
    result = cli("registry", "check", "--registry", str(registry_copy))
    assert result.code == 1
    line = _line_of(path, "{name: limit, type: [integer,")
    assert result.out.strip() == f"{path}:{line}: invalid YAML: expected ',' or ']', but got '}}'"


def test_non_utf8_registry_file_is_one_line_error(cli, registry_copy):
    (registry_copy / "limits.yaml").write_bytes(b"limits: \xff\xfe\n")
    result = cli("registry", "check", "--registry", str(registry_copy))
    assert result.code == 1
    assert (
        result.out.strip()
        == f"{registry_copy / 'limits.yaml'}: not UTF-8 text (invalid start byte at byte 8)"
    )


def test_missing_registry_directory_is_one_line_error(cli, tmp_path):
    result = cli("registry", "check", "--registry", str(tmp_path / "nope"))
    assert result.code == 2  # nothing to check is a usage error, not a finding
    assert result.err == f"apispec: error: {tmp_path / 'nope'}: registry directory does not exist\n"


def test_broken_registry_used_by_another_command_is_a_configuration_error(cli, registry_copy):
    _edit(
        registry_copy,
        "endpoints.yaml",
        "successor: GET /experimental/channels",
        "successor: GET /nowhere",
    )
    result = cli("registry", "list", "--registry", str(registry_copy))
    assert result.code == 2
    assert result.err.startswith("apispec: error: ")
    assert "successor GET /nowhere does not exist" in result.err
    assert len(result.err.strip().splitlines()) == 1
