"""`apispec traffic` on logs of every format: exact counts per endpoint and client.

The same day of traffic (tests/runtime_logs.py) is written in each format the
command reads; each must give the same counts, with the malformed line counted
and reported, and the format recognised from the content alone.
"""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from apispec.commands.traffic import FORMATS_IN
from apispec.runtime.readers import FORMATS
from tests import runtime_logs as logs

API_REQUESTS = 11  # of the 13 in TRAFFIC, two ask for /index.html


def counts(report: dict) -> dict[tuple[str, str, str], int]:
    return {
        (e["method"], e["endpoint"], c["client"]): c["requests"]
        for e in report["endpoints"]
        for c in e["clients"]
    }


def traffic(cli, *args: str) -> tuple[int, dict, str]:
    result = cli("traffic", *args, "--format", "json")
    return result.code, json.loads(result.out), result.err


@pytest.mark.parametrize(
    ("name", "write", "args", "client", "described"),
    [
        ("access.log", logs.combined, (), "agent", "access log (combined or common format)"),
        ("common.log", logs.common, (), "address", "access log (combined or common format)"),
        ("u_ex241010.log", logs.iis, (), "agent", "IIS W3C extended log"),
        ("kong.jsonl", logs.kong, (), "agent", "JSON lines"),
        ("traefik.json", logs.traefik, (), "agent", "JSON lines"),
        (
            "export.jsonl",
            logs.own_fields,
            ("--field", "method=verb", "--field", "path=where", "--field", "status=code",
             "--client-field", "who"),
            "agent",
            "JSON lines",
        ),
        ("session.har", logs.har, (), "agent", "HAR"),
        ("mock.log", logs.mock_log, (), "none", "apispec mock --log output"),
        ("proxy.log", logs.proxy_log, (), "agent", "apispec proxy log"),
    ],
    ids=["combined", "common", "iis", "kong", "traefik", "own-fields", "har", "mock", "proxy"],
)  # fmt: skip
def test_every_format_gives_the_same_counts(
    cli, tmp_path: Path, name: str, write: Callable[[], str], args, client: str, described: str
) -> None:
    log = tmp_path / name
    log.write_text(write(), encoding="utf-8")
    code, report, err = traffic(cli, str(log), *args, "--fail-on", "never")
    assert code == 0, err
    assert counts(report) == logs.expected(client)
    summary = report["summary"]
    assert summary["inputs"][0]["format"] == described
    assert (summary["requests"], summary["api_requests"]) == (13, API_REQUESTS)
    malformed = 0 if name == "session.har" else 1
    assert summary["malformed_lines"] == malformed
    assert err.count("skipped:") == malformed


def test_findings_carry_the_linters_codes_and_messages(cli, tmp_path: Path) -> None:
    log = tmp_path / "access.log"
    log.write_text(logs.combined())
    code, report, _ = traffic(cli, str(log), "--target", "25.x.122")
    by_endpoint = {(e["method"], e["endpoint"]): e for e in report["endpoints"]}
    overview = by_endpoint[("GET", "/sensors/{id}/overview")]
    assert overview["maturity"] == "deprecated"
    assert overview["successor"] == "GET /sensors/{id}"
    assert [f["code"] for f in overview["findings"]] == ["API002"]
    assert [f["code"] for f in by_endpoint[("POST", "/experimental/sensors/{id}")]["findings"]] == [
        "API007"
    ]
    assert [f["code"] for f in by_endpoint[("GET", "/nowhere/{id}")]["findings"]] == ["API004"]
    devices = by_endpoint[("GET", "/devices")]["clients"][0]["findings"]
    assert devices == [
        {
            "code": "API011",
            "severity": "warning",
            "message": "unknown query parameter 'take' for GET /devices (did you mean limit?)",
            "target": None,
            "requests": 2,
        }
    ]
    sensors = by_endpoint[("GET", "/experimental/sensors")]["clients"][0]["findings"]
    assert [f["code"] for f in sensors] == ["API006"]
    # the same call in code gets the same message from the linter
    script = tmp_path / "client.py"
    script.write_text(
        'import requests\nrequests.get("https://prtg:1616/api/v2/devices", params={"take": 5})\n'
    )
    lint = cli("lint", str(script), "--format", "json", "--target", "25.x.122", "--no-cache")
    messages = {f["code"]: f["message"] for f in json.loads(lint.out)["findings"]}
    assert messages["API011"] == devices[0]["message"]
    assert messages["API002"] == by_endpoint[("GET", "/devices")]["findings"][0]["message"]
    # API006 is an error: the default --fail-on fails the run
    assert code == 1


