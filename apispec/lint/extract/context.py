"""Where a value is read (Ctx), and the small helpers every part of value flow shares.

A leaf of the flow modules: values.py (expressions), names.py (names, fields,
loops, mappings filled over statements) and formats.py (formats, joins, encoders)
all read these and none of them imports another for them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from apispec.lint.extract.ir import AltV, Function, Hole, Lit, ParamV, SeqV, Text, Value

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
    return Text((Hole(text, start, end, hint_of(text)),))


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


def sub(lit: Lit, start: int, end: int) -> Lit:
    if lit.offsets is None:
        return Lit(lit.text[start:end], lit.start + start)
    return Lit(lit.text[start:end], lit.offset(start), lit.offsets[start:end])


def element(value: Value, index: int) -> Value:
    if isinstance(value, SeqV) and 0 <= index < len(value.items):
        return value.items[index]
    return value
