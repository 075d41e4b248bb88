"""The first second of `apispec lsp` on stdio: the handshake and the first diagnostics
before pygls is imported.

Importing pygls and lsprotocol takes longer than linting a file with the CLI
(lsprotocol builds several hundred attrs classes), and an editor waits for it
twice: to hear the answer to `initialize`, then for the first diagnostics. So
this module, which imports neither, answers `initialize` at once with the
server's capabilities, loads the registry and builds the linter while the
client initialises, lints the documents the client opens and publishes their
diagnostics (or answers the first `textDocument/diagnostic` pulls). Then it
hands over: pygls reads the whole conversation from the start, the bytes this
module read followed by the rest of standard input, so the server ends in the
state it would have reached alone, with its documents, settings and workspace
walk; the requests answered here are not answered twice, diagnostics published
here are not published again unless they change, and the linter built here is
the server's (its first lints come from its memo).

Anything this module does not expect (a first message that is not
`initialize`, a header or body it cannot read, a document over a megabyte, a
request other than a diagnostic pull, a pause of the client) ends it early:
pygls then sees everything exactly as sent.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import select
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO

from apispec import __version__
from apispec.lsp.positions import UTF8, UTF16, UTF32, LineIndex

if TYPE_CHECKING:  # imported at run time once `initialize` is answered
    from apispec.lsp.documents import Document
    from apispec.lsp.settings import Profile, Profiles

MAX_BODY = 1 << 20  # larger documents are linted by the server, in its worker thread
PAUSE = 0.5  # seconds without a message after which the server takes over
_HEADER_END = b"\r\n\r\n"
_CONTENT_LENGTH = re.compile(rb"Content-Length: (\d+)")
_QUIET = {"initialized", "$/setTrace", "$/cancelRequest", "workspace/didChangeConfiguration"}
_SEVERITY = {"error": 1, "warning": 2, "info": 3}
DEPRECATED_TAG = 2

# The server's capabilities as pygls computes them from the features server.py registers;
# tests/test_lsp_early.py holds the two equal for several clients.
CAPABILITIES: dict[str, Any] = {
    "textDocumentSync": {"openClose": True, "change": 1, "save": {"includeText": False}},
    "completionProvider": {"triggerCharacters": ["/", " ", "=", '"', "'", "(", "["]},
    "hoverProvider": True,
    "codeActionProvider": {
        "codeActionKinds": [
            "quickfix",
            "refactor.rewrite",
            "source.fixAll.apispec",
            "source.formatFilters.apispec",
        ],
        "resolveProvider": False,
    },
    "executeCommandProvider": {"commands": ["apispec.showDocumentation"]},
    "inlayHintProvider": {"resolveProvider": False},
    "diagnosticProvider": {
        "interFileDependencies": True,
        "workspaceDiagnostics": True,
        "identifier": "apispec",
    },
    "workspace": {
        "workspaceFolders": {"supported": True, "changeNotifications": True},
        "fileOperations": {},
    },
}


class _Replay(io.RawIOBase):
    """Standard input as it was: the bytes already read, then the rest of the stream."""

    def __init__(self, read: bytes, fd: int) -> None:
        self._read = memoryview(read)
        self._fd = fd

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        if self._read.nbytes:
            size = min(len(buffer), self._read.nbytes)
            buffer[:size] = self._read[:size]
            self._read = self._read[size:]
            return size
        data = os.read(self._fd, len(buffer))
        buffer[: len(data)] = data
        return len(data)


@dataclass
class Handover:
    """What the full server takes from this phase."""

    stream: BinaryIO  # standard input from its first byte
    answered: set[Any] = field(default_factory=set)  # ids of the requests answered here
    analyzer: Any = None  # apispec.lsp.analysis.Analyzer with its Checker built, or None
    # (uri, version) -> (findings, why not linted) of the diagnostics published here
    published: dict[tuple[str, Any], tuple[Any, Any]] = field(default_factory=dict)


def position_encoding(capabilities: dict[str, Any]) -> str:
    """The encoding pygls agrees on: the client's first one it supports, else UTF-16."""
    general = capabilities.get("general")
    offered = general.get("positionEncodings") if isinstance(general, dict) else None
    for encoding in offered if isinstance(offered, list) else ():
        if encoding in (UTF8, UTF16, UTF32):
            return str(encoding)
    return UTF16


def initialize_result(capabilities: dict[str, Any]) -> dict[str, Any]:
    return {
        "capabilities": {"positionEncoding": position_encoding(capabilities), **CAPABILITIES},
        "serverInfo": {"name": "apispec", "version": __version__},
    }


