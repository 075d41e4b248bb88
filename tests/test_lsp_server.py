"""`apispec lsp` end to end: the real server over stdio, driven by pytest-lsp's client."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

pytestmark = pytest.mark.asyncio(loop_scope="module")

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
down = requests.get(f"{BASE}/experimental/devices", params={"filter": "status == down"}, headers=AUTH)
"""
WAIT = 30  # seconds; generous, the machine is shared


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("workspace")


# One server per client kind for the whole module (starting one costs a second or two);
# each test works in a folder of its own, so no test sees another's files.
@pytest_lsp.fixture(config=SERVER, scope="module")
async def client(lsp_client: LanguageClient, workspace: Path):
    await lsp_client.initialize_session(
        types.InitializeParams(
            capabilities=types.ClientCapabilities(
                window=types.WindowClientCapabilities(
                    show_document=types.ShowDocumentClientCapabilities(support=True)
                ),
                text_document=types.TextDocumentClientCapabilities(
                    hover=types.HoverClientCapabilities(content_format=[types.MarkupKind.Markdown]),
                    completion=types.CompletionClientCapabilities(
                        completion_item=types.ClientCompletionItemOptions(
                            documentation_format=[types.MarkupKind.Markdown]
                        )
                    ),
                ),
            ),
            workspace_folders=[types.WorkspaceFolder(workspace.as_uri(), "work")],
        )
    )
    yield
    await lsp_client.shutdown_session()


@pytest.fixture(scope="module")
def pull_workspace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("pulled")


@pytest_lsp.fixture(config=SERVER, scope="module")
async def puller(lsp_client: LanguageClient, pull_workspace: Path):
    await lsp_client.initialize_session(
        types.InitializeParams(
            capabilities=PULL,
            workspace_folders=[types.WorkspaceFolder(pull_workspace.as_uri(), "work")],
        )
    )
    yield
    await lsp_client.shutdown_session()


@pytest.fixture
def folder(request: pytest.FixtureRequest) -> Path:
    """A fresh folder inside the workspace of the client the test uses."""
    root = request.getfixturevalue(
        "pull_workspace" if "puller" in request.fixturenames else "workspace"
    )
    path = root / request.node.name[:60]
    path.mkdir()
    return path


def _open(client: LanguageClient, path: Path, text: str, language: str = "python") -> str:
    path.write_text(text, encoding="utf-8")
    uri = path.as_uri()
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(types.TextDocumentItem(uri, language, 1, text))
    )
    return uri


async def _diagnostics(client: LanguageClient, uri: str) -> list[types.Diagnostic]:
    """The next diagnostics published for `uri`."""
    client.diagnostics.pop(uri, None)
    while uri not in client.diagnostics:
        await asyncio.wait_for(
            client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS), WAIT
        )
    return list(client.diagnostics[uri])


def _at(line: int, character: int) -> types.Position:
    return types.Position(line, character)


def _apply(text: str, edits: list[types.TextEdit]) -> str:
    lines = text.split("\n")
    starts = [0]
    for line in lines[:-1]:
        starts.append(starts[-1] + len(line) + 1)

    def offset(p: types.Position) -> int:
        return starts[p.line] + p.character

    for edit in sorted(edits, key=lambda e: offset(e.range.start), reverse=True):
        text = text[: offset(edit.range.start)] + edit.new_text + text[offset(edit.range.end) :]
    return text


async def test_a_deprecated_call_and_a_bad_filter_get_exact_ranges(client, folder):
    uri = _open(client, folder / "script.py", SCRIPT)
    found = {d.code: d for d in await _diagnostics(client, uri)}
    assert set(found) == {"API002", "API003", "API006"}
    deprecated = found["API002"]
    assert deprecated.range == types.Range(_at(5, 30), _at(5, 53))  # /sensors/{sid}/overview
    assert deprecated.severity == types.DiagnosticSeverity.Warning
    assert list(deprecated.tags) == [types.DiagnosticTag.Deprecated]
    assert deprecated.message.endswith("use GET /sensors/{id}")
    assert deprecated.code_description.href.endswith("docs/linter.md#api002-deprecated-endpoint")
    bad = found["API006"]
    assert bad.range == types.Range(_at(6, 79), _at(6, 80))  # the second `=` of `==`
    assert bad.severity == types.DiagnosticSeverity.Error
    assert "FLT001" in bad.message and bad.source == "apispec"


