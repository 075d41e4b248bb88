"""The pytest-lsp client setup and helpers the language server's tests share."""

from __future__ import annotations

import asyncio
import json
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

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


def answer_over_tcp(request: dict[str, Any]) -> dict[str, Any]:
    """The answer of `apispec lsp --tcp PORT` (pygls on its own) to one request."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen(
        [sys.executable, "-m", "apispec", "lsp", "--tcp", str(port)], stderr=subprocess.PIPE
    )
    try:
        deadline = time.monotonic() + WAIT
        while True:
            try:
                conn = socket.create_connection(("127.0.0.1", port), timeout=WAIT)
                break
            except OSError:
                assert time.monotonic() < deadline and server.poll() is None
                time.sleep(0.1)
        with conn:
            body = json.dumps({"jsonrpc": "2.0", **request}).encode()
            conn.sendall(b"Content-Length: %d\r\n\r\n%s" % (len(body), body))
            data = b""
            while b"\r\n\r\n" not in data or len(data.split(b"\r\n\r\n", 1)[1]) < int(
                data.split(b"Content-Length: ")[1].split(b"\r\n")[0]
            ):
                chunk = conn.recv(65536)
                assert chunk
                data += chunk
        return json.loads(data.split(b"\r\n\r\n", 1)[1])
    finally:
        server.kill()
        server.wait()
