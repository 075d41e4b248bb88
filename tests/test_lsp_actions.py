"""Positions, code actions and inlay hints in client code, without a server."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lsprotocol import types

from apispec.lint.config import Config
from apispec.lint.engine import Options, lint_text
from apispec.lsp.actions import FIX_ALL, Located, code_actions
from apispec.lsp.inlay import hints
from apispec.lsp.positions import LineIndex

OPTIONS = Options(Config(), ("25.x.122",))
HEAD = 'import requests\nB = "https://prtg:1616/api/v2"\n'


def _located(text: str, name: str = "a.py") -> list[Located]:
    index = LineIndex(text)
    return [
        Located(f, index.from_linter(f.line, f.column), index.from_linter(f.end_line, f.end_column))
        for f in lint_text(text, name, OPTIONS)
    ]


def _apply(text: str, edits) -> str:
    for start, end, content in sorted(edits, reverse=True):
        text = text[:start] + content + text[end:]
    return text


# -- positions ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("encoding", "column"),
    [
        (types.PositionEncodingKind.Utf16, 5),  # the emoji is two UTF-16 units
        (types.PositionEncodingKind.Utf8, 8),  # ... four UTF-8 bytes, é two
        (types.PositionEncodingKind.Utf32, 4),
    ],
)
def test_positions_count_in_the_agreed_encoding(encoding, column):
    text = "first\r\nsé😀 x\rthird\n"
    index = LineIndex(text, encoding)
    x = text.index("x")
    assert index.position(x) == types.Position(1, column)
    assert index.offset(types.Position(1, column)) == x
    assert index.position(text.index("third")) == types.Position(2, 0)  # a lone \r ends a line
    assert index.offset(types.Position(0, 99)) == 5  # past the end of a line: its end
    assert index.offset(types.Position(99, 0)) == len(text)


def test_linter_positions_count_lines_at_newlines_only():
    text = "a\fb\nx = '/api/v2'\n"  # a form feed is no line break for the linter or LSP
    index = LineIndex(text)
    assert index.from_linter(2, 5) == text.index("'")
    assert index.position(index.from_linter(2, 5)) == types.Position(1, 4)


@settings(max_examples=50, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("ab\r\n\té😀\u2028")), max_size=40), st.data())
def test_offset_and_position_round_trip(text, data):
    index = LineIndex(text)
    offset = data.draw(st.integers(0, len(text)))
    if text[offset - 1 : offset + 1] == "\r\n":
        offset -= 1  # inside a line break there is no position
    assert index.offset(index.position(offset)) == offset


# -- code actions ---------------------------------------------------------------------------


def test_a_safe_fix_is_preferred_and_comes_with_suppression_and_documentation():
    text = HEAD + 'requests.get(f"{B}/sensors/{s}/overview")\n'
    located = _located(text)
    actions = code_actions(text, "a.py", located, (len(HEAD), len(text)), None)
    titles = [a.title for a in actions]
    assert titles == [
        "Replace with GET /sensors/{id} (API002)",
        "Suppress API002 on this line",
        "Show documentation for API002",
        "Fix all safe apispec problems (1)",
    ]
    replace = actions[0]
    assert replace.preferred and replace.kind == "quickfix"
    assert lint_text(_apply(text, replace.edits), "a.py", OPTIONS) == []
    assert actions[2].command == ("apispec.showDocumentation", ("API002",))


def test_an_unsafe_fix_is_offered_but_not_preferred():
    text = HEAD + 'requests.get(f"{B}/devices")\n'  # successor is experimental: unsafe
    located = [x for x in _located(text) if x.finding.code == "API002"]
    (fix,) = [
        a
        for a in code_actions(text, "a.py", located, (0, len(text)), ["quickfix"])
        if a.edits and "Replace" in a.title
    ]
    assert fix.title == "Replace with GET /experimental/devices (API002, unsafe)"
    assert not fix.preferred
    assert code_actions(text, "a.py", located, (0, len(text)), [FIX_ALL]) == []


def test_fix_all_takes_every_safe_fix_once():
    text = HEAD + (
        'requests.get(f"{B}/sensors/{s}/overview")\n'
        'requests.get(f"{B}/probes/{p}/overview")\n'
        'requests.get(f"{B}/experimental/sensors", params={"filter": "status = up AND type == sensor"})\n'
    )
    (fix_all,) = code_actions(text, "a.py", _located(text), (0, 0), [FIX_ALL])
    fixed = _apply(text, fix_all.edits)
    assert '/sensors/{s}"' in fixed and '/probes/{p}"' in fixed
    assert '"status = up and type = sensor"' in fixed
    # nothing left: /experimental/sensors is GET /sensors' named successor (no API003)
    assert lint_text(fixed, "a.py", OPTIONS) == []


def test_inlay_hints_show_maturity_after_the_path(registry):
    text = HEAD + (
        'requests.get(f"{B}/sensors/{s}/overview")\n'
        'requests.get(f"{B}/experimental/probes")\n'
        'requests.get(f"{B}/sensors/{s}")\n'
    )
    found = hints(text, "a.py", registry, registry.release("25.x.122"), (0, len(text)))
    assert [(text[: h.offset].rsplit("/", 1)[-1], h.label) for h in found] == [
        ("overview", "deprecated → /sensors/{id}"),
        ("probes", "experimental"),
    ]
