"""Fixes as data: each diagnostic's edits, their applicability, and `apispec filter fix`."""

from __future__ import annotations

import itertools
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from apispec.filters import apply_fixes, check, parse
from apispec.filters.fix import apply_edits
from apispec.filters.tokens import tokenize

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.parametrize(
    ("written", "safe", "unsafe"),
    [
        # Syntax slips (FLT001).
        ("status == up", "status = up", "status = up"),
        ("status = up AND type = sensor", "status = up and type = sensor", None),
        ("NOT(status = up)", "not(status = up)", None),
        ("status <> up", "status != up", None),
        ("status eq down or type ne sensor", "status = down or type != sensor", None),
        ("type=sensor;status=down", "type=sensor and status=down", None),
        ("status = up && type = sensor || favorite = true", None, None),
        ("name = 'HQ'", 'name = "HQ"', None),
        ("name = \u201cHQ\u201d", 'name = "HQ"', None),
        ('name in ["a", "b",]', 'name in ["a", "b"]', None),
        ("not status = up", "not(status = up)", None),
        ('"status" = up', "status = up", None),
        ("status: up", "status= up", None),
        ("status =\u00a0up", "status = up", None),
        (
            "(status = up or status = down",
            "(status = up or status = down",
            "(status = up or status = down)",
        ),
        ('name = "HQ', 'name = "HQ', 'name = "HQ"'),
        ("status = up)", "status = up)", "status = up"),
        (
            "type = sensor, status = down",
            "type = sensor, status = down",
            "type = sensor and status = down",
        ),
        # Checker findings (FLT002-FLT005).
        ('status = "down"', "status = down", None),
        ("parentid = 2048", 'parentid = "2048"', None),
        ('parentid in ["1"]', 'parentid = "1"', None),
        (
            'parentid in ["1", "2"] and status = up',
            '(parentid = "1" or parentid = "2") and status = up',
            None,
        ),
        ('basic.tags = "x"', 'basic.tags contains "x"', None),
        ('basic.tags in ["a", "b"]', 'basic.tags contains "a" or basic.tags contains "b"', None),
        # `contains` on a name usually means a part of it, which `=` is not: unsafe
        ('name contains "x"', 'name contains "x"', 'name = "x"'),
        ('name = ["a"]', 'name in ["a"]', None),
        ('name in "a"', 'name in ["a"]', None),
        ('favorite = "True"', "favorite = true", None),
        ("status = Down", "status = Down", "status = down"),
        ('status = "Down"', 'status = "Down"', "status = down"),
        ('tags contains "x"', 'tags contains "x"', 'basic.tags contains "x"'),
        ('ancestors.id = "2048"', 'ancestors.id = "2048"', 'ancestors id = "2048"'),
    ],
)
def test_fixes_repair_what_the_hint_says(written: str, safe: str | None, unsafe: str | None):
    safe = safe if safe is not None else written.replace("&&", "and").replace("||", "or")
    fixed = apply_fixes(written)
    assert fixed.text == safe
    assert apply_fixes(written, unsafe=True).text == (unsafe or safe)


def test_an_unsafe_fix_is_reported_as_such_and_left_alone_by_default():
    (d,) = check("status = Down")
    assert d.fix is not None and d.fix.applicability == "unsafe"
    fixed = apply_fixes("status = Down")
    assert (fixed.text, fixed.applied, fixed.valid) == ("status = Down", 0, True)
    assert [x.code for x in fixed.diagnostics] == ["FLT005"]


def test_quoting_touches_only_the_quotes_so_the_value_stays_as_written():
    (d,) = check("parentid = {pid}", placeholder_spans=[(11, 16)])
    assert d.fix is not None
    assert [(e.start, e.end, e.content) for e in d.fix.edits] == [(11, 11, '"'), (16, 16, '"')]


def test_a_fix_that_would_write_an_interpolation_mark_is_dropped():
    # The repair quotes text whose content is unknown: nothing the user wrote stands for it.
    (d,) = [x for x in check("name = 'a{x}'", placeholder_spans=[(9, 12)]) if x.code == "FLT001"]
    assert d.fix is None


