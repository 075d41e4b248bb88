"""`apispec: ignore[CODE]` written in each language's comment syntax, and honoured by the linter."""

from __future__ import annotations

import pytest

from apispec.lint.config import Config
from apispec.lint.engine import Options, lint_text
from apispec.lint.suppression_comment import suppression_edit

OPTIONS = Options(Config(), ("25.x.122",))


def _insert(text: str, line: int, code: str, filename: str) -> str | None:
    edit = suppression_edit(text, line, code, filename)
    if edit is None:
        return None
    return text[: edit.offset] + edit.content + text[edit.offset :]


@pytest.mark.parametrize(
    ("filename", "line", "expected"),
    [
        (
            "get.py",
            'r = requests.get(f"https://prtg:1616/api/v2/sensors/{sid}/overview")',
            'r = requests.get(f"https://prtg:1616/api/v2/sensors/{sid}/overview")  # apispec: ignore[API002]',
        ),
        (
            "get.ps1",
            'Invoke-RestMethod -Uri "https://prtg:1616/api/v2/sensors/$Id/overview"',
            'Invoke-RestMethod -Uri "https://prtg:1616/api/v2/sensors/$Id/overview"  # apispec: ignore[API002]',
        ),
        (
            "get.ts",
            "await fetch(`https://prtg:1616/api/v2/sensors/${id}/overview`);",
            "await fetch(`https://prtg:1616/api/v2/sensors/${id}/overview`);  // apispec: ignore[API002]",
        ),
        (
            "get.go",
            '\treq, _ := http.NewRequest("GET", "https://prtg:1616/api/v2/sensors/"+id+"/overview", nil)',
            '\treq, _ := http.NewRequest("GET", "https://prtg:1616/api/v2/sensors/"+id+"/overview", nil)'
            "  // apispec: ignore[API002]",
        ),
        (
            "get.sh",
            'curl -H "Authorization: Bearer $T" "https://prtg:1616/api/v2/sensors/$ID/overview"',
            'curl -H "Authorization: Bearer $T" "https://prtg:1616/api/v2/sensors/$ID/overview"'
            "  # apispec: ignore[API002]",
        ),
    ],
)
def test_the_comment_uses_the_languages_syntax_and_silences_the_finding(filename, line, expected):
    text = f"{line}\n"
    assert [f.code for f in lint_text(text, filename, OPTIONS)] == ["API002"]
    fixed = _insert(text, 1, "API002", filename)
    assert fixed == f"{expected}\n"
    assert lint_text(fixed, filename, OPTIONS) == []  # no finding, no unused suppression


def test_an_existing_marker_gains_the_code():
    text = 'requests.get(f"{B}/api/v2/experimental/sensors/{s}")  # apispec: ignore[API011]\n'
    assert _insert(text, 1, "API003", "a.py") == text.replace("[API011]", "[API011, API003]")


def test_nothing_to_write_when_the_line_already_suppresses_the_code():
    assert suppression_edit("x = 1  # apispec: ignore[API002]\n", 1, "API002", "a.py") is None
    assert suppression_edit("x = 1  # apispec: ignore\n", 1, "API002", "a.py") is None


def test_a_markdown_fence_gets_the_comment_of_its_language():
    text = '# Use\n\n```powershell\nInvoke-RestMethod "$B/api/v2/sensors/$I/overview"\n```\n'
    assert (
        _insert(text, 4, "API002", "README.md")
        .splitlines()[3]
        .endswith("  # apispec: ignore[API002]")
    )
    prose = "See `/api/v2/sensors/{id}/overview`.\n"
    assert _insert(prose, 1, "API002", "README.md") == (
        "See `/api/v2/sensors/{id}/overview`.  <!-- apispec: ignore[API002] -->\n"
    )


def test_an_unlabelled_fence_that_runs_curl_is_shell_as_the_linter_reads_it():
    text = "```\ncurl https://prtg:1616/api/v2/sensors/$ID/overview\n```\n"
    assert [f.code for f in lint_text(text, "README.md", OPTIONS)] == ["API002"]
    fixed = _insert(text, 2, "API002", "README.md")
    assert fixed == text.replace("overview\n", "overview  # apispec: ignore[API002]\n", 1)
    assert lint_text(fixed, "README.md", OPTIONS) == []


def test_an_html_script_gets_a_javascript_comment():
    text = "<p>x</p>\n<script>\nfetch('/api/v2/sensors/1/overview')\n</script>\n"
    assert (
        _insert(text, 3, "API002", "page.html")
        .splitlines()[2]
        .endswith("  // apispec: ignore[API002]")
    )


@pytest.mark.parametrize(
    ("filename", "text"),
    [
        ("data.json", '{"url": "/api/v2/sensors/1/overview"}\n'),
        ("get.py", 'u = BASE + "/api/v2/sensors/1/overview" \\\n    + q\n'),
        ("get.ps1", 'Invoke-RestMethod -Uri "$B/api/v2/sensors/1/overview" `\n  -Headers $h\n'),
        ("notes.unknown", "https://x/api/v2/sensors/1/overview\n"),
        ("README.md", "~~~\nsee https://x/api/v2/sensors/1/overview\n~~~\n"),
    ],
)
def test_no_edit_where_a_comment_would_break_the_code_or_has_no_syntax(filename, text):
    line = 2 if filename == "README.md" else 1
    assert suppression_edit(text, line, "API002", filename) is None


def test_windows_line_endings_keep_the_carriage_return_at_the_end():
    text = 'requests.get(f"{B}/api/v2/sensors/{s}/overview")\r\nx = 1\r\n'
    fixed = _insert(text, 1, "API002", "a.py")
    assert fixed.split("\n")[0].endswith("# apispec: ignore[API002]\r")


def test_a_line_outside_the_text_has_no_edit():
    assert suppression_edit("x\n", 5, "API002", "a.py") is None
