"""The filter language of the `filter` query parameter: parse, check, evaluate, format.

    from apispec.filters import check, compile, parse
    check('status = "up"')            # [Diagnostic(code='FLT004', ...)]
    compile("status = up").select(records)

See docs/filters.md for the grammar, the diagnostics and the evaluation rules.
"""

from __future__ import annotations

from apispec.filters.ast import FilterTree
from apispec.filters.build import Condition, Enum, Prop, prop
from apispec.filters.check import check
from apispec.filters.complete import Completion, complete
from apispec.filters.diagnostics import CODES, Diagnostic, line_column
from apispec.filters.evaluate import Filter, FilterError, compile
from apispec.filters.format import format
from apispec.filters.parse import ParseResult, parse

__all__ = [
    "CODES",
    "Completion",
    "Condition",
    "Diagnostic",
    "Enum",
    "Filter",
    "FilterError",
    "FilterTree",
    "ParseResult",
    "Prop",
    "check",
    "compile",
    "complete",
    "format",
    "line_column",
    "parse",
    "prop",
]
