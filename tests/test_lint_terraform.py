"""Terraform: HCL templates with strings inside interpolations, heredocs, provisioner shell.

The fixture tests/fixtures/lint/terraform/inventory.tf holds `http` data sources
with `${...}` templates, `urlencode()` filters, a query put together by
`format()` and `join()`, a dispatch map of paths, an unterminated string (it
costs its own line only) and a `local-exec` command run as shell.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from apispec.lint.extract import extract_references, language_of
from apispec.lint.languages.terraform import string_parts

FIXTURE = Path(__file__).parent / "fixtures" / "lint" / "terraform" / "inventory.tf"


def test_tf_files_are_terraform() -> None:
    assert language_of("main.tf") == "terraform"
    assert language_of("prod.tfvars") == "terraform"


def test_calls_of_a_terraform_module() -> None:
    found = [
        (r.line, r.method, r.path, {q.name: q.value for q in r.query})
        for r in extract_references(FIXTURE.read_text(encoding="utf-8"), FIXTURE.name)
    ]
    assert found == [
        (19, None, "/experimental/probes", {}),  # a dispatch map, after a broken string
        (20, None, "/sensors/alarms", {}),
        (21, None, "/devices", {}),  # a lone word among paths of the same map
        (31, None, "/experimental/sensors", {"filter": "status = down OR status = warning"}),
        (36, None, "/experimental/objects", {"limit": "5000", "sort": "name"}),
        (40, "POST", "/session", {}),
        (47, "DELETE", "/experimental/devices/{}", {}),  # the provisioner's curl
    ]


def test_findings_point_into_the_template(cli) -> None:
    done = cli("lint", "--format", "json", "--target", "25.x.122", str(FIXTURE))
    assert done.code == 1, done.err
    found = {(f["line"], f["column"], f["code"]) for f in json.loads(done.out)["findings"]}
    assert (31, 78, "API006") in found  # the `OR` inside urlencode("...")
    assert (36, 75, "API008") in found  # limit=5000 in the join() list
    assert (36, 88, "API011") in found  # sort in the join() list
    assert (11, 16, "API010") in found  # the default of a variable named like a token


@pytest.mark.parametrize(
    ("template", "text", "holes"),
    [
        ('"${var.api}/devices"', "/devices", ["${var.api}"]),
        ('"a ${urlencode("b = \\"c\\"")} d"', 'a b = "c" d', []),  # constant text inside
        ('"$${x} and %%{y}"', "${x} and %{y}", []),  # escapes are text
        ('"%{ if var.on }on%{ endif }"', "on", []),  # directives add no text
        ('"${lookup(var.m, "k", "}")}/x"', "/x", ['${lookup(var.m, "k", "}")}']),
        ('"no end\n"', "no end", []),  # an unclosed quote ends with its line
    ],
)
def test_string_parts(template: str, text: str, holes: list[str]) -> None:
    parts, _ = string_parts(template, 1, len(template))
    assert "".join(p.text for p in parts if not p.is_param) == text
    assert [p.text for p in parts if p.is_param] == holes
