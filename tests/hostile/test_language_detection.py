"""Issue 22, point 10: the language of a script without an extension, and of standard input.

The shebang pattern captured `usr` or `bin` instead of the interpreter, so every
extension-less script and standard input was read as generic text, which finds only
full URLs in quotes: the calls below, relative to a base, went unseen and the run said
"No findings". Standard input without a name or a shebang is read by its content where
that names one language; otherwise the run says, in one line, that the language is
unknown and how to name it (exit 2), never "No findings".
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.hostile.helpers import apispec_run, clean, tree_bytes

HOST = "https://prtg.example.com:1616/api/v2"

# Each body calls GET /experimental/objects through a base variable: only the right
# dialect sees the call (API003 on the given line).
PYTHON = f'import requests\nBASE = "{HOST}"\nrequests.get(f"{{BASE}}/experimental/objects")\n'
SHELL = f'BASE="{HOST}"\ncurl -s "$BASE/experimental/objects"\n'
POWERSHELL = f'$Base = "{HOST}"\nInvoke-RestMethod -Uri "$Base/experimental/objects"\n'
NODE = f'const base = "{HOST}";\nfetch(`${{base}}/experimental/objects`);\n'
RUBY = (
    f'require "net/http"\nBASE = "{HOST}"\nNet::HTTP.get(URI("#{{BASE}}/experimental/objects"))\n'
)
PHP = f'<?php\n$base = "{HOST}";\n$r = file_get_contents("$base/experimental/objects");\n'

SCRIPTS = [
    ("#!/usr/bin/env -S python3 -u\n", PYTHON, 4),
    ("#!/usr/bin/python3.12\n", PYTHON, 4),
    ("#!/bin/bash\n", SHELL, 3),
    ("#! /bin/sh -e\n", SHELL, 3),
    ("#!/usr/bin/env pwsh\n", POWERSHELL, 3),
    ("#!/usr/bin/env node\n", NODE, 3),
    ("#!/usr/bin/env ruby\n", RUBY, 4),
    ("#!/usr/bin/env -i FOO=1 php\n", PHP, 4),
]
IDS = [s[0].strip() for s in SCRIPTS]


def _findings(out: str) -> list[tuple[str, int]]:
    return [(f["code"], f["line"]) for f in json.loads(out)["findings"]]


@pytest.mark.parametrize(("shebang", "body", "line"), SCRIPTS, ids=IDS)
def test_an_extension_less_script_is_read_in_its_shebang_language(
    tmp_path: Path, shebang: str, body: str, line: int
) -> None:
    (tmp_path / "sync").write_text(shebang + body)
    before = tree_bytes(tmp_path)
    result = clean(apispec_run("lint", "--format=json", "--fail-on=info", "sync", cwd=tmp_path), 1)
    assert _findings(result.out) == [("API003", line)]
    assert tree_bytes(tmp_path) == before


def _stdin(text: str, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "apispec", "lint", "--fail-on=info", *args, "-"],
        input=text,
        capture_output=True,
        text=True,
        timeout=60,
        cwd=cwd,
    )


@pytest.mark.parametrize(("shebang", "body", "line"), SCRIPTS, ids=IDS)
def test_standard_input_with_a_shebang(tmp_path: Path, shebang: str, body: str, line: int) -> None:
    done = _stdin(shebang + body, "--format=json", cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    assert _findings(done.stdout) == [("API003", line)] and done.stderr == ""


@pytest.mark.parametrize(
    "body",
    [PYTHON, SHELL, POWERSHELL, RUBY, PHP, NODE.replace("const base", "let base")],
    ids=["python", "shell", "powershell", "ruby", "php", "javascript"],
)
def test_standard_input_without_a_name_is_read_by_its_content(tmp_path: Path, body: str) -> None:
    done = _stdin(body, "--format=json", cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    line = body.count("\n")
    assert _findings(done.stdout) == [("API003", line)] and done.stderr == ""


@pytest.mark.parametrize(
    "text",
    [
        "",
        "hello world\n",
        f'url = "{HOST}/experimental/objects"\n',  # Python, Ruby and shell alike
    ],
    ids=["empty", "prose", "assignment"],
)
def test_standard_input_of_no_clear_language_is_exit_2_with_one_line(
    tmp_path: Path, text: str
) -> None:
    done = _stdin(text, cwd=tmp_path)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == (
        "apispec: error: standard input: unknown language (no --stdin-filename, no shebang, "
        "and its text does not show one language); name it, e.g. "
        "`--stdin-filename script.py`\n"
    )


def test_a_name_given_for_standard_input_wins_over_its_content(tmp_path: Path) -> None:
    done = _stdin(SHELL, "--stdin-filename=notes.txt", cwd=tmp_path)
    assert done.returncode == 0 and "No findings." in done.stdout  # prose: never a call
