"""`apispec lsp`: the LSP features, each a few lines that call into apispec.lsp and apispec.lint.

Nothing here decides what is wrong with a file or what to suggest: the
linter, the filter checker and the modules beside this one do, and are
tested without a server (STYLE.md pattern 6). This module turns their plain
results into protocol objects and back.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sys
import threading
from typing import Any

from lsprotocol import types
from pygls.exceptions import JsonRpcInvalidParams

from apispec.lsp import adapter
from apispec.lsp.actions import FIX_ALL, SHOW_DOCUMENTATION, Action, Located, code_actions
from apispec.lsp.completion import complete
from apispec.lsp.diagnostics import to_lsp
from apispec.lsp.documents import Document
from apispec.lsp.early import Handover
from apispec.lsp.formatting import FORMAT_ALL, FORMAT_FILTER, format_actions
from apispec.lsp.hover import hover
from apispec.lsp.inlay import hints
from apispec.lsp.positions import LineIndex
from apispec.lsp.session import ApispecServer, Protocol, is_config_file
from apispec.lsp.settings import ClientSettings
from apispec.lsp.transport import start_io, start_tcp
from apispec.lsp.workspace import FileReport, scan

LONG_POLL = 300.0  # seconds an unchanged workspace/diagnostic request is held open
_KINDS = {
    "property": types.CompletionItemKind.Property,
    "operator": types.CompletionItemKind.Operator,
    "value": types.CompletionItemKind.EnumMember,
    "keyword": types.CompletionItemKind.Keyword,
    "punctuation": types.CompletionItemKind.Text,
    "path": types.CompletionItemKind.Reference,
}


# -- lifecycle and synchronisation ---------------------------------------------------


def initialize(ls: ApispecServer, params: types.InitializeParams) -> None:
    ls.capabilities_of(params)


async def initialized(ls: ApispecServer, params: types.InitializedParams) -> None:
    def settings() -> list[ClientSettings]:
        return [ls.profiles.defaults, *(ls.profiles.client_for(f) for f in ls.folders())]

    before = settings()  # from initializationOptions, which documents opened so far used
    await ls.fetch_settings()
    await ls.watch_configuration()
    loop = asyncio.get_running_loop()
    await loop.run_in_executor(ls.lint_pool, adapter.load_registry)  # warm, off the loop
    if settings() != before:  # (Neovim sends the same settings both ways: nothing changes)
        ls.configuration_changed()  # which learns the workspace's helpers too
    else:
        ls.learn_workspace()  # in the background: no document waits for it


def did_open(ls: ApispecServer, params: types.DidOpenTextDocumentParams) -> None:
    ls.documents.open(params.text_document)
    ls.schedule(params.text_document.uri, delay=0)


def did_change(ls: ApispecServer, params: types.DidChangeTextDocumentParams) -> None:
    if ls.documents.change(params, ls.encoding) is not None:
        ls.schedule(params.text_document.uri)


def did_save(ls: ApispecServer, params: types.DidSaveTextDocumentParams) -> None:
    if is_config_file(params.text_document.uri):
        ls.configuration_changed()
    else:
        ls.file_changed(params.text_document.uri)
        ls.touched()


def did_close(ls: ApispecServer, params: types.DidCloseTextDocumentParams) -> None:
    ls.document_closed(ls.documents.get(params.text_document.uri))
    ls.documents.close(params.text_document.uri)
    ls.forget(params.text_document.uri)


async def did_change_configuration(
    ls: ApispecServer, params: types.DidChangeConfigurationParams
) -> None:
    if ls.can_configure:
        await ls.fetch_settings()
    else:
        ls.profiles.defaults = ClientSettings.parse(params.settings)
        ls.report(ls.profiles.defaults.problems)
    ls.configuration_changed()


def did_change_watched_files(ls: ApispecServer, params: types.DidChangeWatchedFilesParams) -> None:
    if any(is_config_file(c.uri) or c.uri.endswith("/.gitignore") for c in params.changes):
        ls.configuration_changed()
        return
    for change in params.changes:
        ls.file_changed(
            change.uri,
            deleted=change.type == types.FileChangeType.Deleted,
            created=change.type == types.FileChangeType.Created,
        )
    ls.touched()


async def did_change_workspace_folders(
    ls: ApispecServer, params: types.DidChangeWorkspaceFoldersParams
) -> None:
    await ls.fetch_settings()
    ls.configuration_changed()


def shutdown(ls: ApispecServer, params: None) -> None:
    for task in ls.syncing.values():
        task.cancel()
    ls.lint_pool.shutdown(wait=False, cancel_futures=True)
    ls.workspace_pool.shutdown(wait=False, cancel_futures=True)


# -- diagnostics (pull) -----------------------------------------------------------------


async def document_diagnostic(
    ls: ApispecServer, params: types.DocumentDiagnosticParams
) -> types.RelatedFullDocumentDiagnosticReport | types.RelatedUnchangedDocumentDiagnosticReport:
    doc = ls.documents.get(params.text_document.uri)
    if doc is None:  # not open: nothing the client can show it on
        return types.RelatedFullDocumentDiagnosticReport(items=[])
    result = await ls.result(doc)
    assert result is not None
    return ls.document_report(doc, result, params.previous_result_id)


async def workspace_diagnostic(
    ls: ApispecServer, params: types.WorkspaceDiagnosticParams
) -> types.WorkspaceDiagnosticReport:
    """Every linted file of every workspace folder; held open while nothing changed."""
    previous = {p.uri: p.value for p in params.previous_result_ids}
    if previous and ls.generation == ls.answered_generation:
        await ls.until_touched(LONG_POLL)
    ls.answered_generation = ls.generation
    stop = threading.Event()
    loop = asyncio.get_running_loop()

    def collect() -> list[FileReport]:
        return list(
            scan(
                ls.folders(),
                ls.documents,
                ls.profiles,
                ls.workspace_analyzer,
                stop.is_set,
                ls.helper_index,
            )
        )

    try:
        reports = await loop.run_in_executor(ls.workspace_pool, collect)
    except asyncio.CancelledError:
        stop.set()
        raise
    items: list[types.WorkspaceDocumentDiagnosticReport] = []
    reported = set()
    for report in reports:
        doc = report.document
        rid = report.result_id if report.result.findings else "clean"
        if rid == "clean" and previous.get(doc.uri, "clean") == "clean":
            continue  # clean before and now: nothing to tell
        reported.add(doc.uri)
        if previous.get(doc.uri) == rid:
            items.append(
                types.WorkspaceUnchangedDocumentDiagnosticReport(
                    uri=doc.uri, version=doc.version, result_id=rid
                )
            )
            continue
        index = doc.index(ls.encoding)
        items.append(
            types.WorkspaceFullDocumentDiagnosticReport(
                uri=doc.uri,
                version=doc.version,
                items=[to_lsp(f, index) for f in report.result.findings],
                result_id=rid,
            )
        )
    for uri, rid in previous.items():  # gone, ignored now, or no longer linted
        if uri not in reported and rid != "clean":
            items.append(
                types.WorkspaceFullDocumentDiagnosticReport(
                    uri=uri, version=None, items=[], result_id="clean"
                )
            )
    return types.WorkspaceDiagnosticReport(items=items)


# -- completion and hover ----------------------------------------------------------------


def _line_and_column(index: LineIndex, position: types.Position) -> tuple[str, int, int]:
    """The LSP line's text, the cursor's column in it, and the offset where it starts."""
    offset = index.offset(position)
    line = index.position(offset).line
    return index.line_text(line), offset - index.starts[line], index.starts[line]


def completion(ls: ApispecServer, params: types.CompletionParams) -> types.CompletionList | None:
    doc = ls.documents.get(params.text_document.uri)
    if doc is None:
        return None
    index = doc.index(ls.encoding)
    line, column, base = _line_and_column(index, params.position)
    registry, target = ls.registry_and_target(ls.profile(doc))
    language = adapter.language_of(doc.lint_name, doc.text[:200])
    found = complete(line, column, registry, target, language)
    items = [
        types.CompletionItem(
            label=item.label,
            kind=_KINDS.get(item.kind),
            detail=item.detail,
            documentation=_markup(item.documentation, ls.markdown_completion)
            if item.documentation
            else None,
            text_edit=types.TextEdit(index.range(base + item.start, base + item.end), item.insert),
            filter_text=item.filter_text,
            sort_text=item.sort or None,
            tags=[types.CompletionItemTag.Deprecated] if item.deprecated else None,
        )
        for item in found
    ]
    return types.CompletionList(is_incomplete=False, items=items)


def _markup(text: str, markdown: bool) -> types.MarkupContent | str:
    """Markdown where the client renders it; elsewhere the same text as a plain string
    (the form every client reads; it reads alike)."""
    return types.MarkupContent(types.MarkupKind.Markdown, text) if markdown else text


def hover_at(ls: ApispecServer, params: types.HoverParams) -> types.Hover | None:
    doc = ls.documents.get(params.text_document.uri)
    if doc is None:
        return None
    index = doc.index(ls.encoding)
    line, column, base = _line_and_column(index, params.position)
    registry, target = ls.registry_and_target(ls.profile(doc))
    found = hover(line, column, registry, target)
    if found is None:
        return None
    return types.Hover(
        contents=_markup(found.markdown, ls.markdown_hover),
        range=index.range(base + found.start, base + found.end),
    )


# -- code actions, inlay hints, commands ----------------------------------------------


async def code_action(
    ls: ApispecServer, params: types.CodeActionParams
) -> list[types.CodeAction] | None:
    doc = ls.documents.get(params.text_document.uri)
    if doc is None:
        return None
    result = await ls.result(doc)
    if result is None or ls.documents.get(doc.uri) is not doc:
        return []  # edited meanwhile: these offsets would be stale
    index = doc.index(ls.encoding)
    located = [
        Located(
            f,
            index.from_linter(f.line, f.column),
            index.from_linter(f.end_line, f.end_column),
        )
        for f in result.findings
    ]
    span = (index.offset(params.range.start), index.offset(params.range.end))
    only = [str(k) for k in params.context.only] if params.context.only else None
    actions = code_actions(doc.text, doc.lint_name, located, span, only)
    registry, _ = ls.registry_and_target(ls.profile(doc))
    language = adapter.language_of(doc.lint_name, doc.text[:200])
    loop = asyncio.get_running_loop()
    actions += await loop.run_in_executor(
        ls.lint_pool, format_actions, index, language, registry, span, only
    )
    if ls.documents.get(doc.uri) is not doc:
        return []
    return [_code_action(a, doc, index) for a in actions]


def _code_action(action: Action, doc: Document, index: LineIndex) -> types.CodeAction:
    edit = None
    if action.edits:
        edits = [types.TextEdit(index.range(s, e), content) for s, e, content in action.edits]
        edit = types.WorkspaceEdit(changes={doc.uri: edits})
    command = None
    if action.command is not None:
        name, arguments = action.command
        command = types.Command(title=action.title, command=name, arguments=list(arguments))
    return types.CodeAction(
        title=action.title,
        kind=action.kind,
        diagnostics=[to_lsp(action.finding, index)] if action.finding else None,
        edit=edit,
        command=command,
        is_preferred=action.preferred or None,
    )


async def inlay_hint(
    ls: ApispecServer, params: types.InlayHintParams
) -> list[types.InlayHint] | None:
    doc = ls.documents.get(params.text_document.uri)
    if doc is None:
        return None
    profile = ls.profile(doc)
    if not profile.client.inlay_hints:
        return []
    registry, target = ls.registry_and_target(profile)
    index = doc.index(ls.encoding)
    span = (index.offset(params.range.start), index.offset(params.range.end))
    loop = asyncio.get_running_loop()
    found = await loop.run_in_executor(
        ls.lint_pool, hints, doc.text, doc.lint_name, registry, target, span
    )
    return [
        types.InlayHint(
            position=index.position(h.offset),
            label=h.label,
            padding_left=True,
            tooltip=h.tooltip,
        )
        for h in found
    ]


async def show_documentation(ls: ApispecServer, *arguments: Any) -> None:
    """`apispec.showDocumentation CODE`: open the rule's page, as `apispec rule CODE` prints it."""
    code = str(arguments[0]) if arguments else ""
    url = adapter.rule_url(code.upper())
    if url is None:
        raise JsonRpcInvalidParams(f"{SHOW_DOCUMENTATION}: unknown rule {code!r}")
    if ls.can_show_document:
        await ls.window_show_document_async(types.ShowDocumentParams(uri=url, external=True))
    else:
        ls.window_show_message(types.ShowMessageParams(types.MessageType.Info, f"{code}: {url}"))


