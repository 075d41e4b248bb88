"""Hostile requests against the real mock server on a loopback port (issue 11, points 10, 12, 14).

Each test sends the input that once froze the server, answered 500 or stored
something that broke later answers, and asserts the exact status and error
body the spec prescribes.
"""

from __future__ import annotations

import re
import shutil
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from apispec.mock import MockConfig
from apispec.mock.server import RunningMock, start_in_thread
from apispec.registry.files import default_directory
from apispec.registry.load import load_registry

REPO = Path(__file__).resolve().parents[2]
ADMIN = {"username": "prtgadmin", "password": "prtgadmin"}
HUGE = "9" * 4_301  # one digit past Python's int-string conversion limit
# 900 conditions no index can narrow (`!=`), each true: every record is tested against all.
SLOW_FILTER = " and ".join(f'basic.host != "10.9.{n}.1"' for n in range(900))


def login(api: str) -> httpx.Client:
    client = httpx.Client(base_url=api, timeout=60)
    answer = client.post("/session", json=ADMIN)
    assert answer.status_code == 200, answer.text
    client.headers["Authorization"] = f"Bearer {answer.json()['token']}"
    return client


def assert_error(answer: httpx.Response, status: int, code: str) -> str:
    assert answer.status_code == status, answer.text
    body = answer.json()
    assert body["code"] == code and body["request_id"] == answer.headers["X-Request-Id"]
    return body["message"]


@pytest.fixture(scope="module")
def mock() -> Iterator[RunningMock]:
    running = start_in_thread(MockConfig(objects=300, seed=3, wait_for=0.2, enable=("mcp",)))
    yield running
    running.stop()


@pytest.fixture(scope="module")
def admin(mock: RunningMock) -> Iterator[httpx.Client]:
    client = login(mock.api)
    yield client
    client.close()


# -- point 10: one slow filter never freezes the others -----------------------------


def test_a_900_term_filter_over_100000_objects_leaves_other_clients_served() -> None:
    """Acceptance 4: the mock in its own process, one slow request, another client's timing."""
    server = subprocess.Popen(
        [sys.executable, "-m", "apispec", "mock", "--port", "0", "--objects", "100000"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=REPO,
    )
    try:
        assert server.stdout is not None
        api = re.search(r"(http://\S+/api/v2)", server.stdout.readline())[1]  # type: ignore[index]
        token = login(api).headers["Authorization"]
        slow: dict[str, object] = {}

        def request_the_slow_list() -> None:
            try:
                slow["answer"] = httpx.get(
                    f"{api}/experimental/objects",
                    params={"filter": SLOW_FILTER},
                    headers={"Authorization": token},
                    timeout=60,
                )
            except httpx.HTTPError as exc:  # the server is stopped under it at the end
                slow["answer"] = exc

        worker = threading.Thread(target=request_the_slow_list)
        worker.start()
        time.sleep(0.5)
        timings = []
        with httpx.Client(base_url=api, timeout=30) as other:
            until = time.monotonic() + 2  # a window in which the slow request surely runs
            while time.monotonic() < until:
                start = time.perf_counter()
                answer = other.get("/settings/public")
                timings.append(time.perf_counter() - start)
                assert answer.status_code == 200
                time.sleep(0.1)
        assert worker.is_alive(), "the slow request ended too soon to show anything"
        assert max(timings) < 1.0, timings
    finally:
        server.terminate()
        server.wait(timeout=30)
    worker.join(timeout=60)


@pytest.fixture(scope="module")
def one_second_mock(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningMock]:
    """The registry's execution limit set to 1 s, so a timeout is quick to reach."""
    directory = tmp_path_factory.mktemp("registry") / "registry"
    shutil.copytree(default_directory(), directory)
    limits = directory / "limits.yaml"
    text = limits.read_text()
    limits.write_text(
        text.replace("name: max_execution_time, value: 25,", "name: max_execution_time, value: 1,")
    )
    registry = load_registry(directory)
    assert registry.limit("max_execution_time") == 1
    running = start_in_thread(MockConfig(objects=100_000, seed=1), registry=registry)
    yield running
    running.stop()


def test_a_filter_running_past_the_execution_limit_answers_408(
    one_second_mock: RunningMock,
) -> None:
    client = login(one_second_mock.api)
    start = time.perf_counter()
    answer = client.get("/experimental/objects", params={"filter": SLOW_FILTER})
    elapsed = time.perf_counter() - start
    message = assert_error(answer, 408, "EXECUTION_TIMEOUT")
    assert message == "the request ran longer than 1 seconds"
    assert elapsed < 10
    assert client.get("/experimental/objects", params={"limit": 1}).status_code == 200


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            'name = "' + "x" * 40_000 + '"',
            "invalid filter: 40,009 characters; the mock reads filters of at most 32,768 characters",
        ),
        (
            " or ".join(f'id = "{n}"' for n in range(1_001)),
            "invalid filter: 1,001 conditions; the mock evaluates at most 1,000 per filter",
        ),
        (
            "not(" * 101 + "status = up" + ")" * 101,
            "invalid filter at column 401: the filter nests operators 101 levels deep; apispec "
            "reads at most 100; hint: simplify it: `not(not(x))` is `x`, and `not(a or b)` is "
            "`not(a) and not(b)`",
        ),
    ],
    ids=["length", "terms", "depth"],
)
def test_filter_complexity_is_bounded_with_invalid_filter_naming_the_bound(
    admin: httpx.Client, text: str, message: str
) -> None:
    answer = admin.get("/experimental/devices", params={"filter": text})
    assert assert_error(answer, 400, "INVALID_FILTER") == message
    within = " or ".join(f'id = "{n}"' for n in range(1_000))
    assert admin.get("/experimental/devices", params={"filter": within}).status_code == 200


