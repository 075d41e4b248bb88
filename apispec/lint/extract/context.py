"""Where a value is read (Ctx), and the small helpers every part of value flow shares.

A leaf of the flow modules: values.py (expressions), names.py (names, fields,
loops, mappings filled over statements) and formats.py (formats, joins, encoders)
all read these and none of them imports another for them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from apispec.lint.extract.ir import (
    AltV,
    Entry,
    Expr,
    Function,
    Hole,
    Lit,
    MapV,
    ObjV,
    Param,
    ParamV,
    Piece,
    SeqV,
    Str,
    Text,
    Value,
)

MAX_STEPS = 4000  # per top-level question; a file of tables and formats stays far below
MAX_DEPTH = 24  # names followed through names
MAX_INLINE = 3  # function calls inlined inside one another
MAX_OPTIONS = 12  # alternatives kept for one value (conditions, loops over tables)


@dataclass(frozen=True, slots=True)
class Ctx:
    """Where a value is read: position, the function evaluated, its bound parameters."""

    pos: int
    function: Function | None = None
    env: tuple[tuple[str, Value], ...] | None = None  # bound parameters (an inlined call)
    this: Value | None = None  # the receiver object of an inlined method call
    open: int = -1  # node id of the function whose parameters stay open (a wrapper)
    inline: int = 0
    bound: tuple[tuple[str, Value], ...] = ()  # loop variables of one iteration


def hint_of(text: str) -> str:
    """The last identifier of an expression, lower case (`self.base_url` -> `base_url`)."""
    words = re.findall(r"[A-Za-z_][A-Za-z0-9_]*", text)
    return words[-1].lower() if words else ""


def as_text(value: Value, start: int = 0, end: int = 0, text: str = "") -> Text:
    """A value where a string is expected: a text, or a hole standing for it."""
    if isinstance(value, Text):
        return value
    if isinstance(value, ParamV):
        return Text(
            (Hole(text, value.start or start, value.end or end, hint_of(text), value.param),)
        )
    if isinstance(value, AltV):
        return as_text(value.options[0], start, end, text) if value.options else Text(())
    if isinstance(value, ObjV) and value.kind == "client":
        url = value.field("url")  # a URL object (`HttpUrl`, a URI builder): its text
        if isinstance(url, Text):
            return url
    if isinstance(value, MapV) and value.query:  # `${new URLSearchParams(...)}`
        return query_text(value)
    return Text((Hole(text, start, end, hint_of(text)),))


def query_text(mapping: MapV) -> Text:
    """A mapping as the query string a library encodes it to: `name=value&...`."""
    pieces: list[Piece] = []
    for entry in mapping.entries:
        if entry.key is None:  # a parameter's mapping spread in: its entries, unknown here
            if is_param(entry.value):
                if pieces:
                    pieces.append(Lit("&", entry.key_start))
                pieces.extend(as_text(entry.value, entry.key_start, entry.key_end).pieces)
            continue
        if pieces:
            pieces.append(Lit("&", entry.key_start))
        pieces.append(Lit(entry.key, entry.key_start))
        pieces.append(Lit("=", entry.key_end))
        pieces.extend(as_text(entry.value, entry.key_start, entry.key_end).pieces)
    return Text(tuple(pieces))


def param_of(value: Value) -> Param | None:
    """The wrapper parameter a value is, whole (`...query` where `query` is one)."""
    if isinstance(value, ParamV):
        return value.param
    if isinstance(value, Text) and len(value.pieces) == 1 and isinstance(value.pieces[0], Hole):
        return value.pieces[0].param
    return None


def options(value: Value) -> list[Value]:
    return list(value.options) if isinstance(value, AltV) else [value]


def alt(values: Iterable[Value]) -> Value:
    flat: list[Value] = []
    for value in values:
        for option in options(value):
            if option not in flat:
                flat.append(option)
    if len(flat) == 1:
        return flat[0]
    return AltV(tuple(flat[:MAX_OPTIONS]))


def known_text(value: Value) -> str | None:
    """The text of a value wholly known (a method name), else None (also when it may be
    one of several)."""
    found = options(value)
    text = found[0] if len(found) == 1 else None
    if isinstance(text, Text) and text.pieces and all(isinstance(p, Lit) for p in text.pieces):
        return "".join(p.text for p in text.pieces if isinstance(p, Lit))
    return None


def entry_of(value: Value, key: str) -> Value | None:
    """The entry `key` of a mapping value: `a.b` a nested entry, `a|b` the first present."""
    for name in key.split("|"):
        found: Value | None = value
        for part in name.split("."):
            found = _entry(found, part) if found is not None else None
        if found is not None:
            return found
    return None


def _entry(value: Value, key: str) -> Value | None:
    found: list[Value] = []
    for option in options(value):
        if isinstance(option, MapV):
            for entry in reversed(option.entries):
                if entry.key == key:
                    found.append(entry.value)
                    break
    return alt(found) if found else None


def sub(lit: Lit, start: int, end: int) -> Lit:
    if lit.offsets is None:
        return Lit(lit.text[start:end], lit.start + start)
    return Lit(lit.text[start:end], lit.offset(start), lit.offsets[start:end])


def pairs(unpack: int | str) -> bool:
    """A loop that unpacks by position takes a mapping's entries as (key, value) pairs;
    one that destructures by key (`for (const { path } of rows)`) takes whole items."""
    return isinstance(unpack, int) and unpack >= 0


def element(value: Value, index: int | str) -> Value:
    """The `index`-th item of a sequence, or the entry `index` of a mapping or object
    (a destructuring by key: `const { path, params } = row`)."""
    if isinstance(index, str):
        if isinstance(value, MapV):
            for entry in reversed(value.entries):
                if entry.key == index:
                    return entry.value
            return Text((Hole(index, value.start, value.end, index.lower()),))
        if isinstance(value, ObjV):
            found = value.field(index)
            return found if found is not None else Text((Hole(index, 0, 0, index.lower()),))
        return value
    if isinstance(value, SeqV) and 0 <= index < len(value.items):
        return value.items[index]
    return value


def pairs_map(value: Value) -> MapV | None:
    """A list of (name, value) pairs as the mapping it stands for: a query given as
    pairs (`params=[("limit", 10)]`, Rust's `.query(&[("limit", "10")])`)."""
    if not isinstance(value, SeqV) or not value.items:
        return None
    entries: list[Entry] = []
    for item in value.items:
        if not isinstance(item, SeqV) or len(item.items) != 2:
            return None
        key, entry = item.items
        if not isinstance(key, Text) or not all(isinstance(p, Lit) for p in key.pieces):
            entries.append(Entry(None, item.start, item.end, entry))
            continue
        written = "".join(p.text for p in key.pieces if isinstance(p, Lit))
        first = key.pieces[0] if key.pieces else None
        start = first.start if isinstance(first, Lit) else item.start
        entries.append(Entry(written, start, start + len(written), entry))
    return MapV(tuple(entries), value.start, value.end, value.partial)


def scalar(value: Value) -> Value:
    """A value where one text is expected: a list's first item (`url.Values{"k": {"v"}}`,
    `params={"id": [1, 2]}` send the key once per item; the first stands for them)."""
    if isinstance(value, SeqV) and value.items:
        return value.items[0]
    return value


def key_span(key: Expr) -> tuple[int, int]:
    """Where a mapping key is written: a literal's name, not its quotes."""
    if isinstance(key, Str) and len(key.pieces) == 1 and isinstance(key.pieces[0], Lit):
        return key.pieces[0].start, key.pieces[0].end
    return key.start, key.end


def split_at(text: Text, index: int) -> tuple[Text, Text]:
    """A text cut before its `index`-th character (a hole counts as one)."""
    head: list[Piece] = []
    tail: list[Piece] = []
    left = index
    for piece in text.pieces:
        if left <= 0:
            tail.append(piece)
        elif isinstance(piece, Lit):
            if len(piece.text) <= left:
                head.append(piece)
            else:
                head.append(sub(piece, 0, left))
                tail.append(sub(piece, left, len(piece.text)))
            left -= len(piece.text)
        else:
            head.append(piece)
            left -= 1
    return Text(tuple(head)), Text(tuple(tail))


def is_param(value: Value) -> bool:
    """A wrapper's parameter, whole (a mapping, or a text that is only the parameter)."""
    return param_of(value) is not None


def unknown(value: Value) -> bool:
    """A value the file says nothing of (an object handed in or made elsewhere): a text
    of holes only."""
    return isinstance(value, Text) and not any(isinstance(p, Lit) for p in value.pieces)
