"""The Lark parser of `grammar/filter.lark`, built once per process and cached on disk.

Building the LALR tables costs tens of milliseconds and CLI start-up counts,
so the tables are pickled by Lark into the user cache directory under a name
keyed by the grammar's hash and Lark's version. When that directory cannot be
created or written, the parser is simply built in memory every time.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import lark

from apispec.filters.tree_builder import TreeBuilder

# Display text of each terminal in messages; derived from the grammar where
# the terminal is a fixed word or symbol, worded here where it is a pattern.
PATTERN_TERMINALS = {
    "NAME": "a property name",
    "TEXT": "a text in double quotes",
    "NUMBER": "a number",
    "PLACEHOLDER": "an interpolated value",
}
OPERATOR_TERMINALS = ("EQ", "NE", "LT", "LE", "GT", "GE", "IN", "CONTAINS", "MATCHES")
RELATION_TERMINALS = ("ANCESTORS", "DESCENDANTS", "PARENTS", "CHILDREN")
PLACEHOLDER_CHAR = "\ue000"
# Every keyword terminal's word; a test proves this matches filter.lark.
KEYWORDS = frozenset(
    {"and", "or", "not", "in", "contains", "matches", "true", "false"}
    | {"ancestors", "descendants", "parents", "children"}
)


def grammar_text() -> str:
    return (resources.files("apispec") / "grammar" / "filter.lark").read_text(encoding="utf-8")


def cache_file(text: str) -> Path:
    """Where the pickled tables of this grammar and this Lark version live."""
    import platformdirs

    digest = hashlib.sha256(f"{lark.__version__}\0{text}".encode()).hexdigest()[:20]
    return Path(platformdirs.user_cache_dir("apispec")) / f"filter-grammar-{digest}.lark"


def _usable_cache(path: Path) -> str | bool:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError:
        return False
    if path.exists():
        return str(path) if os.access(path, os.R_OK) else False
    return str(path) if os.access(path.parent, os.W_OK) else False


@cache
def lark_parser() -> lark.Lark:
    """The reference parser: LALR with the contextual lexer, building the AST while parsing."""
    text = grammar_text()
    return lark.Lark(
        text,
        parser="lalr",
        lexer="contextual",
        cache=_usable_cache(cache_file(text)),
        transformer=TreeBuilder(),
        maybe_placeholders=False,
    )


@dataclass(frozen=True)
class Tables:
    """What the fast driver in `parse.py` needs, taken from the Lark parser."""

    token_re: Any  # re.Pattern with one named group per terminal
    ignore: frozenset[str]
    states: dict[int, dict[str, tuple[Any, Any]]]
    start_state: int
    end_state: int
    shift: Any
    reductions: dict[Any, tuple[int, str, Any]]  # rule -> (size, origin, callback)
    display: dict[str, str]


@cache
def tables() -> Tables:
    import re

    parser = lark_parser()
    lalr = parser.parser.parser  # ParsingFrontend -> LALR_Parser
    table = lalr._parse_table
    terminals = list(parser.lexer_conf.terminals)
    # The same order as Lark's own lexer, so both split the text alike.
    terminals.sort(key=lambda t: (-t.priority, -t.pattern.max_width, -len(t.pattern.value), t.name))
    token_re = re.compile("|".join(f"(?P<{t.name}>{t.pattern.to_regexp()})" for t in terminals))
    from lark.parsers.lalr_analysis import Shift

    reductions = {
        rule: (len(rule.expansion), rule.origin.name, callback)
        for rule, callback in lalr.parser.callbacks.items()
    }
    return Tables(
        token_re=token_re,
        ignore=frozenset(parser.lexer_conf.ignore),
        states=table.states,
        start_state=table.start_states["start"],
        end_state=table.end_states["start"],
        shift=Shift,
        reductions=reductions,
        display=_display(terminals),
    )


def _display(terminals: list[Any]) -> dict[str, str]:
    import re

    shown: dict[str, str] = {"$END": "the end of the filter"}
    for term in terminals:
        if term.name in PATTERN_TERMINALS:
            shown[term.name] = PATTERN_TERMINALS[term.name]
        elif term.pattern.type == "str":
            shown[term.name] = f"`{term.pattern.value}`"
        else:
            word = re.match(r"[a-z]+", term.pattern.value)
            if word:
                shown[term.name] = f"`{word.group()}`"
    return shown
