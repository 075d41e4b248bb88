"""Issue 22, acceptance 2 and 3: what the linter reports survives changes that change nothing.

Every labelled fixture set (tests/fixtures/lint-expected/) but the blind ones is copied into one tree per
transformation of tests/metamorphic.py (comments after brackets and at line ends, blank
lines inside brackets, CRLF and CR-only line ends, a byte-order mark), once, and each
set of each tree is linted in one run of `apispec.lint.run.execute`, as `apispec lint
--show-calls` does.
Against the untransformed tree, no file may be skipped, and each file's calls and
findings must be the same, their lines mapped through the transformation. Then each tree
is given a suppression for every finding (`--add-suppressions`' own function) and
linted again: nothing is reported but the findings no comment could be written for, no
suppression is unused (API012), and every string literal keeps its value.

Every claimed language is read on its syntax tree (extract.TREE), so there is no known
limit: a layout the language allows never changes what is linted.
"""

from __future__ import annotations

import contextlib
import re
import shutil
from collections import Counter
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import pytest
import yaml

from apispec.lint.finding import Finding
from apispec.lint.rewrite import add_suppressions
from apispec.lint.run import LintRequest, execute
from tests import lint_accuracy as acc
from tests import metamorphic as mm

ORIGINAL = "original"
TARGET = "25.x.122"
# Tests of the same trees run in one process (`--dist loadgroup`): each tree is made and
# linted once, the two groups side by side.
_GROUPS = {"comments": "metamorphic-code", "blank-lines": "metamorphic-code"}


def _grouped(name: str) -> object:
    return pytest.param(name, marks=pytest.mark.xdist_group(_GROUPS.get(name, "metamorphic-lines")))


@dataclass
class Linted:
    """What one run reports for one tree, per file (relative to the tree, `set/file`)."""

    calls: dict[str, list[tuple[int, int, str | None, str]]] = field(default_factory=dict)
    findings: dict[str, list[Finding]] = field(default_factory=dict)
    skipped: list[str] = field(default_factory=list)

    def codes(self, name: str) -> Counter[tuple[int, str]]:
        return Counter((f.line, f.code) for f in self.findings.get(name, []))


@dataclass
class Tree:
    root: Path
    files: dict[str, mm.Transformed]  # set/file -> its transformed text
    kinds: dict[str, str | None]
    linted: Linted


@cache
def sources() -> list[tuple[str, Path]]:
    """(set/file, its path) of every labelled file of every set (read as tests/lint_accuracy.py
    reads a set's root and files, each expectations file once)."""
    found = []
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    for name in acc.sets():
        if name in acc.BLIND:
            continue  # a blind set's files are never shown, not even in a failure
        data = yaml.load((acc.EXPECTED_DIR / f"{name}.yaml").read_bytes(), Loader=loader)
        assert str(data["target"]) == TARGET, name
        root = acc.ROOT / data.get("root", f"tests/fixtures/lint/{name}")
        found += [(f"{name}/{file}", root / file) for file in data["files"]]
    return found


def _write(path: Path, transformed: mm.Transformed) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    # newline="": the text's own line ends, byte for byte
    with path.open("w", encoding=transformed.encoding, newline="") as out:
        out.write(transformed.text)


def lint(root: Path, config: Path) -> Linted:
    """One run over each set of a tree, as a user lints a repository from its root (a set's
    helpers are learnt from its own files, as the accuracy figures count them)."""
    linted = Linted()
    for name in acc.sets():
        if name in acc.BLIND:
            continue
        one = _lint_set(root / name, config)
        linted.calls.update({f"{name}/{path}": calls for path, calls in one.calls.items()})
        linted.findings.update({f"{name}/{path}": found for path, found in one.findings.items()})
        linted.skipped += [f"{name}/{skipped}" for skipped in one.skipped]
    return linted


def _lint_set(root: Path, config: Path) -> Linted:
    with contextlib.chdir(root):
        request = LintRequest(
            paths=[Path(".")],
            targets=[TARGET],
            config=config,
            fail_on="never",
            jobs=1,
            show_calls=True,
            cache=False,
        )
        outcome = execute(request)
    linted = Linted()
    for call in outcome.result.calls:
        linted.calls.setdefault(call.path, []).append(
            (call.line, call.column, call.method, call.call)
        )
    for finding in outcome.result.findings:
        linted.findings.setdefault(finding.path, []).append(finding)
    linted.skipped = [f"{s.path}: {s.reason}" for s in outcome.result.skipped]
    return linted