def test_times_statuses_and_request_ids(cli, tmp_path: Path) -> None:
    log = tmp_path / "traefik.json"
    log.write_text(logs.traefik())
    _, report, _ = traffic(cli, str(log), "--fail-on", "never")
    overview = next(e for e in report["endpoints"] if e["endpoint"] == "/sensors/{id}/overview")
    backup = next(c for c in overview["clients"] if c["client"] == "backup.ps1/1.0")
    assert backup["first_seen"] == "2024-10-10T11:56:36Z"
    assert backup["last_seen"] == "2024-10-10T11:58:36Z"
    assert backup["statuses"] == {"200": 3}
    assert backup["example_request_id"] == "rid-0001"


def test_minified_har_and_several_inputs_at_once(cli, tmp_path: Path) -> None:
    (tmp_path / "a.har").write_text(logs.har(indent=None))
    (tmp_path / "b.log").write_text(logs.combined())
    _, report, _ = traffic(
        cli, str(tmp_path / "a.har"), str(tmp_path / "b.log"), "--fail-on", "never"
    )
    assert counts(report) == {key: 2 * n for key, n in logs.expected().items()}
    assert [i["format"] for i in report["summary"]["inputs"]] == [
        "HAR",
        "access log (combined or common format)",
    ]


def test_gzip_is_read_whatever_the_name(cli, tmp_path: Path) -> None:
    log = tmp_path / "access.log.1"  # logrotate's name: the content says gzip
    log.write_bytes(gzip.compress(logs.combined().encode()))
    _, report, _ = traffic(cli, str(log), "--fail-on", "never")
    assert counts(report) == logs.expected()


