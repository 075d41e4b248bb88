"""Every command that takes a release defaults to the newest concrete one and says so
(issue 13 point 1): the placeholder 25.x.1xx is a release no server runs."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

from apispec.registry.model import Registry
from tests.hostile.helpers import apispec_run, clean

NOTE = (
    "apispec: note: release 25.x.122 (default: the newest concrete release; "
    "pass --release R for another)\n"
)


def test_the_default_is_the_newest_release_that_is_not_a_placeholder(registry: Registry) -> None:
    assert registry.newest_release.text == "25.x.1xx"
    assert registry.newest_concrete_release.text == "25.x.122"
    assert registry.default_release == (
        registry.newest_concrete_release,
        "the newest concrete release",
    )


def test_openapi_and_mcp_tools_keep_stdout_the_document(tmp_path: Path) -> None:
    openapi = clean(apispec_run("openapi", "--format", "json", cwd=tmp_path), 0)
    assert openapi.err == NOTE
    assert json.loads(openapi.out)["info"]["version"] == "25.x.122"
    tools = clean(apispec_run("mcp-tools", "--format", "json", cwd=tmp_path), 0)
    assert tools.err == NOTE and len(json.loads(tools.out)) == 72
    named = clean(apispec_run("openapi", "--release", "25.x.1xx", "--format", "json"), 0)
    assert named.err == "" and json.loads(named.out)["info"]["version"] == "25.x.1xx"


def test_docs_says_which_release_it_documents(tmp_path: Path) -> None:
    result = clean(apispec_run("docs", "-o", str(tmp_path / "site"), cwd=tmp_path), 0)
    assert result.err == NOTE
    assert "release 25.x.122" in (tmp_path / "site" / "README.md").read_text()


def test_the_mock_banner_names_the_release_and_why() -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "apispec", "mock", "--port", "0", "--objects", "6"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        first = process.stdout.readline().strip()
    finally:
        process.terminate()
        process.communicate(timeout=15)
    assert re.fullmatch(
        r"apispec mock: API v2 release 25\.x\.122 \(default: the newest concrete release\) "
        r"at http://127\.0\.0\.1:\d+/api/v2",
        first,
    ), first


def test_lint_says_the_target_and_whether_it_was_the_default(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("x = 1\n")
    default = clean(apispec_run("lint", "a.py", cwd=tmp_path), 0)
    assert default.out.splitlines()[-1] == (
        "Checked 1 file against 25.x.122 (default: the newest concrete release)."
    )
    named = clean(apispec_run("lint", "--target", "25.x.1xx", "a.py", cwd=tmp_path), 0)
    assert named.out.splitlines()[-1] == "Checked 1 file against 25.x.1xx."


def test_a_call_to_an_endpoint_of_the_placeholder_release_fails_by_default(
    tmp_path: Path,
) -> None:
    """The trap of the old default: code calling an endpoint that exists only in 25.x.1xx
    passed, though no server offers it."""
    (tmp_path / "jobs.py").write_text(
        'BASE = "https://prtg:1616/api/v2"\n'
        'requests.get(f"{BASE}/experimental/autodiscoveryjobs/history")\n'
    )
    result = clean(
        apispec_run("lint", "--format", "concise", "--quiet", "jobs.py", cwd=tmp_path), 1
    )
    assert result.out == (
        "jobs.py:2:22: API005 [error] GET /experimental/autodiscoveryjobs/history is not "
        "available yet: it appears in 25.x.1xx\n"
    )