async def test_the_same_findings_as_the_cli(client, folder):
    uri = _open(client, folder / "script.py", SCRIPT)
    published = await _diagnostics(client, uri)
    cli = subprocess.run(
        [sys.executable, "-m", "apispec", "lint", "--format", "json", str(folder / "script.py")],
        capture_output=True,
        text=True,
        check=False,
    )
    shown = json.loads(cli.stdout)
    findings = shown["findings"] if isinstance(shown, dict) else shown
    assert sorted((f["code"], f["message"]) for f in findings) == sorted(
        (d.code, d.message) for d in published
    )


async def test_unsaved_changes_are_what_gets_linted(client, folder):
    uri = _open(client, folder / "script.py", SCRIPT)
    await _diagnostics(client, uri)
    fixed = SCRIPT.replace("/overview", "").replace("==", "=")
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            types.VersionedTextDocumentIdentifier(version=2, uri=uri),
            [types.TextDocumentContentChangeWholeDocument(fixed)],
        )
    )
    assert [d.code for d in await _diagnostics(client, uri)] == ["API003"]


async def test_completion_inside_a_filter_string_offers_status(client, folder):
    text = SCRIPT.replace('"status == down"', '"st"')
    uri = _open(client, folder / "script.py", text)
    column = text.splitlines()[6].index('"st"') + 3
    result = await client.text_document_completion_async(
        types.CompletionParams(types.TextDocumentIdentifier(uri), _at(6, column))
    )
    status = next(i for i in result.items if i.label == "status")
    assert status.text_edit.new_text == "status"
    assert status.text_edit.range == types.Range(_at(6, column - 2), _at(6, column))


async def test_completion_of_a_path_marks_deprecated_ones_and_sorts_them_last(client, folder):
    text = 'import requests\nBASE = "https://prtg:1616/api/v2"\nrequests.get(f"{BASE}/sensors/{sid}/")\n'
    uri = _open(client, folder / "paths.py", text)
    column = text.splitlines()[2].index('/")') + 1
    result = await client.text_document_completion_async(
        types.CompletionParams(types.TextDocumentIdentifier(uri), _at(2, column))
    )
    by_label = {i.label: i for i in result.items}
    overview = by_label["/sensors/{id}/overview"]
    assert list(overview.tags) == [types.CompletionItemTag.Deprecated]
    assert "deprecated" in overview.detail and overview.text_edit.new_text == "overview"
    ordered = sorted(result.items, key=lambda i: i.sort_text)
    assert list(ordered[-1].tags) == [types.CompletionItemTag.Deprecated]


async def test_hover_on_a_deprecated_path_names_the_successor(client, folder):
    uri = _open(client, folder / "script.py", SCRIPT)
    result = await client.text_document_hover_async(
        types.HoverParams(types.TextDocumentIdentifier(uri), _at(5, 40))
    )
    text = result.contents.value
    assert "deprecated" in text and "successor: GET /sensors/{id}" in text
    assert "get_sensor_overview" in text
    assert result.range == types.Range(_at(5, 30), _at(5, 53))


async def test_hover_on_a_filter_property_shows_type_operators_and_values(client, folder):
    uri = _open(client, folder / "script.py", SCRIPT)
    column = SCRIPT.splitlines()[6].index("status ==") + 2
    result = await client.text_document_hover_async(
        types.HoverParams(types.TextDocumentIdentifier(uri), _at(6, column))
    )
    text = result.contents.value
    assert "**status**" in text and "enumeration" in text
    assert "`=`, `!=`" in text and "`up`, `down`" in text


