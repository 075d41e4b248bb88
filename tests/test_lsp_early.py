"""`apispec lsp` on stdio answers `initialize` and publishes the first diagnostics before it
loads pygls (apispec.lsp.early), then pygls goes on with the same conversation.

The client here is a few lines of JSON-RPC over the server's pipes, so every byte the
server writes is seen: one answer per request, the same capabilities as the full server
gives over TCP, and the early diagnostics equal to those the full server publishes."""

from __future__ import annotations

import json
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from tests.lsp_client import SCRIPT, WAIT, answer_over_tcp

PYTHON = sys.executable
SETTINGS = {"target": "25.x.122"}
CLIENTS = {
    "bare": {},
    "neovim-0.7": {
        "workspace": {"configuration": True, "workspaceFolders": True},
        "textDocument": {"publishDiagnostics": {"relatedInformation": True}},
    },
    "pull, utf-8": {
        "general": {"positionEncodings": ["utf-8", "utf-16"]},
        "textDocument": {"diagnostic": {"dynamicRegistration": False}},
        "workspace": {"configuration": True, "diagnostics": {"refreshSupport": True}},
    },
}


class Pipe:
    """A JSON-RPC client on a process's standard input and output."""

    def __init__(self, command: list[str], cwd: Path) -> None:
        self.process = subprocess.Popen(
            command, cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )
        self.messages: queue.Queue[dict[str, Any]] = queue.Queue()
        self.seen: list[dict[str, Any]] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        stream = self.process.stdout
        assert stream is not None
        while True:
            length = None
            while True:
                line = stream.readline()
                if not line:
                    return
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
                if line == b"\r\n":
                    break
            assert length is not None
            self.messages.put(json.loads(stream.read(length)))

    def send(self, message: dict[str, Any]) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode()
        assert self.process.stdin is not None
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n%s" % (len(body), body))
        self.process.stdin.flush()

    def until(self, wanted: Any) -> dict[str, Any]:
        deadline = time.monotonic() + WAIT
        while True:
            message = self.messages.get(timeout=max(deadline - time.monotonic(), 0.1))
            self.seen.append(message)
            if "method" in message and "id" in message:  # the server asks the client
                result = None
                if message["method"] == "workspace/configuration":
                    result = [SETTINGS for _ in message["params"]["items"]]
                self.send({"id": message["id"], "result": result})
            if wanted(message):
                return message

    def answer(self, ident: int) -> dict[str, Any]:
        return self.until(lambda m: m.get("id") == ident and "method" not in m)

    def close(self) -> None:
        self.send({"id": 999, "method": "shutdown"})
        self.answer(999)
        self.send({"method": "exit"})
        self.process.wait(timeout=WAIT)
        while not self.messages.empty():
            self.seen.append(self.messages.get())


def _initialize(capabilities: dict[str, Any], folder: Path) -> dict[str, Any]:
    return {
        "id": 1,
        "method": "initialize",
        "params": {
            "processId": None,
            "rootUri": folder.as_uri(),
            "capabilities": capabilities,
            "initializationOptions": {"settings": SETTINGS},
        },
    }


def _open(path: Path, text: str) -> dict[str, Any]:
    item = {"uri": path.as_uri(), "languageId": "python", "version": 1, "text": text}
    return {"method": "textDocument/didOpen", "params": {"textDocument": item}}


@pytest.mark.parametrize("client", list(CLIENTS))
def test_the_early_answer_to_initialize_is_the_full_servers(client: str, tmp_path: Path) -> None:
    request = _initialize(CLIENTS[client], tmp_path)
    pipe = Pipe([PYTHON, "-m", "apispec", "lsp"], tmp_path)
    pipe.send(request)
    early = pipe.answer(1)
    pipe.close()
    assert early["result"] == answer_over_tcp(request)["result"]


