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
from apispec.lint.extract.ir import Arg, CallE, Lit, Piece, SeqV, Text, Value

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


def resolve_receiver(
    resolver: Resolver, call: CallE, args: list[Arg], ctx: Ctx, depth: int
) -> Value:
    """`base.Parse(ref)` on a URL object (Go's `c.BaseURL.Parse("experimental/devices")`):
    the reference resolved against the receiver's URL by RFC 3986. A receiver that holds
    no text (a package: `time.Parse`) makes no URL."""
    if call.receiver is None or not args:
        return resolver.hole(call)
    from apispec.lint.extract.build import join_base

    source = resolver.model.parsed.text
    ref = args[0].value
    found: list[Value] = []
    for option in options(resolver.value(call.receiver, ctx, depth + 1)):
        if not isinstance(option, Text):
            continue
        for given in options(resolver.value(ref, ctx, depth + 1)):
            text = as_text(given, ref.start, ref.end, source[ref.start : ref.end])
            joined = join_base(option, text, "rfc3986")
            if joined is not None:
                found.append(joined)
    return alt(found) if found else resolver.hole(call)


def url_fields(resolver: Resolver, call: CallE, args: list[Arg], ctx: Ctx, depth: int) -> Value:
    """A URL object made from its parts (Go's `url.URL{Scheme: "https", Host: h, Path:
    "/api/v2/x", RawQuery: q.Encode()}`): the text its `String()` writes."""
    given = {a.name: a for a in call.args if a.name}

    def part(name: str) -> Text | None:
        arg = given.get(name)
        if arg is None:
            return None
        return resolver.text_of(resolver.value(arg.value, ctx, depth + 1), arg.value)

    pieces: list[Piece] = []
    scheme, host, path, query = part("Scheme"), part("Host"), part("Path"), part("RawQuery")
    if host is not None:
        if scheme is not None:
            pieces.extend(scheme.pieces)
        pieces.append(Lit("://" if scheme is not None else "//", call.start))
        pieces.extend(host.pieces)
    if path is not None:
        pieces.extend(path.pieces)
    if query is not None and query.pieces:
        pieces.append(Lit("?", call.start))
        pieces.extend(query.pieces)
    return Text(tuple(pieces)) if pieces else resolver.hole(call)
