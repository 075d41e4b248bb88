"""What parsing a filter gives: the tree or the FLT001 diagnostics, and the nesting bound."""

from __future__ import annotations

from dataclasses import dataclass, field

from apispec.filters.ast import FilterTree, nesting
from apispec.filters.diagnostics import Diagnostic, make
from apispec.filters.tokens import OffsetMap

# Operators nested inside operators (`not(...)`, `and` inside `or` inside ...):
# deeper trees are refused with FLT001, so that evaluating, printing and
# comparing a tree never comes near Python's recursion limit.
MAX_NESTING = 100


@dataclass(frozen=True)
class ParseResult:
    """`tree` is the syntax tree when the filter has no syntax error, else None.

    `recovered` is the tree of the text with every suggested fix applied (when
    that parses), so the checker can still report independent defects;
    `offsets` maps its offsets back to `text`.
    """

    text: str
    tree: FilterTree | None
    diagnostics: list[Diagnostic]
    recovered: FilterTree | None = None
    offsets: OffsetMap = field(default_factory=OffsetMap)
    recovered_text: str = ""

    @property
    def ok(self) -> bool:
        return self.tree is not None


def bounded(text: str, tree: FilterTree, parsed: str) -> ParseResult:
    """A valid filter's result, or FLT001 when it nests deeper than MAX_NESTING.

    The deep tree stays available as `recovered`, so the checker still reports
    property and type defects (its walk is iterative).
    """
    if text.count("(") < MAX_NESTING - 1:  # each level past the second needs a `(`
        return ParseResult(text, tree, [], tree, recovered_text=parsed)
    depth, node = nesting(tree.expr, MAX_NESTING)
    if node is None:
        return ParseResult(text, tree, [], tree, recovered_text=parsed)
    diagnostic = make(
        "FLT001",
        f"the filter nests operators {depth} levels deep; apispec reads at most {MAX_NESTING}",
        node.start,
        node.end,
        "simplify it: `not(not(x))` is `x`, and `not(a or b)` is `not(a) and not(b)`",
    )
    return ParseResult(text, None, [diagnostic], tree, recovered_text=parsed)