# -- wiring ---------------------------------------------------------------------------------


def create_server() -> ApispecServer:
    server = ApispecServer()
    features: list[tuple[str, Any, Any]] = [
        (types.INITIALIZE, initialize, None),
        (types.INITIALIZED, initialized, None),
        (types.SHUTDOWN, shutdown, None),
        (types.TEXT_DOCUMENT_DID_OPEN, did_open, None),
        (types.TEXT_DOCUMENT_DID_CHANGE, did_change, None),
        (types.TEXT_DOCUMENT_DID_SAVE, did_save, types.SaveOptions(include_text=False)),
        (types.TEXT_DOCUMENT_DID_CLOSE, did_close, None),
        (types.WORKSPACE_DID_CHANGE_CONFIGURATION, did_change_configuration, None),
        (types.WORKSPACE_DID_CHANGE_WATCHED_FILES, did_change_watched_files, None),
        (types.WORKSPACE_DID_CHANGE_WORKSPACE_FOLDERS, did_change_workspace_folders, None),
        (
            types.TEXT_DOCUMENT_DIAGNOSTIC,
            document_diagnostic,
            types.DiagnosticOptions(
                identifier="apispec", inter_file_dependencies=True, workspace_diagnostics=True
            ),
        ),
        (types.WORKSPACE_DIAGNOSTIC, workspace_diagnostic, None),
        (
            types.TEXT_DOCUMENT_COMPLETION,
            completion,
            types.CompletionOptions(trigger_characters=["/", " ", "=", '"', "'", "(", "["]),
        ),
        (types.TEXT_DOCUMENT_HOVER, hover_at, None),
        (
            types.TEXT_DOCUMENT_CODE_ACTION,
            code_action,
            types.CodeActionOptions(
                code_action_kinds=[
                    types.CodeActionKind.QuickFix,
                    FORMAT_FILTER,
                    FIX_ALL,
                    FORMAT_ALL,
                ],
                resolve_provider=False,
            ),
        ),
        (
            types.TEXT_DOCUMENT_INLAY_HINT,
            inlay_hint,
            types.InlayHintOptions(resolve_provider=False),
        ),
    ]
    for name, handler, options in features:
        server.feature(name, options)(handler)
    server.command(SHOW_DOCUMENTATION)(show_documentation)
    return server


