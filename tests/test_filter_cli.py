"""`apispec filter check|fmt|explain|complete`: output, JSON shape, --stdin and exit codes."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture
def stdin(monkeypatch: pytest.MonkeyPatch):
    """Feed bytes to the command's standard input."""

    def feed(data: bytes) -> None:
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))

    return feed


def test_text_output_points_at_the_range_with_a_caret_line(cli):
    result = cli("filter", "check", 'status = "up"', "type = sensor")
    assert result.code == 1
    assert result.out == (
        "<filter 1>:1:10: error FLT004: `status` takes an enumeration value without quotes, "
        "not a quoted text\n"
        '    status = "up"\n'
        "             ^^^^\n"
        "    hint: write `status = up`\n"
        "2 filters checked: 1 valid, 1 invalid (1 error, 0 warnings)\n"
    )


def test_a_syntax_error_at_the_end_gets_one_caret_after_the_text(cli):
    result = cli("filter", "check", "(status = up")
    assert result.out.splitlines()[1:4] == [
        "    (status = up",
        "                ^",
        "    hint: the `(` at column 1 is not closed: add `)`",
    ]


def test_valid_filters_exit_0_and_say_so(cli):
    result = cli("filter", "check", "status = up", 'basic.tags contains "ping"')
    assert (result.code, result.out) == (
        0,
        "2 filters checked: 2 valid, 0 invalid (0 errors, 0 warnings)\n",
    )


def test_warnings_alone_exit_0(cli):
    result = cli("filter", "check", "status = Up")
    assert result.code == 0
    assert "warning FLT005" in result.out
    assert result.out.endswith("1 valid, 0 invalid (0 errors, 1 warning)\n")


def test_json_output_has_the_documented_shape(cli):
    result = cli(
        "filter", "check", "--format", "json", "status == up", "status = Up", "status = up"
    )
    assert result.code == 1
    assert json.loads(result.out) == [
        {
            "filter": "status == up",
            "valid": False,
            "diagnostics": [
                {
                    "code": "FLT001",
                    "severity": "error",
                    "message": "expected a value (a text in double quotes, a number, true, false, "
                    "an enumeration value or a list in `[ ]`) after `=`, found `=`",
                    "hint": "compare with a single `=`",
                    "start": 8,
                    "end": 9,
                    "line": 1,
                    "column": 9,
                    "fix": {
                        "applicability": "safe",
                        "edits": [{"start": 8, "end": 9, "content": ""}],
                    },
                }
            ],
        },
        {
            "filter": "status = Up",
            "valid": True,
            "diagnostics": [
                {
                    "code": "FLT005",
                    "severity": "warning",
                    "message": "`Up` is not a known value of `status` (known: up, down)",
                    "hint": "did you mean `up`? Values are case-sensitive",
                    "start": 9,
                    "end": 11,
                    "line": 1,
                    "column": 10,
                    "fix": {
                        "applicability": "unsafe",
                        "edits": [{"start": 9, "end": 11, "content": "up"}],
                    },
                }
            ],
        },
        {"filter": "status = up", "valid": True, "diagnostics": []},
    ]


def test_json_offsets_are_characters_and_lines_count_from_one(cli, stdin):
    stdin('name = "äöü" and tags contains "x"\n'.encode())
    (entry,) = json.loads(cli("filter", "check", "--stdin", "--format", "json").out)
    (d,) = entry["diagnostics"]
    assert (d["start"], d["end"], d["line"], d["column"]) == (17, 21, 1, 18)
    assert entry["filter"][d["start"] : d["end"]] == "tags"


def test_stdin_is_one_filter_per_line_and_spaces_at_either_end_count(cli, stdin):
    stdin(b"status = up\n  type = sensor \r\n\n")
    result = cli("filter", "check", "--stdin", "--format", "json")
    filters = [entry["filter"] for entry in json.loads(result.out)]
    assert filters == ["status = up", "  type = sensor ", ""]
    assert result.code == 1  # the empty line is an empty filter


def test_stdin_positions_name_the_input_line(cli, stdin):
    stdin(b'status = up\n  name = "a" && type = sensor\n')
    result = cli("filter", "check", "--stdin")
    assert result.out.splitlines()[0].startswith("<stdin>:2:14: error FLT001: unexpected `&&`")
    assert result.out.splitlines()[2] == "                 ^^"


def test_arguments_and_stdin_keep_input_order(cli, stdin):
    stdin(b"type = sensor\n")
    entries = json.loads(cli("filter", "check", "status = up", "--stdin", "--format", "json").out)
    assert [e["filter"] for e in entries] == ["status = up", "type = sensor"]


def test_endpoint_makes_applicability_warnings(cli):
    result = cli("filter", "check", "--endpoint", "/experimental/sensors", "primary = true")
    assert result.code == 0
    assert result.out.splitlines()[0] == (
        "<filter 1>:1:1: warning FLT006: `primary` applies to channel objects only, "
        "not to the sensor objects of this endpoint"
    )
    assert cli("filter", "check", "--endpoint", "/experimental/channels", "primary = true").out == (
        "1 filter checked: 1 valid, 0 invalid (0 errors, 0 warnings)\n"
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["filter", "check"],
            "apispec: error: no filter given: pass FILTER arguments or --stdin\n",
        ),
        (
            ["filter", "check", "--endpoint", "/experimental/sensor", "status = up"],
            "apispec: error: unknown endpoint path '/experimental/sensor' "
            "(did you mean /experimental/sensors?)\n",
        ),
        (
            ["filter", "complete", "--cursor", "40", "status"],
            "apispec: error: --cursor 40 is outside the filter (0 to 6)\n",
        ),
    ],
)
def test_usage_errors_exit_2_with_one_line(cli, args, message):
    result = cli(*args)
    assert (result.code, result.out, result.err) == (2, "", message)


