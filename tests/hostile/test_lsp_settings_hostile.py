"""Editor settings the system refuses, sent to the real `apispec lsp`: a NUL in an overlay
path, a `maxFileSize` of 320 digits, an overlay that is a loop of symbolic links.

Each is reported once as a message naming the setting, the document is linted without
it (against the bundled registry, with the default size limit), and the server keeps
answering: pulled diagnostics, then a hover, for the same document.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.lsp_client import PULL, SCRIPT, SERVER, at, open_document

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("workspace")
    (folder / "loop").symlink_to("loop")
    return folder


@pytest_lsp.fixture(config=SERVER, scope="module")
async def client(lsp_client: LanguageClient, workspace: Path):
    await lsp_client.initialize_session(
        types.InitializeParams(
            capabilities=PULL,
            workspace_folders=[types.WorkspaceFolder(workspace.as_uri(), "work")],
        )
    )
    yield
    await lsp_client.shutdown_session()


SETTINGS = {
    "nul-in-overlays": ({"overlays": ["over\0lay"]}, ["overlays", "NUL"]),
    "nul-in-registry": ({"registry": "reg\0istry"}, ["registry", "NUL"]),
    "max-file-size-320-digits-text": ({"maxFileSize": "9" * 320}, ["max-file-size", "at most"]),
    "max-file-size-320-digits-number": ({"maxFileSize": 10**320}, ["max-file-size", "at most"]),
    "overlay-symlink-loop": ({"overlays": ["loop"]}, ["loop", "symbolic links"]),
}


@pytest.mark.parametrize("case", list(SETTINGS))
async def test_a_refused_setting_is_one_message_and_linting_goes_on(
    client: LanguageClient, workspace: Path, case: str
) -> None:
    settings, words = SETTINGS[case]
    client.messages.clear()
    client.log_messages.clear()
    client.workspace_did_change_configuration(
        types.DidChangeConfigurationParams(settings={"apispec": settings})
    )
    uri = open_document(client, workspace / f"{case}.py", SCRIPT)
    report = await client.text_document_diagnostic_async(
        types.DocumentDiagnosticParams(types.TextDocumentIdentifier(uri))
    )
    assert sorted(d.code for d in report.items) == ["API002", "API003", "API006"]
    said = [m.message for m in (*client.messages, *client.log_messages)]
    about = [m for m in said if all(word in m for word in words)]
    assert len(about) == 1, said
    assert "\n" not in about[0]
    hover = await client.text_document_hover_async(
        types.HoverParams(types.TextDocumentIdentifier(uri), at(5, 40))
    )
    assert hover is not None and "deprecated" in str(hover.contents)
    client.text_document_did_close(
        types.DidCloseTextDocumentParams(types.TextDocumentIdentifier(uri))
    )
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings={}))
