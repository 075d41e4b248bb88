"""`apispec proxy` between a client and a real server: `apispec mock` on a loopback port.

Every test runs the real processes: the mock as the upstream, `apispec proxy`
in front of it, an HTTP client (httpx) through the proxy. Where the mock cannot
show a behaviour (it already sends lifecycle headers; it never streams, hangs
or answers garbage), a small upstream on a raw socket does.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest

from apispec.registry.load import load_registry
from tests.runtime_servers import PYTHON, free_port, mock, proxy, raw_upstream

ADMIN = {"username": "prtgadmin", "password": "prtgadmin"}  # the mock's seeded account
SKIPPED_HEADERS = {"date", "x-request-id"}  # per answer: never equal between two requests
ADDED_HEADERS = {"apispec-finding", "deprecation", "link"}


def _token(api: str) -> str:
    answer = httpx.post(f"{api}/session", json=ADMIN, timeout=30)
    assert answer.status_code == 200, answer.text
    return answer.json()["token"]


def _comparable(answer: httpx.Response, added: set[str] = frozenset()) -> tuple:
    """Status, headers in order and body as sent, the answer's own request id masked."""
    rid = answer.headers.get("x-request-id", "")
    headers = [
        (name.decode().lower(), value.decode("latin-1"))
        for name, value in answer.headers.raw
        if name.decode().lower() not in SKIPPED_HEADERS | added
    ]
    body = answer.content.replace(rid.encode(), b"RID") if rid else answer.content
    return answer.status_code, headers, body


@pytest.fixture(scope="module")
def upstream():
    with mock() as running:
        yield running


@pytest.fixture(scope="module")
def through(upstream):
    with proxy(upstream.url) as running:
        yield running


def test_answers_are_the_upstreams_byte_for_byte(upstream, through) -> None:
    token = _token(upstream.api)
    auth = {"Authorization": f"Bearer {token}"}
    sensors = httpx.get(f"{upstream.api}/experimental/sensors?limit=5", headers=auth, timeout=30)
    sid = sensors.json()[0]["id"]
    requests = [
        ("GET", "/settings/public", {}),
        ("HEAD", "/settings/public", {}),
        ("GET", "/experimental/sensors?limit=40&sort_by=-name", auth),
        ("GET", f"/sensors/{sid}", auth),
        ("GET", f"/sensors/{sid}/overview", auth),  # deprecated: the mock's own lifecycle headers
        ("GET", "/experimental/sensors?filter=status%20%3D%3D%20up", auth),  # the mock's 400
        ("GET", "/nowhere/1", auth),
        ("GET", "/experimental/sensors", {}),  # 401 with WWW-Authenticate
        ("DELETE", "/settings/public", auth),  # 405 with Allow
        ("GET", "/oas/", {}),  # the OpenAPI document: a large answer
    ]
    with httpx.Client(timeout=30) as client:
        for method, path, headers in requests:
            direct = client.request(method, upstream.api + path, headers=headers)
            proxied = client.request(method, through.api + path, headers=headers)
            assert _comparable(proxied, ADDED_HEADERS - {"deprecation", "link"}) == _comparable(
                direct
            ), (method, path)


def test_large_answers_stream_through_before_they_end() -> None:
    """The upstream sends 1 MB, then waits until the client has it: a proxy that buffered
    whole answers would never deliver it, and the test would time out."""
    first_seen = threading.Event()
    block = hashlib.sha256(b"x").digest() * 32768  # 1 MB

    def serve(server, conn) -> None:
        server.read_head(conn)
        conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\n"
                     b"Transfer-Encoding: chunked\r\n\r\n")  # fmt: skip
        conn.sendall(b"%x\r\n%s\r\n" % (len(block), block))
        assert first_seen.wait(30)
        for _ in range(63):
            conn.sendall(b"%x\r\n%s\r\n" % (len(block), block))
        conn.sendall(b"0\r\n\r\n")

    with raw_upstream(serve) as server, proxy(server.url) as running:
        digest = hashlib.sha256()
        size = 0
        with httpx.stream("GET", running.url + "/files/big.bin", timeout=30) as answer:
            for chunk in answer.iter_raw():
                size += len(chunk)
                digest.update(chunk)
                if size >= len(block):
                    first_seen.set()
        assert size == 64 * len(block)
        assert digest.hexdigest() == hashlib.sha256(block * 64).hexdigest()


