"""Hostile input to `apispec lsp`: bytes that are not JSON-RPC, requests that do not fit the
protocol, a 5 MB document, binary garbage. The server answers errors, never crashes, and
keeps serving the documents it has."""

from __future__ import annotations

import asyncio
import json

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.lsp_client import SCRIPT, SERVER, WAIT, at, next_diagnostics, open_document

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_lsp.fixture(config=SERVER, scope="module")
async def client(lsp_client: LanguageClient):
    await lsp_client.initialize_session(
        types.InitializeParams(
            capabilities=types.ClientCapabilities(
                text_document=types.TextDocumentClientCapabilities(
                    hover=types.HoverClientCapabilities(content_format=[types.MarkupKind.Markdown])
                )
            )
        )
    )
    yield
    await lsp_client.shutdown_session()


async def test_malformed_requests_get_errors_and_the_server_keeps_serving(client, tmp_path):
    uri = open_document(client, tmp_path / "script.py", SCRIPT)
    await next_diagnostics(client, uri)
    stdin = client._server.stdin
    for body in (b"{not json", b"[1, 2]", b'"text"', b"{}"):
        stdin.write(b"Content-Length: %d\r\n\r\n%s" % (len(body), body))
    # A request whose parameters do not fit the protocol: answered with an error, by its id.
    answer = asyncio.get_running_loop().create_future()
    client.protocol._request_futures["bad-1"] = answer
    body = json.dumps(
        {"jsonrpc": "2.0", "id": "bad-1", "method": "textDocument/hover", "params": {"x": 5}}
    ).encode()
    stdin.write(b"Content-Length: %d\r\n\r\n%s" % (len(body), body))
    with pytest.raises(Exception, match="Invalid Params: textDocument/hover"):
        await asyncio.wait_for(answer, WAIT)
    with pytest.raises(Exception, match="Method Not Found"):
        await client.protocol.send_request_async("apispec/nothing", {})
    far = await client.text_document_hover_async(
        types.HoverParams(types.TextDocumentIdentifier(uri), at(999, 999))
    )
    assert far is None
    unknown = await client.text_document_hover_async(
        types.HoverParams(types.TextDocumentIdentifier("file:///nowhere.py"), at(0, 0))
    )
    assert unknown is None
    result = await client.text_document_hover_async(
        types.HoverParams(types.TextDocumentIdentifier(uri), at(5, 40))
    )
    assert "deprecated" in result.contents.value


async def test_a_5_mb_document_is_linted_without_stalling_other_requests(client, tmp_path):
    filler = "def handler_{n}(event):\n    return {{'status': 200, 'n': {n}}}\n"
    call = 'r = requests.get(f"{{BASE}}/sensors/{{sid}}/overview")  # call {n}\n'
    parts = [SCRIPT]
    size = len(SCRIPT)
    n = 0
    while size < 5_000_000:
        piece = (call if n % 400 == 0 else filler).format(n=n)
        parts.append(piece)
        size += len(piece)
        n += 1
    big_uri = open_document(client, tmp_path / "big.py", "".join(parts))
    small_uri = open_document(client, tmp_path / "small.py", SCRIPT)
    hover = await asyncio.wait_for(
        client.text_document_hover_async(
            types.HoverParams(types.TextDocumentIdentifier(small_uri), at(5, 40))
        ),
        WAIT,
    )
    assert "deprecated" in hover.contents.value
    found = await next_diagnostics(client, big_uri)
    assert sum(d.code == "API002" for d in found) > 100
    client.text_document_did_close(
        types.DidCloseTextDocumentParams(types.TextDocumentIdentifier(big_uri))
    )


async def test_binary_garbage_is_not_linted_and_does_no_harm(client, tmp_path):
    garbage = bytes(range(256)).decode("latin-1") * 50 + "\udcff\ufffe\x00"
    uri = open_document(client, tmp_path / "blob.py", "x = 1\n")
    assert await next_diagnostics(client, uri) == []
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            types.VersionedTextDocumentIdentifier(version=2, uri=uri),
            [types.TextDocumentContentChangeWholeDocument(garbage)],
        )
    )
    (note,) = await next_diagnostics(client, uri)
    assert note.message == "not linted: binary"
    result = await client.text_document_completion_async(
        types.CompletionParams(types.TextDocumentIdentifier(uri), at(0, 40))
    )
    assert result is not None
    uri2 = open_document(client, tmp_path / "script.py", SCRIPT)
    assert {d.code for d in await next_diagnostics(client, uri2)} == {"API002", "API003", "API006"}


async def test_odd_notifications_settings_and_commands_are_answered_or_ignored(client, tmp_path):
    # A change to a document never opened, a close of one never opened: ignored.
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            types.VersionedTextDocumentIdentifier(version=3, uri="file:///never/opened.py"),
            [types.TextDocumentContentChangeWholeDocument("x = 1")],
        )
    )
    client.text_document_did_close(
        types.DidCloseTextDocumentParams(types.TextDocumentIdentifier("untitled:Untitled-9"))
    )
    # Settings of the wrong shape: one message each, and linting goes on with the rest.
    client.workspace_did_change_configuration(
        types.DidChangeConfigurationParams(settings={"apispec": {"select": 5, "target": "99.9"}})
    )
    uri = open_document(client, tmp_path / "after.py", SCRIPT)
    assert {d.code for d in await next_diagnostics(client, uri)} == {"API002", "API003", "API006"}
    messages = " | ".join(m.message for m in client.messages)
    assert "select: expected a list of strings" in messages
    assert "target: invalid release '99.9'" in messages
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings={}))
    # Unknown commands and rules are errors, not crashes.
    with pytest.raises(Exception, match="unknown rule 'NOPE'"):
        await client.workspace_execute_command_async(
            types.ExecuteCommandParams("apispec.showDocumentation", ["NOPE"])
        )
    with pytest.raises(Exception, match="not defined"):
        await client.workspace_execute_command_async(types.ExecuteCommandParams("apispec.nothing"))
    # A 1 MB line of quotes and a cursor at its end: answered.
    line = '"filter": "' * 100_000
    long_uri = open_document(client, tmp_path / "long.py", line)
    result = await asyncio.wait_for(
        client.text_document_completion_async(
            types.CompletionParams(types.TextDocumentIdentifier(long_uri), at(0, len(line)))
        ),
        WAIT,
    )
    assert result is not None
