"""The grammar file and its cached LALR tables: what start-up and the fast road rely on."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

from apispec.filters.grammar import KEYWORDS, _tables_from_lark, grammar_text

REPO = Path(__file__).resolve().parents[1]


def test_the_keyword_list_is_the_grammar_s():
    text = grammar_text()
    terminals = set(re.findall(r"^_?[A-Z]+: /([a-z]+)\(\?!", text, re.M))
    assert terminals == KEYWORDS
    name = re.search(r"^NAME: /\(\?!\(\?:([a-z|]+)\)", text, re.M)
    assert name is not None and set(name.group(1).split("|")) == KEYWORDS


def test_the_grammar_ships_inside_the_package():
    assert (REPO / "apispec" / "filters" / "filter.lark").read_text(encoding="utf-8") == (
        grammar_text()
    )
    pyproject = (REPO / "pyproject.toml").read_text(encoding="utf-8")
    assert '"filters/*.lark"' in pyproject


def test_tables_survive_the_json_cache_unchanged():
    tables = _tables_from_lark()
    assert json.loads(json.dumps(tables)) == tables


def run_check(env: dict[str, str], *code: str) -> subprocess.CompletedProcess[str]:
    script = "\n".join(
        [
            "import sys",
            "from apispec.cli import main",
            "code = main(['filter', 'check', 'status = up and basic.tags contains \"x\"'])",
            *code,
        ]
    )
    return run_python(script, env)


def run_python(script: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """A fresh interpreter, so module imports and on-disk caches start cold."""
    return subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        cwd=REPO,
        env={**os.environ, **env},
        timeout=60,
    )


def test_a_valid_filter_is_checked_without_lark_the_builder_or_the_registry(tmp_path):
    env = {"XDG_CACHE_HOME": str(tmp_path)}
    first = run_check(env)  # builds the caches
    assert first.returncode == 0, first.stderr
    assert sorted(p.name.split("-")[1] for p in tmp_path.rglob("filter-*.json")) == [
        "catalog",
        "tables",
    ]
    heavy = ["lark", "regex", "yaml", "apispec.registry.model", "apispec.filters.build"]
    second = run_check(env, f"print([m for m in {heavy!r} if m in sys.modules])")
    assert second.stdout.splitlines()[-1] == "[]", second.stderr


def test_no_cache_means_no_cache_files(tmp_path):
    run = run_check({"XDG_CACHE_HOME": str(tmp_path), "APISPEC_NO_CACHE": "1"})
    assert run.returncode == 0, run.stderr
    assert not list(tmp_path.rglob("filter-*"))


def test_a_syntax_error_is_explained_from_a_cold_cache(tmp_path):
    env = {"XDG_CACHE_HOME": str(tmp_path)}
    script = "from apispec.filters import check; print(check('status == up')[0].hint)"
    run = run_python(script, env)
    assert run.stdout == "compare with a single `=`\n", run.stderr


def test_a_damaged_tables_cache_is_rebuilt(tmp_path):
    env = {"XDG_CACHE_HOME": str(tmp_path)}
    assert run_check(env).returncode == 0
    (cached,) = tmp_path.rglob("filter-tables-*.json")
    cached.write_text('{"format": 1, "states": []}', encoding="utf-8")
    again = run_check(env)
    assert (again.returncode, again.stderr) == (0, "")
    assert "token_re" in json.loads(cached.read_text(encoding="utf-8"))
