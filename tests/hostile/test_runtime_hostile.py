"""Hostile inputs for `apispec traffic` and `apispec proxy` (issue 25).

Logs come from anywhere: binary junk, pipes, devices, lines of megabytes,
nesting without end, gzip bombs, control characters, a different client or
path on every line. Upstreams hang, drip or answer garbage, and clients send
what they like. Each run has a timeout, ends with a documented exit code and
one line per problem, never a traceback, and memory stays bounded.
"""

from __future__ import annotations

import gzip
import json
import os
import re
import socket
import subprocess
import sys
import threading
import zlib
from pathlib import Path

import httpx
import pytest

from tests.hostile.helpers import apispec_run, clean
from tests.runtime_logs import combined
from tests.runtime_servers import mock, proxy, raw_upstream

PYTHON = sys.executable
LINE = '192.0.2.7 - - [10/Oct/2024:13:55:36 +0200] "GET {path} HTTP/1.1" 200 5 "-" "{agent}"\n'


def _stdin_run(data: bytes, *args: str, timeout: float = 120) -> tuple[int, str, str]:
    done = subprocess.run(
        [PYTHON, "-m", "apispec", "traffic", "-", *args],
        input=data,
        capture_output=True,
        timeout=timeout,
        env={**os.environ, "APISPEC_NO_CACHE": "1"},
    )
    out, err = done.stdout.decode(), done.stderr.decode()
    assert "Traceback" not in out + err, err
    return done.returncode, out, err


PEAK = r"""
import resource, subprocess, sys
child = subprocess.run(sys.argv[1:], stdin=sys.stdin, capture_output=True)
sys.stdout.write(str(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss) + "\n")
sys.stdout.write(str(child.returncode) + "\n" + child.stdout.decode() + child.stderr.decode())
"""


def _peak_kb(data: bytes, *args: str) -> tuple[int, int, str]:
    """The peak resident memory of `apispec traffic - ARGS` reading `data`: (KB, exit, output)."""
    done = subprocess.run(
        [PYTHON, "-c", PEAK, PYTHON, "-m", "apispec", "traffic", "-", *args],
        input=data,
        capture_output=True,
        timeout=300,
    )
    peak, code, output = done.stdout.decode().split("\n", 2)
    assert "Traceback" not in output, output
    return int(peak), int(code), output


# -- traffic: what is named ------------------------------------------------------------


def test_a_fifo_is_refused_not_read(tmp_path: Path, fifo) -> None:
    pipe = fifo(tmp_path / "access.log")
    result = clean(apispec_run("traffic", str(pipe), timeout=30), 2)
    assert result.err == (
        f"apispec: error: {pipe}: not a regular file (a named pipe); pipe a stream to "
        "`apispec traffic -`\n"
    )


@pytest.mark.parametrize(
    ("name", "message"),
    [
        (
            "/dev/zero",
            "not a regular file (a character device); pipe a stream to `apispec traffic -`",
        ),
        ("/", "is a directory, expected a log file"),
        ("/no/such/log", "cannot read: no such file"),
    ],
)
def test_devices_directories_and_missing_files(name: str, message: str) -> None:
    result = clean(apispec_run("traffic", name, timeout=30), 2)
    assert result.err == f"apispec: error: {name}: {message}\n"


@pytest.mark.parametrize(
    ("args", "shown"),
    [
        (["--format-in", "syslog"], "argument --format-in: invalid choice: 'syslog'"),
        (["--field", "verb"], "expected NAME=KEY (such as path=request.uri), not 'verb'"),
        (["--field", "methd=verb"], "no value is called 'methd' (did you mean method?)"),
        (["--target", "99.x.1"], "99.x.1"),
        (["--calls", "/dev/zero"], "not a regular file (a character device)"),
        (["--client-field", "cs(X-Id)"], "an access log names clients by user-agent"),
    ],
    ids=["format-in", "field-shape", "field-name", "release", "calls-device", "client-field"],
)
def test_bad_options_are_one_line(tmp_path: Path, args: list[str], shown: str) -> None:
    log = tmp_path / "access.log"
    log.write_text(combined())
    result = clean(apispec_run("traffic", str(log), *args, timeout=60), 2)
    assert len(result.err.splitlines()) == 1 and result.err.startswith("apispec: error: ")
    assert shown in result.err


