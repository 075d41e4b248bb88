"""docs/filters.md must show what apispec does: generated part, command output, Python examples."""

from __future__ import annotations

import contextlib
import io
import re
import shlex
from pathlib import Path

import pytest

from apispec.cli import main
from apispec.docgen.filters import BEGIN, END, reference
from apispec.filters import CODES

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "filters.md"
PAGE = DOC.read_text(encoding="utf-8")
SHELL_BLOCKS = re.findall(r"```text\n(\$ apispec .*?)\n```", PAGE, re.S)


def generated_part(page: str) -> str:
    """The text between the generator's markers."""
    start = page.index(BEGIN) + len(BEGIN)
    return page[start : page.index(END, start)].strip("\n") + "\n"


def test_the_generated_part_is_current(registry):
    assert generated_part(PAGE) == reference(registry), (
        "docs/filters.md is stale: run `python -m apispec.docgen.filters docs/filters.md`"
    )


def test_the_property_table_lists_every_registry_property(registry):
    rows = re.findall(r"^\| `([a-z.0-9]+)` \| ", generated_part(PAGE), re.M)
    assert rows[: len(registry.properties)] == [p.name for p in registry.properties]


def test_every_diagnostic_code_has_an_example_with_its_output():
    for code in CODES:
        assert re.search(
            rf"^#### {code}: .*\n\n```text\n\$ apispec filter check .*\n.* {code}: ", PAGE, re.M
        )


@pytest.mark.parametrize(
    "block",
    SHELL_BLOCKS,
    ids=[b.split("\n")[0] for b in SHELL_BLOCKS],
)
def test_shown_command_output_is_real(block: str) -> None:
    command, _, shown = block.partition("\n")
    out = io.StringIO()  # standard error too, where it comes (`filter fix` reports on it)
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        main(shlex.split(command)[2:])  # after `$ apispec`
    assert out.getvalue().rstrip("\n") == shown


def test_the_python_examples_run():
    (code,) = re.findall(r"```python\n(.*?)```", PAGE, re.S)
    exec(compile(code, str(DOC), "exec"), {})
