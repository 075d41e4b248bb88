"""Smoke test in a real editor: headless Neovim runs `apispec lsp` through editors/neovim.

Neovim comes from the system packages (.ci/run installs it); 0.7 is enough,
which has neither vim.lsp.start nor pull diagnostics, so this is the oldest
setup docs/editors.md promises.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
NVIM = shutil.which("nvim")
pytestmark = pytest.mark.skipif(
    NVIM is None, reason="nvim is not installed (apt-get install neovim; .ci/run does)"
)

SCRIPT = """\
import requests

BASE = "https://prtg.example.com:1616/api/v2"
sensor = requests.get(f"{BASE}/sensors/{sid}/overview")
down = requests.get(f"{BASE}/experimental/objects", params={"filter": "status == down"})
"""
READ_BACK = """\
local ok = vim.wait(60000, function() return #vim.diagnostic.get(0) >= 3 end, 50)
local found = {}
for _, d in ipairs(vim.diagnostic.get(0)) do
  table.insert(found, { d.code, d.lnum, d.col, d.end_lnum, d.end_col, d.severity, d.message })
end
local out = io.open("diagnostics.json", "w")
out:write(vim.fn.json_encode({ ok = ok, found = found }))
out:close()
vim.cmd("qa!")
"""


def test_neovim_shows_the_servers_diagnostics(tmp_path):
    (tmp_path / "script.py").write_text(SCRIPT)
    (tmp_path / "read_back.lua").write_text(READ_BACK)
    setup = (
        "lua require('apispec').setup({"
        f"cmd = {{ {json.dumps(sys.executable)}, '-m', 'apispec', 'lsp' }},"
        "settings = { target = '25.x.122' } })"
    )
    run = subprocess.run(
        [
            NVIM,
            "--headless",
            "--clean",
            "--cmd",
            f"set rtp^={REPO / 'editors' / 'neovim'}",
            "-c",
            setup,
            "-c",
            "edit script.py",
            "-c",
            "luafile read_back.lua",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    shown = json.loads((tmp_path / "diagnostics.json").read_text())
    assert shown["ok"], shown
    by_code = {d[0]: d[1:] for d in shown["found"]}
    assert set(by_code) == {"API002", "API003", "API006"}
    # 0-based line, column, end line, end column; severity 1 error, 2 warning
    assert by_code["API002"][:5] == [3, 30, 3, 53, 2]
    assert by_code["API002"][5].endswith("use GET /sensors/{id}")
    assert by_code["API006"][:5] == [4, 79, 4, 80, 1]


def test_the_documentation_screenshots_come_from_neovims_screen(tmp_path):
    sys.path.insert(0, str(REPO / "editors" / "neovim"))
    try:
        from screenshot import capture
    finally:
        sys.path.pop(0)
    written = {p.name for p in capture(tmp_path)}
    assert written == {
        f"neovim-{shot}.{kind}"
        for shot in ("diagnostics", "hover", "completion")
        for kind in ("svg", "txt")
    }
    diagnostics = (tmp_path / "neovim-diagnostics.txt").read_text()
    assert "■ GET /sensors/{id}/overview is deprecated" in diagnostics
    assert "successor: GET /sensors/{id}" in (tmp_path / "neovim-hover.txt").read_text()
    assert "status" in (tmp_path / "neovim-completion.txt").read_text()
    assert (tmp_path / "neovim-hover.svg").read_text().startswith("<svg ")