async def test_the_successor_fix_applied_gives_a_file_the_linter_passes(client, folder):
    text = SCRIPT.splitlines(keepends=True)
    text = "".join(text[:6])  # the deprecated call only
    path = folder / "fixme.py"
    uri = _open(client, path, text)
    (diagnostic,) = await _diagnostics(client, uri)
    actions = await client.text_document_code_action_async(
        types.CodeActionParams(
            types.TextDocumentIdentifier(uri),
            diagnostic.range,
            types.CodeActionContext([diagnostic]),
        )
    )
    fix = next(a for a in actions if a.title.startswith("Replace with GET /sensors/{id}"))
    assert fix.is_preferred and fix.kind == types.CodeActionKind.QuickFix
    path.write_text(_apply(text, fix.edit.changes[uri]), encoding="utf-8")
    assert 'f"{BASE}/sensors/{sid}"' in path.read_text()
    lint = subprocess.run(
        [sys.executable, "-m", "apispec", "lint", str(path)], capture_output=True, text=True
    )
    assert lint.returncode == 0, lint.stdout


async def test_filter_fix_suppression_documentation_and_fix_all(client, folder):
    uri = _open(client, folder / "script.py", SCRIPT)
    diagnostics = await _diagnostics(client, uri)
    bad = next(d for d in diagnostics if d.code == "API006")
    actions = await client.text_document_code_action_async(
        types.CodeActionParams(
            types.TextDocumentIdentifier(uri), bad.range, types.CodeActionContext([bad])
        )
    )
    titles = [a.title for a in actions]
    assert "Compare with a single `=` (API006)" in titles
    assert "Suppress API006 on this line" in titles
    assert "Show documentation for API006" in titles
    fixed = _apply(
        SCRIPT, actions[titles.index("Compare with a single `=` (API006)")].edit.changes[uri]
    )
    assert '"filter": "status = down"' in fixed
    suppress = actions[titles.index("Suppress API006 on this line")]
    assert (
        _apply(SCRIPT, suppress.edit.changes[uri])
        .splitlines()[6]
        .endswith("  # apispec: ignore[API006]")
    )
    # (pygls's client reads a CodeAction carrying a command as a Command: ask for it by name)
    await client.workspace_execute_command_async(
        types.ExecuteCommandParams("apispec.showDocumentation", ["API006"])
    )
    assert client.shown_documents[-1].uri.endswith("docs/linter.md#api006-invalid-filter")
    everything = await client.text_document_code_action_async(
        types.CodeActionParams(
            types.TextDocumentIdentifier(uri),
            types.Range(_at(0, 0), _at(0, 0)),
            types.CodeActionContext([], only=["source.fixAll.apispec"]),
        )
    )
    (fix_all,) = everything
    fixed = _apply(SCRIPT, fix_all.edit.changes[uri])
    assert 'f"{BASE}/sensors/{sid}"' in fixed and '"status = down"' in fixed


async def test_pull_diagnostics_for_a_document(puller, folder):
    uri = _open(puller, folder / "script.py", SCRIPT)
    report = await puller.text_document_diagnostic_async(
        types.DocumentDiagnosticParams(types.TextDocumentIdentifier(uri))
    )
    assert sorted(d.code for d in report.items) == ["API002", "API003", "API006"]
    again = await puller.text_document_diagnostic_async(
        types.DocumentDiagnosticParams(
            types.TextDocumentIdentifier(uri), previous_result_id=report.result_id
        )
    )
    assert again.kind == "unchanged" and again.result_id == report.result_id
    assert uri not in puller.diagnostics  # a pull client is not pushed to
    hover = await puller.text_document_hover_async(
        types.HoverParams(types.TextDocumentIdentifier(uri), _at(5, 40))
    )
    assert isinstance(hover.contents, str)  # no Markdown declared: the same text, plain
    assert "successor: GET /sensors/{id}" in hover.contents