class Trees:
    """The transformed trees of one test process, each written and linted once."""

    def __init__(self, base: pytest.TempPathFactory) -> None:
        self.base = base
        self.config = base.mktemp("config") / ".apispec.toml"
        self.config.write_text("", encoding="utf-8")
        self.made: dict[str, Tree] = {}
        self._literals: dict[tuple[str, str], list[object] | None] = {}

    def literals(self, name: str, shown: str) -> list[object] | None:
        """The string literals of a file of a tree, read once."""
        key = (name, shown)
        if key not in self._literals:
            tree = self[name]
            self._literals[key] = mm.literals(tree.files[shown].text, tree.kinds[shown])
        return self._literals[key]

    def __getitem__(self, name: str) -> Tree:
        tree = self.made.get(name)
        if tree is None:
            tree = self.made[name] = self._make(name)
        return tree

    def _make(self, name: str) -> Tree:
        root = self.base.mktemp(name)
        files: dict[str, mm.Transformed] = {}
        kinds: dict[str, str | None] = {}
        for shown, source in sources():
            text = source.read_text(encoding="utf-8")
            kinds[shown] = kind = mm.kind_of(shown)
            transform = mm.TRANSFORMATIONS.get(name)
            files[shown] = transformed = (
                mm.unchanged(text) if transform is None else transform(text, kind)
            )
            _write(root / shown, transformed)
        return Tree(root, files, kinds, lint(root, self.config))


@pytest.fixture(scope="session")
def trees(tmp_path_factory: pytest.TempPathFactory) -> Trees:
    return Trees(tmp_path_factory)


def _inserted(new: str, old: str) -> bool:
    """Whether text was inserted (not only line ends changed or a BOM added)."""
    return len(new.replace("\r\n", "\n").replace("\r", "\n")) != len(old)


def differences(trees: Trees, name: str) -> dict[str, str]:
    """Per file: how its calls or findings differ from the untransformed tree's, moved."""
    before, after = trees[ORIGINAL], trees[name]
    found = {}
    for shown, transformed in after.files.items():
        moved = transformed.moved
        # each moves with its column: the text before it on its line may have moved on
        calls = Counter(
            (moved(line, column), method, path)
            for line, column, method, path in before.linted.calls.get(shown, [])
        )
        codes = Counter(
            (moved(f.line, f.column), f.code) for f in before.linted.findings.get(shown, [])
        )
        got_calls = Counter(
            (line, method, path) for line, _, method, path in after.linted.calls.get(shown, [])
        )
        got_codes = after.linted.codes(shown)
        if calls != got_calls or codes != got_codes:
            found[shown] = (
                f"calls missing {sorted((calls - got_calls).elements())}, "
                f"new {sorted((got_calls - calls).elements())}; findings missing "
                f"{sorted((codes - got_codes).elements())}, new {sorted((got_codes - codes).elements())}"
            )
    return found


@pytest.mark.parametrize("name", [_grouped(name) for name in mm.TRANSFORMATIONS])
def test_a_transformation_changes_no_call_and_no_finding(trees: Trees, name: str) -> None:
    tree = trees[name]
    assert trees[ORIGINAL].linted.skipped == [] and tree.linted.skipped == []
    for shown, transformed in tree.files.items():  # the harness wrote no comment into a string
        original = trees[ORIGINAL].files[shown].text
        if _inserted(transformed.text, original):
            assert trees.literals(name, shown) == trees.literals(ORIGINAL, shown), shown
    assert differences(trees, name) == {}


# The comment --add-suppressions writes into a YAML CI script is the script's own: it
# changes the YAML string, and only by that comment.
_SCRIPT_COMMENT = re.compile(r"  # apispec: ignore\[[A-Z0-9, ]*\]")


@pytest.mark.parametrize("name", [_grouped(name) for name in (ORIGINAL, *mm.TRANSFORMATIONS)])
def test_suppressions_written_quiet_every_finding_and_keep_every_literal(
    trees: Trees, tmp_path: Path, name: str
) -> None:
    tree = trees[name]
    root = tmp_path / "suppressed"
    shutil.copytree(tree.root, root)
    refused: Counter[tuple[str, int, str]] = Counter()
    for shown, found in tree.linted.findings.items():
        transformed = tree.files[shown]
        written, _, left = add_suppressions(transformed.text, found, shown)
        no_place = {(f.line, f.code) for f in left}
        # an unused suppression the file had already is never suppressed: it stays reported
        refused.update(
            (shown, f.line, f.code)
            for f in found
            if (f.line, f.code) in no_place or f.code == "API012"
        )
        _write(root / shown, mm.Transformed(written, transformed.moved, transformed.encoding))
        if written == transformed.text:
            continue
        kind = tree.kinds[shown]
        after = mm.literals(written, kind)
        if kind == "yaml" and after is not None:
            after = _without_script_comments(after)
        assert after == trees.literals(name, shown), shown
    again = lint(root, trees.config)
    assert again.skipped == []
    reported = Counter(
        (shown, f.line, f.code) for shown, found in again.findings.items() for f in found
    )
    # no new API012, nothing but what no comment could be written for
    assert reported == refused


def _without_script_comments(value: object) -> object:
    if isinstance(value, str):
        return _SCRIPT_COMMENT.sub("", value)
    if isinstance(value, list):
        return [_without_script_comments(v) for v in value]
    if isinstance(value, dict):
        return {k: _without_script_comments(v) for k, v in value.items()}
    return value
