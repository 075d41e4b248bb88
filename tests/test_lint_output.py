"""What `apispec lint` prints, through the installed command in a real process (issue 13).

Exact lines of the `full` and `concise` formats with NO_COLOR=1 and with
FORCE_COLOR=1, several targets, `--upgrade-from`, the summary, colour and the
elapsed time on a terminal, and the machine formats' lifecycle fields.
"""

from __future__ import annotations

import csv
import io
import json
import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest

CLIENT = """\
import requests

BASE = "https://prtg.example.com:1616/api/v2"


def sensor(sid):
    return requests.get(f"{BASE}/sensors/{sid}/overview")


def settings(sid):
    return requests.get(f"{BASE}/experimental/sensors/{sid}/settings")


def types(parent):
    return requests.get(f"{BASE}/experimental/objects/{parent}/types")
"""

FULL = """\
client.py:7:33: API002 [warning] [*] GET /sensors/{id}/overview is deprecated since 24.3.100 (no removal release named); use GET /sensors/{id}
  |
7 |     return requests.get(f"{BASE}/sensors/{sid}/overview")
  |                                 ^^^^^^^^^^^^^^^^^^^^^^^
  = successor: GET /sensors/{id}
  = fix [*]: replace with GET /sensors/{id} (safe: apispec lint --fix)
  = help: apispec rule API002

client.py:11:33: API001 [error] GET /experimental/sensors/{id}/settings was removed in 24.3.100; no successor planned
   |
11 |     return requests.get(f"{BASE}/experimental/sensors/{sid}/settings")
   |                                 ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
   = successor: none planned
   = help: apispec rule API001

client.py:15:33: API003 [info] GET /experimental/objects/{parent}/types is experimental and may change incompatibly in any release
   |
15 |     return requests.get(f"{BASE}/experimental/objects/{parent}/types")
   |                                 ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
   = help: apispec rule API003

Found 3 findings (1 error, 1 warning, 1 info) in 1 file:
  API001      1  removed-endpoint
  API002      1  deprecated-endpoint
  API003      1  experimental-endpoint
[*] 1 finding fixable with --fix.
Checked 1 file against 25.x.122 (default: the newest concrete release).
"""

CONCISE = """\
client.py:7:33: API002 [warning] [*] GET /sensors/{id}/overview is deprecated since 24.3.100 (no removal release named); use GET /sensors/{id}
client.py:11:33: API001 [error] GET /experimental/sensors/{id}/settings was removed in 24.3.100; no successor planned
client.py:15:33: API003 [info] GET /experimental/objects/{parent}/types is experimental and may change incompatibly in any release

Found 3 findings (1 error, 1 warning, 1 info) in 1 file:
  API001      1  removed-endpoint
  API002      1  deprecated-endpoint
  API003      1  experimental-endpoint
[*] 1 finding fixable with --fix.
Checked 1 file against 25.x.122 (default: the newest concrete release).
"""

B, R, Y, C, BL = "\x1b[1m", "\x1b[0m", "\x1b[33m", "\x1b[36m", "\x1b[34m"
FULL_COLOR_FIRST = [
    f"{B}client.py{R}:7:33: \x1b[1;33mAPI002{R} {Y}[warning]{R} {C}[*]{R} GET /sensors/{{id}}/overview "
    "is deprecated since 24.3.100 (no removal release named); use GET /sensors/{id}",
    f"  {BL}|{R}",
    f'{BL}7{R} {BL}|{R}     return requests.get(f"{{BASE}}/sensors/{{sid}}/overview")',
    f"  {BL}|{R}                                 \x1b[1;33m{'^' * 23}{R}",
    f"  {BL}={R} successor: GET /sensors/{{id}}",
    f"  {BL}={R} fix {C}[*]{R}: replace with GET /sensors/{{id}} (safe: apispec lint --fix)",
    f"  {BL}={R} help: apispec rule API002",
    "",
]
COLOR_SUMMARY = [
    f"{B}Found 3 findings{R} (1 error, 1 warning, 1 info) in 1 file:",
    "  API001      1  removed-endpoint",
    "  API002      1  deprecated-endpoint",
    "  API003      1  experimental-endpoint",
    f"{C}[*]{R} 1 finding fixable with --fix.",
    "Checked 1 file against 25.x.122 (default: the newest concrete release).",
]


