"""Shell on the tree path: commands, wrappers, sourced files, Makefiles, Dockerfiles, CI.

A command is a call whose arguments are words; knowledge rows say what curl's,
wget's and httpie's options mean. The calls and findings of the trees under
tests/fixtures/lint/inline/shell/ (a script's command shapes, a sourced wrapper
across files, Makefile/Dockerfile/workflow scripts) are checked line by line by
tests/test_lint_inline.py; this file checks what that harness does not see: the
query values a call sends, how build files become shell regions, hostile build files.
"""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from apispec.lint.extract import extract_references
from apispec.lint.extract.buildfiles import dockerfile, makefile

INLINE = Path(__file__).parent / "fixtures" / "lint" / "inline" / "shell"
_CALL = re.compile(r"#\s\$\scall=(\S+) (\S+)(?:.*? query: (.+)|.*)$")


def _expected(text: str) -> list[tuple[int, str, str, dict[str, str]]]:
    """Each `# $ call=METHOD /path ... query: name=value ...` line's call and query."""
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        m = _CALL.search(line)
        if m is None:
            continue
        query = shlex.split(m.group(3) or "")
        found.append((number, m.group(1), m.group(2), dict(q.split("=", 1) for q in query)))
    return found


def test_every_call_of_the_script_sends_the_query_its_line_says() -> None:
    # options run together (-XPATCH, -fsSI), arrays of options, -G with --data-urlencode
    # and -d, wget's --method=, httpie's METHOD and name==value, sudo before the command,
    # printf formats, a wrapper's $1/$2 and "$@" after shift, jq's '$f|@uri', a loop's
    # word, a heredoc body; echo, case labels, [[ ]], grep and comments are no calls
    path = INLINE / "commands" / "ops.sh"
    text = path.read_text(encoding="utf-8")
    found = [
        (r.line, r.method, r.path.replace("{id}", "{}"), {q.name: q.value for q in r.query})
        for r in extract_references(text, "ops.sh")
    ]
    assert found == _expected(text)


def test_make_regions_keep_every_characters_offset() -> None:
    # a one-word value is a shell variable; several words are pasted (make pastes them)
    text = 'API ?= https://prtg:1616/api/v2\nX := -s\nX += -S\nall:\n\t@curl $(X) "$(API)/p"\n'
    (region,) = makefile(text)
    assert region.text.splitlines() == [
        'API="https://prtg:1616/api/v2"',
        'X="-s"',
        'X="${X} -S"',
        'curl -s -S "${API}/p"',
    ]
    assert len(region.offsets) == len(region.text)
    at = region.text.index('/p"')
    assert text[region.offsets[at] : region.offsets[at] + 3] == '/p"'
    at = region.text.index('-S"')  # the pasted word: where the definition writes it
    assert text[region.offsets[at] : region.offsets[at] + 2] == "-S"


def test_docker_regions_read_env_before_the_commands_in_file_order() -> None:
    text = (
        "FROM alpine\nENV A=https://prtg:1616 B=2\nRUN echo $A\n"
        'ENTRYPOINT ["curl", "-s", "$A/api/v2/health"]\nRUN <<EOF\ncurl -s "$A/x"\nEOF\n'
    )
    (region,) = dockerfile(text)
    assert region.text.splitlines() == [
        "A=https://prtg:1616",
        "B=2",
        "echo $A",
        "'curl' '-s' '$A/api/v2/health' ",  # the exec form expands nothing
        'curl -s "$A/x"',
    ]
    assert len(region.offsets) == len(region.text)


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("Makefile", "A = $(A)\nB = $(C)\nC = $(B) $(B)\nall:\n\tcurl $(A) $(B) $(" + "(" * 500),
        ("Makefile", "x:\n\t" + "$$(" * 20_000 + "\n" + "\t\\\n" * 5_000),
        ("Dockerfile", "RUN " + "\\\n" * 5_000 + 'ENV X="' + "$" * 10_000),
        ("build.sh", '#!/bin/sh\n# prtg\nf() { shift 99999999999999999999; curl "$1"; }\nf x\n'),
    ],
    ids=["make-recursive-and-unclosed", "make-runs", "docker-runs", "huge-shift"],
)
def test_hostile_build_files_end_in_a_report(tmp_path: Path, name: str, text: str) -> None:
    (tmp_path / name).write_text("# prtg :1616\n" + text if name != "build.sh" else text)
    done = subprocess.run(
        [sys.executable, "-m", "apispec", "lint", "--format", "json", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode in (0, 1) and "Traceback" not in done.stderr, done.stderr


@pytest.mark.parametrize(
    ("first", "language"),
    [
        ("#!/bin/sh", "shell"),
        ("#!/usr/bin/env bash", "shell"),
        ("#!/usr/bin/env -S bash -eu", "shell"),
        ("#! /usr/local/bin/zsh", "shell"),
        ("#!/usr/bin/python3.12", "python"),
        ("#!/usr/bin/env node", "javascript"),
        ("# no shebang", "generic"),
    ],
)
def test_a_script_without_extension_is_read_by_its_shebang(first: str, language: str) -> None:
    from apispec.lint.extract import language_of

    assert language_of("bin/prtg-report", first + "\n") == language


def test_an_extensionless_shell_script_is_linted_as_shell(tmp_path: Path) -> None:
    (tmp_path / "prtg-report").write_text(
        '#!/bin/sh\nAPI=https://prtg.example.net:1616/api/v2\ncurl -X DELETE "$API/groups/7"\n'
    )
    done = subprocess.run(
        [sys.executable, "-m", "apispec", "lint", "--show-calls", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0 and "prtg-report:3:21: DELETE /groups/{id}" in done.stdout
