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
from pytest_lsp import LanguageClient

from tests.lsp_client import (
    PULL,
    SCRIPT,
    SERVER,
    WAIT,
    apply_edits,
    at,
    next_diagnostics,
    open_document,
)

pytestmark = pytest.mark.asyncio(loop_scope="module")


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


async def test_a_deprecated_call_and_a_bad_filter_get_exact_ranges(client, folder):
    uri = open_document(client, folder / "script.py", SCRIPT)
    found = {d.code: d for d in await next_diagnostics(client, uri)}
    assert set(found) == {"API002", "API003", "API006"}
    deprecated = found["API002"]
    assert deprecated.range == types.Range(at(5, 30), at(5, 53))  # /sensors/{sid}/overview
    assert deprecated.severity == types.DiagnosticSeverity.Warning
    assert list(deprecated.tags) == [types.DiagnosticTag.Deprecated]
    assert deprecated.message.endswith("use GET /sensors/{id}")
    assert deprecated.code_description.href.endswith("docs/linter.md#api002-deprecated-endpoint")
    bad = found["API006"]
    assert bad.range == types.Range(at(6, 79), at(6, 80))  # the second `=` of `==`
    assert bad.severity == types.DiagnosticSeverity.Error
    assert "FLT001" in bad.message and bad.source == "apispec"


async def test_the_same_findings_as_the_cli(client, folder):
    uri = open_document(client, folder / "script.py", SCRIPT)
    published = await next_diagnostics(client, uri)
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
    uri = open_document(client, folder / "script.py", SCRIPT)
    await next_diagnostics(client, uri)
    fixed = SCRIPT.replace("/overview", "").replace("==", "=")
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            types.VersionedTextDocumentIdentifier(version=2, uri=uri),
            [types.TextDocumentContentChangeWholeDocument(fixed)],
        )
    )
    assert [d.code for d in await next_diagnostics(client, uri)] == ["API003"]


async def test_completion_inside_a_filter_string_offers_status(client, folder):
    text = SCRIPT.replace('"status == down"', '"st"')
    uri = open_document(client, folder / "script.py", text)
    column = text.splitlines()[6].index('"st"') + 3
    result = await client.text_document_completion_async(
        types.CompletionParams(types.TextDocumentIdentifier(uri), at(6, column))
    )
    status = next(i for i in result.items if i.label == "status")
    assert status.text_edit.new_text == "status"
    assert status.text_edit.range == types.Range(at(6, column - 2), at(6, column))


async def test_completion_of_a_path_marks_deprecated_ones_and_sorts_them_last(client, folder):
    text = 'import requests\nBASE = "https://prtg:1616/api/v2"\nrequests.get(f"{BASE}/sensors/{sid}/")\n'
    uri = open_document(client, folder / "paths.py", text)
    column = text.splitlines()[2].index('/")') + 1
    result = await client.text_document_completion_async(
        types.CompletionParams(types.TextDocumentIdentifier(uri), at(2, column))
    )
    by_label = {i.label: i for i in result.items}
    overview = by_label["/sensors/{id}/overview"]
    assert list(overview.tags) == [types.CompletionItemTag.Deprecated]
    assert "deprecated" in overview.detail and overview.text_edit.new_text == "overview"
    ordered = sorted(result.items, key=lambda i: i.sort_text)
    assert list(ordered[-1].tags) == [types.CompletionItemTag.Deprecated]


async def test_hover_on_a_deprecated_path_names_the_successor(client, folder):
    uri = open_document(client, folder / "script.py", SCRIPT)
    result = await client.text_document_hover_async(
        types.HoverParams(types.TextDocumentIdentifier(uri), at(5, 40))
    )
    text = result.contents.value
    assert "deprecated" in text and "successor: GET /sensors/{id}" in text
    assert "get_sensor_overview" in text
    assert result.range == types.Range(at(5, 30), at(5, 53))


async def test_hover_on_a_filter_property_shows_type_operators_and_values(client, folder):
    uri = open_document(client, folder / "script.py", SCRIPT)
    column = SCRIPT.splitlines()[6].index("status ==") + 2
    result = await client.text_document_hover_async(
        types.HoverParams(types.TextDocumentIdentifier(uri), at(6, column))
    )
    text = result.contents.value
    assert "**status**" in text and "enumeration" in text
    assert "`=`, `!=`" in text and "`up`, `down`" in text


