"""Shell on the tree path: commands, wrappers, sourced files, Makefiles, Dockerfiles, CI.

A command is a call whose arguments are words; knowledge rows say what curl's,
wget's and httpie's options mean. The fixture ops.sh carries its expectations
inline (`# $ METHOD /path name=value ...` on the line the linter must point at),
compared with the whole file; the trees under tests/fixtures/lint/generalise/ are
linted as a user lints a repository.
"""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from apispec.lint.extract import extract_references
from apispec.lint.extract.regions import dockerfile, makefile
from apispec.lint.run import LintRequest, execute

TREES = Path(__file__).parent / "fixtures" / "lint" / "generalise"
_EXPECTATION = re.compile(r"#\s\$\s(.+)$")


def _expected(text: str) -> list[tuple[int, str, str, dict[str, str]]]:
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        m = _EXPECTATION.search(line)
        if m is None:
            continue
        method, path, *query = shlex.split(m.group(1))
        found.append((number, method, path, dict(q.split("=", 1) for q in query)))
    return found


def _lint(name: str) -> tuple[list[tuple[str, int, str | None, str]], list[tuple[str, int, str]]]:
    root = TREES / name
    outcome = execute(
        LintRequest(paths=[root], targets=["25.x.122"], fail_on="never", show_calls=True, jobs=1)
    )

    def rel(shown: str) -> str:
        return Path(shown).resolve().relative_to(root.resolve()).as_posix()

    calls = [(rel(c.path), c.line, c.method, c.call) for c in outcome.result.calls]
    findings = [(rel(f.path), f.line, f.code) for f in outcome.result.findings]
    return calls, findings


def test_every_call_of_the_script_is_read_as_its_line_says() -> None:
    # options run together (-XPATCH, -fsSI), arrays of options, -G with --data-urlencode
    # and -d, wget's --method=, httpie's METHOD and name==value, sudo before the command,
    # printf formats, a wrapper's $1/$2 and "$@" after shift, jq's '$f|@uri', a loop's
    # word, a heredoc body; echo, case labels, [[ ]], grep and comments are no calls
    path = TREES / "shell-commands" / "ops.sh"
    text = path.read_text(encoding="utf-8")
    found = [
        (r.line, r.method, r.path, {q.name: q.value for q in r.query})
        for r in extract_references(text, "ops.sh")
    ]
    assert found == _expected(text)


def test_a_sourced_files_wrappers_apply_where_it_is_sourced() -> None:
    # lib/monitor.sh defines mon_get (GET, -G: the caller's --data-urlencode words are
    # its query) and mon_send (method $1, path $2); bin/unrelated.sh sources nothing
    calls, findings = _lint("shell-sourced")
    assert calls == [
        ("bin/cleanup.sh", 5, "GET", "/version"),
        ("bin/cleanup.sh", 6, "GET", "/experimental/devices"),
        ("bin/cleanup.sh", 8, "DELETE", "/experimental/devices/{id}"),
        ("bin/cleanup.sh", 9, "POST", "/devices/{id}/pause"),
    ]
    assert ("bin/cleanup.sh", 6, "API006") in findings  # `tags` is not filterable
    assert ("bin/cleanup.sh", 7, "API011") in findings  # `take` on its own line


def test_makefile_dockerfile_and_workflow_scripts_are_shell() -> None:
    calls, findings = _lint("build-files")
    assert calls == [
        (".github/workflows/smoke.yml", 4, "GET", "/health"),  # an env value curl sends
        (".github/workflows/smoke.yml", 13, "GET", "/experimental/sensors"),  # env after run
        ("Dockerfile", 6, "GET", "/settings/public"),  # past a comment line in the RUN
        ("Dockerfile", 7, "GET", "/health"),  # HEALTHCHECK CMD
        ("Dockerfile", 8, "POST", "/experimental/devices/{id}/metascan"),  # ["sh", "-c", ...]
        ("Makefile", 10, "GET", "/experimental/probes"),  # $(CURL): make pastes its words
        ("Makefile", 14, "GET", "/experimental/objects"),  # $(CURL_GET) holds -G
        ("Makefile", 16, "POST", "/devices/{id}/pause"),  # `target: ; recipe`
    ]
    # one finding per place: the env value is read as YAML and as the script's variable
    assert findings.count((".github/workflows/smoke.yml", 4, "API004")) == 1
    assert ("Makefile", 13, "API006") in findings  # the quoted enumeration value


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