def test_a_truncated_gzip_counts_what_it_holds_then_fails(cli, tmp_path: Path) -> None:
    lines = [logs.combined().splitlines()[0]] * 20000
    whole = gzip.compress(("\n".join(lines) + "\n").encode())
    log = tmp_path / "access.log.gz"
    log.write_bytes(whole[: len(whole) // 2])
    result = cli("traffic", str(log), "--format", "json")
    assert result.code == 2
    assert result.err.endswith(
        f"apispec: error: {log}: the gzip stream ends early (truncated); the lines before the "
        "cut were counted\n"
    )
    report = json.loads(result.out)
    read = report["summary"]["requests"]
    assert 0 < read < 20000
    assert report["summary"]["inputs"][0]["damaged"]


def test_standard_input_by_subprocess(tmp_path: Path) -> None:
    run = subprocess.run(
        [sys.executable, "-m", "apispec", "traffic", "-", "--format", "json", "--fail-on", "never"],
        input=gzip.compress(logs.iis().encode()),
        capture_output=True,
        timeout=60,
    )
    assert run.returncode == 0, run.stderr
    assert counts(json.loads(run.stdout)) == logs.expected()


def test_format_in_overrides_recognition(cli, tmp_path: Path) -> None:
    log = tmp_path / "access.log"
    log.write_text(logs.combined())
    _, report, err = traffic(cli, str(log), "--format-in", "jsonl", "--fail-on", "never")
    assert report["summary"]["malformed_lines"] == 14
    assert "access.log:1: skipped: not a JSON object" in err
    assert "4 more malformed lines skipped" in err  # ten shown, the rest counted


def test_client_field_address(cli, tmp_path: Path) -> None:
    log = tmp_path / "access.log"
    log.write_text(logs.combined())
    _, report, _ = traffic(cli, str(log), "--client-field", "address", "--fail-on", "never")
    assert counts(report) == logs.expected("address")


def test_an_unknown_content_is_a_usage_error(cli, tmp_path: Path) -> None:
    log = tmp_path / "notes.txt"
    log.write_text("dear diary\n")
    result = cli("traffic", str(log))
    assert (result.code, result.out) == (2, "")
    assert result.err == (
        f"apispec: error: {log}: cannot tell the log format from its first line; name it with "
        f"--format-in ({', '.join(FORMATS)})\n"
    )


def test_the_command_line_lists_every_reader() -> None:
    assert sorted(FORMATS_IN) == sorted(FORMATS)


@pytest.mark.parametrize("fmt", ["full", "markdown", "md", "csv", "prometheus"])
def test_every_output_format(cli, tmp_path: Path, fmt: str) -> None:
    log = tmp_path / "access.log"
    log.write_text(logs.combined())
    out = tmp_path / "report.out"
    result = cli("traffic", str(log), "--format", fmt, "-o", str(out), "--fail-on", "never")
    assert (result.code, result.out) == (0, "")
    text = out.read_text()
    if fmt == "full":
        assert "API002 deprecated-endpoint: 2 endpoints, 6 requests" in text
        assert "GET /sensors/{id}" in text  # the successor column
    elif fmt in ("markdown", "md"):
        assert "### API002 deprecated-endpoint: 2 endpoints, 6 requests" in text
    elif fmt == "csv":
        rows = text.splitlines()
        assert rows[0].startswith("method,endpoint,maturity,verdict,client,requests")
        assert "GET,/sensors/{id}/overview,deprecated,API002,backup.ps1/1.0,3," in text
        assert len(rows) == 1 + len(logs.expected())
    else:
        assert (
            'apispec_traffic_requests_total{method="GET",endpoint="/sensors/{id}/overview",'
            'maturity="deprecated"} 4'
        ) in text
        assert 'endpoint="unknown"' in text and "/nowhere" not in text
        assert "backup.ps1" not in text  # clients are never labels
        assert "apispec_traffic_not_api_requests_total 2" in text


def test_output_dash_is_standard_output(cli, tmp_path: Path) -> None:
    log = tmp_path / "access.log"
    log.write_text(logs.combined())
    result = cli("traffic", str(log), "--format", "csv", "-o", "-", "--fail-on", "never")
    assert result.code == 0 and result.out.startswith("method,endpoint,")


def _imported(*args: str, cwd: Path) -> set[str]:
    """Every module a fresh `python -m apispec ARGS` imports."""
    run = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "apispec", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=120,
        check=False,
    )
    assert run.returncode in (0, 1), run.stderr[-500:]
    return {
        line.rsplit("|", 1)[1].strip()
        for line in run.stderr.splitlines()
        if line.startswith("import time:") and "|" in line
    }


def test_start_up_stays_light(tmp_path: Path) -> None:
    """The proxy's HTTP client and servers load only for `apispec proxy`; other commands
    load nothing of the runtime package."""
    (tmp_path / "access.log").write_text(logs.combined())
    heavy = ("httpx", "httpcore", "uvicorn", "starlette", "apispec.mock")
    traffic = _imported("traffic", "access.log", "-q", "--fail-on", "never", cwd=tmp_path)
    assert "apispec.runtime.readers.access_log" in traffic
    assert {n for n in traffic if n.split(".")[0] in heavy or n.startswith("apispec.mock")} == set()
    for args in (("filter", "check", "status = up"), ("lint", "--fail-on", "never", ".")):
        names = _imported(*args, cwd=tmp_path)
        assert {n for n in names if n.startswith(("apispec.runtime", "httpx"))} == set()


def test_a_progress_line_on_a_terminal_only() -> None:
    """Standard error a terminal: `Reading: N MB (R MB/s)` is redrawn, then cleared before
    the report; a pipe gets none of it."""
    import os
    import pty
    import time

    line = logs.combined().splitlines()[0] + "\n"
    batch = (line * 8192).encode()

    def run(terminal: bool) -> bytes:
        leader, follower = pty.openpty() if terminal else (None, None)
        process = subprocess.Popen(
            [sys.executable, "-m", "apispec", "traffic", "-", "--format", "json"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=follower if terminal else subprocess.PIPE,
            env={**os.environ, "TERM": "xterm"},
        )
        assert process.stdin is not None
        for _ in range(12):  # past the half second the line waits before it shows
            process.stdin.write(batch)
            process.stdin.flush()
            time.sleep(0.1)
        process.stdin.close()
        out = process.stdout.read() if process.stdout else b""
        process.wait(timeout=60)
        assert json.loads(out)["summary"]["requests"] == 12 * 8192
        if not terminal:
            return process.stderr.read() if process.stderr else b""
        assert follower is not None and leader is not None
        os.close(follower)
        drawn = b""
        while True:
            try:
                chunk = os.read(leader, 65536)
            except OSError:
                break
            if not chunk:
                break
            drawn += chunk
        os.close(leader)
        return drawn

    drawn = run(terminal=True)
    assert b"\r\x1b[2KReading: " in drawn and b" MB (" in drawn
    assert drawn.endswith(b"\r\x1b[2K")  # cleared before the report
    assert b"Reading" not in run(terminal=False)
