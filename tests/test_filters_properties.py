"""Property-based tests: parsing never raises, and grammar-derived filters round-trip."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from apispec.filters import check, parse
from apispec.filters.format import format_tree
from apispec.filters.grammar import lark_parser
from apispec.filters.parse import fast_parse, mask
from apispec.filters.tokens import accepted_after
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


def _lark_accepts(prefix: str) -> set[str]:
    try:
        interactive = lark_parser().parse_interactive(prefix)
        interactive.exhaust_lexer()
        return set(interactive.accepts())
    except Exception:
        return set()


REALISTIC = [
    'children id = "2048" and not(status = up or type != sensor)',
    'name in ["a", "b\\"c"] or (favorite = true and basic.tags contains "x")',
    "descendants kind = 1 and parentid matches \ue000",
]
PREFIXES = st.one_of(
    st.lists(FILTER_ALPHABET, max_size=12).map("".join),
    st.sampled_from(REALISTIC).flatmap(lambda f: st.integers(0, len(f)).map(lambda i: f[:i])),
)


@SETTINGS
@given(PREFIXES)
def test_accepted_terminals_are_larks(prefix: str) -> None:
    assert accepted_after(prefix) == _lark_accepts(prefix)