# -- traffic: what the content holds ------------------------------------------------------


def test_binary_junk() -> None:
    junk = os.urandom(1 << 20)
    code, _, err = _stdin_run(junk)
    assert code == 2 and "cannot tell the log format" in err and len(err.splitlines()) == 1
    code, out, err = _stdin_run(junk, "--format-in", "combined", "--format", "json")
    assert code == 0
    assert json.loads(out)["summary"]["requests"] == 0


def test_a_line_of_megabytes_is_reported_not_kept() -> None:
    data = LINE.format(path="/api/v2/sensors", agent="x" * (5 << 20)).encode() + combined().encode()
    code, out, err = _stdin_run(
        data, "--format-in", "combined", "--format", "json", "--fail-on", "never"
    )
    assert code == 0
    assert "standard input:1: skipped: line longer than 1 MB" in err
    assert json.loads(out)["summary"]["requests"] == 13


def test_nesting_without_end_in_json_lines_and_har() -> None:
    deep = b"{" + b'"a":[' * 200_000 + b"\n"
    code, out, err = _stdin_run(deep + b'{"method": "GET", "path": "/api/v2/devices"}\n',
                                "--format-in", "jsonl", "--format", "json", "--fail-on", "never")  # fmt: skip
    assert code == 0 and json.loads(out)["summary"]["api_requests"] == 1
    assert "standard input:1: skipped: not a JSON object" in err
    har = b'{"log": {"entries": [' + b"[" * 200_000
    code, _, err = _stdin_run(har)
    assert code == 2
    assert err == (
        "apispec: error: standard input: not a HAR document (nested deeper than 10000 levels)\n"
    )


