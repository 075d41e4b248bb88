"""Hostile filters through the real `apispec filter` process: exit codes, one-line reports, no traceback.

Issue 11, points 11-13: inputs that once raised TypeError, ValueError (Python's
int-string conversion limit) and RecursionError.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from apispec.filters import compile, parse

REPO = Path(__file__).resolve().parents[2]
HUGE = "9" * 4_301  # one digit past Python's int-string conversion limit


def apispec(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "apispec", *args],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=120,
    )


def assert_clean(run: subprocess.CompletedProcess[str], code: int) -> None:
    assert run.returncode == code, run.stderr
    assert "Traceback" not in run.stdout + run.stderr


def test_triple_quote_then_a_no_break_space_is_a_syntax_error() -> None:
    # The repair of `""` left a two-character span that the character description
    # handed to unicodedata.name (TypeError).
    run = apispec("filter", "check", '"""\u00a0"""')
    assert_clean(run, 1)
    assert run.stdout.startswith("<filter 1>:1:1: error FLT001: ")
    assert run.stdout.endswith("1 filter checked: 0 valid, 1 invalid (1 error, 0 warnings)\n")
    assert run.stderr == ""
    assert_clean(apispec("filter", "fmt", '"""\u00a0"""'), 1)


def test_a_number_past_the_int_conversion_limit_is_reported_not_converted() -> None:
    run = apispec("filter", "check", "--format", "json", f"id = {HUGE}", f'name in ["a", {HUGE}]')
    assert_clean(run, 1)
    report = json.loads(run.stdout)
    assert [[d["code"] for d in entry["diagnostics"]] for entry in report] == [
        ["FLT004"],
        ["FLT004"],
    ]
    assert (
        report[0]["diagnostics"][0]["message"] == "`id` takes a text in double quotes, not a number"
    )
    fmt = apispec("filter", "fmt", f"id = 000{HUGE}")
    assert_clean(fmt, 0)
    assert fmt.stdout == f"id = {HUGE}\n"


def test_a_1500_term_chain_is_checked_printed_and_evaluated() -> None:
    chain = " or ".join(f'id = "{n}"' for n in range(1_500))
    assert_clean(apispec("filter", "check", chain), 0)
    fmt = apispec("filter", "fmt", chain.replace(" = ", "="))
    assert_clean(fmt, 0)
    assert fmt.stdout == chain + "\n"
    explain = apispec("filter", "explain", " and ".join(f'id != "{n}"' for n in range(1_500)))
    assert_clean(explain, 0)
    assert explain.stdout.count("\n") == 1_500 + 3  # filter, precedence, `and`, one line per term
    assert_clean(apispec("filter", "complete", chain + " and "), 0)
    # the library: evaluation, equality and hashing of the same tree
    assert compile(chain)({"id": "1499"}) and not compile(chain)({"id": "1500"})
    assert parse(chain).tree == parse(chain.replace(" = ", "=")).tree
    assert hash(parse(chain).tree) == hash(parse(chain.replace(" = ", "=")).tree)


def test_nesting_past_the_bound_is_one_diagnostic_everywhere() -> None:
    deep = "status = up"
    for n in range(1_500):
        deep = f'id = "{n}" {"and" if n % 2 else "or"} ({deep})'
    for action in ("check", "fmt", "explain"):
        run = apispec("filter", action, deep)
        assert_clean(run, 1)
        report = run.stdout if action == "check" else run.stderr
        assert (
            "error FLT001: the filter nests operators 1500 levels deep; apispec reads at most 100"
            in report
        )
    assert_clean(apispec("filter", "complete", deep), 0)
