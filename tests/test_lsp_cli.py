"""`apispec lsp` as a command: its extra, its options, and the other commands' start-up."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.lsp_client import answer_over_tcp

PYTHON = sys.executable
REPO = Path(__file__).resolve().parents[1]


def _imported(*args: str, cwd: Path) -> set[str]:
    """Top-level names of every module a fresh `python -m apispec ARGS` imports."""
    run = subprocess.run(
        [PYTHON, "-X", "importtime", "-m", "apispec", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        check=False,
    )
    assert run.returncode in (0, 1), run.stderr[-500:]
    names = set()
    for line in run.stderr.splitlines():
        if line.startswith("import time:") and "|" in line:
            names.add(line.rsplit("|", 1)[1].strip())
    assert "apispec.cli" in names
    return names


@pytest.mark.parametrize(
    "args",
    [
        ("lint", "--fail-on", "never", "script.py"),
        ("filter", "check", 'status = "up"'),
        ("filter", "fix", "status == up"),
    ],
)
def test_no_other_command_imports_the_language_server(args, tmp_path):
    (tmp_path / "script.py").write_text(
        'import requests\nrequests.get("https://prtg:1616/api/v2/sensors/1/overview")\n'
    )
    names = _imported(*args, cwd=tmp_path)
    heavy = {n for n in names if n.split(".")[0] in ("pygls", "lsprotocol", "cattrs")}
    heavy |= {n for n in names if n.startswith("apispec.lsp")}
    assert heavy == set()


def test_without_the_extra_it_says_how_to_install_it():
    code = (
        "import sys; sys.modules['pygls'] = None\n"  # as if pygls were not installed
        "from apispec.cli import main; sys.exit(main(['lsp']))"
    )
    run = subprocess.run([PYTHON, "-c", code], capture_output=True, text=True, check=False)
    assert run.returncode == 2
    assert run.stderr == (
        "apispec: error: apispec lsp needs the extra 'lsp': pip install 'apispec-v2[lsp] @ git+https://github.com/apispec-v2/apispec'"
        " (or pip install '.[lsp]' in a clone)\n"
    )


def test_stdio_and_tcp_exclude_each_other(cli):
    result = cli("lsp", "--stdio", "--tcp", "9999")
    assert (result.code, result.err) == (
        2,
        "apispec: error: --stdio and --tcp exclude each other\n",
    )
    result = cli("lsp", "--tcp", "0")
    assert result.code == 2 and "port must be between 1 and 65535" in result.err


def test_it_serves_on_a_tcp_port():
    request = {"id": 1, "method": "initialize", "params": {"capabilities": {}}}
    answer = answer_over_tcp(request)
    assert answer["result"]["serverInfo"]["name"] == "apispec"
    assert answer["result"]["capabilities"]["diagnosticProvider"]["identifier"] == "apispec"
