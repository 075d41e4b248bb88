"""The LALR tables of `filters/filter.lark`, cached on disk so checking needs no Lark.

A valid filter is parsed by the small driver in `parse.py` from plain tables:
one regular expression for the terminals, the action table and, per rule,
which children the tree builder gets. Lark computes them once (about a third
of a second with its import); they are kept as JSON in the user cache
directory under a name keyed by the grammar's hash, so a later process loads
them in about a millisecond and never imports Lark unless a filter has a
syntax error to explain (`lark_parser()`, used by `syntax.py`).
`APISPEC_NO_CACHE=1` or an unwritable cache directory only costs speed.
"""

from __future__ import annotations

import json
import os
import re
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache, cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from apispec.filters.tree_builder import TreeBuilder

if TYPE_CHECKING:
    import lark

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
GRAMMAR_FILE = Path(__file__).resolve().parent / "filter.lark"
FORMAT = 1  # bump when the JSON shape of the tables changes
KEYS = {"token_re", "ignore", "states", "start_state", "end_state", "reductions", "display"}


def grammar_text() -> str:
    return GRAMMAR_FILE.read_text(encoding="utf-8")


def cache_key(data: bytes) -> str:
    """A name for cached data derived from `data`: not security, just a change detector.

    CRC-32 and Adler-32 together (64 bits) instead of hashlib, whose OpenSSL
    import alone costs a few milliseconds of start-up.
    """
    return f"{zlib.crc32(data):08x}{zlib.adler32(data):08x}"


def _cache_dir() -> Path | None:
    if os.environ.get("APISPEC_NO_CACHE"):
        return None
    import platformdirs

    return Path(platformdirs.user_cache_dir("apispec"))


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
    """The reference parser: LALR with the contextual lexer, building the AST while parsing.

    Lark pickles its own tables next to ours, keyed by the grammar and Lark's version.
    """
    import lark

    text = grammar_text()
    directory = _cache_dir()
    digest = cache_key(f"{lark.__version__}\0{text}".encode())
    return lark.Lark(
        text,
        parser="lalr",
        lexer="contextual",
        cache=False if directory is None else _usable_cache(directory / f"filter-{digest}.lark"),
        transformer=TreeBuilder(),
        maybe_placeholders=False,
    )


Callback = Callable[[list[Any]], Any]


@dataclass(frozen=True)
class Tables:
    """What the fast driver in `parse.py` needs.

    An action is an int: `n >= 0` shifts to (or, for a rule name, goes to)
    state n; `n < 0` reduces by rule `~n`, whose entry in `reductions` is
    (number of children, rule name, callback).
    """

    token_pattern: str  # one named group per terminal
    # the same, compiled, without PLACEHOLDER, for text with no placeholder character (nearly all):
    # its group, tried first at every token, scans a whole word before it can fail
    plain_re: re.Pattern[str]
    ignore: frozenset[str]
    states: list[dict[str, int]]
    start_state: int
    end_state: int
    # a callback of None: the rule passes its one child through (`?rule`), nothing to build
    reductions: list[tuple[int, str, Callback | None]]
    display: dict[str, str]  # terminal -> words for messages

    @cached_property
    def token_re(self) -> re.Pattern[str]:
        """The lexer for text with placeholders: compiled the first time one is met."""
        return re.compile(self.token_pattern)


@cache
def tables() -> Tables:
    data = _load_tables()
    builder = TreeBuilder()
    return Tables(
        token_pattern=data["token_re"],
        plain_re=re.compile(
            data["token_re"].replace("(?P<PLACEHOLDER>", "(?P<PLACEHOLDER>(?!)", 1)
        ),
        ignore=frozenset(data["ignore"]),
        states=data["states"],
        start_state=data["start_state"],
        end_state=data["end_state"],
        reductions=[
            (size, origin, _callback(builder, method, keep, expand1, size))
            for size, origin, method, keep, expand1 in data["reductions"]
        ],
        display=data["display"],
    )


