"""Go on the tree path: the shapes of real Go clients, through the CLI and under edits.

The trees under tests/fixtures/lint/inline/go/ carry their expectations inline
(tests/test_lint_inline.py compares every file of them). Here the same expectations
hold when a user runs `apispec lint --format json` in the tree, and when the code is
changed in ways that keep its meaning: CRLF line ends, a BOM, a comment after every
opening bracket and at every line end (where a text reader lost whole files).
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest

from tests import lint_accuracy as acc
from tests.test_lint_inline import Expected, expectations

GO = Path(__file__).parent / "fixtures" / "lint" / "inline" / "go"
TREES = sorted(p for p in GO.iterdir() if p.is_dir())


def _expected(root: Path) -> Expected:
    want: Expected = Counter()
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        name = path.relative_to(root).as_posix()
        found, _ = expectations(path)
        want.update({(name, *key): n for key, n in found.items()})
    return want


def _observed(root: Path) -> Expected:
    observed = acc.observe(acc.LabelledSet(root.name, root, "25.x.122", {}, [], []))
    got: Expected = Counter(
        (c.file, c.line, "call", f"{c.method or 'GET'} {c.path}") for c in observed.calls
    )
    got.update((f.file, f.line, "finding", f.code) for f in observed.findings)
    return got


def _cli(tree: Path, *args: str) -> tuple[int, dict[str, list[dict[str, object]]]]:
    done = subprocess.run(
        [sys.executable, "-m", "apispec", "lint", "--format=json", "--target=25.x.122", *args, "."],
        cwd=tree,
        capture_output=True,
        text=True,
        check=False,
    )
    report: dict[str, list[dict[str, object]]] = json.loads(done.stdout)
    return done.returncode, report


@pytest.mark.parametrize("tree", TREES, ids=lambda p: p.name)
def test_the_cli_reports_what_the_go_trees_expect(tree: Path) -> None:
    _, listed = _cli(tree, "--show-calls")
    param = re.compile(r"\{[^/{}]*\}")
    got: Expected = Counter(
        (c["path"], c["line"], "call", f"{c['method'] or 'GET'} {param.sub('{}', str(c['call']))}")
        for c in listed["calls"]
    )
    code, report = _cli(tree)
    assert code == 1  # every tree has findings
    got.update((f["path"], f["line"], "finding", f["code"]) for f in report["findings"])
    assert got == _expected(tree)


def _crlf(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\n", "\r\n")


def _bom(text: str) -> str:
    return "\ufeff" + text


def _comments_everywhere(text: str) -> str:
    """A comment after every opening bracket and at every line end is the same code."""
    text = re.sub(r"\((?![^\n]*`)", "( /* note */ ", text)
    return re.sub(r"(?m)(?<!`)$", " // note", text)


@pytest.mark.parametrize("tree", TREES, ids=lambda p: p.name)
@pytest.mark.parametrize("change", [_crlf, _bom, _comments_everywhere])
def test_the_go_trees_survive_text_changes_that_keep_the_code(
    tmp_path: Path, tree: Path, change: Callable[[str], str]
) -> None:
    root = tmp_path / tree.name
    shutil.copytree(tree, root)
    for path in root.rglob("*.go"):
        path.write_bytes(change(path.read_text(encoding="utf-8")).encode("utf-8"))
    assert _observed(root) == _expected(tree)
