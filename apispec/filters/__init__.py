"""The filter language of the `filter` query parameter: parse, check, evaluate, format.

    from apispec.filters import check, compile, parse
    check('status = "up"')            # [Diagnostic(code='FLT004', ..., fix=Fix('safe', ...))]
    apply_fixes('status == "up"').text   # 'status = up'
    compile("status = up").select(records)

See docs/filters.md for the grammar, the diagnostics and the evaluation rules.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

# Names that are also submodule names (check, complete, format, parse) are bound
# here, or importing the submodule would leave the module in their place.
from apispec.filters.ast import FilterTree
from apispec.filters.check import check
from apispec.filters.complete import Completion, complete
from apispec.filters.diagnostics import CODES, Diagnostic, Edit, Fix, line_column
from apispec.filters.format import format
from apispec.filters.parse import parse
from apispec.filters.result import ParseResult

if TYPE_CHECKING:
    from apispec.filters.build import Condition, Enum, Prop, prop
    from apispec.filters.evaluate import Filter, FilterError, compile
    from apispec.filters.fix import Fixed, apply_fixes

# The builder, the evaluator and the fixer load on first use: `apispec filter check` needs none.
_LAZY = {
    "Condition": "build",
    "Enum": "build",
    "Prop": "build",
    "prop": "build",
    "Filter": "evaluate",
    "FilterError": "evaluate",
    "compile": "evaluate",
    "Fixed": "fix",
    "apply_fixes": "fix",
}


def __getattr__(name: str) -> Any:
    home = _LAZY.get(name)
    if home is None:
        raise AttributeError(f"module 'apispec.filters' has no attribute {name!r}")
    from importlib import import_module

    value = getattr(import_module(f"apispec.filters.{home}"), name)
    globals()[name] = value
    return value


__all__ = [
    "CODES",
    "Completion",
    "Condition",
    "Diagnostic",
    "Edit",
    "Enum",
    "Filter",
    "FilterError",
    "FilterTree",
    "Fix",
    "Fixed",
    "ParseResult",
    "Prop",
    "apply_fixes",
    "check",
    "compile",
    "complete",
    "format",
    "line_column",
    "parse",
    "prop",
]