def diagnostics_json(result: Any, index: LineIndex) -> list[dict[str, Any]]:
    """A lint result as LSP diagnostics, exactly as apispec.lsp.diagnostics.of_result
    makes them (without the protocol types)."""
    from apispec.lsp import adapter

    if result.skipped is not None:
        origin = {"line": 0, "character": 0}
        return [
            {
                "range": {"start": origin, "end": origin},
                "message": f"not linted: {result.skipped}",
                "severity": 3,
                "source": "apispec",
            }
        ]
    out = []
    for f in result.findings:
        begin = index.from_linter(f.line, f.column)
        first = index.point(begin)
        last = index.point(max(begin, index.from_linter(f.end_line, f.end_column)))
        item: dict[str, Any] = {
            "range": {
                "start": {"line": first[0], "character": first[1]},
                "end": {"line": last[0], "character": last[1]},
            },
            "message": f.message,
            "severity": _SEVERITY[str(f.severity)],
            "code": f.code,
        }
        url = adapter.rule_url(f.code)
        if url:
            item["codeDescription"] = {"href": url}
        item["source"] = "apispec"
        if f.code in adapter.DEPRECATED_CODES:
            item["tags"] = [DEPRECATED_TAG]
        out.append(item)
    return out


class _Early:
    def __init__(self, fd: int, out: BinaryIO) -> None:
        self.fd = fd
        self.out = out
        self.read = bytearray()  # everything read from fd
        self.at = 0  # where the next message starts in `read`
        self.answered: set[Any] = set()
        self.analyzer: Any = None  # an Analyzer once the registry is loaded
        self.published: dict[tuple[str, Any], tuple[Any, Any]] = {}
        self.documents: dict[str, Document] = {}
        self.folders: list[Path] = []
        self.profiles: Profiles | None = None  # with the settings of initializationOptions
        self.encoding = UTF16

    # -- reading and writing ------------------------------------------------------

    def _fill(self, timeout: float | None) -> bool:
        ready, _, _ = select.select([self.fd], [], [], timeout)
        if not ready:
            return False
        data = os.read(self.fd, 1 << 16)
        self.read += data
        return bool(data)

    def message(self, timeout: float | None) -> dict[str, Any] | None:
        """The next message, or None (nothing in time, or not one this phase reads)."""
        end = self.read.find(_HEADER_END, self.at)
        while end < 0:
            if len(self.read) - self.at > 4096 or not self._fill(timeout):
                return None
            end = self.read.find(_HEADER_END, self.at)
        lengths = [
            _CONTENT_LENGTH.fullmatch(line)
            for line in bytes(self.read[self.at : end]).split(b"\r\n")
        ]
        found = [m for m in lengths if m is not None]
        if len(found) != 1 or int(found[0].group(1)) > MAX_BODY:
            return None
        start = end + len(_HEADER_END)
        stop = start + int(found[0].group(1))
        while len(self.read) < stop:
            if not self._fill(timeout):
                return None
        try:
            message = json.loads(bytes(self.read[start:stop]))
        except ValueError:
            return None
        if not isinstance(message, dict) or message.get("jsonrpc") != "2.0":
            return None
        self.at = stop
        return message

    def send(self, message: dict[str, Any]) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode("utf-8")
        self.out.write(b"Content-Length: %d\r\n\r\n%s" % (len(body), body))
        self.out.flush()

    # -- the conversation ----------------------------------------------------------

    def run(self) -> None:
        first = self.message(None)
        if first is None or first.get("method") != "initialize":
            return
        if isinstance(first.get("id"), bool) or not isinstance(first.get("id"), (int, str)):
            return
        params = first.get("params")
        capabilities = params.get("capabilities") if isinstance(params, dict) else None
        if not isinstance(capabilities, dict):
            return
        self.send({"id": first["id"], "result": initialize_result(capabilities)})
        self.answered.add(first["id"])
        assert isinstance(params, dict)
        try:
            self._lint_opened(params, capabilities)
        except Exception:  # the server lints them again, and reports what went wrong
            return

    def _lint_opened(self, params: dict[str, Any], capabilities: dict[str, Any]) -> None:
        # Imported after `initialize` is answered: the client initialises meanwhile.
        from apispec.lsp.analysis import Analyzer
        from apispec.lsp.documents import path_of
        from apispec.lsp.settings import ClientSettings, Profiles

        text_caps = capabilities.get("textDocument")
        push = not (isinstance(text_caps, dict) and text_caps.get("diagnostic") is not None)
        self.encoding = position_encoding(capabilities)
        self.folders = _folders(params, path_of)
        self.profiles = Profiles()
        self.profiles.defaults = ClientSettings.parse(params.get("initializationOptions"))
        self.analyzer = Analyzer()
        root = self.folders[0] if self.folders else None
        self.analyzer.checker(self.profiles.profile(root, root))  # while the client initialises
        done = False
        while True:
            message = self.message(0 if done else PAUSE)
            if message is None:
                return
            method = message.get("method")
            if method == "workspace/didChangeConfiguration" and _names_settings(message):
                return  # settings that change what a lint says: the server applies them first
            if method in _QUIET and "id" not in message:
                continue
            body = message.get("params")
            if not isinstance(body, dict):
                return
            if method == "textDocument/didOpen":
                if not self._opened(body, push):
                    return
                done = done or push
            elif method == "textDocument/diagnostic" and "id" in message:
                if not self._pulled(message["id"], body):
                    return
                done = True
            else:
                return

    def _opened(self, body: dict[str, Any], push: bool) -> bool:
        """Keep an opened document; lint it and publish its diagnostics to a push client."""
        from apispec.lsp.documents import Document

        item = body.get("textDocument")
        if not isinstance(item, dict):
            return False
        doc = Document(str(item["uri"]), str(item["text"]), item.get("version"), item["languageId"])
        self.documents[doc.uri] = doc
        if push:
            result = self.analyzer.lint(doc, self._profile(doc))
            diagnostics = diagnostics_json(result, doc.index(self.encoding))
            params = {"uri": doc.uri, "diagnostics": diagnostics, "version": doc.version}
            self.send({"method": "textDocument/publishDiagnostics", "params": params})
            self.published[(doc.uri, doc.version)] = (result.findings, result.skipped)
        return True

    def _pulled(self, ident: Any, body: dict[str, Any]) -> bool:
        """Answer a pull of an opened document's diagnostics, as the server would."""
        from apispec.lsp.workspace import result_id

        target = body.get("textDocument")
        uri = target.get("uri") if isinstance(target, dict) else None
        doc = self.documents.get(uri) if isinstance(uri, str) else None
        if doc is None:
            return False
        profile = self._profile(doc)
        result = self.analyzer.lint(doc, profile)
        rid = result_id(doc.text, profile.key, result.dependency)
        report: dict[str, Any] = {"kind": "unchanged", "resultId": rid}
        if body.get("previousResultId") != rid:
            report = {"kind": "full", "resultId": rid}
            report["items"] = diagnostics_json(result, doc.index(self.encoding))
        self.send({"id": ident, "result": report})
        self.answered.add(ident)
        return True

    def _profile(self, doc: Document) -> Profile:
        """The document's profile, its folder found as ApispecServer.folder_of finds it."""
        path, folders = doc.path, self.folders
        if path is None:
            folder = folders[0] if len(folders) == 1 else None
        else:
            inside = [f for f in folders if path == f or f in path.parents]
            folder = max(inside, key=lambda f: len(f.parts)) if inside else None
        assert self.profiles is not None
        return self.profiles.profile(doc.directory, folder)


