"""Go on the tree path: the shapes of real Go clients, as inline expectations.

The tree under tests/fixtures/lint/go-shapes/ is linted as one repository, as a user
runs `apispec lint` in theirs. Every line that makes an API v2 call carries
`// $ call=METHOD /path` (`{}` for each parameter segment), every line a finding
points at `// $ finding=CODE`; a line without them must yield nothing, so the whole
tree is compared: net/http (requests built and sent apart, headers set on them, a
request's URL query set after it is made), fmt.Sprintf verbs (`%q` quotes), url.Values
over statements, url.Parse/JoinPath/RawQuery/Path, strings.Join over appended
clauses, resty chains and setters, a client struct with receivers and a base from a
constructor with an environment fallback, generic wrappers, const and map tables,
paths chosen by a branch, wrappers across files (a package's files share their
functions; another package imports them) and Go in Markdown, beside what is never a
call (httptest servers, route registrations, a test's expectation text).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from apispec.lint.run import LintRequest, execute

ROOT = Path(__file__).parent.parent
SHAPES = Path(__file__).parent / "fixtures" / "lint" / "go-shapes"
_MARK = re.compile(r"//\s*\$\s*(.*)$")
_CALL = re.compile(r"call=(\S+) (\S+)")
_FINDING = re.compile(r"finding=(API\d{3})")
_PARAM = re.compile(r"\{[^/{}]*\}")

Call = tuple[str, int, str | None, str]
Finding = tuple[str, int, str]


def _expected(root: Path) -> tuple[list[Call], list[Finding]]:
    calls: list[Call] = []
    findings: list[Finding] = []
    for path in sorted(p for p in root.rglob("*") if p.suffix in (".go", ".md")):
        name = path.relative_to(root).as_posix()
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            mark = _MARK.search(line)
            if mark is None:
                continue
            for method, call in _CALL.findall(mark.group(1)):
                calls.append((name, number, None if method == "-" else method, call))
            findings.extend((name, number, code) for code in _FINDING.findall(mark.group(1)))
    return sorted(calls, key=str), sorted(findings)


def _cli(root: Path, *args: str) -> dict[str, object]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-m", "apispec", "lint", "--format", "json", *args, "."],
        cwd=root,
        capture_output=True,
        text=True,
        check=False,
        env=env,
    )
    assert done.returncode in (0, 1), done.stderr
    found: dict[str, object] = json.loads(done.stdout)
    return found


def _in_process(root: Path) -> tuple[list[Call], list[Finding]]:
    outcome = execute(
        LintRequest(paths=[root], targets=["25.x.122"], fail_on="never", show_calls=True, jobs=1)
    )

    def rel(shown: str) -> str:
        return Path(shown).resolve().relative_to(root.resolve()).as_posix()

    calls = [
        (rel(c.path), c.line, c.method, _PARAM.sub("{}", c.call)) for c in outcome.result.calls
    ]
    findings = [(rel(f.path), f.line, f.code) for f in outcome.result.findings]
    return sorted(calls, key=str), sorted(findings)


def test_the_calls_of_the_go_shapes_are_their_inline_expectations() -> None:
    listed = _cli(SHAPES, "--show-calls", "--target", "25.x.122")["calls"]
    assert isinstance(listed, list)
    calls = sorted(
        ((c["path"], c["line"], c["method"], _PARAM.sub("{}", c["call"])) for c in listed),
        key=str,
    )
    assert calls == _expected(SHAPES)[0]


def test_the_findings_of_the_go_shapes_are_their_inline_expectations() -> None:
    listed = _cli(SHAPES, "--target", "25.x.122")["findings"]
    assert isinstance(listed, list)
    findings = sorted((f["path"], f["line"], f["code"]) for f in listed)
    assert findings == _expected(SHAPES)[1]


def _crlf(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\n", "\r\n")


def _bom(text: str) -> str:
    return "\ufeff" + text


def _comments_everywhere(text: str) -> str:
    """A comment after every opening bracket and at every line end is the same code."""
    text = re.sub(r"\((?![^\n]*`)", "( /* note */ ", text)
    return re.sub(r"(?m)(?<!`)$", " // note", text)


@pytest.mark.parametrize("change", [_crlf, _bom, _comments_everywhere])
def test_the_go_shapes_survive_text_changes_that_keep_the_code(
    tmp_path: Path, change: object
) -> None:
    root = tmp_path / "shapes"
    shutil.copytree(SHAPES, root)
    for path in root.rglob("*.go"):
        assert callable(change)
        path.write_bytes(change(path.read_text(encoding="utf-8")).encode("utf-8"))
    assert _in_process(root) == _expected(root)
