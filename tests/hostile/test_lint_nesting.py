"""Code nested deeper than the tree path's lowering goes (a generated hashtable or dict
thousands of levels deep) is still linted: lowering stops at its nesting bound, and a
recursion past it anyway hands the file to the text path, so its calls are reported and
the run ends with its findings, not with an internal error."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.hostile.helpers import apispec_run, clean

DEPTH = 3000

# (file, text, exit code): a GET's -Body is its query, so `a` is an unknown parameter
CASES = [
    (
        "deep.ps1",
        '$B = "https://prtg.example.com:1616/api/v2"\n'
        'Invoke-RestMethod -Uri "$B/experimental/objects" -Body '
        + "@{a=" * DEPTH
        + "1"
        + "}" * DEPTH
        + "\n",
        1,
    ),
    (
        "deep.py",
        'import requests\nB = "https://prtg.example.com:1616/api/v2"\n'
        'requests.get(B + "/experimental/objects", json='
        + '{"a": ' * DEPTH
        + "1"
        + "}" * DEPTH
        + ")\n",
        0,
    ),
]


@pytest.mark.parametrize(("name", "text", "code"), CASES, ids=[c[0] for c in CASES])
def test_a_call_with_an_argument_nested_thousands_deep_is_reported(
    tmp_path: Path, name: str, text: str, code: int
) -> None:
    (tmp_path / name).write_text(text)
    result = clean(apispec_run("lint", name, cwd=tmp_path), code)
    assert "internal error" not in result.err
    assert f"{name}:" in result.out and "API003" in result.out