def test_first_diagnostics_come_before_pygls_is_loaded(tmp_path: Path) -> None:
    """The first publish comes from a process that has imported neither pygls nor
    lsprotocol, and says what the full server says about the same document."""
    script = tmp_path / "script.py"
    script.write_text(SCRIPT, encoding="utf-8")
    probe = (
        "import sys\n"
        "from apispec.lsp.early import first_second\n"
        "first_second()\n"
        "loaded = sorted({m.split('.')[0] for m in sys.modules} & {'pygls', 'lsprotocol'})\n"
        "print(' '.join(loaded) or 'none', file=sys.stderr)\n"
    )
    pipe = Pipe([PYTHON, "-c", probe], tmp_path)
    pipe.send(_initialize(CLIENTS["neovim-0.7"], tmp_path))
    pipe.answer(1)
    pipe.send({"method": "initialized", "params": {}})
    pipe.send(_open(script, SCRIPT))
    early = pipe.until(lambda m: m.get("method") == "textDocument/publishDiagnostics")
    assert pipe.process.stdin is not None
    pipe.process.stdin.close()  # the phase ends; the probe reports what it imported
    assert pipe.process.wait(timeout=WAIT) == 0
    assert pipe.process.stderr is not None
    assert pipe.process.stderr.read().decode().strip() == "none"
    codes = sorted(d["code"] for d in early["params"]["diagnostics"])
    assert codes == ["API002", "API003", "API006"], codes

    full = Pipe([PYTHON, "-m", "apispec", "lsp"], tmp_path)
    full.send(_initialize(CLIENTS["neovim-0.7"], tmp_path))
    full.answer(1)
    full.send({"method": "initialized", "params": {}})
    full.send(_open(script, SCRIPT))
    first = full.until(lambda m: m.get("method") == "textDocument/publishDiagnostics")
    assert first["params"] == early["params"]
    # pygls, once it has taken over, says the same of the same text (as version 2)
    change = {
        "textDocument": {"uri": script.as_uri(), "version": 2},
        "contentChanges": [{"text": SCRIPT}],
    }
    full.send({"method": "textDocument/didChange", "params": change})
    second = full.until(
        lambda m: (
            m.get("method") == "textDocument/publishDiagnostics" and m["params"]["version"] == 2
        )
    )
    full.close()
    assert second["params"]["diagnostics"] == early["params"]["diagnostics"]
    versions = [
        m["params"]["version"]
        for m in full.seen
        if m.get("method") == "textDocument/publishDiagnostics"
    ]
    assert versions == [1, 2], "version 1 was published once, not again after the handover"


def test_pygls_goes_on_with_the_conversation_answering_each_request_once(
    tmp_path: Path,
) -> None:
    script = tmp_path / "script.py"
    script.write_text(SCRIPT, encoding="utf-8")
    pipe = Pipe([PYTHON, "-m", "apispec", "lsp"], tmp_path)
    pipe.send(_initialize(CLIENTS["pull, utf-8"], tmp_path))
    pipe.answer(1)
    pipe.send({"method": "initialized", "params": {}})
    pipe.send(_open(script, SCRIPT))
    document = {"textDocument": {"uri": script.as_uri()}}
    pipe.send({"id": 2, "method": "textDocument/diagnostic", "params": document})
    first = pipe.answer(2)["result"]
    assert first["kind"] == "full"
    assert sorted(d["code"] for d in first["items"]) == ["API002", "API003", "API006"]
    # the full server took over: it knows the document, and the early result id
    again = {**document, "previousResultId": first["resultId"]}
    pipe.send({"id": 3, "method": "textDocument/diagnostic", "params": again})
    assert pipe.answer(3)["result"] == {"kind": "unchanged", "resultId": first["resultId"]}
    line = SCRIPT.splitlines().index(next(x for x in SCRIPT.splitlines() if "overview" in x))
    column = SCRIPT.splitlines()[line].index("/overview")
    hover = {**document, "position": {"line": line, "character": column}}
    pipe.send({"id": 4, "method": "textDocument/hover", "params": hover})
    assert "/sensors/{id}" in json.dumps(pipe.answer(4)["result"])
    pipe.close()
    answers = [m["id"] for m in pipe.seen if "id" in m and "method" not in m]
    assert sorted(answers) == [1, 2, 3, 4, 999], answers
