"""The real `apispec mock` process, spoken to over a raw socket on loopback (point 19).

Authentication schemes are case-insensitive (RFC 9110, 11.1): `bearer` is
`Bearer`. A request uvicorn cannot parse (invalid UTF-8 in the request line, a
negative `Content-Length`, a header line without a colon) still gets the spec's
error body and the `X-Request-Id` it repeats, never uvicorn's plain text. A
client that sends half a header loses its connection after the header timeout
(408 with the spec's body); one that sends nothing is closed quietly.
"""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Iterator

import httpx
import pytest

from apispec.mock.http import HEADER_TIMEOUT
from tests.hostile.mock_process import MockProcess, mock_process

ADMIN = {"username": "prtgadmin", "password": "prtgadmin"}


@pytest.fixture(scope="module")
def mock(tmp_path_factory: pytest.TempPathFactory) -> Iterator[MockProcess]:
    with mock_process("--objects", "50", cwd=tmp_path_factory.mktemp("mock")) as running:
        yield running


def _exchange(mock: MockProcess, raw: bytes, wait: float = 30) -> tuple[bytes, float]:
    """Send `raw`, read until the server closes; (what it answered, seconds until it closed)."""
    with socket.create_connection((mock.host, mock.port), timeout=wait) as sock:
        start = time.monotonic()
        sock.sendall(raw)
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
        return answer, time.monotonic() - start


def _parse(answer: bytes) -> tuple[int, dict[str, str], dict[str, str]]:
    head, _, body = answer.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers = {k.strip().lower(): v.strip() for k, _, v in (h.partition(":") for h in lines[1:])}
    return status, headers, json.loads(body)


@pytest.mark.parametrize("scheme", ["Bearer", "bearer", "BEARER", "bEaReR"])
def test_the_bearer_scheme_is_case_insensitive(mock: MockProcess, scheme: str) -> None:
    token = httpx.post(f"{mock.api}/session", json=ADMIN, timeout=30).json()["token"]
    answer = httpx.get(
        f"{mock.api}/experimental/probes",
        headers={"Authorization": f"{scheme}  {token}"},
        timeout=30,
    )
    assert answer.status_code == 200, answer.text


def test_another_scheme_is_still_refused(mock: MockProcess) -> None:
    token = httpx.post(f"{mock.api}/session", json=ADMIN, timeout=30).json()["token"]
    answer = httpx.get(
        f"{mock.api}/experimental/probes", headers={"Authorization": f"Basic {token}"}, timeout=30
    )
    assert answer.status_code == 401 and answer.json()["code"] == "AUTH_FAILED"


UNPARSABLE = {
    "invalid-utf8-in-request-line": b"GET /api/v2/\xff\xfe HTTP/1.1\r\nHost: x\r\n\r\n",
    "negative-content-length": (
        b"POST /api/v2/session HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n"
    ),
    "header-without-colon": b"GET /api/v2/settings/public HTTP/1.1\r\nHost x\r\n\r\n",
    "not-http": b"HELLO\r\n\r\n",
}


@pytest.mark.parametrize("case", list(UNPARSABLE))
def test_a_request_uvicorn_cannot_parse_gets_the_spec_error_body(
    mock: MockProcess, case: str
) -> None:
    answer, _ = _exchange(mock, UNPARSABLE[case])
    status, headers, body = _parse(answer)
    assert status == 400
    assert headers["content-type"] == "application/json"
    assert body["code"] == "BAD_REQUEST"
    assert body["request_id"] == headers["x-request-id"] and len(body["request_id"]) == 32
    assert "not valid HTTP" in body["message"]
    assert mock.process.poll() is None


def test_half_a_header_is_answered_408_and_closed_after_the_header_timeout(
    mock: MockProcess,
) -> None:
    answer, took = _exchange(mock, b"GET /api/v2/settings/public HTTP/1.1\r\nHo")
    status, headers, body = _parse(answer)
    assert status == 408 and body["code"] == "EXECUTION_TIMEOUT"
    assert body["request_id"] == headers["x-request-id"]
    assert f"{HEADER_TIMEOUT:g} seconds" in body["message"]
    assert HEADER_TIMEOUT - 1 < took < HEADER_TIMEOUT + 10


def test_a_header_sent_a_byte_at_a_time_has_the_same_deadline(mock: MockProcess) -> None:
    request = b"GET /api/v2/settings/public HTTP/1.1\r\nHost: x\r\n\r\n"
    with socket.create_connection((mock.host, mock.port), timeout=60) as sock:
        start = time.monotonic()
        closed = False
        for byte in request:  # slower than the deadline allows
            try:
                sock.sendall(bytes([byte]))
            except OSError:
                closed = True
                break
            time.sleep(HEADER_TIMEOUT / 10)
        answer = b"" if closed else sock.recv(65536)
    assert closed or answer.startswith(b"HTTP/1.1 408")
    assert time.monotonic() - start < HEADER_TIMEOUT * 4


def test_a_silent_connection_is_closed_quietly(mock: MockProcess) -> None:
    answer, took = _exchange(mock, b"")
    assert answer == b""
    assert took < HEADER_TIMEOUT + 10


def test_requests_on_a_kept_alive_connection_are_still_served(mock: MockProcess) -> None:
    with httpx.Client(base_url=mock.api, timeout=30) as client:
        for _ in range(3):
            assert client.get("/settings/public").status_code == 200
            time.sleep(1)


def test_the_server_is_still_serving_after_all_of_it(mock: MockProcess) -> None:
    assert httpx.get(f"{mock.api}/settings/public", timeout=30).status_code == 200
    assert mock.process.poll() is None
