"""Formats, joins and encoders: the text a template or a library call makes.

`%`, `.format`, `-f`, `sprintf`, `String.format`, Go verbs (`%q` quotes its
argument), joins of lists (a list built over statements included), `urlencode` of
a mapping into a query string, `urljoin`, `json.dumps`. An unknown argument is a
hole placed where its slot is written, so a filter's diagnostic points into the
template.
The library calls among these (joins, encoders, `urljoin`, ...) run in transforms.py,
which uses `fill` for the format calls.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from apispec.lint.extract.context import alt, as_text, options, sub
from apispec.lint.extract.ir import (
    Arg,
    Expr,
    Format,
    Hole,
    Lit,
    MapV,
    Piece,
    Text,
    Value,
)

if TYPE_CHECKING:
    from apispec.lint.extract.context import Ctx
    from apispec.lint.extract.values import Resolver

_PRINTF = re.compile(r"%(?:\((\w+)\))?[-+ #0]*(?:\*|\d+)?(?:\.(?:\*|\d+))?[hlL]?([a-zA-Z%])")
_BRACE = re.compile(r"\{([^{}]*)\}")
_TEMPLATE = re.compile(r"\{([A-Za-z_][\w.-]*)\}")


def format_value(resolver: Resolver, expr: Format, ctx: Ctx, depth: int) -> Value:
    template = resolver.value(expr.template, ctx, depth + 1)
    args = [resolver.value(a.value, ctx, depth + 1) if not a.spread else None for a in expr.args]
    named = {a.name: args[k] for k, a in enumerate(expr.args) if a.name}
    positional = [
        (args[k], a.value) for k, a in enumerate(expr.args) if not a.name and not a.spread
    ]
    if len(positional) == 1 and isinstance(positional[0][0], MapV) and expr.style == "printf":
        for entry in positional[0][0].entries:  # "%(name)s" % {...}
            if entry.key:
                named[entry.key] = entry.value
    found = [
        fill(resolver, t, expr.style, positional, named)
        for t in options(template)
        if isinstance(t, Text)
    ]
    return alt(found) if found else resolver.hole(expr)


def fill(
    resolver: Resolver,
    template: Text,
    style: str,
    positional: Sequence[tuple[Value | None, Expr | None]],
    named: dict[str, Value | None],
) -> Text:
    """The template with each slot replaced by its argument's text (a hole if unknown)."""
    pattern = _PRINTF if style in ("printf", "go") else _TEMPLATE if style == "template" else _BRACE
    pieces: list[Piece] = []
    counter = 0
    for piece in template.pieces:
        if not isinstance(piece, Lit):
            pieces.append(piece)
            continue
        text = piece.text
        at = 0
        for m in pattern.finditer(text):
            if style in ("printf", "go") and m.group(2) == "%":
                continue
            if at < m.start():
                pieces.append(sub(piece, at, m.start()))
            slot_start, slot_end = piece.offset(m.start()), piece.offset(m.end() - 1) + 1
            if style in ("printf", "go"):
                key = m.group(1)
                value = named.get(key) if key else None
                expr = None
                if not key and counter < len(positional):
                    value, expr = positional[counter]
                    counter += 1
                verb = m.group(2)
            else:
                field_name = m.group(1).split(":")[0].split("!")[0].strip()
                expr = None
                if style == "template" and field_name not in named:
                    field_name = ""  # a URI template's variables take the arguments in order
                if field_name.isdigit():
                    k = int(field_name)
                    value, expr = positional[k] if k < len(positional) else (None, None)
                elif field_name:
                    value = named.get(field_name)
                else:
                    value, expr = positional[counter] if counter < len(positional) else (None, None)
                    counter += 1
                verb = "s"
            slot_text = text[m.start() : m.end()]
            if value is None:
                pieces.append(Hole(slot_text, slot_start, slot_end, ""))
            else:
                filled = as_text(value, slot_start, slot_end, slot_text)
                if filled.pieces and all(isinstance(p, Hole) for p in filled.pieces):
                    first = filled.pieces[0]  # unknown: it stands where the slot is
                    assert isinstance(first, Hole)
                    filled = Text((Hole(slot_text, slot_start, slot_end, first.hint, first.param),))
                if verb == "q":  # Go's %q quotes its argument
                    filled = Text((Lit('"', slot_start), *filled.pieces, Lit('"', slot_end - 1)))
                pieces.extend(filled.pieces)
            del expr
            at = m.end()
        if at < len(text):
            pieces.append(sub(piece, at, len(text)))
    return Text(tuple(pieces))


def uri_template(resolver: Resolver, url: Value, args: Sequence[Arg], ctx: Ctx) -> Value:
    """A URI template (`"/x/{id}?filter={f}"`) filled by the arguments after it, in order,
    or by name from one mapping (Spring's `uriVariables`)."""
    given = [a for a in args if not a.spread and a.name is None]
    found: list[Value] = []
    for text in (t for t in options(url) if isinstance(t, Text)):
        slots = sum(len(_TEMPLATE.findall(p.text)) for p in text.pieces if isinstance(p, Lit))
        if not slots:
            found.append(text)
            continue
        # the variables are the last arguments (a Kotlin call leaves out the type)
        positional: list[tuple[Value | None, Expr | None]] = [
            (resolver.value(a.value, ctx, 1), a.value) for a in given[-slots:]
        ]
        named: dict[str, Value | None] = {}
        last = resolver.value(given[-1].value, ctx, 1) if given else None
        if isinstance(last, MapV):  # one mapping: the variables by name
            named = {e.key: e.value for e in last.entries if e.key is not None}
            positional = []
        found.append(fill(resolver, text, "template", positional, named))
    return alt(found) if found else url
