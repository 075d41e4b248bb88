"""`apispec lint` end to end: exit codes, stdin, outputs, --since, --registry, --fix."""

from __future__ import annotations

import io
import json
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ENGINE = Path(__file__).parent / "fixtures" / "lint" / "engine"
CLEAN = 'BASE = "https://m:1616/api/v2"\nrequests.get(f"{BASE}/sensors/{sid}")\n'
WARNING_ONLY = 'BASE = "https://m:1616/api/v2"\nrequests.get(f"{BASE}/sensors/alarms")\n'


@pytest.fixture
def work(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_exit_0_when_clean(cli, work: Path) -> None:
    (work / "ok.py").write_text(CLEAN)
    result = cli("lint")
    assert result.code == 0
    assert result.out == (
        "No findings.\nChecked 1 file against 25.x.122 (default: the newest concrete release).\n"
    )


def test_warnings_fail_unless_the_fail_level_is_raised(cli, work: Path) -> None:
    (work / "exp.py").write_text(WARNING_ONLY)
    assert cli("lint", "exp.py").code == 1  # the default fail level is warning
    assert cli("lint", "--fail-on", "error", "exp.py").code == 0
    (work / "pyproject.toml").write_text('[tool.apispec]\nfail-on = "error"\n')
    assert cli("lint", "exp.py").code == 0
    assert cli("lint", "--fail-on", "warning", "exp.py").code == 1


def test_exit_1_on_errors_unless_fail_on_never(cli, work: Path) -> None:
    shutil.copy(ENGINE / "releases.py", work)
    result = cli("lint", "--target", "24.3.100")
    assert result.code == 1
    assert (
        "releases.py:12:33: API001 [error] GET /experimental/sensors/{id}/settings was removed"
        in result.out
    )
    assert cli("lint", "--target", "24.3.100", "--fail-on", "never").code == 0


@pytest.mark.parametrize(
    ("args", "config", "message"),
    [
        (["--target", "24.3.999"], None, "unknown release '24.3.999'"),
        (["--select", "API999"], None, "--select: unknown rule 'API999'"),
        (
            [],
            "[tool.apispec]\ntargets = ['24.3.100']\n",
            "unknown key 'targets' in [tool.apispec] (did you mean target?)",
        ),
        (["--max-file-size", "big"], None, "--max-file-size: expected a size"),
        (
            [],
            "[tool.apispec]\ntarget = '24.3.99'\n",
            "pyproject.toml: target: unknown release '24.3.99'",
        ),
        (["--registry", "nowhere"], None, "--registry: not a directory: nowhere"),
        (["--baseline", "none.json"], None, "cannot read baseline none.json"),
        (["--stdin-filename", "x.py", "a.py"], None, "--stdin-filename reads standard input"),
    ],
)
def test_exit_2_with_a_one_line_error(cli, work: Path, args, config, message) -> None:
    (work / "a.py").write_text(CLEAN)
    if config:
        (work / "pyproject.toml").write_text(config)
    result = cli("lint", *args)
    assert result.code == 2
    assert result.out == ""
    assert result.err.startswith("apispec: error: ") and message in result.err
    assert result.err.count("\n") == 1


def test_broken_registry_is_a_one_line_error(cli, work: Path, registry_copy: Path) -> None:
    endpoints = registry_copy / "endpoints.yaml"
    endpoints.write_text(endpoints.read_text().replace("maturity: stable", "maturity: solid", 1))
    (work / "a.py").write_text(CLEAN)
    result = cli("lint", "--registry", str(registry_copy))
    assert result.code == 2
    assert result.err.startswith("apispec: error: ") and "endpoints.yaml:" in result.err
    assert result.err.count("\n") == 1


NEW_ENDPOINT = """  - method: GET
    path: /experimental/probes/{id}/health
    operation_id: get_experimental_probe_health
    summary: probe health
    tag: Probes
    maturity: experimental
    since: 26.1.100
"""


def test_newer_registry_from_registry_dir(cli, work: Path, registry_copy: Path) -> None:
    releases = registry_copy / "releases.yaml"
    releases.write_text(releases.read_text() + "  - id: 26.1.100\n")
    endpoints = registry_copy / "endpoints.yaml"
    endpoints.write_text(
        endpoints.read_text().replace("endpoints:\n", "endpoints:\n" + NEW_ENDPOINT, 1)
    )
    (work / "health.py").write_text(
        'BASE = "https://m:1616/api/v2"\nrequests.get(f"{BASE}/experimental/probes/{pid}/health")\n'
    )
    bundled = cli("lint", "--format", "json", "health.py")
    assert [f["code"] for f in json.loads(bundled.out)["findings"]] == ["API004"]
    newer = cli(
        "lint",
        "--registry",
        str(registry_copy),
        "--target",
        "25.x.122",
        "--target",
        "26.1.100",
        "--format",
        "json",
        "health.py",
    )
    found = [(f["code"], f["target"]) for f in json.loads(newer.out)["findings"]]
    assert found == [("API003", "26.1.100"), ("API005", "25.x.122")]
    assert newer.code == 1


def test_stdin_with_a_file_name(cli, work: Path, monkeypatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO((ENGINE / "releases.py").read_text()))
    result = cli("lint", "--stdin-filename", "pkg/client.py", "--target", "24.3.100", "-")
    assert result.code == 1
    assert result.out.startswith("pkg/client.py:12:33: API001 ")


def test_output_file_and_statistics(cli, work: Path) -> None:
    shutil.copy(ENGINE / "releases.py", work)
    result = cli("lint", "--format", "json", "--output", "report.json", "--statistics")
    assert result.code == 1
    assert result.out.startswith("Findings per rule:\n")
    assert "GET /channels" in result.out
    document = json.loads((work / "report.json").read_text())
    assert document["summary"]["by_rule"] == {"API001": 1, "API002": 1, "API003": 1}
    assert {f["path"] for f in document["findings"]} == {"releases.py"}


def test_every_format_runs_from_the_cli(cli, work: Path) -> None:
    shutil.copy(ENGINE / "releases.py", work)
    outputs = {
        fmt: cli("lint", "--format", fmt).out for fmt in ("sarif", "github", "gitlab", "junit")
    }
    assert json.loads(outputs["sarif"])["version"] == "2.1.0"
    assert outputs["github"].startswith("::error file=releases.py,line=12,col=33,")
    assert json.loads(outputs["gitlab"])[0]["location"]["path"] == "releases.py"
    assert outputs["junit"].startswith('<?xml version="1.0" encoding="UTF-8"?>\n<testsuites')


def git(*args: str) -> None:
    subprocess.run(["git", *args], check=True, capture_output=True)


def test_since_reports_only_changed_lines(cli, work: Path) -> None:
    git("init", "-q")
    git("config", "user.email", "t@example.com")
    git("config", "user.name", "t")
    shutil.copy(ENGINE / "releases.py", work)
    git("add", "releases.py")
    git("commit", "-qm", "old")
    text = (work / "releases.py").read_text()
    (work / "releases.py").write_text(text.replace("/channels", "/groups"))
    (work / "new.py").write_text(WARNING_ONLY)
    result = cli("lint", "--since", "HEAD", "--format", "json")
    found = [(f["path"], f["line"], f["code"]) for f in json.loads(result.out)["findings"]]
    assert found == [("new.py", 2, "API002"), ("releases.py", 20, "API002")]
    bad = cli("lint", "--since", "no-such-ref")
    assert bad.code == 2 and "unknown git revision 'no-such-ref'" in bad.err


def test_since_outside_a_git_repository(cli, work: Path) -> None:
    (work / "a.py").write_text(CLEAN)
    result = cli("lint", "--since", "HEAD")
    assert result.code == 2 and result.err.startswith("apispec: error: --since: ")


def test_fix_round_trip_leaves_only_unfixable_rows(cli, work: Path) -> None:
    shutil.copy(ENGINE / "fixable.py", work)
    diff = cli("lint", "--diff", "fixable.py")
    assert (
        diff.code == 1
        and '+    return requests.get(f"{BASE}/sensors/{sensor_id}", headers=AUTH)' in diff.out
    )
    assert (work / "fixable.py").read_text() == (ENGINE / "fixable.py").read_text()
    safe = cli("lint", "--fix", "--select", "API002", "fixable.py")
    listed = [line for line in safe.out.splitlines() if ": API002 " in line]
    assert len(listed) == 3 and "GET /devices is deprecated" in listed[0]  # unsafe: left alone
    assert "Fixed 2 findings." in safe.out
    cli("lint", "--fix", "--unsafe-fixes", "fixable.py")
    after = cli("lint", "--select", "API002", "--format", "json", "fixable.py")
    remaining = [f["endpoint"]["path"] for f in json.loads(after.out)["findings"]]
    assert remaining == ["/devices/{id}/clone", "/objects"]  # to be decided, none planned
    fixed = (work / "fixable.py").read_text()
    assert 'requests.get(BASE + "/groups/" + str(group_id), headers=AUTH)' in fixed
    assert "requests.get(f'{BASE}/experimental/devices', headers=AUTH" in fixed
    assert cli("lint", "--diff", "fixable.py").code == 0


def test_fix_on_stdin_prints_the_fixed_source(cli, work: Path, monkeypatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO((ENGINE / "fixable.py").read_text()))
    result = cli("lint", "--fix", "--stdin-filename", "f.py")
    assert result.code == 0
    assert 'f"{BASE}/sensors/{sensor_id}", headers' in result.out
    assert "f'{BASE}/devices'" in result.out


def test_fix_keeps_a_bom_and_leaves_other_encodings_alone(cli, work: Path) -> None:
    source = (ENGINE / "fixable.py").read_text()
    (work / "bom.py").write_bytes(b"\xef\xbb\xbf" + source.encode())
    latin = source.replace("Deprecated calls", "Appels d\xe9pr\xe9ci\xe9s")
    (work / "latin1.py").write_bytes(latin.encode("latin-1"))
    cli("lint", "--fix", "bom.py", "latin1.py")
    fixed = (work / "bom.py").read_bytes()
    assert fixed.startswith(b"\xef\xbb\xbf") and b'f"{BASE}/sensors/{sensor_id}", headers' in fixed
    assert (work / "latin1.py").read_bytes() == latin.encode("latin-1")


def run_apispec(*args: str) -> subprocess.CompletedProcess[str]:
    """The command in a real process, so a traceback could not hide; the code under test."""
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parent.parent)}
    command = [sys.executable, "-m", "apispec", *args]
    return subprocess.run(command, capture_output=True, text=True, check=False, env=env)