def test_an_unknown_format_is_a_usage_error(cli):
    result = cli("filter", "check", "--format", "xml", "status = up")
    assert result.code == 2
    assert "invalid choice: 'xml'" in result.err


def test_fmt_prints_the_canonical_form(cli):
    result = cli("filter", "fmt", "(status=up) and ((type=sensor))", "not(status = up)or a=1")
    assert (result.code, result.out) == (
        0,
        "status = up and type = sensor\nnot(status = up) or a = 1\n",
    )


def test_fmt_of_a_broken_filter_reports_it_and_exits_1(cli):
    result = cli("filter", "fmt", "status = up", "status == up")
    assert result.code == 1
    assert result.out == "status = up\n"
    assert result.err.startswith("<filter 2>:1:9: error FLT001: ")


def test_explain_shows_the_precedence(cli):
    result = cli("filter", "explain", "a = 1 or b = 2 and not(c = 3)")
    assert result.code == 0
    assert result.out == (
        "filter:     a = 1 or b = 2 and not(c = 3)\n"
        "precedence: ((a = 1) or ((b = 2) and not(c = 3)))\n"
        "or\n"
        "├─ a = 1\n"
        "└─ and\n"
        "   ├─ b = 2\n"
        "   └─ not\n"
        "      └─ c = 3\n"
    )


def test_complete_at_a_cursor_offers_what_the_grammar_and_registry_allow(cli):
    operators = cli("filter", "complete", "status ")
    assert [line.split("\t")[0] for line in operators.out.splitlines()] == ["=", "!="]
    values = json.loads(cli("filter", "complete", "--format", "json", "favorite = ").out)
    assert [(c["label"], c["kind"], c["start"], c["end"]) for c in values] == [
        ("true", "value", 11, 11),
        ("false", "value", 11, 11),
    ]
    names = cli("filter", "complete", "--cursor", "3", "sta = up")
    assert names.out.splitlines()[0].split("\t")[:2] == ["status", "property"]


def test_non_utf8_stdin_is_a_one_line_usage_error():
    run = subprocess.run(
        [sys.executable, "-m", "apispec", "filter", "check", "--stdin"],
        input=b"status = up\n\xff\xfe = x\n",
        capture_output=True,
        cwd=REPO,
        timeout=60,
    )
    assert (run.returncode, run.stdout) == (2, b"")
    assert run.stderr == (
        b"apispec: error: standard input is not UTF-8 text: byte 0xff on line 2 (byte offset 12)\n"
    )


def test_a_huge_filter_gets_a_diagnostic_with_a_short_caret_line(cli, stdin):
    text = "type = sensor and status == up" + " and status = up" * 62_500  # 1 MB
    stdin(text.encode() + b"\n")
    result = cli("filter", "check", "--stdin")
    assert result.code == 1
    lines = result.out.splitlines()
    assert lines[0].startswith("<stdin>:1:27: error FLT001: expected a value")
    assert lines[1] == "    " + text[:120] + "..."
    assert lines[2] == "    " + " " * 26 + "^"


def test_a_real_process_checks_and_answers_json():
    run = subprocess.run(
        [sys.executable, "-m", "apispec", "filter", "check", "--format", "json", "status = up"],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=60,
    )
    assert (run.returncode, run.stderr) == (0, "")
    assert json.loads(run.stdout) == [{"filter": "status = up", "valid": True, "diagnostics": []}]


def test_a_non_utf8_argument_is_a_one_line_usage_error():
    run = subprocess.run(
        [sys.executable, "-m", "apispec", "filter", "check", b"status = \xff"],
        capture_output=True,
        cwd=REPO,
        timeout=60,
    )
    assert (run.returncode, run.stdout) == (2, b"")
    assert run.stderr == b"apispec: error: filter 1 is not valid UTF-8 text\n"


def test_nesting_beyond_the_bound_is_one_diagnostic_in_check_and_fmt(cli, stdin):
    deep = "not(" * 5_000 + "status = up" + ")" * 5_000
    result = cli("filter", "check", deep)
    assert result.code == 1
    assert result.out.startswith(
        "<filter 1>:1:401: error FLT001: the filter nests operators 5000 levels deep; "
        "apispec reads at most 100\n"
    )
    assert "Traceback" not in result.out + result.err
    assert cli("filter", "check", "not(" * 100 + "status = up" + ")" * 100).code == 0
    stdin(f"{deep}\nnot(not(status=up))\n".encode())
    result = cli("filter", "fmt", "--stdin")
    assert (result.code, result.out) == (1, "not(not(status = up))\n")
    assert result.err.startswith("<stdin>:1:401: error FLT001: the filter nests operators 5000")
