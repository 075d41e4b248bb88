"""Odd starts of a conversation with `apispec lsp`: whatever the early phase (apispec.lsp.early)
does not expect goes to pygls exactly as sent, and every request gets one answer."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from tests.lsp_client import SCRIPT
from tests.test_lsp_early import CLIENTS, Pipe, _initialize, _open

LSP = [sys.executable, "-m", "apispec", "lsp"]


def _answers(pipe: Pipe) -> list[object]:
    return [m["id"] for m in pipe.seen if "id" in m and "method" not in m]


def test_bytes_before_initialize_are_skipped_as_pygls_skips_them(tmp_path: Path) -> None:
    pipe = Pipe(LSP, tmp_path)
    assert pipe.process.stdin is not None
    pipe.process.stdin.write(b"not a header\r\n\r\n")
    pipe.send(_initialize(CLIENTS["neovim-0.7"], tmp_path))
    assert "capabilities" in pipe.answer(1)["result"]
    pipe.close()
    assert _answers(pipe) == [1, 999]


def test_a_first_request_that_is_not_initialize_is_pyglss_to_answer(tmp_path: Path) -> None:
    pipe = Pipe(LSP, tmp_path)
    pipe.send({"id": 7, "method": "textDocument/hover", "params": {}})
    pipe.answer(7)
    pipe.send(_initialize(CLIENTS["bare"], tmp_path))
    assert "capabilities" in pipe.answer(1)["result"]
    pipe.close()
    assert sorted(_answers(pipe), key=str) == [1, 7, 999]


def test_an_initialize_with_an_odd_id_or_params_is_left_to_pygls(tmp_path: Path) -> None:
    for odd in ({"id": [1], "params": {"capabilities": {}}}, {"id": 3, "params": [1, 2]}):
        pipe = Pipe(LSP, tmp_path)
        pipe.send({"method": "initialize", **odd})
        if odd["id"] == 3:
            assert "error" in pipe.answer(3)
        pipe.send(_initialize(CLIENTS["bare"], tmp_path))
        pipe.answer(1)
        pipe.close()
        assert pipe.process.returncode == 0, odd


def test_a_large_document_is_linted_by_the_server_not_early(tmp_path: Path) -> None:
    """Over a megabyte the early phase hands over; the diagnostics still come, once linted
    in the server's worker thread."""
    script = tmp_path / "big.py"
    text = SCRIPT + "# filler\n" * 130_000
    script.write_text(text, encoding="utf-8")
    pipe = Pipe(LSP, tmp_path)
    pipe.send(_initialize(CLIENTS["neovim-0.7"], tmp_path))
    pipe.answer(1)
    pipe.send({"method": "initialized", "params": {}})
    pipe.send(_open(script, text))
    published = pipe.until(lambda m: m.get("method") == "textDocument/publishDiagnostics")
    codes = sorted(d["code"] for d in published["params"]["diagnostics"])
    assert codes == ["API002", "API003", "API006"], json.dumps(codes)
    pipe.close()