def apispec(
    *args: str, cwd: Path, stdin: str | None = None, **env: str
) -> subprocess.CompletedProcess[str]:
    environment = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
    return subprocess.run(
        [sys.executable, "-m", "apispec", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=60,
        input=stdin,
        env={**environment, **env},
        stdin=None if stdin is not None else subprocess.DEVNULL,
    )


@pytest.fixture
def client(tmp_path: Path) -> Path:
    (tmp_path / "client.py").write_text(CLIENT)
    return tmp_path


@pytest.mark.parametrize(("fmt", "expected"), [([], FULL), (["--format", "concise"], CONCISE)])
def test_full_and_concise_without_colour(client: Path, fmt: list[str], expected: str) -> None:
    done = apispec("lint", *fmt, "client.py", cwd=client, NO_COLOR="1")
    assert (done.returncode, done.stdout, done.stderr) == (1, expected, "")
    # FORCE_COLOR loses to NO_COLOR: a person's opt-out beats a machine's setting
    both = apispec("lint", *fmt, "client.py", cwd=client, NO_COLOR="1", FORCE_COLOR="1")
    assert both.stdout == expected


def test_full_with_forced_colour(client: Path) -> None:
    done = apispec("lint", "client.py", cwd=client, FORCE_COLOR="1")
    lines = done.stdout.splitlines()
    assert lines[:8] == FULL_COLOR_FIRST
    assert lines[-6:] == COLOR_SUMMARY
    assert lines[8].startswith(f"{B}client.py{R}:11:33: \x1b[1;31mAPI001{R} \x1b[31m[error]{R} GET")
    assert lines[15].startswith(f"{B}client.py{R}:15:33: \x1b[1;36mAPI003{R} {C}[info]{R} GET")


def test_concise_with_forced_colour(client: Path) -> None:
    done = apispec("lint", "--format", "concise", "client.py", cwd=client, FORCE_COLOR="1")
    lines = done.stdout.splitlines()
    assert lines[0] == FULL_COLOR_FIRST[0]
    assert lines[2] == (
        f"{B}client.py{R}:15:33: \x1b[1;36mAPI003{R} {C}[info]{R} GET "
        "/experimental/objects/{parent}/types is experimental and may change incompatibly in "
        "any release"
    )
    assert lines[-6:] == COLOR_SUMMARY


def test_no_colour_in_a_pipe_or_a_file_even_on_request(client: Path) -> None:
    done = apispec("lint", "client.py", cwd=client)  # a pipe: no colour, no clock
    assert done.stdout == FULL
    forced = apispec("lint", "-o", "report.txt", "client.py", cwd=client, FORCE_COLOR="1")
    assert forced.stdout == "" and (client / "report.txt").read_text() == FULL


def test_the_output_format_key_picks_concise(client: Path) -> None:
    (client / ".apispec.toml").write_text('output-format = "concise"\n')
    assert apispec("lint", "client.py", cwd=client).stdout == CONCISE
    assert apispec("lint", "--format", "full", "client.py", cwd=client).stdout == FULL
    (client / ".apispec.toml").write_text('output-format = "consise"\n')
    bad = apispec("lint", "client.py", cwd=client)
    assert bad.returncode == 2 and bad.stdout == ""
    assert bad.stderr == (
        f"apispec: error: {client / '.apispec.toml'}: output-format: unknown format 'consise' "
        "(did you mean concise?); use one of full, concise, text, json, sarif, github, gitlab, "
        "junit, markdown, csv\n"
    )


def test_quiet_prints_the_findings_only(client: Path) -> None:
    done = apispec("lint", "--quiet", "--format", "concise", "client.py", cwd=client)
    assert done.stdout == "".join(CONCISE.partition("\n\n")[0] + "\n")
    assert done.returncode == 1


def test_on_a_terminal_colour_and_the_elapsed_time(client: Path) -> None:
    """stdout a pseudo-terminal: colour without FORCE_COLOR, and the time the run took."""
    leader, follower = pty.openpty()
    environment = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
    environment["TERM"] = "xterm"
    process = subprocess.Popen(
        [sys.executable, "-m", "apispec", "lint", "--format", "concise", "client.py"],
        cwd=client,
        stdout=follower,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        env=environment,
    )
    os.close(follower)
    chunks = []
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # the terminal is gone with the process
            break
        if not chunk:
            break
        chunks.append(chunk)
    process.wait(timeout=60)
    os.close(leader)
    out = b"".join(chunks).decode().replace("\r\n", "\n")
    assert process.returncode == 1
    assert out.startswith(FULL_COLOR_FIRST[0] + "\n")
    last = out.splitlines()[-1]
    assert last.startswith(
        "Checked 1 file against 25.x.122 (default: the newest concrete release) in "
    )
    assert last.endswith(" s.")


def test_several_targets_print_each_finding_once(client: Path) -> None:
    done = apispec(
        "lint", "--format", "concise", "--target", "24.3.100,25.x.122", "client.py", cwd=client
    )
    assert done.stdout.splitlines()[:4] == [
        "client.py:7:33: API002 [warning] [*] GET /sensors/{id}/overview is deprecated since "
        "24.3.100 (no removal release named); use GET /sensors/{id} [24.3.100, 25.x.122]",
        "client.py:11:33: API001 [error] GET /experimental/sensors/{id}/settings was removed in "
        "24.3.100; no successor planned [24.3.100, 25.x.122]",
        "client.py:15:33: API003 [info] GET /experimental/objects/{parent}/types is experimental "
        "and may change incompatibly in any release [25.x.122]",
        "client.py:15:33: API005 [error] GET /experimental/objects/{parent}/types is not "
        "available yet: it appears in 25.x.102 [24.3.100]",
    ]
    assert "Checked 1 file against 24.3.100, 25.x.122." in done.stdout
    repeated = apispec(
        "lint",
        "--format",
        "concise",
        "--target",
        "24.3.100",
        "--target",
        "25.x.122",
        "client.py",
        cwd=client,
    )
    assert repeated.stdout == done.stdout
    empty = apispec("lint", "--target", ",", "client.py", cwd=client)
    assert (empty.returncode, empty.stderr) == (
        2,
        "apispec: error: argument --target: expected a release such as 25.x.122 "
        "(see `apispec lint --help`)\n",
    )
    # the machine formats keep a record (and a fingerprint) per target
    report = json.loads(
        apispec(
            "lint", "--format", "json", "--target", "24.3.100,25.x.122", "client.py", cwd=client
        ).stdout
    )
    assert [(f["code"], f["target"]) for f in report["findings"]] == [
        ("API002", "24.3.100"),
        ("API002", "25.x.122"),
        ("API001", "24.3.100"),
        ("API001", "25.x.122"),
        ("API003", "25.x.122"),
        ("API005", "24.3.100"),
    ]


def test_upgrade_from_shows_only_what_changes(client: Path) -> None:
    done = apispec(
        "lint", "--format", "concise", "--upgrade-from", "24.3.100", "client.py", cwd=client
    )
    assert done.returncode == 0  # nothing breaks: one call starts to work
    assert done.stdout == (
        "client.py:15:33: API005 [info] GET /experimental/objects/{parent}/types becomes "
        "available in 25.x.102, on the way to 25.x.122; it is experimental\n"
        "\n"
        "Found 1 finding (1 info) in 1 file:\n"
        "  API005      1  not-yet-available\n"
        "Checked 1 file for an upgrade from 24.3.100 to 25.x.122 (default: the newest concrete "
        "release).\n"
    )
    backwards = apispec("lint", "--upgrade-from", "25.x.122", "--target", "24.3.100", cwd=client)
    assert backwards.returncode == 2
    assert backwards.stderr == (
        "apispec: error: --upgrade-from 25.x.122 must be a release older than the target 24.3.100\n"
    )
    several = apispec(
        "lint", "--upgrade-from", "24.3.100", "--target", "25.x.110,25.x.122", cwd=client
    )
    assert several.returncode == 2 and "give one target" in several.stderr


def test_upgrade_from_reports_newly_removed_and_newly_deprecated(
    client: Path, registry_copy: Path
) -> None:
    """A registry where GET /sensors/{id}/overview goes in 25.x.110 and GET /probes/{id}
    is deprecated in 25.x.106: an upgrade from 25.1.104 to 25.x.122 breaks the first call
    and deprecates the second; the release-independent findings are not repeated."""
    endpoints = registry_copy / "endpoints.yaml"
    text = endpoints.read_text()
    at = text.index("    path: /sensors/{id}/overview\n")
    removal = text.index("successor:", at)
    text = text[:removal] + "removed_in: 25.x.110\n    " + text[removal:]
    at = text.index("    path: /probes/{id}\n")
    maturity = text.index("maturity: stable", at)
    text = (
        text[:maturity]
        + "maturity: deprecated\n    deprecated_in: 25.x.106\n    successor: none planned"
        + text[maturity + len("maturity: stable") :]
    )
    endpoints.write_text(text)
    (client / "probe.py").write_text(
        'BASE = "https://prtg.example.com:1616/api/v2"\n'
        'requests.get(f"{BASE}/probes/{pid}")\n'
        'requests.get(f"{BASE}/experimental/devices", params={"filter": "status eq down"})\n'
    )
    args = ["--registry", str(registry_copy), "--format", "concise", "--quiet"]
    upgrade = ["--upgrade-from", "25.1.104", "--target", "25.x.122", "client.py", "probe.py"]
    done = apispec("lint", *args, *upgrade, cwd=client)
    assert done.stdout.splitlines() == [
        "client.py:7:33: API001 [error] GET /sensors/{id}/overview was removed in 25.x.110; "
        "use GET /sensors/{id}",
        "probe.py:2:22: API002 [warning] GET /probes/{id} is deprecated since 25.x.106 "
        "(no removal release named); no successor planned",
    ]
    assert done.returncode == 1 and done.stderr == ""  # a call breaks: an error


def test_json_and_sarif_carry_the_lifecycle_facts(client: Path) -> None:
    report = json.loads(apispec("lint", "--format", "json", "client.py", cwd=client).stdout)
    assert report["findings"][0]["endpoint"] == {
        "method": "GET",
        "path": "/sensors/{id}/overview",
        "maturity": "deprecated",
        "since": None,
        "deprecated_in": "24.3.100",
        "removed_in": None,
        "successor": "GET /sensors/{id}",
    }
    assert report["findings"][1]["endpoint"]["removed_in"] == "24.3.100"
    assert report["findings"][2]["endpoint"]["maturity"] == "experimental"
    assert report["findings"][2]["endpoint"]["since"] == "25.x.102"
    assert report["summary"]["target_default"] == "the newest concrete release"
    sarif = json.loads(apispec("lint", "--format", "sarif", "client.py", cwd=client).stdout)
    first = sarif["runs"][0]["results"][0]["properties"]
    assert first["endpoint"] == report["findings"][0]["endpoint"]
    assert first["target"] == "25.x.122"


def test_markdown_for_a_pull_request_comment(client: Path) -> None:
    from markdown_it import MarkdownIt

    out = apispec("lint", "--format", "markdown", "client.py", cwd=client).stdout
    assert out.splitlines()[:6] == [
        "## apispec lint",
        "",
        "**3 findings** (1 error, 1 warning, 1 info) in 1 file; 1 file checked against "
        "25.x.122 (default: the newest concrete release).",
        "",
        "| Severity | Rule | Location | Message | Fix |",
        "|---|---|---|---|---|",
    ]
    tokens = MarkdownIt("commonmark").enable("table").parse(out)
    cells = [t.content for t in tokens if t.type == "inline"]
    assert "client.py:7:33" in cells and "safe" in cells
    assert any(c.startswith("[API001 removed-endpoint](https://") for c in cells)


def test_csv_for_a_spreadsheet(client: Path) -> None:
    out = apispec("lint", "--format", "csv", "client.py", cwd=client).stdout
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [(r["line"], r["code"], r["severity"], r["fix"]) for r in rows] == [
        ("7", "API002", "warning", "safe"),
        ("11", "API001", "error", ""),
        ("15", "API003", "info", ""),
    ]
    assert rows[0]["endpoint"] == "/sensors/{id}/overview" and rows[0]["method"] == "GET"
    assert rows[0]["targets"] == "25.x.122"


def test_csv_cells_never_start_a_formula(tmp_path: Path) -> None:
    (tmp_path / "=HYPERLINK(1).py").write_text(CLIENT)
    out = apispec("lint", "--format", "csv", ".", cwd=tmp_path).stdout
    rows = list(csv.DictReader(io.StringIO(out)))
    assert {r["path"] for r in rows} == {"'=HYPERLINK(1).py"}
