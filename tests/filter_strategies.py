"""Hypothesis strategies for filter tests, derived from grammar/filter.lark itself."""

from __future__ import annotations

import lark
from hypothesis import strategies as st
from hypothesis.extra.lark import from_lark

from apispec.filters.grammar import KEYWORDS, PLACEHOLDER_CHAR, grammar_text

_WORDS = {
    "_AND": "and",
    "_OR": "or",
    "NOT": "not",
    "IN": "in",
    "CONTAINS": "contains",
    "MATCHES": "matches",
    "TRUE": "true",
    "FALSE": "false",
    "ANCESTORS": "ancestors",
    "DESCENDANTS": "descendants",
    "PARENTS": "parents",
    "CHILDREN": "children",
}
_SPACE = st.sampled_from(["", " ", "  ", "\t", "\n"])


def _padded(word: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    # Words need a separator from their neighbours; symbols do not.
    return st.tuples(_SPACE, word, _SPACE).map(lambda t: f"{t[0] or ' '}{t[1]}{t[2] or ' '}")


_FIRST = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_"
_SEGMENT = st.builds(
    "".join, st.tuples(st.sampled_from(_FIRST), st.text(_FIRST + "0123456789", max_size=6))
)
# Plain composition, not from_regex: regex strategies made each example cost a third of a second.
_NAME = (
    st.lists(_SEGMENT, min_size=1, max_size=3)
    .map(".".join)
    .filter(lambda s: s.split(".")[0] not in KEYWORDS)
)
_TEXT = st.text(st.characters(codec="utf-8", exclude_characters=PLACEHOLDER_CHAR), max_size=8).map(
    lambda s: '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'
)


def valid_filters() -> st.SearchStrategy[str]:
    """Texts the grammar derives; U+E000 marks a placeholder (pass `placeholder_spans`)."""
    parser = lark.Lark(grammar_text(), parser="lalr", lexer="contextual")
    explicit = {name: _padded(st.just(word)) for name, word in _WORDS.items()}
    explicit["NAME"] = _padded(_NAME)
    explicit["PLACEHOLDER"] = _padded(st.just(PLACEHOLDER_CHAR))
    explicit["TEXT"] = _TEXT
    explicit["WS"] = _SPACE.filter(bool)
    explicit["NUMBER"] = st.from_regex(r"[0-9]{1,6}", fullmatch=True)
    return from_lark(parser, explicit=explicit)


def spans_of(text: str) -> list[tuple[int, int]]:
    return [(i, i + 1) for i, ch in enumerate(text) if ch == PLACEHOLDER_CHAR]
