"""One document linted for one profile: the registry and overlays it names, or the bundled
registry and a message when they cannot be loaded."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from apispec.lsp.analysis import Analyzer
from apispec.lsp.documents import Document
from apispec.lsp.settings import Profiles

CALL = 'import requests\nr = requests.get("https://prtg:1616/api/v2/sensors/7/overview")\n'


def _lint(folder: Path, text: str = CALL):
    path = folder / "job.py"
    path.write_text(text, encoding="utf-8")
    profile = Profiles().profile(folder, folder)
    with ThreadPoolExecutor(1) as lint_thread:  # as the server lints: off the main thread
        return lint_thread.submit(
            Analyzer().lint, Document(path.as_uri(), text, 1), profile
        ).result()


def test_an_overlay_that_cannot_be_loaded_is_reported_and_the_bundled_registry_used(tmp_path):
    (tmp_path / ".apispec.toml").write_text('overlays = ["missing"]\n')
    result = _lint(tmp_path)
    missing = tmp_path / "missing"
    assert result.problems == (
        f"{missing}: overlay directory does not exist; using the bundled registry",
    )
    assert [f.code for f in result.findings] == ["API002"]


def test_a_document_over_its_time_budget_is_not_linted_and_says_why(tmp_path):
    (tmp_path / ".apispec.toml").write_text("file-timeout = 0.001\n")
    calls = "".join(
        f'requests.get(f"https://prtg:1616/api/v2/sensors/{{s{n}}}/overview")\n'
        for n in range(20_000)
    )
    result = _lint(tmp_path, "import requests\n" + calls)
    assert result.findings == ()
    assert result.skipped is not None and "time budget of 0.001 s" in result.skipped
