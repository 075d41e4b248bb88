"""URLs as values: path elements joined onto a URL, a part of a URL object set later.

`url.JoinPath(base, "a", id)` and `u.JoinPath(...)` put one slash between elements;
`u.RawQuery = q.Encode()` or `u.Path += "/x"` after `u` is made changes that part of
its text; `append(xs, a)` grows the list a join later reads (Go builds filters so).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from apispec.lint.extract.context import alt, as_text, options, split_at
from apispec.lint.extract.ir import Arg, CallE, Lit, SeqV, Text, Value

if TYPE_CHECKING:
    from apispec.lint.extract.context import Ctx
    from apispec.lint.extract.values import Resolver


def append(resolver: Resolver, call: CallE, args: list[Arg], ctx: Ctx, depth: int) -> Value:
    """`append(xs, a, b)`, `append(xs, ys...)`: a list with more items."""
    items: list[Value] = []
    for k, arg in enumerate(call.args):
        value = resolver.value(arg.value, ctx, depth + 1)
        if k == 0 or arg.spread:
            held = [o for o in options(value) if isinstance(o, SeqV)]
            items.extend(held[0].items if held else ())
        else:
            items.append(value)
    return SeqV(tuple(items), call.start, call.end)


def path_join(resolver: Resolver, call: CallE, args: list[Arg], ctx: Ctx, depth: int) -> Value:
    """`url.JoinPath(base, "a", id)`, `path.Join(a, b)`: one slash between elements."""
    if not call.args:
        return resolver.hole(call)
    first = resolver.value(call.args[0].value, ctx, depth + 1)
    return _joined(resolver, first, call, call.args[1:], ctx, depth)


def path_join_receiver(
    resolver: Resolver, call: CallE, args: list[Arg], ctx: Ctx, depth: int
) -> Value:
    """`u.JoinPath("experimental", "probes")`: the receiver's URL with elements added."""
    if call.receiver is None:
        return resolver.hole(call)
    base = resolver.value(call.receiver, ctx, depth + 1)
    return _joined(resolver, base, call, call.args, ctx, depth)


def _joined(
    resolver: Resolver, base: Value, call: CallE, rest: Sequence[Arg], ctx: Ctx, depth: int
) -> Value:
    from apispec.lint.extract.build import join_base

    source = resolver.model.parsed.text
    found: list[Value] = []
    written = call.receiver if call.receiver is not None else call.args[0].value
    for option in options(base):
        text: Text | None = resolver.text_of(option, written)
        for arg in rest:
            element = resolver.value(arg.value, ctx, depth + 1)
            parts = element.items if arg.spread and isinstance(element, SeqV) else (element,)
            for part in parts:
                piece = as_text(
                    part, arg.value.start, arg.value.end, source[arg.value.start : arg.value.end]
                )
                text = join_base(text, piece, "slash") if text is not None else None
        if text is not None:
            found.append(text)
    return alt(found) if found else resolver.hole(call)


_AUTHORITY = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://[^/?#]*")


def with_part(url: Value, part: str, value: Text, add: bool) -> Value:
    """A URL with its query or path set (`u.RawQuery = q.Encode()`, `u.Path += "/x"`)."""
    found: list[Value] = []
    for option in options(url):
        if not isinstance(option, Text):
            found.append(option)
            continue
        known = option.known
        query_at = known.find("?")
        end = query_at if query_at >= 0 else len(known)
        before, rest = split_at(option, end)
        if part == "query":
            lead = Text((Lit("?", value.start),)) if value.pieces else Text(())
            found.append(before.plus(lead).plus(value) if not add else option.plus(value))
            continue
        if add:
            found.append(before.plus(value).plus(rest))
            continue
        authority = _AUTHORITY.match(known)
        root, _ = split_at(before, authority.end() if authority else 0)
        found.append(root.plus(value).plus(rest))
    return alt(found)