def _callback(
    builder: TreeBuilder,
    method: str | None,
    keep: list[list[Any]] | None,
    expand1: bool,
    size: int,
) -> Callback | None:
    """The same shaping Lark applies before calling the tree builder; None for a rule that
    passes its one child through (`?rule` of one symbol: most reductions of a filter).

    `keep` lists (child index, splice) pairs: children not listed are filtered
    tokens (`_AND`, `_COMMA`), spliced ones are helper rules (`a (_OR b)*`)
    whose children move into the parent. `expand1` (`?rule`) passes a single
    child through. Helper rules have no method and return their child list.
    """
    if expand1 and size == 1 and keep in (None, [[0, False]], [[0, 0]]):
        return None
    build: Callback = getattr(builder, method) if method else _same
    if keep is None and not expand1:
        return build
    picks = [(i, bool(splice)) for i, splice in keep] if keep is not None else None

    def reduce(children: list[Any]) -> Any:
        if picks is not None:
            filtered: list[Any] = []
            for i, splice in picks:
                if splice:
                    if filtered:
                        filtered.extend(children[i])
                    else:  # a left-recursive list grows in place: linear, not quadratic
                        filtered = children[i]
                else:
                    filtered.append(children[i])
            children = filtered
        if expand1 and len(children) == 1:
            return children[0]
        return build(children)

    return reduce


def _same(children: list[Any]) -> list[Any]:
    return children


def _load_tables() -> dict[str, Any]:
    text = grammar_text()
    directory = _cache_dir()
    if directory is None:
        return _tables_from_lark()
    digest = cache_key(f"{FORMAT}\0{text}".encode())
    path = directory / f"filter-tables-{digest}.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if isinstance(data, dict) and data.get("format") == FORMAT and data.keys() >= KEYS:
            return data
    except (OSError, ValueError):
        pass  # missing, unreadable or damaged: build it again
    data = _tables_from_lark()
    from apispec.support.outputs import WriteError, write_atomic

    try:
        directory.mkdir(parents=True, exist_ok=True)
        # atomic: a concurrent reader never sees half a file; a cache needs no fsync
        write_atomic(path, json.dumps(data), durable=False)
    except (OSError, WriteError):
        pass
    return data


def _tables_from_lark() -> dict[str, Any]:
    """Lark's LALR analysis of the grammar, as plain JSON-able data."""
    from lark.parsers.lalr_analysis import Shift

    parser = lark_parser()
    lalr = parser.parser.parser  # ParsingFrontend -> LALR_Parser
    table = lalr._parse_table
    rules = list(lalr.parser.callbacks)
    rule_index = {rule: i for i, rule in enumerate(rules)}
    state_ids = {state: i for i, state in enumerate(table.states)}
    states = [
        {
            name: state_ids[arg] if action is Shift else ~rule_index[arg]
            for name, (action, arg) in table.states[state].items()
        }
        for state in table.states
    ]
    reductions = []
    for rule in rules:
        keep = [
            [i, not sym.is_term and sym.name.startswith("_")]
            for i, sym in enumerate(rule.expansion)
            if rule.options.keep_all_tokens or not (sym.is_term and sym.filter_out)
        ]
        method = rule.alias or rule.origin.name
        reductions.append(
            [
                len(rule.expansion),
                rule.origin.name,
                method if hasattr(TreeBuilder, method) else None,
                None if keep == [[i, False] for i in range(len(rule.expansion))] else keep,
                bool(rule.options.expand1 and not rule.alias),
            ]
        )
    terminals = list(parser.lexer_conf.terminals)
    # The same order as Lark's own lexer, so both split the text alike.
    terminals.sort(key=lambda t: (-t.priority, -t.pattern.max_width, -len(t.pattern.value), t.name))
    return {
        "format": FORMAT,
        "token_re": "|".join(f"(?P<{t.name}>{t.pattern.to_regexp()})" for t in terminals),
        "ignore": sorted(parser.lexer_conf.ignore),
        "states": states,
        "start_state": state_ids[table.start_states["start"]],
        "end_state": state_ids[table.end_states["start"]],
        "reductions": reductions,
        "display": _display(terminals),
    }


def _display(terminals: list[Any]) -> dict[str, str]:
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
