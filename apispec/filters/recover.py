"""The slow road: Lark's parser, and repairs that let one run report several slips.

After a syntax error whose hint is a mechanical fix (`syntax.explain`), the fix
is applied and parsing goes on; offsets of later findings, and of their fixes,
are mapped back to the original text.
"""

from __future__ import annotations

from apispec.filters.ast import FilterTree
from apispec.filters.diagnostics import Diagnostic, moved
from apispec.filters.grammar import lark_parser
from apispec.filters.result import ParseResult, bounded
from apispec.filters.syntax import explain
from apispec.filters.tokens import LONG_FILTER, OffsetMap, fast_parse

MAX_REPAIRS = 8


def parse_with_repairs(text: str, masked: str) -> ParseResult:
    from lark.exceptions import UnexpectedInput

    current = masked
    offsets = OffsetMap()
    diagnostics: list[Diagnostic] = []
    last_start = -1
    for _ in range(MAX_REPAIRS if len(text) <= LONG_FILTER else 1):
        # After a repair, the fast road first: a filter whose one slip was repaired is
        # valid now, and the tables parse it as Lark would, for a fraction of the cost.
        tree = fast_parse(current) if diagnostics else None
        try:
            if tree is None:
                parsed = lark_parser().parse(current)
                assert isinstance(parsed, FilterTree)  # the parser's transformer builds the tree
                tree = parsed
        except UnexpectedInput as error:
            diagnostic = explain(current, error, text, masked, offsets)
            start = offsets.original(diagnostic.start)
            if start <= last_start and diagnostics:
                break  # the previous fix did not get past this point
            diagnostics.append(moved(diagnostic, offsets.original))
            last_start = start
            if diagnostic.fix is None:
                break
            # Last edit first: each edit's offsets stay valid in the text it changes.
            for edit in reversed(diagnostic.fix.edits):
                current = current[: edit.start] + edit.content + current[edit.end :]
                offsets = offsets.then(edit.start, edit.end, len(edit.content))
            continue
        recovered = tree if diagnostics else None
        if not diagnostics:  # the fast road refused a valid filter: still a valid filter
            return bounded(text, tree, current)
        return ParseResult(text, None, diagnostics, recovered, offsets, current)
    return ParseResult(text, None, diagnostics, None, offsets)
