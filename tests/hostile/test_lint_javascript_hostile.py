"""JavaScript and TypeScript read from a syntax tree: inputs that nest, loop or never close.

Each file is linted by a real `apispec lint` process, which must finish (a process
timeout guards against a hang) with its ordinary exit code, a JSON report and no
traceback. Before the tree path bounded its nesting, 3,000 nested brackets and a
concatenation of 6,000 operands ended in an internal error (RecursionError), and a
template literal nested 400 deep took minutes (each step up the tree costs its depth).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

CASES = [
    (
        "concat.js",
        'const u = "/api/v2/experimental/devices/"' + " + a" * 6000 + ";\nfetch(u);\n",
        ["/experimental/devices/{}"],  # a long concatenation is walked, not recursed
    ),
    (
        "parens.ts",
        "fetch(" + "(" * 3000 + '"/api/v2/experimental/devices"' + ")" * 3000 + ");\n",
        [],  # deeper than the lowering follows: opaque, never an internal error
    ),
    (
        "nested.js",
        "const u = "
        + "`${" * 400
        + '"/api/v2/experimental/devices"'
        + "}`" * 400
        + ";\nfetch(`https://prtg.example.com:1616${u}`);\n",
        [],
    ),
    (
        "cycle.js",
        "const { a } = b;\nconst { b } = a;\nlet x = y;\nlet y = x;\n"
        "function f(p = f()) { return f(p); }\n"
        "fetch(`${a}/api/v2/experimental/devices?page=${x}&size=${f()}`);\n"
        'const q = new URLSearchParams(q);\nq.set("limit", q);\n'
        "fetch(`/api/v2/experimental/sensors?${q}`);\n",
        ["/experimental/devices", "/experimental/sensors"],  # names defined by themselves
    ),
    (
        "unclosed.tsx",
        "const x = <div onClick={() => fetch(`/api/v2/experimental/probes${\n  " + "{" * 500,
        [],
    ),
]


@pytest.mark.parametrize(("name", "text", "paths"), CASES, ids=[c[0] for c in CASES])
def test_javascript_that_nests_loops_or_never_closes_is_linted(
    tmp_path: Path, name: str, text: str, paths: list[str]
) -> None:
    path = tmp_path / name
    path.write_text("// prtg\n" + text, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "apispec", "lint", "--format", "json", "--show-calls", str(path)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert "Traceback" not in done.stderr, done.stderr
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert [call["call"].replace("{id}", "{}") for call in report["calls"]] == paths
