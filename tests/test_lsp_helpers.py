"""The language server knows the workspace's own API helpers, as `apispec lint FOLDER` does.

report.py calls `_get`, which prtg_api.py defines on top of the API's base:
the CLI's second pass makes that an API v2 call (API004), and the editor must
show the same finding, then drop it when the helper's definition is edited
in an unsaved buffer so that its base no longer names this API.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.lsp_client import PULL, SERVER, WAIT, at, next_diagnostics, open_document

pytestmark = pytest.mark.asyncio(loop_scope="module")

HELPER = """\
import requests

BASE = "https://prtg.example.com:1616/api/v2"


def _get(path):
    return requests.get(BASE + path)
"""
CALLER = """\
from prtg_api import _get

summary = _get('/sensor-status-summary')
"""
SEVERITY = {
    "error": types.DiagnosticSeverity.Error,
    "warning": types.DiagnosticSeverity.Warning,
    "info": types.DiagnosticSeverity.Information,
}


def _tree(root: Path) -> Path:
    (root / "prtg_api.py").write_text(HELPER, encoding="utf-8")
    (root / "report.py").write_text(CALLER, encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def pushed_tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _tree(tmp_path_factory.mktemp("helpers-pushed"))


@pytest.fixture(scope="module")
def pulled_tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _tree(tmp_path_factory.mktemp("helpers-pulled"))


@pytest_lsp.fixture(config=SERVER, scope="module")
async def client(lsp_client: LanguageClient, pushed_tree: Path):
    await lsp_client.initialize_session(
        types.InitializeParams(
            capabilities=types.ClientCapabilities(),
            workspace_folders=[types.WorkspaceFolder(pushed_tree.as_uri(), "work")],
        )
    )
    yield
    await lsp_client.shutdown_session()


@pytest_lsp.fixture(config=SERVER, scope="module")
async def puller(lsp_client: LanguageClient, pulled_tree: Path):
    await lsp_client.initialize_session(
        types.InitializeParams(
            capabilities=PULL,
            workspace_folders=[types.WorkspaceFolder(pulled_tree.as_uri(), "work")],
        )
    )
    yield
    await lsp_client.shutdown_session()


def _cli_findings(tree: Path, name: str) -> list[tuple[str, types.Range, str, int]]:
    """`apispec lint FOLDER`'s findings for one file, as (code, range, message, severity)."""
    done = subprocess.run(
        [sys.executable, "-m", "apispec", "lint", "--no-cache", "--format", "json", "."],
        cwd=tree,
        capture_output=True,
        text=True,
        check=False,
    )
    return [
        (
            f["code"],
            types.Range(
                at(f["line"] - 1, f["column"] - 1), at(f["end_line"] - 1, f["end_column"] - 1)
            ),
            f["message"],
            SEVERITY[f["severity"]],
        )
        for f in json.loads(done.stdout)["findings"]
        if f["path"] == name
    ]


def _shown(diagnostics: list[types.Diagnostic]) -> list[tuple[str, types.Range, str, int]]:
    return [(str(d.code), d.range, d.message, d.severity) for d in diagnostics]


async def test_a_helper_another_file_defines_gives_the_clis_finding(client, pushed_tree):
    expected = _cli_findings(pushed_tree, "report.py")
    assert [code for code, *_ in expected] == ["API004"]  # the CLI's second pass found it
    uri = open_document(client, pushed_tree / "report.py", CALLER)
    # published at once, then again when the workspace's helpers are learnt
    shown = _shown(await next_diagnostics(client, uri))
    loop = asyncio.get_running_loop()
    deadline = loop.time() + WAIT
    while shown != expected and loop.time() < deadline:
        shown = _shown(await next_diagnostics(client, uri))
    assert shown == expected


async def _pull(puller: LanguageClient, uri: str) -> list[types.Diagnostic]:
    report = await puller.text_document_diagnostic_async(
        types.DocumentDiagnosticParams(types.TextDocumentIdentifier(uri))
    )
    return list(report.items)


async def test_editing_the_helpers_base_in_an_unsaved_buffer_drops_the_callers_finding(
    puller, pulled_tree
):
    caller = open_document(puller, pulled_tree / "report.py", CALLER)
    loop = asyncio.get_running_loop()
    deadline = loop.time() + WAIT
    while not (found := await _pull(puller, caller)) and loop.time() < deadline:
        await asyncio.sleep(0.1)  # the helpers are learnt in the background
    assert [d.code for d in found] == ["API004"]
    helper = open_document(puller, pulled_tree / "prtg_api.py", HELPER)
    edited = HELPER.replace("prtg.example.com:1616", "servicedesk.example.com")
    puller.text_document_did_change(
        types.DidChangeTextDocumentParams(
            types.VersionedTextDocumentIdentifier(2, helper),
            [types.TextDocumentContentChangeWholeDocument(edited)],
        )
    )
    assert await _pull(puller, caller) == []  # the next pull, without saving
    assert (pulled_tree / "prtg_api.py").read_text(encoding="utf-8") == HELPER
