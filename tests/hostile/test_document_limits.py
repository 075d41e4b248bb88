"""Points 6 and 17 of issue 11: alias bombs and deep nesting end in one line, not a hang.

YAML aliases are cheap to write and exponential to expand; nesting a few
thousand levels deep overflows every recursive parser and walker. Each input
here is small on disk; each must be refused quickly with the line it concerns.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.hostile.helpers import apispec_run, clean

# Nine levels of nine aliases: 9**9 (387 million) strings once expanded.
BOMB = 'a: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]\n' + "".join(
    f"{b}: &{b} [*{a}, *{a}, *{a}, *{a}, *{a}, *{a}, *{a}, *{a}, *{a}]\n"
    for a, b in zip("abcdefgh", "bcdefghi", strict=True)
)
RECURSIVE = "a: &a [1, *a]\n"
DEEP_YAML = "x: " + "[" * 5_000 + "]" * 5_000 + "\n"
DEEP_JSON = '{"x": ' + "[" * 100_000 + "]" * 100_000 + "}"
OPENAPI_HEAD = "openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths: {}\n"


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (BOMB, "zz.yaml:6: refused: aliases expand to more than 100,000 extra nodes"),
        (RECURSIVE, "zz.yaml:1: refused: an alias refers to a node that contains it"),
        (DEEP_YAML, "zz.yaml:1: refused: nested deeper than 100 levels"),
    ],
    ids=["alias-bomb", "recursive-alias", "deep"],
)
def test_registry_files(registry_copy: Path, body: str, message: str) -> None:
    (registry_copy / "zz.yaml").write_text(body)
    checked = clean(apispec_run("registry", "check", "--registry", str(registry_copy)), 1)
    assert message in checked.out
    for command in (["registry", "list"], ["lint", "--target", "24.3.100"]):
        used = clean(apispec_run(*command, "--registry", str(registry_copy)), 2)
        assert message in used.err
        assert len(used.err.splitlines()) == 1


def _extensions(text: str) -> str:
    """Top-level keys as OpenAPI extensions (`x-a`), which a document may carry."""
    return "".join(f"x-{line}\n" for line in text.splitlines())


@pytest.mark.parametrize(
    ("name", "body", "message"),
    [
        ("bomb.yaml", OPENAPI_HEAD + _extensions(BOMB), "bomb.yaml:9: refused: aliases expand"),
        ("loop.yaml", OPENAPI_HEAD + _extensions(RECURSIVE), "refused: an alias refers"),
        ("deep.yaml", OPENAPI_HEAD + _extensions(DEEP_YAML), "refused: nested deeper than 100"),
        ("deep.json", DEEP_JSON, "nested deeper than 100 levels"),
    ],
    # Short ids: pytest puts the test id in PYTEST_CURRENT_TEST, and a 200 KB id
    # makes the child process's environment too large to start.
    ids=["alias-bomb", "recursive-alias", "deep-yaml", "deep-json"],
)
def test_openapi_documents(tmp_path: Path, name: str, body: str, message: str) -> None:
    path = tmp_path / name
    path.write_text(body)
    result = clean(apispec_run("openapi", "--check", str(path)), 2)
    assert result.err.startswith(f"apispec: error: {path}")
    assert message in result.err
    assert len(result.err.splitlines()) == 1


def test_anchors_of_ordinary_size_still_work(tmp_path: Path) -> None:
    path = tmp_path / "anchors.yaml"
    path.write_text(
        OPENAPI_HEAD.replace("paths: {}\n", "")
        + "paths:\n"
        + "".join(
            f"  /p{n}:\n    get:\n      responses: &r{n}\n        '200': {{description: ok}}\n"
            f"    put:\n      responses: *r{n}\n"
            for n in range(50)
        )
    )
    result = clean(apispec_run("openapi", "--check", str(path)), 0)
    assert result.err == f"{path}: valid\n"


@pytest.mark.parametrize(
    ("name", "text"),
    [
        (".apispec.toml", "target = " + "[" * 5_000 + "]" * 5_000 + "\n"),
        ("pyproject.toml", "[tool.apispec]\nseverity = " + "{a = " * 3_000 + "1" + "}" * 3_000),
        (".apispec.toml", "[" + ".".join(["t"] * 2_000) + "]\nx = 1\n"),
    ],
    ids=["array", "inline-tables", "dotted-table"],
)
def test_deeply_nested_configuration(tmp_path: Path, name: str, text: str) -> None:
    (tmp_path / name).write_text(text)
    (tmp_path / "a.py").write_text("x = 1\n")
    result = clean(apispec_run("lint", ".", cwd=tmp_path), 2)
    assert result.err == f"apispec: error: {tmp_path / name}: nested deeper than 100 levels\n"


def test_deeply_nested_json_inputs(tmp_path: Path) -> None:
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    (tmp_path / "a.py").write_text("x = 1\n")
    baseline = clean(apispec_run("lint", ".", "--baseline", str(deep), cwd=tmp_path), 2)
    assert "nested deeper than 100 levels" in baseline.err
    for option in ("--data", "--users"):
        mock = clean(apispec_run("mock", "--port", "0", option, str(deep), timeout=30), 2)
        assert mock.err == f"apispec: error: {option} {deep}: nested deeper than 100 levels\n"
