"""The pytest-lsp client setup and helpers the language server's tests share."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

SERVER = ClientServerConfig(server_command=[sys.executable, "-m", "apispec", "lsp"])
PULL = types.ClientCapabilities(
    text_document=types.TextDocumentClientCapabilities(
        diagnostic=types.DiagnosticClientCapabilities()
    ),
    workspace=types.WorkspaceClientCapabilities(
        diagnostics=types.DiagnosticWorkspaceClientCapabilities(refresh_support=True)
    ),
)
SCRIPT = """\
import requests

BASE = "https://prtg.example.com:1616/api/v2"
AUTH = {"Authorization": "Bearer " + TOKEN}

sensor = requests.get(f"{BASE}/sensors/{sid}/overview", headers=AUTH)
down = requests.get(f"{BASE}/experimental/objects", params={"filter": "status == down"}, headers=AUTH)
"""
WAIT = 30  # seconds; generous, the machine is shared


def open_document(client: LanguageClient, path: Path, text: str, language: str = "python") -> str:
    path.write_text(text, encoding="utf-8")
    uri = path.as_uri()
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(types.TextDocumentItem(uri, language, 1, text))
    )
    return uri


async def next_diagnostics(client: LanguageClient, uri: str) -> list[types.Diagnostic]:
    """The next diagnostics published for `uri`."""
    client.diagnostics.pop(uri, None)
    while uri not in client.diagnostics:
        await asyncio.wait_for(
            client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS), WAIT
        )
    return list(client.diagnostics[uri])


def at(line: int, character: int) -> types.Position:
    return types.Position(line, character)


def apply_edits(text: str, edits: list[types.TextEdit]) -> str:
    lines = text.split("\n")
    starts = [0]
    for line in lines[:-1]:
        starts.append(starts[-1] + len(line) + 1)

    def offset(p: types.Position) -> int:
        return starts[p.line] + p.character

    for edit in sorted(edits, key=lambda e: offset(e.range.start), reverse=True):
        text = text[: offset(edit.range.start)] + edit.new_text + text[offset(edit.range.end) :]
    return text