# -- point 12: integers past Python's conversion limit ------------------------------


def test_integers_of_4301_digits_are_out_of_range_not_a_crash(admin: httpx.Client) -> None:
    capped = admin.get("/experimental/devices", params={"limit": HUGE})
    assert (
        capped.status_code == 200
        and capped.headers["X-Result-Count"] == capped.headers["X-Total-Count"]
    )
    beyond = admin.get("/experimental/devices", params={"offset": HUGE})
    assert beyond.status_code == 200 and beyond.json() == []
    message = assert_error(
        admin.get("/experimental/devices", params={"filter": f"id = {HUGE}"}), 400, "INVALID_FILTER"
    )
    assert message.startswith(
        "invalid filter at column 6: `id` takes a text in double quotes, not a number; "
        'hint: write `id = "9999'
    )
    assert_error(admin.get(f"/devices/{HUGE}"), 404, "NOT_FOUND")
    body = b'{"name": ' + HUGE.encode() + b"}"
    group = admin.get("/experimental/groups", params={"limit": 1, "offset": 1}).json()[0]["id"]
    message = assert_error(
        admin.post(f"/experimental/groups/{group}/group", content=body), 400, "BAD_REQUEST"
    )
    assert message == "request body: a number in the JSON is out of range (4301 digits)"


def test_a_name_of_5000_digits_sorts_and_lists(mock: RunningMock, admin: httpx.Client) -> None:
    group = admin.get("/experimental/groups", params={"limit": 1, "offset": 1}).json()[0]["id"]
    huge = "9" * 5_000
    created = admin.post(f"/experimental/groups/{group}/group", json={"name": huge})
    assert created.status_code == 204
    time.sleep(0.3)
    ordered = admin.get("/experimental/groups", params={"sort_by": "name"})
    assert ordered.status_code == 200
    names = [g["name"] for g in ordered.json()]
    at = names.index(huge)  # after every shorter number, before the names that start with letters
    assert all(n[0].isdigit() and len(n) < len(huge) for n in names[:at])
    assert not any(n[0].isdigit() for n in names[at + 1 :])