def test_bad_input_is_skipped_or_one_line_never_a_traceback(work: Path) -> None:
    (work / "logo.png").write_bytes(b"\x89PNG\r\n\x1a\n\0\0\0IHDR")
    (work / "latin1.ps1").write_bytes(
        b"# caf\xe9\nInvoke-RestMethod 'https://prtg:1616/api/v2/sensors/1/overview'\n"
    )
    (work / "dump.sql").write_text("-- prtg\n" + "x" * 4096 + "\n")
    (work / "loop").symlink_to(".")
    result = run_apispec("lint", "--max-file-size", "2KB", "--fail-on", "never", ".")
    assert result.returncode == 0 and result.stderr == ""
    assert result.stdout.splitlines()[0].startswith("latin1.ps1:2:44: API002 ")
    assert result.stdout.endswith(
        "Not listed: 1 binary file skipped (--show-skipped lists them).\n"
        "Skipped 2 files:\n"
        "  dump.sql: larger than 2 KB (4 KB)\n"
        "  loop: symlink loop\n"
    )
    (work / "pyproject.toml").write_text("[tool.apispec\n")
    for args in (["lint", "."], ["lint", "--config", "nope.toml"], ["lint", "missing/"]):
        broken = run_apispec(*args)
        assert broken.returncode == 2 and broken.stdout == ""
        assert broken.stderr.count("\n") == 1 and broken.stderr.startswith("apispec: error: ")


