"""A helper row in the configuration: a wrapper the linter never sees defined.

A team's scripts often call the API through an installed package (`prtgkit.fetch("GET",
"/devices", {"take": 5})`): its definition is not in the tree, so no rule can learn
where its path, method and query are. The `helpers` setting takes a table that says
so, and the linter then reads every call of it as it reads a learnt wrapper's.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import CliResult

CLIENT = """\
import prtgkit

prtgkit.fetch("GET", "/devices", {"take": 5})
prtgkit.fetch("DELETE", "/experimental/devices/7", {})
prtgkit.push("/users/5/api-keys", body={"name": "ci"})
"""


def _tree(tmp_path: Path, helpers: str) -> Path:
    (tmp_path / ".apispec.toml").write_text(f"helpers = {helpers}\n", encoding="utf-8")
    (tmp_path / "job.py").write_text(CLIENT, encoding="utf-8")
    return tmp_path


def test_a_helper_row_names_the_path_method_and_query_places(
    tmp_path: Path, cli: Callable[..., CliResult], monkeypatch: pytest.MonkeyPatch
) -> None:
    _tree(
        tmp_path,
        '[{ name = "prtgkit.fetch", method = 0, path = 1, query = 2 },'
        ' { name = "prtgkit.push", method = "POST" }]',
    )
    monkeypatch.chdir(tmp_path)
    result = cli("lint", "--show-calls", "--fail-on", "never", "job.py")
    assert result.code == 0, result.err
    calls = [line.split(": ", 1)[1].split(" -> ")[0] for line in result.out.splitlines()[:-1]]
    assert calls == [
        "GET /devices",
        "DELETE /experimental/devices/{id}",
        "POST /users/{id}/api-keys",
    ]
    findings = cli("lint", "--format", "concise", "job.py")
    # the query mapping is the third argument: `take` is not this endpoint's parameter
    assert "job.py:3:" in findings.out and "API011" in findings.out, findings.out
    assert "API002" in findings.out  # GET /devices is deprecated


def test_a_plain_name_still_means_the_path_is_the_first_argument(
    tmp_path: Path, cli: Callable[..., CliResult], monkeypatch: pytest.MonkeyPatch
) -> None:
    _tree(tmp_path, '["prtgkit.push"]')
    monkeypatch.chdir(tmp_path)
    result = cli("lint", "--show-calls", "--fail-on", "never", "job.py")
    assert "/users/{id}/api-keys (stable)  [through an own API helper]" in result.out


@pytest.mark.parametrize(
    ("helpers", "message"),
    [
        ("[{ path = 1 }]", "helpers[0]: a helper table needs a name"),
        ('[{ name = "f", pth = 1 }]', "helpers[0]: unknown key 'pth'"),
        ('[{ name = "f", path = "url" }]', "helpers[0].path: expected the path argument's"),
        ('[{ name = "f", method = true }]', "helpers[0].method: expected an argument position"),
        ('[{ name = "f", query = 99 }]', "helpers[0].query: argument position 99"),
        ('[{ name = "f g" }]', "is not a function name"),
        ("[3]", "helpers[0]: expected a helper name or a table"),
        ('"f"', "helpers: expected a list"),
    ],
)
def test_a_broken_helper_row_is_one_line_naming_the_key(
    tmp_path: Path,
    cli: Callable[..., CliResult],
    monkeypatch: pytest.MonkeyPatch,
    helpers: str,
    message: str,
) -> None:
    _tree(tmp_path, helpers)
    monkeypatch.chdir(tmp_path)
    result = cli("lint", "job.py")
    assert result.code == 2
    assert message in result.err, result.err
    assert len(result.err.strip().splitlines()) == 1