def test_eight_concurrent_clients(upstream, tmp_path: Path) -> None:
    log = tmp_path / "proxy.log"
    with proxy(upstream.url, "--log", str(log)) as running:
        expected = _comparable(httpx.get(f"{upstream.api}/settings/public", timeout=30))

        def client(n: int) -> list[tuple]:
            with httpx.Client(timeout=60, headers={"User-Agent": f"client-{n}"}) as session:
                return [
                    _comparable(session.get(f"{running.api}/settings/public")) for _ in range(25)
                ]

        with ThreadPoolExecutor(8) as pool:
            results = [answer for answers in pool.map(client, range(8)) for answer in answers]
        assert results == [expected] * 200
        assert running.stop() == 0
    assert "apispec proxy: 200 requests read from" in running.out
    read = subprocess.run(
        [PYTHON, "-m", "apispec", "traffic", str(log), "--format", "json"],
        capture_output=True,
        timeout=60,
        check=False,
    )
    assert read.returncode == 0, read.stderr
    (endpoint,) = json.loads(read.stdout)["endpoints"]
    assert (endpoint["method"], endpoint["endpoint"]) == ("GET", "/settings/public")
    assert {c["client"]: c["requests"] for c in endpoint["clients"]} == {
        f"client-{n}": 25 for n in range(8)
    }


def test_the_mocks_injected_faults_pass_through_as_the_spec_answers_them() -> None:
    registry = load_registry()
    gateway = {e.code: e.status for e in registry.error_codes if 502 <= e.status <= 504}
    with mock("--fault-rate", "1", "--seed", "3") as faulty, proxy(faulty.url) as running:
        seen = set()
        for _ in range(12):
            answer = httpx.get(f"{running.api}/settings/public", timeout=30)
            body = answer.json()
            assert gateway[body["code"]] == answer.status_code
            assert body["request_id"] == answer.headers["x-request-id"]
            seen.add(body["code"])
        assert len(seen) > 1


def test_upstream_down_slow_or_broken_gives_the_specs_gateway_errors() -> None:
    down = f"http://127.0.0.1:{free_port()}"
    with proxy(down) as running:
        answer = httpx.get(f"{running.api}/settings/public", timeout=30)
    assert answer.status_code == 503
    assert answer.json()["code"] == "SERVICE_UNAVAILABLE"
    assert answer.json()["request_id"] == answer.headers["x-request-id"]

    def silent(server, conn) -> None:
        server.read_head(conn)
        threading.Event().wait(30)  # never answers

    with raw_upstream(silent) as server, proxy(server.url, "--timeout", "1") as running:
        answer = httpx.get(f"{running.api}/settings/public", timeout=20)
    assert (answer.status_code, answer.json()["code"]) == (504, "GATEWAY_TIMEOUT")
    assert answer.json()["message"] == "the upstream server did not answer within 1 seconds"

    def garbage(server, conn) -> None:
        server.read_head(conn)
        conn.sendall(b"this is not HTTP at all\r\n\r\n")

    with raw_upstream(garbage) as server, proxy(server.url) as running:
        answer = httpx.get(f"{running.api}/settings/public", timeout=20)
    assert (answer.status_code, answer.json()["code"]) == (502, "BAD_GATEWAY")