class _OneLine(logging.Formatter):
    """Log records as one line each; a traceback only with APISPEC_DEBUG=1."""

    def format(self, record: logging.LogRecord) -> str:
        text = " ".join(record.getMessage().split())
        line = f"apispec lsp: {record.levelname.lower()}: {text}"
        if record.exc_info and os.environ.get("APISPEC_DEBUG") == "1":
            line += "\n" + self.formatException(record.exc_info)
        return line


def run(tcp: int | None = None, host: str = "127.0.0.1", early: Handover | None = None) -> None:
    """Serve on stdio (or on a TCP port) until the client says exit; on stdio, from where
    apispec.lsp.early left the conversation."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(_OneLine())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    debug = os.environ.get("APISPEC_DEBUG") == "1"
    root.setLevel(logging.DEBUG if debug else logging.WARNING)
    if not debug:  # pygls logs whole tracebacks for a client's bad message; apispec logs a line
        logging.getLogger("pygls").setLevel(logging.CRITICAL)
    server = create_server()
    if tcp is None and early is not None:
        protocol = server.protocol
        assert isinstance(protocol, Protocol)  # create_server's protocol class
        protocol.answered_early = frozenset(early.answered)
        server.published_early = dict(early.published)
        if early.analyzer is not None:
            server.analyzer = early.analyzer
        start_io(server, server.skipped, stdin=early.stream)
    elif tcp is None:
        start_io(server, server.skipped)
    else:
        start_tcp(server, server.skipped, host, tcp)
