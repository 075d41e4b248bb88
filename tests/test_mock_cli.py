"""`apispec mock` as a user runs it: start-up banner, serving, Ctrl-C, bad options."""

from __future__ import annotations

import re
import signal
import socket
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest

FIXTURES = Path(__file__).parent / "fixtures" / "mock"


def test_starts_prints_url_and_users_and_stops_on_ctrl_c() -> None:
    command = [
        sys.executable,
        "-m",
        "apispec",
        "mock",
        "--port",
        "0",
        "--objects",
        "50",
        "--enable",
        "mcp",
    ]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        lines = [process.stdout.readline() for _ in range(7)]
        banner = "".join(lines)
        url = re.search(r"at (http://127\.0\.0\.1:\d+/api/v2)$", lines[0].strip())
        assert url, banner
        assert "prtgadmin / password prtgadmin (administrator)" in banner
        assert "readonly / password readonly (read-only)" in banner
        assert f"{url[1]}/mcp" in banner
        answer = httpx.get(f"{url[1]}/settings/public", timeout=10)
        assert answer.status_code == 200
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=15)
    finally:
        process.kill()
    assert process.returncode == 0, err
    assert "stopped" in out
    assert "Traceback" not in err


def test_sigterm_stops_it_cleanly_too() -> None:
    """Service managers and CI runners stop with SIGTERM: exit 0 with the last line, as on Ctrl-C."""
    command = [sys.executable, "-m", "apispec", "mock", "--port", "0", "--objects", "6"]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        url = re.search(r"at (http://\S+/api/v2)$", process.stdout.readline().strip())
        assert url
        assert httpx.get(f"{url[1]}/settings/public", timeout=10).status_code == 200
        process.send_signal(signal.SIGTERM)
        out, err = process.communicate(timeout=15)
    finally:
        process.kill()
    assert process.returncode == 0, err
    assert out.rstrip().endswith("apispec mock: stopped")
    assert "Traceback" not in err


def test_users_file_replaces_the_printed_users() -> None:
    command = [
        sys.executable,
        "-m",
        "apispec",
        "mock",
        "--port",
        "0",
        "--objects",
        "6",
        "--users",
        str(FIXTURES / "users.json"),
    ]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        banner = "".join(process.stdout.readline() for _ in range(6))
        url = re.search(r"(http://\S+/api/v2)", banner)
        assert url
        assert "ci-admin (administrator" in banner and "viewer (read-only" in banner
        assert "prtgadmin" not in banner and "s3cret" not in banner
        login = httpx.post(f"{url[1]}/session", json={"username": "ci-admin", "password": "s3cret"})
        assert login.status_code == 200
        refused = httpx.post(
            f"{url[1]}/session", json={"username": "prtgadmin", "password": "prtgadmin"}
        )
        assert refused.status_code == 401
    finally:
        process.send_signal(signal.SIGINT)
        process.communicate(timeout=15)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--objects", "0"], "--objects must be between 6 and 100000"),
        (["--port", "70000"], "port must be between 0 and 65535"),
        (["--fault-rate", "1.5"], "must be between 0 and 1"),
        (["--latency", "-1"], "must not be negative"),
        (["--release", "24.3.99"], "unknown release '24.3.99'"),
        (["--enable", "webhooks"], "unknown feature 'webhooks'"),
        (["--data", "/nonexistent/tree.json"], "--data /nonexistent/tree.json: cannot read"),
        (["--users", "/nonexistent/users.json"], "cannot read"),
    ],
)
def test_bad_options_are_one_line_errors(cli: Callable, args: list[str], message: str) -> None:
    result = cli("mock", "--port", "0", *args)
    assert result.code == 2
    assert message in result.err
    assert len(result.err.strip().splitlines()) == 1


def test_a_port_in_use_is_a_one_line_error(cli: Callable) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        result = cli("mock", "--port", str(port), "--objects", "6")
    assert result.code == 2
    assert f"cannot listen on 127.0.0.1:{port}" in result.err


def test_command_defaults_are_the_library_defaults() -> None:
    from dataclasses import fields

    from apispec.cli import build_parser
    from apispec.mock.context import MockConfig

    args = build_parser().parse_args(["mock"])
    defaults = {f.name: f.default for f in fields(MockConfig)}
    assert args.seed == defaults["seed"] and args.objects == defaults["objects"]
    assert args.wait_for == defaults["wait_for"] and args.fault_rate == defaults["fault_rate"]
    assert args.latency == defaults["latency_ms"]