def test_no_secret_reaches_the_log(upstream, tmp_path: Path) -> None:
    password = ADMIN["password"]
    log = tmp_path / "proxy.log"
    with proxy(upstream.url, "--log", str(log)) as through, httpx.Client(timeout=30) as client:
        token = client.post(f"{through.api}/session", json=ADMIN).json()["token"]
        auth = {"Authorization": f"Bearer {token}"}
        users = client.get(f"{through.api}/experimental/users", headers=auth).json()
        uid = users[0]["id"]
        key = client.post(
            f"{through.api}/users/{uid}/api-keys", json={"name": "ci"}, headers=auth
        ).json()["key"]
        client.get(f"{through.api}/settings/public?api_key={key}&token={token}")
        client.get(f"{through.api}/experimental/sensors", headers={"Authorization": key})
        through.stop()
    text = log.read_text()
    assert len(text.splitlines()) == 5
    for secret in (password, token, key):
        assert secret not in text
        assert secret not in through.out + through.err
    lines = [json.loads(line) for line in text.splitlines()]
    assert {"api_key": None, "token": None} in [line["query"] for line in lines]
    assert "API009" in [f["code"] for line in lines for f in line["findings"]]


def test_strict_answers_an_invalid_filter_itself(tmp_path: Path) -> None:
    with mock("--log") as logged, proxy(logged.url, "--strict") as running:
        token = _token(logged.api)
        auth = {"Authorization": f"Bearer {token}"}
        bad = httpx.get(
            f"{running.api}/experimental/sensors",
            params={"filter": "status == up"},
            headers=auth,
            timeout=30,
        )
        good = httpx.get(
            f"{running.api}/experimental/sensors",
            params={"filter": "status = up"},
            headers=auth,
            timeout=30,
        )
        big = httpx.post(f"{running.api}/session", content=b"{" + b" " * 20000 + b"}", timeout=30)
        logged.stop()
    assert bad.status_code == 400
    assert bad.json()["code"] == "INVALID_FILTER"
    assert bad.json()["message"].startswith("invalid filter for GET /experimental/sensors: FLT001 ")
    assert good.status_code == 200
    assert (big.status_code, big.json()["code"]) == (400, "BODY_TOO_LARGE")
    assert "filter=status+%3D%3D+up" not in logged.out  # never reached the server
    assert "filter=status+%3D+up" in logged.out
    assert logged.out.count("POST /api/v2/session ") == 1  # the login above, not the big body


def test_hop_by_hop_headers_stay_and_lifecycle_headers_are_added() -> None:
    answer_head = (
        b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n"
        b"Connection: keep-alive, X-Hop\r\nX-Hop: 1\r\nKeep-Alive: timeout=5\r\nX-Kept: yes\r\n"
        b"Set-Cookie: session=alice-secret; Path=/\r\n\r\n{}"
    )

    def serve(server, conn) -> None:
        while server.read_head(conn):
            conn.sendall(answer_head)

    with raw_upstream(serve) as server, proxy(server.url) as running:
        answer = httpx.get(
            f"{running.api}/sensors/2048/overview",
            headers={
                "User-Agent": "mine/1.0",
                "Connection": "keep-alive, X-Private",
                "X-Private": "p",
                "Proxy-Authorization": "Basic c2VjcmV0",
                "X-Custom": "c",
            },
            timeout=30,
        )
        second = httpx.get(f"{running.api}/settings/public", timeout=30)  # another client
    assert second.headers["set-cookie"] == "session=alice-secret; Path=/"  # passed on, as sent
    assert b"alice-secret" not in server.requests[1]  # but never sent for anybody else
    head = server.requests[0].decode().lower().splitlines()
    assert head[0] == "get /api/v2/sensors/2048/overview http/1.1"
    received = dict(line.split(": ", 1) for line in head[1:])
    assert received["user-agent"] == "mine/1.0"
    assert received["x-custom"] == "c"
    assert received["host"] == server.url.removeprefix("http://")
    assert "x-private" not in received and "proxy-authorization" not in received
    assert answer.headers["x-kept"] == "yes"
    assert "x-hop" not in answer.headers and "keep-alive" not in answer.headers
    assert answer.headers["deprecation"] == "true"
    assert answer.headers["link"] == f'<{running.api}/sensors/2048>; rel="successor-version"'
    assert answer.headers["apispec-finding"].startswith(
        "API002 GET /sensors/{id}/overview is deprecated since "
    )


