"""Inline expectations: each fixture line says what the linter must find on it.

As CodeQL and semgrep test their models, a fixture carries its expectations in its own
comments: `$ call=METHOD /path` for a call found on that line (parameters written `{}`)
and `$ finding=CODE` for a finding reported there, several per line, in the language's
comment syntax. As in CodeQL's tests, `$ MISSING: finding=CODE` marks what a mature
linter would report and this one does not yet: the test holds it unreported, so the day
the engine learns the shape the test says to drop the marker. A directory under tests/fixtures/lint/inline/ is linted as one tree (a
wrapper in one file applies in another), and every file is compared whole: each
expectation must be met and nothing else reported, so a shape the engine loses, or a
call it invents, fails the test of that file.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from tests import lint_accuracy as acc

INLINE = Path(__file__).parent / "fixtures" / "lint" / "inline"
# `$ call=GET /experimental/devices finding=API003`, after the line's comment opener;
# `call=? /path` for a call whose code shows no method
_CALL = r"call=(?:[A-Z]+|\?) \S+"
_EXPECT = re.compile(
    rf"\$ (MISSING: )?((?:{_CALL}|finding=API\d{{3}})(?: +(?:{_CALL}|finding=API\d{{3}}))*)"
)
_ITEM = re.compile(r"call=([A-Z]+|\?) (\S+)|finding=(API\d{3})")
# a parameter as the report names it (`{id}`, `{sensorId}`): fixtures write `{}`
_PARAM = re.compile(r"\{[^}]*\}")


Expected = Counter[tuple[int, str, str]]


def expectations(path: Path) -> tuple[Expected, Expected]:
    """What a file's comments expect, as (line, kind, what): kind `call` with what
    `METHOD /path`, or `finding` with a rule code; then the known misses apart."""
    expected: Expected = Counter()
    missing: Expected = Counter()
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        for found in _EXPECT.finditer(line):
            into = missing if found.group(1) else expected
            for item in _ITEM.finditer(found.group(2)):
                if item.group(3):
                    into[(number, "finding", item.group(3))] += 1
                else:
                    into[(number, "call", f"{item.group(1)} {item.group(2)}")] += 1
    return expected, missing


def _trees() -> list[Path]:
    return sorted(p for p in INLINE.glob("*/*") if p.is_dir())


@pytest.mark.parametrize("tree", _trees(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_line_finds_what_it_says(tree: Path) -> None:
    labelled = acc.LabelledSet(tree.name, tree, "25.x.122", {}, [], [])
    observed = acc.observe(labelled)
    problems = []
    for path in sorted(p for p in tree.rglob("*") if p.is_file()):
        name = path.relative_to(tree).as_posix()
        want, missing = expectations(path)
        got: Expected = Counter(
            (c.line, "call", f"{c.method or '?'} {_PARAM.sub('{}', c.path)}")
            for c in observed.calls
            if c.file == name
        )
        got.update((f.line, "finding", f.code) for f in observed.findings if f.file == name)
        for line, kind, what in sorted((want - got).elements()):
            problems.append(f"{name}:{line}: missing {kind} {what}")
        for line, kind, what in sorted((got - want).elements()):
            if (line, kind, what) in missing:
                problems.append(f"{name}:{line}: {kind} {what} is found now: drop its MISSING:")
            else:
                problems.append(f"{name}:{line}: unexpected {kind} {what}")
    assert not problems, "\n".join(problems)


def test_the_expectation_reader_reads_several_per_line(tmp_path: Path) -> None:
    path = tmp_path / "x.py"
    path.write_text(
        'a = 1\nget("/x")  # $ call=GET /devices/{} finding=API002 finding=API011\n'
        'get("/y")  # $ call=GET /y $ MISSING: finding=API006\n'
    )
    want, missing = expectations(path)
    assert want == Counter(
        {
            (2, "call", "GET /devices/{}"): 1,
            (2, "finding", "API002"): 1,
            (2, "finding", "API011"): 1,
            (3, "call", "GET /y"): 1,
        }
    )
    assert missing == Counter({(3, "finding", "API006"): 1})
