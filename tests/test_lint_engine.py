"""The engine: rules per target release, configuration, suppressions, parallel scanning."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from apispec.lint.config import Config, load_config
from apispec.lint.discover import discover
from apispec.lint.engine import Options, lint_text
from apispec.lint.finding import Severity
from apispec.lint.pool import PARALLEL_MIN_FILES, lint_files

ENGINE = Path(__file__).parent / "fixtures" / "lint" / "engine"


def lint(name: str, *targets: str, config: Config | None = None, registry: Path | None = None):
    path = ENGINE / name
    options = Options(config or Config(), targets or ("25.x.1xx",), registry)
    return lint_text(path.read_text(), name, options)


def rows(findings) -> list[tuple[int, int, str, str | None]]:
    return [(f.line, f.column, f.code, f.target) for f in findings]


def test_each_target_gets_its_own_verdict() -> None:
    findings = lint("releases.py", "24.3.100", "25.x.122")
    assert rows(findings) == [
        (12, 33, "API001", "24.3.100"),
        (12, 33, "API001", "25.x.122"),
        (16, 34, "API003", "25.x.122"),
        (16, 34, "API005", "24.3.100"),
        (20, 33, "API002", "24.3.100"),
        (20, 33, "API002", "25.x.122"),
    ]
    by_code = {(f.code, f.target): f for f in findings}
    assert by_code["API001", "24.3.100"].message == (
        "GET /experimental/sensors/{id}/settings was removed in 24.3.100; no successor planned"
    )
    assert by_code["API005", "24.3.100"].message == (
        "POST /experimental/devices/{id}/metascan is not available yet: it appears in 25.x.112"
    )
    assert by_code["API002", "25.x.122"].message == (
        "GET /channels is deprecated since 24.3.100 (no removal release named); "
        "use GET /experimental/channels (experimental: there is no stable successor yet)"
    )
    assert by_code["API002", "25.x.122"].endpoint == ("GET", "/channels")
    assert by_code["API005", "24.3.100"].severity == Severity.ERROR


def test_deprecated_endpoint_whose_successor_is_not_yet_available(registry_copy: Path) -> None:
    endpoints = registry_copy / "endpoints.yaml"
    text = endpoints.read_text()
    entry = "    path: /experimental/channels\n    operation_id: list_experimental_channels\n"
    at = text.index(entry)
    since = text.index("since: 24.3.100", at)
    endpoints.write_text(text[:since] + "since: 25.x.122" + text[since + len("since: 24.3.100") :])
    findings = lint("releases.py", "24.3.100", "25.x.122", registry=registry_copy)
    deprecated = [f for f in findings if f.code == "API002"]
    assert [f.message for f in deprecated] == [
        "GET /channels is deprecated since 24.3.100 (no removal release named); its successor "
        "GET /experimental/channels is not yet available (it appears in 25.x.122)",
        "GET /channels is deprecated since 24.3.100 (no removal release named); "
        "use GET /experimental/channels (experimental: there is no stable successor yet)",
    ]
    assert all(f.fix is None for f in deprecated)  # no rewrite to a path one target lacks


def test_suppressions_and_unused_ones() -> None:
    assert rows(lint("suppressed.py")) == [
        (10, 31, "API002", "25.x.1xx"),
        (10, 59, "API012", None),
        (11, 64, "API012", None),
        (12, 29, "API003", "25.x.1xx"),
    ]
    messages = [f.message for f in lint("suppressed.py") if f.code == "API012"]
    assert messages == [
        "unused suppression of API003",
        "unused suppression of API002; unknown rule code API999",
    ]


def test_ignore_file_with_and_without_codes() -> None:
    assert lint("ignored.ps1") == []
    assert {f.code for f in lint("partly_ignored.sh")} == {"API002"}


def test_select_ignore_per_file_ignores_and_severity(tmp_path: Path) -> None:
    (tmp_path / ".apispec.toml").write_text(
        'ignore = ["API012"]\n'
        '[severity]\nAPI002 = "error"\n'
        '[per-file-ignores]\n"**/suppressed.py" = ["API003"]\n'
    )
    config = load_config(tmp_path / ".apispec.toml")
    config.root = ENGINE.parent.parent.parent.parent  # the tests directory
    name = "fixtures/lint/engine/suppressed.py"
    options = Options(config, ("25.x.1xx",))
    findings = lint_text((ENGINE / "suppressed.py").read_text(), str(config.root / name), options)
    assert [(f.line, f.code, f.severity) for f in findings] == [(10, "API002", Severity.ERROR)]
    config.select = {"API003"}
    assert lint("releases.py", "25.x.122", config=config) == lint(
        "releases.py", "25.x.122", config=Config(select={"API003"})
    )


def test_fingerprints_are_stable_when_lines_move() -> None:
    options = Options(Config(), ("25.x.1xx",))
    text = (ENGINE / "releases.py").read_text()
    before = {f.fingerprint for f in lint_text(text, "r.py", options)}
    moved = "# a new comment\n\n" + text.replace("import os\n", "import os\nimport sys\n")
    after = lint_text(moved, "r.py", options)
    assert {f.fingerprint for f in after} == before
    assert [f.line for f in after] != [f.line for f in lint_text(text, "r.py", options)]
    elsewhere = {f.fingerprint for f in lint_text(text, "other.py", options)}
    assert elsewhere.isdisjoint(before)


def test_parallel_scan_finds_what_the_serial_scan_finds(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    source = (ENGINE / "releases.py").read_text()
    for i in range(PARALLEL_MIN_FILES + 20):
        body = source if i % 10 == 0 else f"print({i})\n"
        (tmp_path / f"m{i:03}.py").write_text(body)
    candidates, _ = discover([Path(".")])
    options = Options(Config(), ("24.3.100",))
    serial = lint_files(candidates, options, jobs=1)
    parallel = lint_files(candidates, options, jobs=2)
    assert serial.files == parallel.files == PARALLEL_MIN_FILES + 20
    calling = len(range(0, PARALLEL_MIN_FILES + 20, 10))
    assert len(serial.findings) == 3 * calling  # API001, API005, API002 in every 10th file
    assert [(f.path, f.line, f.code) for f in parallel.findings] == [
        (f.path, f.line, f.code) for f in serial.findings
    ]


def test_binary_file_read_during_the_scan_is_skipped(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "blob.py").write_bytes(b"x = '/api/v2/devices'\0\0")
    shutil.copy(ENGINE / "releases.py", tmp_path / "ok.py")
    candidates, _ = discover([Path(".")])
    result = lint_files(candidates, Options(Config(), ("25.x.122",)))
    assert [(s.path, s.reason) for s in result.skipped] == [("blob.py", "binary")]
    assert {f.path for f in result.findings} == {"ok.py"}


@pytest.mark.parametrize("target", ["24.3.100", "25.x.1xx"])
def test_a_stable_call_is_clean_in_every_release(target: str) -> None:
    text = 'requests.get(f"{BASE}/sensors/{sid}", headers={"Authorization": "Bearer " + t})\n'
    text = 'BASE = "https://m:1616/api/v2"\n' + text
    assert lint_text(text, "ok.py", Options(Config(), (target,))) == []


def test_filter_diagnostics_point_into_url_encoded_text() -> None:
    text = (ENGINE / "encoded_filter.sh").read_text()
    findings = [f for f in lint("encoded_filter.sh") if f.code == "API006"]
    assert [(f.line, f.column, f.severity) for f in findings] == [
        (2, 96, Severity.ERROR),
        (3, 104, Severity.ERROR),
    ]
    lines = text.splitlines()
    assert lines[1][95:97] == "eq"  # the OData operator, inside `status%20eq%20down`
    assert lines[2][103:108] == "${ID}"  # the unquoted interpolation where text is required
    assert "FLT001" in findings[0].message and "FLT004" in findings[1].message


def test_an_internal_error_skips_the_file_and_the_run_goes_on(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    shutil.copy(ENGINE / "releases.py", tmp_path / "a.py")
    shutil.copy(ENGINE / "releases.py", tmp_path / "b.py")
    from apispec.lint import engine

    real = engine.extract

    def flaky(text: str, path: str, registry, helpers, lines=None):
        if path == "a.py":
            raise RecursionError("maximum recursion depth exceeded")
        return real(text, path, registry, helpers, lines)

    monkeypatch.setattr(engine, "extract", flaky)
    candidates, _ = discover([Path(".")])
    result = lint_files(candidates, Options(Config(), ("25.x.122",)), jobs=1)
    assert [(s.path, s.reason) for s in result.skipped] == [
        (
            "a.py",
            "not linted: internal error (RecursionError: maximum recursion depth exceeded); please report it",
        )
    ]
    assert {f.path for f in result.findings} == {"b.py"}


def test_suppressions_in_javascript_comments() -> None:
    assert rows(lint("suppressed.js")) == [
        (7, 43, "API002", "25.x.1xx"),
        (7, 64, "API012", None),
        (8, 69, "API012", None),
        (9, 41, "API003", "25.x.1xx"),
    ]


def test_query_header_and_credential_rules() -> None:
    findings = lint("queries.py")
    assert [(f.line, f.column, f.code, f.severity) for f in findings] == [
        (6, 43, "API010", Severity.WARNING),
        (10, 63, "API008", Severity.WARNING),
        (10, 77, "API011", Severity.WARNING),
        (17, 38, "API006", Severity.ERROR),
        (17, 53, "API011", Severity.WARNING),
        (18, 35, "API009", Severity.ERROR),
    ]
    messages = {(f.line, f.code): f.message for f in findings}
    assert messages[10, "API008"].startswith("limit=5000 is above the maximum of 3000")
    assert messages[10, "API011"].endswith("(did you mean limit?)")
    assert messages[17, "API011"].endswith("(did you mean sort_by?)")
    assert messages[17, "API006"].startswith(
        "invalid filter for GET /experimental/channels: FLT004"
    )
    assert messages[6, "API010"].startswith("bearer token written literally")
    # `parentid = "{device_id}"` (an interpolation inside quotes) and limit=3000 are fine
    assert not any(f.code == "API006" and f.line == 10 for f in findings)
