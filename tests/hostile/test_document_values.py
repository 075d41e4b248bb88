"""OpenAPI documents whose values Python cannot take as written: exit 2, one line, nothing written.

Python refuses to turn more than 4,300 digits into an int (a ValueError, not a
parse error), PyYAML's constructors raise plain Python errors for an explicit
tag on the wrong scalar (`!!float abc`), and JSON's `\\ud800` escape gives a
lone surrogate that no file name or UTF-8 writer accepts. Each case runs the
three commands that read a user's OpenAPI document, in a child that records
what it opens: the document is refused at the line it names, nothing besides
it is read in the test's directory, and nothing is written there.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.hostile.helpers import apispec_audited, one_error_line, tree

YAML = """\
openapi: 3.1.0
info:
  title: hostile
  version: VERSION
paths:
  /api/v2/things/:
    get:
      operationId: listThings
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema:
                type: integer
                maximum: VALUE
"""

JSON = (
    '{"openapi": "3.1.0", "info": {"title": "hostile", "version": VERSION},\n'
    '"paths": {"/api/v2/things/": {"get": {"operationId": "listThings", "responses": {"200":\n'
    '{"description": "ok", "content": {"application/json": {"schema": SCHEMA}}}}}}}}\n'
)

DIGITS = "9" * 4400

# name -> (file name, text, words the error line holds)
CASES = {
    "yaml-integer-over-4300-digits": (
        "big.yaml",
        YAML.replace("VERSION", "'25.1.104'").replace("VALUE", DIGITS),
        ["big.yaml", "16", "more than 4300 digits"],
    ),
    "json-integer-over-4300-digits": (
        "big.json",
        JSON.replace("VERSION", '"25.1.104"').replace("SCHEMA", '{"maximum": ' + DIGITS + "}"),
        ["big.json", "3", "more than 4300 digits"],
    ),
    "hex-version-of-4000-digits": (
        "hex.yaml",
        YAML.replace("VERSION", "0x" + "f" * 4000).replace("VALUE", "1"),
        ["hex.yaml", "4", "more than 4300 digits"],
    ),
    "float-tag-on-a-word": (
        "float.yaml",
        YAML.replace("VERSION", "'25.1.104'").replace("VALUE", "!!float abc"),
        ["float.yaml", "16", "!!float", "'abc'"],
    ),
    "int-tag-on-a-word": (
        "int.yaml",
        YAML.replace("VERSION", "'25.1.104'").replace("VALUE", "!!int abc"),
        ["int.yaml", "16", "!!int", "'abc'"],
    ),
    "timestamp-tag-on-a-word": (
        "time.yaml",
        YAML.replace("VERSION", "'25.1.104'").replace("VALUE", "!!timestamp soon"),
        ["time.yaml", "16", "!!timestamp", "'soon'"],
    ),
    "bool-tag-on-a-word": (
        "bool.yaml",
        YAML.replace("VERSION", "'25.1.104'").replace("VALUE", "!!bool maybe"),
        ["bool.yaml", "16", "!!bool", "'maybe'"],
    ),
    "lone-surrogate-in-a-json-ref": (
        "surrogate.json",
        JSON.replace("VERSION", '"25.1.104"').replace("SCHEMA", '{"$ref": "other\\ud800.yaml"}'),
        ["surrogate.json", "surrogate"],
    ),
    "lone-surrogate-in-a-yaml-ref": (
        "surrogate.yaml",
        YAML.replace("VERSION", "'25.1.104'")
        .replace("type: integer", '$ref: "schemas/\\udc00.yaml"')
        .replace("VALUE", "1"),
        ["surrogate.yaml", "15", "surrogate"],
    ),
}

COMMANDS = {
    "registry-import": ["registry", "import", "DOC", "-o", "overlay"],
    "openapi-check": ["openapi", "--check", "DOC", "--allow-external-refs"],
    "registry-diff": ["registry", "diff", "DOC"],
}


@pytest.mark.parametrize("command", list(COMMANDS))
@pytest.mark.parametrize("case", list(CASES))
def test_a_value_python_cannot_take_is_exit_2_at_its_line(
    tmp_path: Path, case: str, command: str
) -> None:
    name, text, words = CASES[case]
    work = tmp_path / "work"
    work.mkdir()
    (work / name).write_text(text, encoding="utf-8", errors="surrogatepass")
    (work / "schemas").mkdir()
    (work / "schemas" / "neighbour.yaml").write_text("type: string\n")
    before = tree(work)
    args = [name if part == "DOC" else part for part in COMMANDS[command]]
    run = apispec_audited(*args, cwd=work, log=tmp_path / "opened.json")
    one_error_line(run, 2, *words)
    assert tree(work) == before, "a refused document changed files"
    assert run.opened_under(work) == {name}


RELEASE_PART = YAML.replace("VERSION", "'25." + "9" * 5000 + ".1'").replace("VALUE", "1")


@pytest.mark.parametrize("command", ["registry-import", "registry-diff"])
def test_a_release_part_of_5000_digits_is_not_a_release(tmp_path: Path, command: str) -> None:
    (tmp_path / "long.yaml").write_text(RELEASE_PART)
    args = [part.replace("DOC", "long.yaml") for part in COMMANDS[command]]
    run = apispec_audited(*args, cwd=tmp_path, log=tmp_path / "opened.json")
    one_error_line(run, 2, "long.yaml: info.version", "is not a release", "...")
    assert not (tmp_path / "overlay").exists()


def test_a_release_part_of_5000_digits_is_refused_by_release(tmp_path: Path) -> None:
    (tmp_path / "long.yaml").write_text(RELEASE_PART)
    args = ["registry", "import", "long.yaml", "-o", "overlay", "--release", "25.1." + "9" * 5000]
    run = apispec_audited(*args, cwd=tmp_path, log=tmp_path / "opened.json")
    one_error_line(run, 2, "invalid release", "...")
    assert not (tmp_path / "overlay").exists()