def test_pre_commit_hooks_run_as_pre_commit_runs_them(work: Path) -> None:
    """pre-commit calls `entry` with the staged file names appended (checked by hand with
    `pre-commit try-repo`, which needs a network install; see docs/linter.md)."""
    hooks = yaml.safe_load((Path(__file__).parent.parent / ".pre-commit-hooks.yaml").read_text())
    assert [h["id"] for h in hooks] == ["apispec-lint", "apispec-lint-fix"]
    client = work / "client.py"
    notes = work / "notes.txt"
    notes.write_text("nothing to see\n")
    outcomes = []
    for hook in hooks:
        assert hook["language"] == "python" and hook["types"] == ["text"]
        client.write_text(
            'BASE = "https://prtg:1616/api/v2"\n'
            'requests.get(f"{BASE}/sensors/{sid}/overview")\n'
            'requests.get(f"{BASE}/experimental/sensors/{sid}/settings")\n'
        )
        program, *args = shlex.split(hook["entry"])
        assert program == "apispec"
        outcomes.append(run_apispec(*args, "client.py", "notes.txt"))
    lint, fix = outcomes
    assert lint.returncode == 1
    assert [line[:36] for line in lint.stdout.splitlines() if ": API" in line] == [
        "client.py:2:22: API002 [warning] [*]",
        "client.py:3:22: API001 [error] GET /",
    ]
    assert fix.returncode == 1 and "Fixed 1 finding." in fix.stdout  # the removed call stays
    assert 'requests.get(f"{BASE}/sensors/{sid}")\n' in client.read_text()
