"""`apispec mock --log`: one line per request, from the real command in its own process."""

from __future__ import annotations

import re
import signal
import subprocess
import sys
from pathlib import Path

import httpx

REPO = Path(__file__).resolve().parents[1]
MS = r"\d+\.\d ms"


def test_each_request_is_one_line_with_status_time_and_codes() -> None:
    server = subprocess.Popen(
        [sys.executable, "-m", "apispec", "mock", "--port", "0", "--objects", "50", "--log"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=REPO,
    )
    try:
        assert server.stdout is not None
        api = re.search(r"(http://\S+/api/v2)", server.stdout.readline())[1]  # type: ignore[index]
        with httpx.Client(base_url=api, timeout=30) as client:
            client.get("/settings/public")
            token = client.post(
                "/session", json={"username": "prtgadmin", "password": "prtgadmin"}
            ).json()["token"]
            client.headers["Authorization"] = f"Bearer {token}"
            client.get("/experimental/devices", params={"filter": 'status = "up"', "limit": 5})
            client.get("/experimental/devices", params={"filter": "status = up", "limit": 5})
            client.get("/devices/99999")
            client.get("/experimental/devices", params={"filter": "x\ny = 1"})
    finally:
        server.send_signal(signal.SIGTERM)
        out, err = server.communicate(timeout=30)
    assert server.returncode == 0, err
    # the banner's lines: its first was read above, the rest are indented
    logged = [line for line in out.splitlines() if not line.startswith("  ")]
    patterns = [
        rf"GET /api/v2/settings/public 200 {MS}",
        rf"POST /api/v2/session 200 {MS}",
        rf"GET /api/v2/experimental/devices\?filter=status\+%3D\+%22up%22&limit=5 400 {MS} "
        "INVALID_FILTER FLT004",
        rf"GET /api/v2/experimental/devices\?filter=status\+%3D\+up&limit=5 200 {MS}",
        rf"GET /api/v2/devices/99999 404 {MS} NOT_FOUND",
        rf"GET /api/v2/experimental/devices\?filter=x%0Ay\+%3D\+1 400 {MS} INVALID_FILTER FLT001",
        "apispec mock: stopped",
    ]
    assert len(logged) == len(patterns), logged
    for line, pattern in zip(logged, patterns, strict=True):
        assert re.fullmatch(pattern, line), (line, pattern)


def test_without_log_nothing_is_printed_per_request() -> None:
    server = subprocess.Popen(
        [sys.executable, "-m", "apispec", "mock", "--port", "0", "--objects", "10"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=REPO,
    )
    try:
        assert server.stdout is not None
        api = re.search(r"(http://\S+/api/v2)", server.stdout.readline())[1]  # type: ignore[index]
        assert httpx.get(f"{api}/settings/public", timeout=30).status_code == 200
    finally:
        server.send_signal(signal.SIGTERM)
        out, _ = server.communicate(timeout=30)
    assert "/settings/public" not in out
    assert out.endswith("apispec mock: stopped\n")
