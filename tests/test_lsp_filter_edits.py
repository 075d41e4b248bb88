"""Editing filter strings through `apispec lsp`: completion after a slip the checker repairs,
and "Format the filter" / `source.formatFilters.apispec` code actions (`filter fmt`)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.lsp_client import SERVER, apply_edits, at, next_diagnostics, open_document

pytestmark = pytest.mark.asyncio(loop_scope="module")

FORMAT_FILTER = "refactor.rewrite"
FORMAT_ALL = "source.formatFilters.apispec"
CLIENT = """\
import requests

BASE = "https://prtg.example.com:1616/api/v2"
up = requests.get(f"{BASE}/experimental/devices", params={"filter": "status=up  and(type=sensor or type = channel)"})
named = requests.get(f"{BASE}/experimental/devices", params={"filter": "name=\\"a b\\""})
wrong = requests.get(f"{BASE}/experimental/devices", params={"filter": "status == down"})
url = requests.get(f"{BASE}/experimental/devices?filter=status%3Dup")
fine = requests.get(f"{BASE}/experimental/devices", params={"filter": "status = up"})
"""


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("filters")


@pytest_lsp.fixture(config=SERVER, scope="module")
async def client(lsp_client: LanguageClient, workspace: Path):
    await lsp_client.initialize_session(
        types.InitializeParams(
            capabilities=types.ClientCapabilities(),
            workspace_folders=[types.WorkspaceFolder(workspace.as_uri(), "work")],
        )
    )
    yield
    await lsp_client.shutdown_session()


def _fmt(text: str) -> str:
    """What `apispec filter fmt` prints for one filter."""
    done = subprocess.run(
        [sys.executable, "-m", "apispec", "filter", "fmt", text],
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout.strip()


async def _actions(client, uri: str, line: int, only: list[str] | None = None):
    return await client.text_document_code_action_async(
        types.CodeActionParams(
            types.TextDocumentIdentifier(uri),
            types.Range(at(line, 0), at(line, 0)),
            types.CodeActionContext(diagnostics=[], only=only),
        )
    )


async def test_completion_goes_on_after_an_upper_case_and(client, workspace):
    text = 'import requests\nr = requests.get(url, params={"filter": "status = up AND "})\n'
    uri = open_document(client, workspace / "slip.py", text)
    column = text.splitlines()[1].index('AND "') + 4
    result = await client.text_document_completion_async(
        types.CompletionParams(types.TextDocumentIdentifier(uri), at(1, column))
    )
    labels = {i.label for i in result.items}
    assert {"status", "type", "name", "not"} <= labels, labels
    status = next(i for i in result.items if i.label == "status")
    assert status.text_edit.range == types.Range(at(1, column), at(1, column))


async def test_format_the_filter_at_the_cursor_as_filter_fmt_does(client, workspace):
    uri = open_document(client, workspace / "client.py", CLIENT)
    await next_diagnostics(client, uri)
    lines = CLIENT.splitlines()
    actions = await _actions(client, uri, 3)
    (action,) = [a for a in actions if a.kind == FORMAT_FILTER]
    expected = _fmt("status=up  and(type=sensor or type = channel)")
    assert action.title == f"Format the filter as `{expected}`"
    edited = apply_edits(CLIENT, action.edit.changes[uri]).splitlines()
    assert edited[3] == lines[3].replace("status=up  and(type=sensor or type = channel)", expected)
    assert edited[:3] + edited[4:] == lines[:3] + lines[4:]

    # a text value keeps its escapes in the host string: `\\"` inside a Python string
    (named,) = [a for a in await _actions(client, uri, 4) if a.kind == FORMAT_FILTER]
    edited = apply_edits(CLIENT, named.edit.changes[uri]).splitlines()
    assert edited[4] == lines[4].replace('"name=\\"a b\\""', '"name = \\"a b\\""')

    # a filter with an error, a URL's query string and a canonical filter are left alone
    for line in (5, 6, 7):
        assert [a for a in await _actions(client, uri, line) if a.kind == FORMAT_FILTER] == []


async def test_format_every_filter_string_of_the_file(client, workspace):
    uri = open_document(client, workspace / "every.py", CLIENT)
    await next_diagnostics(client, uri)
    actions = await _actions(client, uri, 0, only=[FORMAT_ALL])
    (action,) = actions
    assert action.kind == FORMAT_ALL and action.title == "Format every filter string (2)"
    formatted = apply_edits(CLIENT, action.edit.changes[uri])
    path = workspace / "every-formatted.py"
    path.write_text(formatted, encoding="utf-8")
    again = open_document(client, path, formatted)
    await next_diagnostics(client, again)
    assert list(await _actions(client, again, 0, only=[FORMAT_ALL])) == []
    assert "status = up and (type = sensor or type = channel)" in formatted
    # source actions come only when asked for
    assert list(await _actions(client, uri, 0, only=["quickfix"])) == []