def test_no_open_proxy(through) -> None:
    import socket

    for request in (
        b"GET http://example.invalid/api/v2/settings/public HTTP/1.1\r\nHost: example.invalid\r\n",
        b"CONNECT example.invalid:443 HTTP/1.1\r\nHost: example.invalid:443\r\n",
    ):
        host, port = through.url.removeprefix("http://").split(":")
        with socket.create_connection((host, int(port)), timeout=10) as conn:
            conn.sendall(request + b"Connection: close\r\n\r\n")
            answer = b""
            while chunk := conn.recv(65536):
                answer += chunk
        assert answer.startswith(b"HTTP/1.1 400 ")
        assert b'"code":"BAD_REQUEST"' in answer


def test_run_wraps_a_command_and_exits_by_fail_on(upstream, tmp_path: Path) -> None:
    script = tmp_path / "e2e.py"
    script.write_text(
        "import os, httpx\n"
        "api = os.environ['APISPEC_PROXY_URL'] + '/api/v2'\n"
        "token = httpx.post(api + '/session', json={'username': 'prtgadmin', "
        "'password': 'prtgadmin'}).json()['token']\n"
        "httpx.get(api + '/sensors/1/overview', headers={'Authorization': 'Bearer ' + token})\n"
    )
    command = [PYTHON, "-m", "apispec", "proxy", "--upstream", upstream.url, "--run"]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    passed = subprocess.run(
        [*command, f"{PYTHON} {script}"], capture_output=True, text=True, timeout=120, env=env
    )
    assert passed.returncode == 0, passed.stderr  # deprecated is a warning: default --fail-on error
    assert "API002 deprecated-endpoint: 1 endpoint, 1 request" in passed.stdout
    failed = subprocess.run(
        [*command, f"{PYTHON} {script}", "--fail-on", "warning", "--format", "json"],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )
    assert failed.returncode == 1
    assert json.loads(failed.stdout)["summary"]["api_requests"] == 2
    broken = subprocess.run(
        [*command, f"{PYTHON} -c 'import sys; sys.exit(3)'"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert broken.returncode == 1
    assert broken.stderr.endswith("apispec: error: the command exited with status 3\n")


def test_the_upstreams_certificate_is_verified_unless_insecure(tmp_path: Path) -> None:
    """Self-signed certificates are common on these servers: refused (502) by default,
    accepted with --insecure, which the banner says."""
    import shutil
    import ssl

    if shutil.which("openssl") is None:
        pytest.skip("openssl is needed to make a self-signed certificate")
    key, cert = tmp_path / "key.pem", tmp_path / "cert.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
         "-keyout", str(key), "-out", str(cert), "-subj", "/CN=127.0.0.1",
         "-addext", "subjectAltName=IP:127.0.0.1"],
        check=True,
        capture_output=True,
        timeout=60,
    )  # fmt: skip
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)

    def serve(server, conn) -> None:
        with context.wrap_socket(conn, server_side=True) as tls:
            server.read_head(tls)
            tls.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")

    with raw_upstream(serve) as server:
        https = server.url.replace("http://", "https://")
        with proxy(https) as running:
            refused = httpx.get(f"{running.api}/settings/public", timeout=30)
        with proxy(https, "--insecure") as running:
            accepted = httpx.get(f"{running.api}/settings/public", timeout=30)
            running.stop()
    assert (refused.status_code, refused.json()["code"]) == (502, "BAD_GATEWAY")
    assert "certificate could not be verified" in refused.json()["message"]
    assert (accepted.status_code, accepted.content) == (200, b"ok")
    assert "the upstream's TLS certificate is not verified (--insecure)" in running.err
