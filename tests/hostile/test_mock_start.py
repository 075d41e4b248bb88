"""`apispec mock` options and data that once crashed the start or the first request.

An empty `--data` tree (the root group alone) is served, every GET endpoint of
the registry answering without a 500; a `--latency` or `--wait-for` that is not
a finite, bounded number is refused before the server starts.
"""

from __future__ import annotations

import re
from pathlib import Path

import httpx
import pytest

from apispec.registry.load import load_registry
from tests.hostile.helpers import apispec_run, one_error_line, tree
from tests.hostile.mock_process import mock_process

ADMIN = {"username": "prtgadmin", "password": "prtgadmin"}


@pytest.mark.parametrize("data", ["[]", '{"objects": []}'], ids=["bare-list", "objects-list"])
def test_an_empty_tree_is_served(tmp_path: Path, data: str) -> None:
    (tmp_path / "tree.json").write_text(data)
    with mock_process("--data", "tree.json", cwd=tmp_path) as mock:
        client = httpx.Client(base_url=mock.api, timeout=30)
        token = client.post("/session", json=ADMIN).json()["token"]
        client.headers["Authorization"] = f"Bearer {token}"
        assert client.get("/experimental/devices").json() == []
        assert [g["id"] for g in client.get("/experimental/groups").json()] == ["0"]
        statuses = {}
        for endpoint in load_registry().endpoints:
            if endpoint.method == "GET":
                path = re.sub(r"\{[^}]+\}", "0", endpoint.path)
                statuses[path] = client.get(path).status_code
        assert not [p for p, status in statuses.items() if status >= 500], statuses
        assert mock.process.poll() is None


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "1e308", "NaN"])
@pytest.mark.parametrize(("option", "bound"), [("--latency", "600,000"), ("--wait-for", "86,400")])
def test_a_delay_that_is_not_a_bounded_number_is_refused_at_start(
    tmp_path: Path, option: str, bound: str, value: str
) -> None:
    before = tree(tmp_path)
    run = apispec_run("mock", "--port", "0", f"{option}={value}", cwd=tmp_path, timeout=30)
    one_error_line(run, 2, option, value)
    assert bound in run.err or "negative" in run.err
    assert run.out == "" and tree(tmp_path) == before
