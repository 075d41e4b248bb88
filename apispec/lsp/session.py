"""The server's state and its one schedule: lint in a worker thread, never on the message loop.

Linting a large document takes long enough to matter (a 5 MB file takes
seconds), so it runs in one worker thread while the loop keeps answering
completion and hover. Changes are throttled (the first after a pause is
linted at once, then at most one lint per debounce interval); a lint whose
document changed before it started is skipped, so fast typing never queues
stale work. A
second thread serves workspace diagnostics, so a scan of the whole tree
never delays the document being edited. Each thread has its own Analyzer
(the linter's Checker keeps per-file state).

The workspace's own API helpers (apispec.lsp.helper_index) are learnt in
the background after `initialized`: the walk in the workspace thread, then
one file per job in the lint thread, so a document's lint waits for one
file at most. A document's result is kept with the digest of the helper
table it depends on, and linted again when that table changes.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from lsprotocol import types
from pygls.exceptions import FeatureRequestError, JsonRpcException
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol

from apispec import __version__
from apispec.lsp import adapter
from apispec.lsp.analysis import Analyzer, Result
from apispec.lsp.diagnostics import of_result
from apispec.lsp.documents import Document, Documents, path_of
from apispec.lsp.helper_index import HelperIndex
from apispec.lsp.maturity import newest_target
from apispec.lsp.settings import ClientSettings, Profile, Profiles
from apispec.lsp.workspace import result_id
from apispec.registry.model import Registry
from apispec.registry.releases import Release

log = logging.getLogger("apispec.lsp")

CONFIG_FILES = ("pyproject.toml", ".apispec.toml")
WATCHED = ("**/pyproject.toml", "**/.apispec.toml", "**/.gitignore")
WATCHED_SOURCES = "**/*"  # any file may define an API helper another one calls
CLIENT_TIMEOUT = 10.0  # seconds to wait for the client's answer to our own requests


class Protocol(LanguageServerProtocol):
    """pygls's protocol, but a request it cannot read is answered, not left hanging.

    pygls raises while decoding a request whose parameters do not fit the
    protocol's types, before any handler runs, and the client would wait for
    an answer forever. Here it gets an InvalidParams error with its id, and
    anything that is not a JSON-RPC object at all is logged and dropped.
    """

    def structure_message(self, data: dict[str, Any]) -> Any:
        try:
            return super().structure_message(data)
        except JsonRpcException as exc:
            method = data.get("method")
            if data.get("id") is not None and isinstance(method, str):
                message = (
                    f"{exc.message}: {method}: the parameters do not have the protocol's shape"
                )
                self._send_response(
                    data["id"], error=types.ResponseError(code=exc.code, message=message)
                )
            log.warning("ignored an unreadable %s message", method or "JSON-RPC")
            return None

    answered_early: frozenset[Any] = frozenset()  # ids apispec.lsp.early answered already

    def _send_response(self, msg_id: Any, result: Any = None, error: Any = None) -> None:
        """A request answered before pygls started is not answered twice (it is handled
        again, from the same bytes, so the server's state is as if it had answered)."""
        if msg_id in self.answered_early:
            self.answered_early = self.answered_early - {msg_id}
            return
        super()._send_response(msg_id, result, error)

    def handle_message(self, message: Any) -> None:
        if not hasattr(message, "jsonrpc"):
            if message is not None:
                log.warning("ignored a message that is not a JSON-RPC object")
            return
        super().handle_message(message)

    def _execute_handler(
        self,
        msg_id: Any,
        handler: Any,
        callback: Any,
        args: Any = None,
        kwargs: Any = None,
    ) -> None:
        """pygls keeps the future of every handler it runs by id so that a request can be
        cancelled, and forgets it only when it answers a request: the future of each
        notification (two per opened and closed document) stayed for the life of the server.
        Here every one is forgotten when it is done."""

        def done(future: Any) -> None:
            if self._request_futures.get(msg_id) is future:
                del self._request_futures[msg_id]
            with contextlib.suppress(asyncio.CancelledError):  # cancelled: nobody to answer
                callback(future)

        super()._execute_handler(msg_id, handler, done, args, kwargs)


class ApispecServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__(
            "apispec",
            __version__,
            text_document_sync_kind=types.TextDocumentSyncKind.Full,
            protocol_cls=Protocol,
        )
        self.documents = Documents()
        self.profiles = Profiles()
        self.analyzer = Analyzer()  # used only in the `lint` thread
        self.workspace_analyzer = Analyzer()  # used only in the `workspace` thread
        self.lint_pool = ThreadPoolExecutor(1, thread_name_prefix="apispec-lint")
        self.workspace_pool = ThreadPoolExecutor(1, thread_name_prefix="apispec-workspace")
        # uri: (version, profile key, helper table digest it depends on, result)
        self.results: dict[str, tuple[int | None, tuple[object, ...], bytes | None, Result]] = {}
        self.helper_index = HelperIndex()
        self.syncing: dict[Path, asyncio.Task[None]] = {}  # a walk and learn per folder
        self.resync: set[Path] = set()  # folders to walk again when their sync ends
        self.relearning: set[asyncio.Task[None]] = set()  # single files learnt again
        self.pending: dict[str, asyncio.Task[None]] = {}
        self.started: dict[str, float] = {}  # when each document's last lint started
        self.push = True  # publish diagnostics unless the client pulls them
        self.can_configure = False
        self.can_refresh = False
        self.can_show_document = False
        self.can_watch = False
        self.markdown_completion = False  # else documentation goes as plain text (it reads alike)
        self.markdown_hover = False
        self.generation = 0  # bumped by anything that may change workspace diagnostics
        self.answered_generation: int | None = None  # of the last workspace/diagnostic answer
        self.waiting: list[asyncio.Event] = []  # held workspace/diagnostic requests
        self.shown: set[str] = set()
        # what apispec.lsp.early published: (uri, version) -> (findings, why not linted)
        self.published_early: dict[tuple[str, int | None], tuple[Any, Any]] = {}

    # -- client and folders --------------------------------------------------------

    def capabilities_of(self, params: types.InitializeParams) -> None:
        caps = params.capabilities
        self.push = caps.text_document is None or caps.text_document.diagnostic is None
        workspace = caps.workspace
        self.can_configure = bool(workspace and workspace.configuration)
        self.can_refresh = bool(
            workspace and workspace.diagnostics and workspace.diagnostics.refresh_support
        )
        self.can_watch = bool(
            workspace
            and workspace.did_change_watched_files
            and workspace.did_change_watched_files.dynamic_registration
        )
        self.can_show_document = bool(
            caps.window and caps.window.show_document and caps.window.show_document.support
        )
        text = caps.text_document
        completion = text and text.completion and text.completion.completion_item
        hover = text and text.hover
        self.markdown_completion = bool(
            completion
            and completion.documentation_format
            and types.MarkupKind.Markdown in completion.documentation_format
        )
        self.markdown_hover = bool(
            hover and hover.content_format and types.MarkupKind.Markdown in hover.content_format
        )
        self.profiles.defaults = ClientSettings.parse(params.initialization_options)
        self.report(self.profiles.defaults.problems)

    @property
    def encoding(self) -> str:
        return str(self.workspace.position_encoding or types.PositionEncodingKind.Utf16)

    def folders(self) -> list[Path]:
        found = [path_of(f.uri) for f in self.workspace.folders.values()]
        if not found and self.workspace.root_uri:
            found = [path_of(self.workspace.root_uri)]
        return [p for p in found if p is not None]

    def folder_of(self, path: Path | None) -> Path | None:
        if path is None:
            folders = self.folders()
            return folders[0] if len(folders) == 1 else None
        inside = [f for f in self.folders() if path == f or f in path.parents]
        return max(inside, key=lambda f: len(f.parts)) if inside else None

    async def fetch_settings(self) -> None:
        """Ask the client for section `apispec`, globally and for each workspace folder."""
        if not self.can_configure:
            return
        folders = self.folders()
        items = [types.ConfigurationItem(section="apispec")]
        items += [types.ConfigurationItem(scope_uri=f.as_uri(), section="apispec") for f in folders]
        try:
            answer = await asyncio.wait_for(
                self.workspace_configuration_async(types.ConfigurationParams(items)),
                CLIENT_TIMEOUT,
            )
        except (TimeoutError, JsonRpcException, RuntimeError) as exc:
            log.warning("workspace/configuration: %s", exc)
            return
        answers = list(answer or [])
        if answers and answers[0] is not None:
            self.profiles.defaults = ClientSettings.parse(answers[0])
            self.report(self.profiles.defaults.problems)
        self.profiles.by_folder = {}
        for folder, raw in zip(folders, answers[1:], strict=False):
            if raw is not None:
                settings = ClientSettings.parse(raw)
                self.profiles.by_folder[folder] = settings
                self.report(settings.problems)

    async def watch_configuration(self) -> None:
        if not self.can_watch:
            return
        options = types.DidChangeWatchedFilesRegistrationOptions(
            watchers=[types.FileSystemWatcher(glob_pattern=g) for g in (*WATCHED, WATCHED_SOURCES)]
        )
        registration = types.Registration(
            id="apispec-configuration",
            method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
            register_options=options,
        )
        try:
            await asyncio.wait_for(
                self.client_register_capability_async(types.RegistrationParams([registration])),
                CLIENT_TIMEOUT,
            )
        except (TimeoutError, JsonRpcException, RuntimeError) as exc:
            log.warning("client/registerCapability: %s", exc)

    # -- messages to the user ------------------------------------------------------

    def report(self, problems: tuple[str, ...] | list[str]) -> None:
        """Show each configuration problem once (until it is fixed and comes back)."""
        for problem in problems:
            if problem in self.shown:
                continue
            self.shown.add(problem)
            self.window_show_message(
                types.ShowMessageParams(type=types.MessageType.Warning, message=problem)
            )

    def skipped(self, reason: str) -> None:
        """Input the transport could not read as a message (apispec.lsp.framing): one line in
        the log and in the client's output, then the next message is read."""
        log.warning("skipped %s", reason)
        self.window_log_message(
            types.LogMessageParams(
                type=types.MessageType.Warning, message=f"apispec: skipped {reason}"
            )
        )

    def report_server_error(self, error: Exception, source: Any) -> None:
        """Errors of the transport or of a notification handler go to the log, in one line.

        A request's own error is already in its answer (FeatureRequestError).
        """
        if source is FeatureRequestError:
            return
        text = " ".join(str(error).split()) or type(error).__name__
        log.error("%s: %s", getattr(source, "__name__", "error"), text)
        self.window_log_message(
            types.LogMessageParams(type=types.MessageType.Error, message=f"apispec: {text}")
        )

    # -- profiles and registry -------------------------------------------------------

    def profile(self, doc: Document) -> Profile:
        profile = self.profiles.profile(doc.directory, self.folder_of(doc.path))
        self.report([f"{path}: {error}" for path, error in self.profiles.errors.items()])
        return profile

    def registry_and_target(self, profile: Profile) -> tuple[Registry, Release]:
        """For completion and hover on the loop: the registry is already loaded by then."""
        registry, _, _, _ = adapter.registry_for(profile.registry_dir, profile.overlays)
        return registry, newest_target(registry, profile.targets)

    # -- linting --------------------------------------------------------------------

    def _lint(
        self,
        doc: Document,
        profile: Profile,
        folder: Path | None,
        only_if_current: bool,
        loop: asyncio.AbstractEventLoop,
    ) -> Result | None:
        """In the lint thread. None: the document changed before its turn came.

        The first pass is the result, unless the text calls a helper another file of
        the folder defines: then it is linted again with the folder's table, as the
        CLI's second pass does.
        """
        if only_if_current and self.documents.get(doc.uri) is not doc:
            return None
        first = self._learn_open(doc, profile, loop)
        table = self.helper_index.table(folder)
        path = doc.path
        if first.skipped is not None or table is None or path is None:
            return first
        if not table[0].calls_others(doc.text, str(path)):
            return first
        return self.analyzer.lint(doc, profile, table)

    async def result(self, doc: Document, only_if_current: bool = False) -> Result | None:
        profile = self.profile(doc)
        await self.learn_open_documents()
        folder = self.folder_of(doc.path)
        dependency = self._dependency(doc, folder)
        cached = self.results.get(doc.uri)
        if cached is not None and cached[:3] == (doc.version, profile.key, dependency):
            return cached[3]
        loop = asyncio.get_running_loop()
        result = await loop.run_in_executor(
            self.lint_pool, self._lint, doc, profile, folder, only_if_current, loop
        )
        if result is None:
            return None
        self.report(result.problems)
        if self.documents.get(doc.uri) is doc:
            self.results[doc.uri] = (doc.version, profile.key, result.dependency, result)
        return result

    def _dependency(self, doc: Document, folder: Path | None) -> bytes | None:
        path = doc.path
        if path is None:
            return None
        return self.helper_index.dependency(folder, doc.text, str(path))

    # -- the workspace's own API helpers -------------------------------------------

    def _learn_open(
        self, doc: Document, profile: Profile, loop: asyncio.AbstractEventLoop
    ) -> Result:
        """In the lint thread: an open document's first pass, and what it defines learnt."""
        first = self.analyzer.lint(doc, profile)
        path = doc.path
        if path is not None and self.documents.get(doc.uri) is doc:
            changed = self.helper_index.set_open(str(path), doc.version, first.helpers)
            if changed:
                loop.call_soon_threadsafe(self.helpers_changed, changed)
        return first

    async def learn_open_documents(self) -> None:
        """Learn the helpers of the open documents edited since they were last learnt, so a
        document linted next sees its neighbours' unsaved helpers (one job, memoised: the
        lint of each of them reuses its first pass)."""
        stale = [
            (doc, self.profile(doc))
            for doc in self.documents.all()
            if doc.path is not None
            and self.folder_of(doc.path) is not None
            and self.helper_index.open_version(str(doc.path)) != doc.version
        ]
        if stale:
            loop = asyncio.get_running_loop()
            await loop.run_in_executor(
                self.lint_pool, lambda: [self._learn_open(d, p, loop) for d, p in stale]
            )

    def learn_workspace(self) -> None:
        """Walk every workspace folder and learn what its files define, in the background."""
        folders = self.folders()
        self.helper_index.relearn(folders)
        for folder in folders:
            self.sync_soon(folder)

    def sync_soon(self, folder: Path) -> None:
        task = self.syncing.get(folder)
        if task is not None and not task.done():
            self.resync.add(folder)  # walked again when the running sync ends
            return
        self.syncing[folder] = asyncio.ensure_future(self._sync(folder))

    async def _sync(self, folder: Path) -> None:
        loop = asyncio.get_running_loop()
        try:
            again = True
            while again:
                self.resync.discard(folder)
                profile = self.profiles.profile(folder, folder)
                files = await loop.run_in_executor(self.workspace_pool, _walk, folder, profile)
                todo, changed = self.helper_index.walked(folder, files)
                for path in todo:  # one job per file: a document's lint waits for one at most
                    if folder not in self.folders():
                        return
                    changed |= await self._learn_file(folder, path)
                self.helper_index.mark_ready(folder)
                if changed:
                    self.helpers_changed([folder])
                again = folder in self.resync
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # a background task has nobody to answer: log it
            self.report_server_error(exc, type(exc))

    async def _learn_file(self, folder: Path, path: str) -> bool:
        profile = self.profiles.profile(Path(path).parent, folder)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.lint_pool, self._learn_disk, folder, path, profile)

    def _learn_disk(self, folder: Path, path: str, profile: Profile) -> bool:
        """In the lint thread: what a file on disk defines, read once per content."""
        read = adapter.read_file(path, profile.config.max_file_size)
        if read is None:
            return self.helper_index.set_file(folder, path, None, None, ())
        data, status, digest = read
        helpers = self.helper_index.learnt(profile.key, digest)
        if helpers is None:
            checker, _ = self.analyzer.checker(profile)
            helpers = tuple(adapter.file_helpers(checker, data, path))
        return self.helper_index.set_file(folder, path, status, (profile.key, digest), helpers)

    def file_changed(self, uri: str, deleted: bool = False, created: bool = False) -> None:
        """A file saved, changed on disk, created or deleted: learn it (or walk again)."""
        path = path_of(uri)
        if path is None:
            return
        known = self.helper_index.folders_of(str(path))
        if deleted and known:
            changed = self.helper_index.forget_file(str(path))
            if changed:
                self.helpers_changed(changed)
        elif known and not created:
            for folder in known:
                task = asyncio.ensure_future(self._relearn(folder, str(path)))
                self.relearning.add(task)
                task.add_done_callback(self.relearning.discard)
        elif created or deleted:  # a new file, or a directory: walk its folder again
            owner = self.folder_of(path)
            if owner is not None:
                self.sync_soon(owner)

    async def _relearn(self, folder: Path, path: str) -> None:
        try:
            if await self._learn_file(folder, path):
                self.helpers_changed([folder])
        except Exception as exc:
            self.report_server_error(exc, type(exc))

    def document_closed(self, doc: Document | None) -> None:
        if doc is not None and doc.path is not None:
            changed = self.helper_index.close(str(doc.path))
            if changed:
                self.helpers_changed(changed)

    def helpers_changed(self, folders: list[Path]) -> None:
        """A folder's helper table changed: the documents that depend on it are linted again
        (pushed at once; a pulling client is asked to pull again)."""
        self.touched()
        if not self.push:
            if self.can_refresh:
                self.workspace_diagnostic_refresh(None)
            return
        for doc in self.documents.all():
            folder = self.folder_of(doc.path)
            cached = self.results.get(doc.uri)
            if folder not in folders or cached is None:
                continue
            if cached[2] != self._dependency(doc, folder):
                self.schedule(doc.uri, delay=0)

    def schedule(self, uri: str, delay: float | None = None) -> None:
        """Publish the document's diagnostics (push clients only), throttled.

        The first change after a pause is linted at once; while typing goes on,
        lints start at most once per `debounce` milliseconds and each covers
        every change made before it started.
        """
        self.touched()
        if not self.push:
            return
        waiting = self.pending.pop(uri, None)
        if waiting is not None:
            waiting.cancel()
        doc = self.documents.get(uri)
        if doc is None:
            return
        if delay is None:
            debounce = self.profiles.client_for(self.folder_of(doc.path)).debounce_ms / 1000
            since = time.monotonic() - self.started.get(uri, float("-inf"))
            delay = max(0.0, debounce - since)
        self.pending[uri] = asyncio.ensure_future(self._publish_later(doc, delay))

    async def _publish_later(self, doc: Document, delay: float) -> None:
        try:
            if delay:
                await asyncio.sleep(delay)
            self.started[doc.uri] = time.monotonic()
            result = await self.result(doc, only_if_current=True)
            if result is None or self.documents.get(doc.uri) is not doc:
                return
            early = self.published_early.pop((doc.uri, doc.version), None)
            if early == (result.findings, result.skipped):
                return  # the client has these diagnostics of this version already
            self.text_document_publish_diagnostics(
                types.PublishDiagnosticsParams(
                    uri=doc.uri,
                    diagnostics=of_result(result, doc.index(self.encoding)),
                    version=doc.version,
                )
            )
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # a notification has nobody to answer: log it
            self.report_server_error(exc, type(exc))
        finally:
            if self.pending.get(doc.uri) is asyncio.current_task():
                del self.pending[doc.uri]

    def forget(self, uri: str) -> None:
        """A document closed: nothing of it is kept (its result, its timing, the lint
        thread's memo of its first pass, dropped after any lint of it still running)."""
        waiting = self.pending.pop(uri, None)
        if waiting is not None:
            waiting.cancel()
        self.results.pop(uri, None)
        self.started.pop(uri, None)
        self.lint_pool.submit(self.analyzer.drop, uri)
        self.touched()
        if self.push:
            self.text_document_publish_diagnostics(
                types.PublishDiagnosticsParams(uri=uri, diagnostics=[])
            )

    def configuration_changed(self) -> None:
        """A configuration file or the settings changed: lint everything again."""
        self.profiles.forget()
        self.learn_workspace()
        self.analyzer.forget()  # a Checker per profile: the old profiles' go too
        self.workspace_analyzer.forget()
        self.results.clear()
        self.shown.clear()
        if self.push:
            for doc in self.documents.all():
                self.schedule(doc.uri, delay=0)
        else:
            self.touched()
            if self.can_refresh:
                self.workspace_diagnostic_refresh(None)

    def touched(self) -> None:
        """Something workspace diagnostics depend on changed: wake the held pulls."""
        self.generation += 1
        for event in self.waiting:
            event.set()
        self.waiting.clear()

    async def until_touched(self, timeout: float) -> None:
        event = asyncio.Event()
        self.waiting.append(event)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(event.wait(), timeout)

    def document_report(
        self, doc: Document, result: Result, previous: str | None
    ) -> types.RelatedFullDocumentDiagnosticReport | types.RelatedUnchangedDocumentDiagnosticReport:
        rid = result_id(doc.text, self.profile(doc).key, result.dependency)
        if previous == rid:
            return types.RelatedUnchangedDocumentDiagnosticReport(result_id=rid)
        return types.RelatedFullDocumentDiagnosticReport(
            items=of_result(result, doc.index(self.encoding)), result_id=rid
        )


def _walk(folder: Path, profile: Profile) -> dict[str, adapter.Stamp]:
    """The files `apispec lint FOLDER` would read, with their status; none if it cannot be walked."""
    try:
        return adapter.workspace_candidates(folder, profile.config)
    except (adapter.ApispecError, OSError):
        return {}


def is_config_file(uri: str) -> bool:
    path = path_of(uri)
    return path is not None and path.name in CONFIG_FILES
