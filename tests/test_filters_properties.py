"""Property-based tests: parsing never raises, and grammar-derived filters round-trip."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from apispec.filters import check, parse
from apispec.filters.format import format_tree
from apispec.filters.grammar import lark_parser
from apispec.filters.parse import fast_parse, mask
from tests.filter_strategies import spans_of, valid_filters

FILTER_ALPHABET = st.sampled_from(
    [
        *"abst =!<>()[],\"\\'&|;.0123456789_\n\t",
        *("and ", "or ", "not", "in ", "\u00a0", "\ue000", "status", "contains "),
    ]
)
SETTINGS = settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
# Drawing from the grammar costs tens of milliseconds per filter (they run to hundreds of
# characters); 100 keeps the suite's budget and still covers every rule many times over.
GRAMMAR_SETTINGS = settings(SETTINGS, max_examples=100)


@SETTINGS
@given(st.text())
def test_arbitrary_text_never_raises(text: str) -> None:
    result = parse(text)
    assert (result.tree is None) == bool(result.diagnostics)
    for d in check(text):
        assert 0 <= d.start <= d.end <= len(text)


@SETTINGS
@given(st.lists(FILTER_ALPHABET, max_size=25).map("".join))
def test_filter_like_text_never_raises(text: str) -> None:
    for d in check(text, placeholder_spans=spans_of(text)):
        assert 0 <= d.start <= d.end <= len(text)
        assert d.message


@GRAMMAR_SETTINGS
@given(valid_filters())
def test_generated_filters_parse_format_and_reparse_to_an_equal_tree(text: str) -> None:
    spans = spans_of(text)
    result = parse(text, spans)
    assert result.ok, (text, result.diagnostics)
    formatted = format_tree(result.tree)
    again = parse(formatted, spans_of(formatted))
    assert again.tree == result.tree
    assert format_tree(again.tree) == formatted  # idempotent


@GRAMMAR_SETTINGS
@given(st.one_of(valid_filters(), st.lists(FILTER_ALPHABET, max_size=20).map("".join)))
def test_the_fast_road_agrees_with_larks_parser(text: str) -> None:
    masked = mask(text, spans_of(text))
    fast = fast_parse(masked)
    try:
        reference = lark_parser().parse(masked)
    except Exception:
        reference = None
    assert fast == reference
