"""The README is the first thing a user runs: its commands and sample output must be true."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
QUICKSTART = re.findall(r"^    (pip install .*)$", README.split("## Quickstart")[1], re.M)


def test_quickstart_is_exactly_two_commands_install_and_run_then_test() -> None:
    assert len(QUICKSTART) == 2
    main_job, test_command = QUICKSTART
    assert main_job.startswith("pip install . && apispec ")
    assert test_command == "pip install -e '.[test]' && pytest"


def test_ci_runs_the_readme_test_command() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    extraction = r"sed -n 's/^    \(pip install -e .*pytest.*\)$/\1/p' README.md"
    assert extraction in ci, "CI no longer takes its test command from the README"
    lines = re.findall(r"^    (pip install -e .*pytest.*)$", README, re.M)
    assert lines[:1] == [QUICKSTART[1]]


def test_main_job_lints_the_examples_with_exit_0(cli, monkeypatch) -> None:
    monkeypatch.chdir(ROOT)
    argv = shlex.split(QUICKSTART[0].split(" && ", 1)[1])
    assert argv[0] == "apispec"
    result = cli(*argv[1:])
    assert result.code == 0, result.err
    assert re.search(r"^examples/\S+:\d+:\d+: API001 ", result.out, re.M)  # a removed endpoint
    assert re.search(r"^examples/\S+:\d+:\d+: API006 ", result.out, re.M)  # an invalid filter


def test_filter_check_sample_is_the_real_output() -> None:
    block = re.search(r"```console\n\$ (apispec filter check .*?)\n(.*?)```", README, re.S)
    assert block, "README lost its `apispec filter check` sample"
    command, shown = block.groups()
    run = subprocess.run(
        [sys.executable, "-m", "apispec", *shlex.split(command)[1:]],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert run.returncode == 1
    assert run.stdout == shown


CLI_PAGE = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
LINKS = re.findall(r"\]\((docs/[^)#]*)\)", README) + [
    f"docs/{name}" for name in re.findall(r"\]\(([^):#/]+\.md)\)", CLI_PAGE)
]


@pytest.mark.parametrize("link", sorted(set(LINKS)))
def test_documentation_links_resolve(link: str) -> None:
    assert (ROOT / link).exists()


def test_every_docs_page_is_linked_from_the_readme_or_cli_page() -> None:
    for page in (ROOT / "docs").glob("*.md"):
        assert f"docs/{page.name}" in README or f"({page.name})" in CLI_PAGE, page.name