async def test_the_successor_fix_applied_gives_a_file_the_linter_passes(client, folder):
    text = SCRIPT.splitlines(keepends=True)
    text = "".join(text[:6])  # the deprecated call only
    path = folder / "fixme.py"
    uri = open_document(client, path, text)
    (diagnostic,) = await next_diagnostics(client, uri)
    actions = await client.text_document_code_action_async(
        types.CodeActionParams(
            types.TextDocumentIdentifier(uri),
            diagnostic.range,
            types.CodeActionContext([diagnostic]),
        )
    )
    fix = next(a for a in actions if a.title.startswith("Replace with GET /sensors/{id}"))
    assert fix.is_preferred and fix.kind == types.CodeActionKind.QuickFix
    path.write_text(apply_edits(text, fix.edit.changes[uri]), encoding="utf-8")
    assert 'f"{BASE}/sensors/{sid}"' in path.read_text()
    lint = subprocess.run(
        [sys.executable, "-m", "apispec", "lint", str(path)], capture_output=True, text=True
    )
    assert lint.returncode == 0, lint.stdout


async def test_filter_fix_suppression_documentation_and_fix_all(client, folder):
    uri = open_document(client, folder / "script.py", SCRIPT)
    diagnostics = await next_diagnostics(client, uri)
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
    fixed = apply_edits(
        SCRIPT, actions[titles.index("Compare with a single `=` (API006)")].edit.changes[uri]
    )
    assert '"filter": "status = down"' in fixed
    suppress = actions[titles.index("Suppress API006 on this line")]
    assert (
        apply_edits(SCRIPT, suppress.edit.changes[uri])
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
            types.Range(at(0, 0), at(0, 0)),
            types.CodeActionContext([], only=["source.fixAll.apispec"]),
        )
    )
    (fix_all,) = everything
    fixed = apply_edits(SCRIPT, fix_all.edit.changes[uri])
    assert 'f"{BASE}/sensors/{sid}"' in fixed and '"status = down"' in fixed


async def test_pull_diagnostics_for_a_document(puller, folder):
    uri = open_document(puller, folder / "script.py", SCRIPT)
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
        types.HoverParams(types.TextDocumentIdentifier(uri), at(5, 40))
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
    uri = open_document(client, folder / "script.py", SCRIPT)
    assert "API002" in {d.code for d in await next_diagnostics(client, uri)}
    config = folder / ".apispec.toml"
    config.write_text('ignore = ["API002", "API003"]\n')
    client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(
            [types.FileEvent(config.as_uri(), types.FileChangeType.Created)]
        )
    )
    assert [d.code for d in await next_diagnostics(client, uri)] == ["API006"]


OVERLAY = """\
overlay:
  source: https://monitor.example.com/api/v2/oas/
  release: 25.2.130
releases:
  - id: 25.2.130
endpoints:
  - method: GET
    path: /health
    operation_id: get_health
    summary: health of the server
    tag: System
    maturity: stable
    since: 25.2.130
    auth: false
"""


async def test_overlays_in_the_configuration_are_the_server_the_code_is_checked_against(
    client, folder
):
    text = 'import requests\nr = requests.get("https://prtg:1616/api/v2/health")\n'
    uri = open_document(client, folder / "health.py", text)
    assert [d.code for d in await next_diagnostics(client, uri)] == ["API004"]
    (folder / "ov").mkdir()
    (folder / "ov" / "overlay.yaml").write_text(OVERLAY)
    config = folder / ".apispec.toml"
    config.write_text('overlays = ["ov"]\n')
    client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(
            [types.FileEvent(config.as_uri(), types.FileChangeType.Created)]
        )
    )
    assert await next_diagnostics(client, uri) == []  # the overlay's server has GET /health
    hover = await client.text_document_hover_async(
        types.HoverParams(types.TextDocumentIdentifier(uri), at(1, 45))
    )
    assert "get_health" in hover.contents.value and "25.2.130" in hover.contents.value


async def test_inlay_hints_are_off_by_default_and_show_maturity_when_asked(client, folder):
    uri = open_document(client, folder / "script.py", SCRIPT)
    await next_diagnostics(client, uri)
    whole = types.Range(at(0, 0), at(7, 0))
    params = types.InlayHintParams(types.TextDocumentIdentifier(uri), whole)
    assert not await client.text_document_inlay_hint_async(params)
    client.workspace_did_change_configuration(
        types.DidChangeConfigurationParams(settings={"apispec": {"inlayHints": True}})
    )
    await next_diagnostics(client, uri)  # the settings changed: linted again
    try:
        hints = await client.text_document_inlay_hint_async(params)
        assert [(h.position, h.label) for h in hints] == [
            (at(5, 53), "deprecated → /sensors/{id}"),
            (at(6, 49), "experimental"),
        ]
    finally:
        client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings={}))