def test_fixes_after_a_repair_point_into_the_text_as_written():
    text = 'status == "up" AND tags = "x"'
    found = check(text)
    assert [d.code for d in found] == ["FLT001", "FLT004", "FLT001", "FLT002"]
    safe = [e for d in found if d.fix and d.fix.applicability == "safe" for e in d.fix.edits]
    assert apply_edits(text, safe) == 'status = up and tags = "x"'


# Valid filters of the registry's properties (the grammar-derived strategy of
# tests/filter_strategies.py is slow to draw from and mostly yields unknown names).
_CONDITIONS = st.sampled_from(
    [
        "status = up",
        "type != sensor",
        'name = "a b"',
        'parentid = "1"',
        'basic.tags contains "x"',
        "favorite = true",
        'name in ["a", "b"]',
        "not(status = down)",
        '(kind = "x" or primary = false)',
    ]
)
_FILTERS = st.tuples(
    st.sampled_from(["", "children ", "ancestors "]),
    st.lists(st.tuples(st.sampled_from([" and ", " or "]), _CONDITIONS), min_size=1, max_size=4),
).map(lambda t: t[0] + "".join(c if i == 0 else j + c for i, (j, c) in enumerate(t[1])))


@SETTINGS
@given(_FILTERS, st.data())
def test_safe_fixes_undo_shouting_and_doubled_equals_without_changing_the_meaning(text, data):
    assert parse(text).ok
    tokens, _ = tokenize(text)
    slips = [t for t in tokens if t.type in ("_AND", "_OR", "EQ")][:5]
    chosen = data.draw(st.lists(st.sampled_from(slips), unique_by=id) if slips else st.just([]))
    mutated = text
    for token in sorted(chosen, key=lambda t: t.start_pos, reverse=True):
        slip = "==" if token.type == "EQ" else token.value.upper()
        mutated = mutated[: token.start_pos] + slip + mutated[token.end_pos :]
    expected = parse(apply_fixes(text).text).tree
    assert parse(apply_fixes(mutated).text).tree == expected


@SETTINGS
@given(
    st.text(alphabet=st.sampled_from(list("ab =!<>\"'()[],;&|ANDORnot \u201c\u00a0")), max_size=30)
)
def test_fix_edits_stay_inside_the_text_and_fixing_ends(text):
    for d in check(text):
        if d.fix is None:
            continue
        edits = d.fix.edits
        assert all(0 <= e.start <= e.end <= len(text) for e in edits)
        assert all(a.end <= b.start for a, b in itertools.pairwise(edits))
    apply_fixes(text, unsafe=True)  # terminates without raising


def test_cli_fix_prints_one_line_per_filter_and_reports_what_is_left(cli):
    result = cli("filter", "fix", "status == up", 'tags contains "x"', "status = up")
    assert result.code == 1
    assert result.out == 'status = up\ntags contains "x"\nstatus = up\n'
    assert result.err.startswith(
        "<filter 2>:1:1: error FLT002: `tags` is not a filterable property"
    )


def test_cli_fix_with_unsafe_fixes_exits_0_when_nothing_is_left(cli):
    result = cli("filter", "fix", "--unsafe-fixes", 'tags = "x"')
    assert (result.code, result.out, result.err) == (0, 'basic.tags contains "x"\n', "")


def test_cli_fix_reads_stdin_line_by_line(cli, monkeypatch):
    import io
    import sys

    data = b"status == up\nname = 'x'\n"
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))
    result = cli("filter", "fix", "--stdin")
    assert (result.code, result.out) == (0, 'status = up\nname = "x"\n')


def test_cli_fix_unknown_endpoint_is_a_usage_error(cli):
    result = cli("filter", "fix", "--endpoint", "/nope", "status = up")
    assert result.code == 2
    assert result.err.startswith("apispec: error: unknown endpoint path '/nope'")


def test_check_json_carries_each_fix(cli):
    result = cli("filter", "check", "--format", "json", 'status = "up"')
    (entry,) = json.loads(result.out)
    (d,) = entry["diagnostics"]
    assert d["fix"] == {
        "applicability": "safe",
        "edits": [{"start": 9, "end": 10, "content": ""}, {"start": 12, "end": 13, "content": ""}],
    }
