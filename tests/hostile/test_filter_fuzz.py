"""Fuzzing `apispec filter check` through the CLI entry point (issue 11, acceptance 2).

Arbitrary text, filter-like text, hostile runs (deep nesting, long chains,
huge numbers, stray quotes and spaces) and arbitrary bytes on standard input:
the command must end with 0, 1 or 2, print no traceback, and report every
diagnostic inside the filter it names.
"""

from __future__ import annotations

import contextlib
import io
import json
import re
import sys

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from apispec.cli import main
from tests.filter_strategies import valid_filters

PIECES = st.sampled_from(
    [
        *"abst =!<>()[],\"\\'&|;.0123456789_\n\t\r",
        *("and ", "or ", "not(", "in ", "contains ", "status", "name", "basic.tags", "id"),
        *('"""', "\u00a0", "\u2028", "\ue000", "\ud800", "\u0663", "\u00b2", "\x00", "\ufeff"),
        *("9" * 4_301, "(" * 120, ")" * 120, "not(" * 110, " or id = 1" * 300),
    ]
)
FILTERS = st.one_of(
    st.text(max_size=200),
    st.lists(PIECES, max_size=30).map("".join),
    valid_filters(),
)
SETTINGS = settings(
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)


def run(args: list[str], stdin: bytes = b"") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    saved = sys.stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8")
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main(args)
            except SystemExit as exc:  # argparse's own exits
                code = exc.code if isinstance(exc.code, int) else 2
    finally:
        sys.stdin = saved
    return code, out.getvalue(), err.getvalue()


@SETTINGS
@given(st.lists(FILTERS, min_size=1, max_size=3), st.sampled_from(["text", "json"]))
def test_filter_check_ends_with_a_documented_exit_code(filters: list[str], form: str) -> None:
    # "--" so that a filter starting with "-" is a filter, as a user would write it
    code, out, err = run(["filter", "check", "--format", form, "--", *filters])
    assert code in (0, 1, 2), (code, err)
    assert "Traceback" not in out + err
    if code == 2:
        assert err.startswith("apispec: error: ") and err.count("\n") == 1, err
        return
    if form == "json":
        report = json.loads(out)
        assert (code == 1) == any(not entry["valid"] for entry in report)
        for entry, text in zip(report, filters, strict=True):
            for d in entry["diagnostics"]:
                assert 0 <= d["start"] <= d["end"] <= len(text)
    else:
        summary = re.search(r"checked: \d+ valid, (\d+) invalid", out.rsplit("\n", 2)[-2])
        assert summary is not None and (code == 1) == (summary[1] != "0"), out


@SETTINGS
@given(st.binary(max_size=300))
def test_filter_check_reads_any_bytes_on_stdin(data: bytes) -> None:
    code, out, err = run(["filter", "check", "--stdin"], data)
    assert code in (0, 1, 2), (code, err)
    assert "Traceback" not in out + err
