"""Completion candidates at a cursor, for editors.

What may follow the text before the cursor comes from the parser: the
terminals the LALR parser accepts there (`tokens.accepted_after`). Those are
turned into concrete candidates with the registry: property names, the
operators the property before the cursor allows, and the values of
enumeration and boolean properties.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from apispec.filters.catalog import Catalog, PropertyInfo, resolve
from apispec.filters.grammar import OPERATOR_TERMINALS, RELATION_TERMINALS
from apispec.filters.tokens import accepted_after, tokenize

if TYPE_CHECKING:
    from apispec.registry.model import Registry

_PARTIAL = re.compile(r"[A-Za-z0-9_.]*\Z")

CompletionKind = Literal["property", "operator", "value", "keyword", "punctuation"]


@dataclass(frozen=True)
class Completion:
    """Replace `text[start:end]` with `insert` to accept the candidate `label`."""

    label: str
    kind: CompletionKind
    detail: str
    insert: str
    start: int
    end: int

    def as_dict(self) -> dict[str, object]:
        return {
            "label": self.label,
            "kind": self.kind,
            "detail": self.detail,
            "insert": self.insert,
            "start": self.start,
            "end": self.end,
        }


def repaired(text: str) -> str:
    """`text` with the repairs of its FLT001 slips applied (`AND` -> `and`, `==` -> `=`):
    what the checker's fixes would make of it, so completion can go on after a slip."""
    from apispec.filters.parse import parse

    edits = sorted(
        (e for d in parse(text).diagnostics if d.fix is not None for e in d.fix.edits),
        key=lambda e: (e.start, e.end),
    )
    out, at = [], 0
    for edit in edits:
        if edit.start < at:
            continue  # overlaps an earlier repair: keep that one
        out += [text[at : edit.start], edit.content]
        at = edit.end
    return "".join(out) + text[at:]


def complete(
    text: str, cursor: int | None = None, registry: Registry | None = None
) -> list[Completion]:
    """Candidates valid at `cursor` (default: the end), filtered by the word being typed."""
    cursor = len(text) if cursor is None else max(0, min(cursor, len(text)))
    before = text[:cursor]
    partial = _PARTIAL.search(before)
    assert partial is not None
    start = partial.start()
    typed = partial.group()
    prefix = text[:start]
    accepted = accepted_after(prefix)
    if not accepted and prefix.strip():
        prefix = repaired(prefix)  # `status = up AND ` completes as `status = up and `
        accepted = accepted_after(prefix)
        if not accepted:
            return []  # the text before the cursor is wrong beyond the checker's repairs
    if not accepted:
        accepted = accepted_after("")
    catalog = resolve(registry)
    tokens, _ = tokenize(prefix)
    last_name = next((t.value for t in reversed(tokens) if t.type == "NAME"), None)
    prop = catalog.properties.get(last_name or "")
    found: list[Completion] = []

    def add(label: str, kind: CompletionKind, detail: str, insert: str | None = None) -> None:
        found.append(Completion(label, kind, detail, insert or label, start, cursor))

    value_position = "LSQB" in accepted or ("TEXT" in accepted and "NUMBER" in accepted)
    if set(OPERATOR_TERMINALS) <= accepted:
        operators = prop.operators if prop else catalog.operators
        for symbol in operators:
            add(symbol, "operator", f"allowed on {prop.name}" if prop else "operator")
    elif value_position:
        after_in = bool(tokens) and tokens[-1].type == "IN"
        for label, kind, detail in _values(None if after_in else prop):
            add(label, kind, detail)
        if after_in:
            add("[", "punctuation", "list of values")
    elif "NAME" in accepted:
        for name, info in catalog.properties.items():
            add(name, "property", f"{info.type}; operators {' '.join(info.operators)}")
    for label, kind, detail, insert in _words(accepted, catalog, bool(tokens), typed):
        add(label, kind, detail, insert)
    return [c for c in found if c.label.startswith(typed)]


def _values(prop: PropertyInfo | None) -> Iterator[tuple[str, CompletionKind, str]]:
    """The values a property takes that can be listed: its enumeration, true and false."""
    if prop is None:
        return
    if prop.type == "enumeration":
        for value in prop.values:
            yield value, "value", f"{prop.name} value"
    elif prop.type == "boolean":
        yield "true", "value", "boolean"
        yield "false", "value", "boolean"
    elif prop.type == "text":
        yield '""', "value", "text in double quotes"


def _words(
    accepted: set[str], catalog: Catalog, after_a_token: bool, typed: str
) -> Iterator[tuple[str, CompletionKind, str, str]]:
    """Keywords and brackets the parser accepts here: relationship words, not, (, and, or."""
    if set(RELATION_TERMINALS) <= accepted:
        for word in catalog.relationships:
            yield word, "keyword", "relationship word, then a filter", f"{word} "
    if "NOT" in accepted:
        yield "not", "keyword", "not(<expression>)", "not("
    if "LPAR" in accepted and not typed:
        yield "(", "punctuation", "group", "("
    for terminal, word in (("_AND", "and"), ("_OR", "or")):
        if terminal in accepted and after_a_token:
            yield word, "keyword", "logical operator", f"{word} "
