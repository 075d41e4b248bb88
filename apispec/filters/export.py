"""The filter checker's data for other runtimes: the cached LALR tables and the catalog.

The reference docs check filters in the browser with a small JavaScript
driver (`templates/docs/html/filter.js`) over exactly these tables, so the
page and `apispec filter check` accept the same language and say the same
things. Nothing here is computed anew: the tables are the JSON that
`grammar.py` keeps in its cache, the catalog the one the checker uses.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from apispec.filters.catalog import catalog_of
from apispec.filters.diagnostics import CODES
from apispec.filters.grammar import (
    KEYWORDS,
    OPERATOR_TERMINALS,
    RELATION_TERMINALS,
    _load_tables,
)

if TYPE_CHECKING:
    from apispec.registry.model import Registry


def browser_data(registry: Registry) -> dict[str, Any]:
    """Tables, property catalog, codes and the terminal groups the messages name."""
    tables = _load_tables()
    return {
        "tables": {key: tables[key] for key in sorted(tables) if key != "format"},
        "catalog": catalog_of(registry).to_json(),
        "codes": CODES,
        "keywords": sorted(KEYWORDS),
        "operator_terminals": list(OPERATOR_TERMINALS),
        "relation_terminals": list(RELATION_TERMINALS),
    }
