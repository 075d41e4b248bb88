"""A mistyped option, format, command or rule gets the closest valid one (issue 13 point 11)."""

from __future__ import annotations

import pytest

from tests.hostile.helpers import apispec_run, clean


@pytest.mark.parametrize(
    ("args", "error"),
    [
        (
            ["lint", "--traget", "25.x.122"],
            "apispec: error: unrecognized arguments: --traget (did you mean --target?) "
            "(see `apispec lint --help`)",
        ),
        (
            ["lint", "--upgrade-frm=24.3.100"],
            "apispec: error: unrecognized arguments: --upgrade-frm=24.3.100 (did you mean "
            "--upgrade-from?) (see `apispec lint --help`)",
        ),
        (
            ["lint", "--format", "sraif"],
            "apispec: error: argument --format: invalid choice: 'sraif' (did you mean sarif?); "
            "choose from full, concise, text, json, sarif, github, gitlab, junit, markdown, csv "
            "(see `apispec lint --help`)",
        ),
        (
            ["lnt"],
            "apispec: error: argument COMMAND: invalid choice: 'lnt' (did you mean lint?); "
            "choose from lint, rule, filter, registry, releases, openapi, mcp-tools, docs, "
            "changelog, mock, traffic, proxy, lsp (see `apispec --help`)",
        ),
        (
            ["registry", "lst"],
            "apispec: error: argument ACTION: invalid choice: 'lst' (did you mean list?); "
            "choose from list, show, check, import, diff (see `apispec registry --help`)",
        ),
        (
            ["rule", "API02"],
            "apispec: error: unknown rule 'API02' (did you mean API002?); `apispec rule --all` "
            "lists the rules",
        ),
        (
            ["rule", "deprecated-endpont"],
            "apispec: error: unknown rule 'deprecated-endpont' (did you mean "
            "deprecated-endpoint?); `apispec rule --all` lists the rules",
        ),
    ],
)
def test_the_closest_valid_word_is_suggested(args: list[str], error: str) -> None:
    result = clean(apispec_run(*args), 2)
    assert result.err == error + "\n" and result.out == ""


def test_rule_takes_a_name_in_any_case() -> None:
    by_name = clean(apispec_run("rule", "Deprecated-Endpoint"), 0)
    assert by_name.out == clean(apispec_run("rule", "api002"), 0).out
    assert by_name.out.startswith("### API002 deprecated-endpoint\n")


def test_rule_documents_the_filter_codes(cli) -> None:
    page = clean(apispec_run("rule", "FLT003"), 0).out
    assert page.splitlines()[:5] == [
        "### FLT003 operator not allowed for the property",
        "",
        "A filter diagnostic of `apispec filter check`; the linter reports it inside API006.",
        "",
        "- Severity: error",
    ]
    assert "FLT003 operator `=` is not allowed on `basic.tags`; allowed: contains" in page
    for code in ("FLT001", "FLT002", "FLT004", "FLT005", "FLT006"):
        assert cli("rule", code.lower()).out.startswith(f"### {code} ")  # in process: faster
