"""Text -> syntax tree, or FLT001 diagnostics; never raises for bad input.

Valid filters take the fast road: one regular expression splits the text
into the grammar's terminals (ordered as Lark's lexer orders them) and a
tight loop runs the LALR tables Lark computed (cached, see `grammar.py`),
shaping children as Lark does, without importing Lark.
Anything that road cannot take is handed to Lark's parser with the
contextual lexer, whose error (the parser state's accepted terminals) is
explained in `syntax.py` and repaired in `recover.py`, so one run reports
several slips.
"""

from __future__ import annotations

from collections.abc import Sequence

from apispec.filters.grammar import PLACEHOLDER_CHAR
from apispec.filters.result import ParseResult, bounded
from apispec.filters.tokens import Span, fast_parse


def parse(text: str, placeholder_spans: Sequence[Span] = ()) -> ParseResult:
    """Parse a filter; `placeholder_spans` mark character ranges of unknown content."""
    masked = mask(text, placeholder_spans)
    tree = fast_parse(masked)
    if tree is not None:
        return bounded(text, tree, masked)
    from apispec.filters.recover import parse_with_repairs  # Lark: only for a bad filter

    return parse_with_repairs(text, masked)


def mask(text: str, spans: Sequence[Span]) -> str:
    """Each placeholder character becomes U+E000, which the grammar lexes as PLACEHOLDER.

    A U+E000 the caller did not mark is not a placeholder: it becomes NUL, an
    unexpected character, so plain text can never smuggle one in.
    """
    if PLACEHOLDER_CHAR in text:
        text = text.replace(PLACEHOLDER_CHAR, "\0")
    if not spans:
        return text
    chars = list(text)
    for start, end in spans:
        for i in range(max(start, 0), min(end, len(chars))):
            chars[i] = PLACEHOLDER_CHAR
    return "".join(chars)