def _names_settings(message: dict[str, Any]) -> bool:
    """Whether a configuration change carries apispec settings (an empty one, as clients
    send after `initialized`, changes nothing this module's lints depend on)."""
    params = message.get("params")
    settings = params.get("settings") if isinstance(params, dict) else None
    return isinstance(settings, dict) and bool(settings.get("apispec"))


def _folders(params: dict[str, Any], path_of: Any) -> list[Path]:
    """The workspace folders as pygls's workspace holds them: the listed folders, else the
    root URI (or root path)."""
    listed = params.get("workspaceFolders")
    uris = [f.get("uri") for f in listed if isinstance(f, dict)] if isinstance(listed, list) else []
    if not uris:
        root = params.get("rootUri")
        if root is None and isinstance(params.get("rootPath"), str):
            root = Path(params["rootPath"]).resolve().as_uri()
        uris = [root] if root else []
    found = [path_of(uri) for uri in uris if isinstance(uri, str)]
    return [p for p in found if p is not None]


def first_second(fd: int = 0, out: BinaryIO | None = None) -> Handover:
    """Serve the start of the conversation; what the full server needs to go on."""
    early = _Early(fd, out or sys.stdout.buffer)
    if sys.platform != "win32":  # select() waits on pipes only on POSIX
        with contextlib.suppress(OSError):  # the client went away: so will pygls find it
            early.run()
    stream = io.BufferedReader(_Replay(bytes(early.read), fd))
    return Handover(stream, early.answered, early.analyzer, early.published)
