"""`apispec mock --cors`: a page in a browser (even from file://) may call the mock; without it, not."""

from __future__ import annotations

import httpx
import pytest

from apispec.mock import MockConfig
from apispec.mock.server import start_in_thread

PREFLIGHT = {
    "Origin": "null",  # what a page opened from file:// sends
    "Access-Control-Request-Method": "GET",
    "Access-Control-Request-Headers": "authorization",
}


@pytest.mark.parametrize("cors", [True, False])
def test_cors_headers_only_when_asked_for(cors: bool) -> None:
    mock = start_in_thread(MockConfig(objects=6, cors=cors))
    try:
        token = httpx.post(
            f"{mock.api}/session", json={"username": "prtgadmin", "password": "prtgadmin"}
        ).json()["token"]
        preflight = httpx.options(f"{mock.api}/experimental/devices", headers=PREFLIGHT)
        answer = httpx.get(
            f"{mock.api}/experimental/devices",
            headers={"Origin": "null", "Authorization": f"Bearer {token}"},
        )
        assert answer.status_code == 200
        if cors:
            assert preflight.status_code == 200
            assert preflight.headers["access-control-allow-origin"] == "*"
            assert "authorization" in preflight.headers["access-control-allow-headers"].lower()
            assert answer.headers["access-control-allow-origin"] == "*"
            exposed = answer.headers["access-control-expose-headers"].lower()
            assert {"x-total-count", "location", "wait-for", "x-request-id"} <= {
                h.strip() for h in exposed.split(",")
            }
        else:
            assert "access-control-allow-origin" not in preflight.headers
            assert "access-control-allow-origin" not in answer.headers
    finally:
        mock.stop()


def test_banner_says_cors(cli, capsys) -> None:  # type: ignore[no-untyped-def]
    from apispec.mock.context import MockState
    from apispec.mock.server import banner

    state = MockState(MockConfig(objects=6, cors=True))
    assert any("CORS" in line for line in banner(state, "http://127.0.0.1:1"))
    result = cli("mock", "--help")
    assert "--cors" in result.out