async def test_workspace_diagnostics_cover_the_folder_and_honour_gitignore(puller, folder):
    (folder / ".git").mkdir()
    (folder / ".gitignore").write_text("generated/\n")
    (folder / "generated").mkdir()
    (folder / "generated" / "old.py").write_text(SCRIPT)
    (folder / "src").mkdir()
    (folder / "src" / "job.py").write_text(SCRIPT)
    (folder / "clean.py").write_text("print('nothing to see')\n")
    job = (folder / "src" / "job.py").as_uri()
    report = await puller.workspace_diagnostic_async(types.WorkspaceDiagnosticParams([]))
    mine = {i.uri: i for i in report.items if i.uri.startswith(folder.as_uri() + "/")}
    assert list(mine) == [job]
    assert sorted(d.code for d in mine[job].items) == ["API002", "API003", "API006"]
    # Asked again with what it has, the client waits until something changes; an edit
    # that fixes the file (unsaved, in the editor) answers it with an empty report.
    known = [types.PreviousResultId(i.uri, i.result_id) for i in report.items]
    waiting = asyncio.ensure_future(
        puller.workspace_diagnostic_async(types.WorkspaceDiagnosticParams(known))
    )
    await asyncio.sleep(0.5)
    assert not waiting.done()
    clean = "import requests  # the calls moved elsewhere\n"
    puller.text_document_did_open(
        types.DidOpenTextDocumentParams(types.TextDocumentItem(job, "python", 1, clean))
    )
    later = await asyncio.wait_for(waiting, WAIT)
    (now,) = [i for i in later.items if i.uri == job]
    assert (now.kind, list(now.items), now.version) == ("full", [], 1)


async def test_a_configuration_change_relints_open_documents(client, folder):
    uri = _open(client, folder / "script.py", SCRIPT)
    assert "API002" in {d.code for d in await _diagnostics(client, uri)}
    config = folder / ".apispec.toml"
    config.write_text('ignore = ["API002", "API003"]\n')
    client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(
            [types.FileEvent(config.as_uri(), types.FileChangeType.Created)]
        )
    )
    assert [d.code for d in await _diagnostics(client, uri)] == ["API006"]


async def test_malformed_requests_get_errors_and_the_server_keeps_serving(client, folder):
    uri = _open(client, folder / "script.py", SCRIPT)
    await _diagnostics(client, uri)
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
        types.HoverParams(types.TextDocumentIdentifier(uri), _at(999, 999))
    )
    assert far is None
    unknown = await client.text_document_hover_async(
        types.HoverParams(types.TextDocumentIdentifier("file:///nowhere.py"), _at(0, 0))
    )
    assert unknown is None
    result = await client.text_document_hover_async(
        types.HoverParams(types.TextDocumentIdentifier(uri), _at(5, 40))
    )
    assert "deprecated" in result.contents.value


async def test_a_5_mb_document_is_linted_without_stalling_other_requests(client, folder):
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
    big_uri = _open(client, folder / "big.py", "".join(parts))
    small_uri = _open(client, folder / "small.py", SCRIPT)
    hover = await asyncio.wait_for(
        client.text_document_hover_async(
            types.HoverParams(types.TextDocumentIdentifier(small_uri), _at(5, 40))
        ),
        WAIT,
    )
    assert "deprecated" in hover.contents.value
    found = await _diagnostics(client, big_uri)
    assert sum(d.code == "API002" for d in found) > 100


async def test_binary_garbage_is_not_linted_and_does_no_harm(client, folder):
    garbage = bytes(range(256)).decode("latin-1") * 50 + "\udcff\ufffe\x00"
    uri = _open(client, folder / "blob.py", "x = 1\n")
    assert await _diagnostics(client, uri) == []
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            types.VersionedTextDocumentIdentifier(version=2, uri=uri),
            [types.TextDocumentContentChangeWholeDocument(garbage)],
        )
    )
    (note,) = await _diagnostics(client, uri)
    assert note.message == "not linted: binary"
    result = await client.text_document_completion_async(
        types.CompletionParams(types.TextDocumentIdentifier(uri), _at(0, 40))
    )
    assert result is not None
    uri2 = _open(client, folder / "script.py", SCRIPT)
    assert {d.code for d in await _diagnostics(client, uri2)} == {"API002", "API003", "API006"}