def test_a_truncated_har_counts_the_entries_before_the_cut(tmp_path: Path) -> None:
    from tests.runtime_logs import har

    text = har()
    cut = text[: text.index('"startedDateTime"', len(text) // 2)]
    log = tmp_path / "cut.har"
    log.write_text(cut)
    result = clean(apispec_run("traffic", str(log), "--format", "json", timeout=60), 2)
    assert result.err.endswith(
        f"apispec: error: {log}: the HAR document ends early (truncated); the entries before "
        "the cut were counted\n"
    )
    assert 0 < json.loads(result.out)["summary"]["requests"] < 13


def test_a_gzip_bomb_costs_time_not_memory() -> None:
    squeezer = zlib.compressobj(9, zlib.DEFLATED, 31)
    zeros = bytes(1 << 20)
    bomb = b"".join(squeezer.compress(zeros) for _ in range(512)) + squeezer.flush()
    assert len(bomb) < 1 << 20  # 512 MB inflated
    baseline, _, _ = _peak_kb(gzip.compress(combined().encode()), "--fail-on", "never")
    peak, code, output = _peak_kb(bomb, "--format-in", "combined", "--format", "json")
    assert code == 0, output
    assert "line longer than 1 MB" in output
    assert (peak - baseline) / 1024 < 48, (baseline, peak)


def test_a_huge_answer_body_in_a_har_costs_no_memory() -> None:
    from tests.runtime_logs import har

    document = json.loads(har())
    document["log"]["entries"][0]["response"]["content"]["text"] = "PLACEHOLDER"
    text = json.dumps(document).encode()
    head, tail = text.split(b"PLACEHOLDER")
    huge = head + b"A" * (160 << 20) + tail  # a 160 MB answer body in one entry
    baseline, _, _ = _peak_kb(text, "--fail-on", "never")
    peak, code, output = _peak_kb(huge, "--format", "json", "--fail-on", "never")
    assert code == 0, output
    report = json.loads(output)
    assert (report["summary"]["requests"], report["summary"]["malformed_lines"]) == (13, 0)
    assert (peak - baseline) / 1024 < 32, (baseline, peak)


def test_control_characters_and_undecodable_bytes_are_escaped() -> None:
    agent = "evil\x1b[31m\u202e\x07"
    data = LINE.format(path="/api/v2/devices/1\x1b", agent=agent).encode() + (
        b'192.0.2.7 - - [99/Xyz/99999:99:99:99 +9999] "GET /api/v2/devices/\xff\xfe HTTP/1.1" '
        b'200 5 "-" "\xff\xfeua"\n'
    )
    code, out, _ = _stdin_run(data, "--fail-on", "never")
    assert code == 0
    assert "\x1b" not in out and "\u202e" not in out and "\x07" not in out
    assert "evil\\x1b[31m\\u202e\\x07" in out
    code, out, _ = _stdin_run(data, "--format", "json", "--fail-on", "never")
    out.encode("utf-8")  # strict UTF-8: undecodable bytes escaped
    assert json.loads(out)["summary"]["requests"] == 2


def test_a_new_client_or_path_on_every_line_is_bounded() -> None:
    agents = "".join(LINE.format(path="/api/v2/devices", agent=f"bot-{n}") for n in range(100_050))
    code, out, _ = _stdin_run(agents.encode(), "--format", "json", "--fail-on", "never")
    assert code == 0
    report = json.loads(out)
    (endpoint,) = report["endpoints"]
    assert len(endpoint["clients"]) == 100_001
    assert {k: v for k, v in endpoint["clients"][0].items() if k in ("client", "requests")} == {
        "client": "(other clients)",
        "requests": 50,
    }
    assert report["summary"]["bounds"][0].startswith("more clients than the report keeps")
    paths = "".join(LINE.format(path=f"/api/v2/nowhere-{n}", agent="x") for n in range(1_010))
    code, out, _ = _stdin_run(paths.encode(), "--format", "json", "--fail-on", "never")
    endpoints = json.loads(out)["endpoints"]
    assert len(endpoints) == 1_001
    assert ("GET", "(other unknown paths)", 10) in [
        (e["method"], e["endpoint"], e["requests"]) for e in endpoints
    ]


def test_an_empty_input() -> None:
    code, out, err = _stdin_run(b"", "--format", "json")
    assert (code, err) == (0, "")
    assert json.loads(out)["summary"]["requests"] == 0


# -- proxy ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("upstream", "shown"),
    [
        ("ftp://h", "expected http://HOST[:PORT] or https://HOST[:PORT]"),
        ("http://", "expected http://HOST[:PORT] or https://HOST[:PORT]"),
        ("http://user:pw@h", "no credentials in the URL"),
        ("https://h:1616/api/v2", "without /api/v2"),
        ("http://h?x=1", "no query or fragment"),
        ("http://h:99999", "the port must be between 1 and 65535"),
    ],
)
def test_bad_upstreams_are_one_line(upstream: str, shown: str) -> None:
    result = clean(apispec_run("proxy", "--upstream", upstream, "--port", "0", timeout=30), 2)
    assert len(result.err.splitlines()) == 1 and shown in result.err
    assert "pw" not in result.err  # a password given by mistake is not repeated


def test_a_taken_port_and_a_log_that_is_no_file(tmp_path: Path, fifo) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = str(taken.getsockname()[1])
        result = clean(
            apispec_run("proxy", "--upstream", "http://h", "--port", port, timeout=30), 2
        )
    assert result.err.startswith(f"apispec: error: cannot listen on 127.0.0.1:{port}: ")
    pipe = fifo(tmp_path / "proxy.log")
    for target, kind in ((pipe, "a named pipe"), (tmp_path, "a directory")):
        result = clean(
            apispec_run(
                "proxy", "--upstream", "http://h", "--port", "0", "--log", str(target), timeout=30
            ),
            2,
        )
        assert result.err == f"apispec: error: {target}: --log: not a regular file ({kind})\n"


def test_an_upstream_dripping_its_headers_gets_504_in_time() -> None:
    stop = threading.Event()

    def drip(server, conn) -> None:
        server.read_head(conn)
        conn.sendall(b"HTTP/1.1 200 OK\r\n")
        while not stop.wait(0.3):
            conn.sendall(b"X-Drip: 1\r\n")

    with raw_upstream(drip) as server, proxy(server.url, "--timeout", "2") as running:
        answer = httpx.get(f"{running.api}/settings/public", timeout=30)
        stop.set()
        assert (answer.status_code, answer.json()["code"]) == (504, "GATEWAY_TIMEOUT")
        assert running.stop() == 0
    assert "Traceback" not in running.err


def test_the_proxy_streams_half_a_gigabyte_in_bounded_memory() -> None:
    block = b"z" * (1 << 20)

    def serve(server, conn) -> None:
        server.read_head(conn)
        conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n" % (512 * len(block)))
        for _ in range(512):
            conn.sendall(block)

    with raw_upstream(serve) as server, proxy(server.url) as running:
        size = 0
        with httpx.stream("GET", running.url + "/download", timeout=60) as answer:
            for chunk in answer.iter_raw():
                size += len(chunk)
        status = Path(f"/proc/{running.process.pid}/status").read_text()
        peak_kb = int(re.search(r"VmHWM:\s+(\d+) kB", status)[1])
    assert size == 512 << 20
    assert peak_kb < 200 * 1024, peak_kb


def test_hostile_clients_get_answers_not_tracebacks() -> None:
    with mock() as upstream, proxy(upstream.url) as running:
        host, port = running.url.removeprefix("http://").split(":")
        many = "&".join(f"p{n}=1" for n in range(1_500))  # h11 takes heads up to 16 KB
        answers = [
            httpx.get(f"{running.api}/experimental/sensors?{many}", timeout=60).status_code,
            httpx.get(f"{running.api}/sensors/%00%ff/overview", timeout=30).status_code,
        ]
        with socket.create_connection((host, int(port)), timeout=10) as conn:
            conn.sendall(
                b"POST /api/v2/session HTTP/1.1\r\nHost: x\r\nContent-Length: 10737418240\r\n\r\n{"
            )
            answer = b""
            while not answer.endswith(b"}"):  # the head and the error body
                chunk = conn.recv(65536)
                if not chunk:
                    break
                answer += chunk
        assert answer.startswith(b"HTTP/1.1 400 ") and b'"code":"BODY_TOO_LARGE"' in answer
        assert answers[0] == 401 and answers[1] in (401, 404)
        assert running.stop() == 0
    assert "Traceback" not in running.err and "internal error" not in running.err


@pytest.mark.parametrize("header", ["Authorization", "cookie", "X-Api-Key"])
def test_a_header_holding_credentials_never_names_clients(header: str) -> None:
    result = clean(
        apispec_run(
            "proxy", "--upstream", "http://h", "--port", "0", "--client-field", header, timeout=30
        ),
        2,
    )
    assert result.err == (
        f"apispec: error: --client-field {header}: that header holds credentials, which the "
        "proxy never logs; name clients by user-agent, address or another header\n"
    )


def test_nothing_named_and_a_terminal_on_stdin_is_an_error_not_a_wait() -> None:
    import pty

    leader, follower = pty.openpty()
    try:
        done = subprocess.run(
            [PYTHON, "-m", "apispec", "traffic"], stdin=follower, capture_output=True, timeout=30
        )
    finally:
        os.close(follower)
        os.close(leader)
    assert done.returncode == 2
    assert (
        done.stderr == b"apispec: error: name a log file (or -), or pipe one to `apispec traffic`\n"
    )
