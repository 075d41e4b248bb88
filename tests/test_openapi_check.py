"""`apispec openapi --check FILE`: findings at the right line, one-line errors for bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

OPENAPI = Path(__file__).parent / "fixtures" / "openapi"

# (line in invalid.yaml, line in invalid.json, message): the lines are the fixtures' own
EXPECTED = [
    (5, 5, "info.version: 1 is not of type 'string'"),
    (
        8,
        9,
        "paths./devices/{id}.get: Path parameter 'id' for 'get' operation in '/devices/{id}' was not resolved",
    ),
    (14, 19, "paths./devices.get: Operation ID 'get_device' for 'get' in '/devices' is not unique"),
    (
        20,
        26,
        "paths./devices.get.parameters[0].schema.type: 'integr' is not valid under any of the given schemas",
    ),
]


@pytest.mark.parametrize("name", ["invalid.yaml", "invalid.json"])
def test_findings_point_at_the_offending_line(cli, name: str) -> None:
    path = OPENAPI / name
    column = 0 if name.endswith(".yaml") else 1
    result = cli("openapi", "--check", str(path))
    assert result.code == 1
    assert result.out.splitlines() == [f"{path}:{row[column]}: {row[2]}" for row in EXPECTED]
    assert f"{len(EXPECTED)} findings" in result.err


def test_a_generated_document_passes_in_yaml_and_json(cli, tmp_path: Path) -> None:
    for name in ("api.yaml", "api.json"):
        target = tmp_path / name
        assert cli("openapi", "--release", "24.3.100", "-o", str(target)).code == 0
        result = cli("openapi", "--check", str(target))
        assert (result.code, result.out) == (0, "")
        assert result.err.strip() == f"{target}: valid"


def test_an_unresolvable_reference_is_reported_at_the_ref(cli, tmp_path: Path) -> None:
    doc = tmp_path / "ref.yaml"
    doc.write_text(
        "openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths:\n  /a:\n    get:\n"
        "      responses:\n        '200':\n          description: ok\n          content:\n"
        "            application/json:\n              schema:\n"
        "                $ref: '#/components/schemas/Missing'\n"
    )
    result = cli("openapi", "--check", str(doc))
    assert result.code == 1
    assert result.out == f"{doc}:12: unresolvable $ref '#/components/schemas/Missing'\n"


def test_a_problem_in_a_shared_schema_is_reported_at_its_definition(cli, tmp_path: Path) -> None:
    doc = tmp_path / "shared.yaml"
    doc.write_text(
        "openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths:\n  /a:\n    get:\n"
        "      responses:\n        '200':\n          description: ok\n          content:\n"
        "            application/json:\n              schema:\n"
        "                $ref: '#/components/schemas/Thing'\n"
        "components:\n  schemas:\n    Thing:\n      type: object\n      properties:\n"
        "        size:\n          type: integr\n"
    )
    result = cli("openapi", "--check", str(doc))
    assert result.code == 1
    assert result.out == (
        f"{doc}:19: components.schemas.Thing.properties.size.type: "
        "'integr' is not valid under any of the given schemas\n"
    )
    assert result.err == f"{doc}: 1 finding\n"


def test_a_mapping_without_a_version_is_a_finding(cli, tmp_path: Path) -> None:
    doc = tmp_path / "plain.json"
    doc.write_text(json.dumps({"title": "not an API"}))
    result = cli("openapi", "--check", str(doc))
    assert result.code == 1
    assert result.out.startswith(f"{doc}:1: no `openapi` (or `swagger`) field")


def test_an_unsupported_version_is_a_finding_at_its_line(cli, tmp_path: Path) -> None:
    doc = tmp_path / "old.yaml"
    doc.write_text("# a float, not text\ninfo: {title: t, version: '1'}\nopenapi: 3.0\npaths: {}\n")
    result = cli("openapi", "--check", str(doc))
    assert result.code == 1
    assert result.out.startswith(f"{doc}:3: `openapi: 3.0` does not name a supported version")


HEAD = "openapi: 3.1.0\ninfo: {title: t, version: '1'}\n"


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("paths: 5\n", ":3: paths: 5 is not of type 'object'"),
        ("paths:\n  /a:\n    get:\n      parameters: x\n", ":6: paths./a.get.parameters: 'x' is"),
        (
            "paths: {}\ncomponents:\n  schemas:\n    A: {$ref: '#/components/schemas/B'}\n"
            "    B: {$ref: '#/components/schemas/A'}\n",
            ":1: validation stopped: a cycle of $refs",
        ),
    ],
)
def test_malformed_documents_give_findings_not_tracebacks(
    cli, tmp_path: Path, body: str, expected: str
) -> None:
    doc = tmp_path / "odd.yaml"
    doc.write_text(HEAD + body)
    result = cli("openapi", "--check", str(doc))
    assert result.code == 1
    assert result.out.splitlines()[0].startswith(f"{doc}{expected}")
    assert "validation stopped" in expected or "validation stopped" not in result.out


def test_relative_refs_resolve_against_the_file_when_allowed(cli, tmp_path: Path) -> None:
    (tmp_path / "shared.yaml").write_text("Thing:\n  type: object\n")
    ref = "{description: ok, content: {application/json: {schema: {$ref: 'shared.yaml#/%s'}}}}"
    doc = tmp_path / "api.yaml"
    for target, code in (("Thing", 0), ("Nothing", 1)):
        doc.write_text(
            HEAD
            + "paths:\n  /a:\n    get:\n      responses:\n        '200': "
            + ref % target
            + "\n"
        )
        result = cli("openapi", "--check", str(doc), "--allow-external-refs")
        assert result.code == code, result.out
    assert result.out == f"{doc}:7: unresolvable $ref 'shared.yaml#/Nothing'\n"


def _write(tmp_path: Path, name: str, content: bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(content)
    return path


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("missing.yaml", None, "no such file"),
        ("tool.bin", b"\x7fELF\x02\x01\x00\x00", "binary file"),
        ("latin1.yaml", "openapi: '3.1.0' # caf\xe9".encode("latin-1"), "not UTF-8 text"),
        ("broken.yaml", b"openapi: 3.1.0\ninfo: [\n", "broken.yaml:3: not valid YAML or JSON"),
        ("broken.json", b'{"openapi": "3.1.0",\n "info": }\n', "broken.json:2: not valid JSON"),
        ("empty.yaml", b"", "empty file"),
        ("comments.yaml", b"# only a comment\n", "no document in the file"),
        ("words.txt", b"just some words\n", "the top level is a str, expected a mapping"),
        ("list.json", b"[1, 2]", "the top level is a list"),
        ("two.yaml", b"a: 1\n---\nb: 2\n", "not valid YAML or JSON"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    cli, tmp_path: Path, name: str, content: bytes | None, message: str
) -> None:
    path = tmp_path / name if content is None else _write(tmp_path, name, content)
    result = cli("openapi", "--check", str(path))
    assert result.code == 2
    assert result.out == ""
    assert result.err.count("\n") == 1
    assert result.err.startswith(f"apispec: error: {path}")
    assert message in result.err


def test_a_directory_is_bad_input(cli, tmp_path: Path) -> None:
    result = cli("openapi", "--check", str(tmp_path))
    assert result.code == 2
    assert "is a directory" in result.err


def test_check_refuses_generation_options(cli) -> None:
    result = cli("openapi", "--check", str(OPENAPI / "invalid.yaml"), "--release", "24.3.100")
    assert result.code == 2
    assert "--check takes no --release" in result.err