def test_a_data_file_id_of_4301_digits_is_a_one_line_usage_error(tmp_path: Path) -> None:
    data = tmp_path / "tree.json"
    data.write_text('[{"id": "' + HUGE + '", "type": "probe", "name": "p", "parentid": "0"}]')
    run = subprocess.run(
        [sys.executable, "-m", "apispec", "mock", "--port", "0", "--data", str(data)],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=60,
    )
    assert (run.returncode, run.stdout) == (2, "")
    assert run.stderr == (
        f"apispec: error: --data {data}: objects[0]: id '{'9' * 37}...' is out of range "
        "(at most 18 digits)\n"
    )


# -- point 14: bodies the mock cannot store or send back ----------------------------


def test_a_deeply_nested_body_is_400_bad_request(admin: httpx.Client) -> None:
    group = admin.get("/experimental/groups", params={"limit": 1, "offset": 1}).json()[0]["id"]
    deep = b'{"name": ' + b"[" * 5_000 + b"]" * 5_000 + b"}"
    message = assert_error(
        admin.post(f"/experimental/groups/{group}/group", content=deep), 400, "BAD_REQUEST"
    )
    assert message == "request body: the JSON nests deeper than 64 levels"


def test_a_lone_surrogate_is_refused_and_lists_keep_working(admin: httpx.Client) -> None:
    group = admin.get("/experimental/groups", params={"limit": 1, "offset": 1}).json()[0]["id"]
    before = admin.get("/experimental/groups").json()
    answer = admin.post(f"/experimental/groups/{group}/group", content=b'{"name": "a\\ud800b"}')
    message = assert_error(answer, 400, "BAD_REQUEST")
    assert (
        message == "request body: $.name holds a lone UTF-16 surrogate, which is not valid Unicode"
    )
    time.sleep(0.3)
    after = admin.get("/experimental/groups")
    assert after.status_code == 200 and after.json() == before  # nothing was stored


def test_mcp_messages_the_server_cannot_read_get_json_rpc_errors(
    mock: RunningMock, admin: httpx.Client
) -> None:
    url = f"{mock.api}/mcp"
    headers = {"Authorization": admin.headers["Authorization"]}
    listed = httpx.post(
        url,
        headers=headers,
        json={"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": [1, 2]},
    )
    assert listed.status_code == 400
    assert listed.json() == {
        "jsonrpc": "2.0",
        "id": 7,
        "error": {
            "code": -32602,
            "message": "`params` must be an object (MCP names its parameters), not an array",
        },
    }
    deep = httpx.post(url, headers=headers, content=b"[" * 5_000 + b"]" * 5_000)
    assert deep.status_code == 400
    assert deep.json()["error"] == {
        "code": -32700,
        "message": "parse error: the JSON nests deeper than 64 levels",
    }
    lone = httpx.post(
        url, headers=headers, content=b'{"jsonrpc": "2.0", "id": "\\udc00", "method": "ping"}'
    )
    assert lone.status_code == 400 and lone.json()["error"]["code"] == -32700
    batch = httpx.post(
        url,
        headers=headers,
        json=[
            {"jsonrpc": "2.0", "id": 1, "method": "ping", "params": "x"},
            {"jsonrpc": "2.0", "id": 2, "method": "ping"},
        ],
    )
    assert batch.status_code == 200
    assert [a.get("error", {}).get("code") for a in batch.json()] == [-32602, None]


def test_a_huge_declared_content_length_is_refused_before_reading(mock: RunningMock) -> None:
    host, port = re.search(r"//(.+):(\d+)", mock.url).groups()  # type: ignore[union-attr]
    with socket.create_connection((host, int(port)), timeout=10) as sock:
        sock.sendall(
            b"POST /api/v2/session HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Content-Length: " + HUGE.encode() + b"\r\n\r\n{}"
        )
        status_line = sock.recv(4096).split(b"\r\n", 1)[0]
    assert status_line == b"HTTP/1.1 400 Bad Request"
