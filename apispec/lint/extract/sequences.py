"""Lists and mappings as values: made from arguments (`List.of(a, b)`, `mapOf(k to v)`,
`HashMap::from(pairs)`), taken apart (`entrySet()`, `values()`), and
joined into text (`" and ".join(xs)`, `String.join`, `joinToString`, `Collectors.joining`,
a mapping's query string): the transforms formats.py's table hands these kinds to.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from apispec.lint.extract.context import (
    alt,
    as_text,
    is_param,
    key_span,
    options,
    pairs_map,
    scalar,
)
from apispec.lint.extract.ir import (
    AltV,
    Arg,
    CallE,
    Entry,
    Hole,
    ListE,
    Lit,
    MapV,
    ObjV,
    Piece,
    SeqV,
    Text,
    Value,
    argument,
)

if TYPE_CHECKING:
    from apispec.lint.extract.context import Ctx
    from apispec.lint.extract.values import Resolver


def _join(resolver: Resolver, call: CallE, args: list[Arg], ctx: Ctx, depth: int) -> Value:
    """`"sep".join(items)`."""
    if call.receiver is None or not args:
        return resolver.hole(call)
    separator = resolver.value(call.receiver, ctx, depth + 1)
    items = resolver.value(args[0].value, ctx, depth + 1)
    return join(resolver, as_text(separator), items, call)


def _items_join(resolver: Resolver, call: CallE, args: list[Arg], ctx: Ctx, depth: int) -> Value:
    """`items.join(separator)` (the list is the receiver; a comma without a separator)."""
    if call.receiver is None:
        return resolver.hole(call)
    separator = (
        as_text(resolver.value(args[0].value, ctx, depth + 1))
        if args
        else Text((Lit(",", call.end),))
    )
    return join(resolver, separator, resolver.value(call.receiver, ctx, depth + 1), call)


def _entries(resolver: Resolver, call: CallE, args: list[Arg], ctx: Ctx, depth: int) -> Value:
    """`table.entrySet()`: the mapping's (key, value) pairs, in order."""
    if call.receiver is None:
        return resolver.hole(call)
    for option in options(resolver.value(call.receiver, ctx, depth + 1)):
        if isinstance(option, MapV):
            pairs = tuple(
                SeqV((Text((Lit(e.key, e.key_start),)), e.value))
                for e in option.entries
                if e.key is not None
            )
            return SeqV(pairs, call.start, call.end, option.partial)
    return resolver.hole(call)


def _pair_args(resolver: Resolver, call: CallE, args: list[Arg], ctx: Ctx, depth: int) -> Value:
    """`mapOf("filter" to f, "limit" to 50)`: a mapping of its arguments, each a pair."""
    entries: list[Entry] = []
    for arg in args:
        if isinstance(arg.value, ListE) and len(arg.value.items) == 2:
            key, value = arg.value.items
            start, end = key_span(key)
            entries.append(
                Entry(
                    resolver.literal(key, ctx, depth),
                    start,
                    end,
                    resolver.value(value, ctx, depth + 1),
                    (value.start, value.end),
                )
            )
    return MapV(tuple(entries), call.start, call.end)


def _values(resolver: Resolver, call: CallE, args: list[Arg], ctx: Ctx, depth: int) -> Value:
    """`table.values()`: a mapping's values; `Kind.values()`: an enumeration's members."""
    if call.receiver is None:
        return resolver.hole(call)
    found: list[Value] = []
    for option in options(resolver.value(call.receiver, ctx, depth + 1)):
        if isinstance(option, MapV):
            found.append(SeqV(tuple(e.value for e in option.entries), call.start, call.end))
        elif isinstance(option, ObjV) and option.kind == "class":
            found.append(option)  # a loop over it visits its members
    return alt(found) if found else resolver.hole(call)


def _list(resolver: Resolver, call: CallE, args: list[Arg], ctx: Ctx, depth: int) -> Value:
    """`List.of(a, b)`, `Stream.of(a, b)`, `listOf(a, b)`: a list of the arguments (of
    the one list given, for `Arrays.asList(items)`; `Vec::new()`: an empty list the
    statements after it fill)."""
    items = tuple(resolver.value(a.value, ctx, depth + 1) for a in args if a.name is None)
    if len(items) == 1 and isinstance(items[0], SeqV):
        return items[0]
    return SeqV(items, call.start, call.end)


def _pair(resolver: Resolver, call: CallE, args: list[Arg], ctx: Ctx, depth: int) -> Value:
    """`URLQueryItem(name: "take", value: "10")`: one (name, value) pair of a query."""
    name = argument(call.args, (0, "name"))
    value = argument(call.args, (1, "value"))
    if name is None or value is None:
        return resolver.hole(call)
    items = (
        resolver.value(name.value, ctx, depth + 1),
        resolver.value(value.value, ctx, depth + 1),
    )
    return SeqV(items, call.start, call.end)


def _join_items(resolver: Resolver, call: CallE, args: list[Arg], ctx: Ctx, depth: int) -> Value:
    """`items.joinToString(" and ", prefix, postfix)` (Kotlin), `items.join(" and ")`
    (Groovy): the receiver's elements joined."""
    if call.receiver is None:
        return resolver.hole(call)
    places = ((0, "separator"), (1, "prefix"), (2, "postfix"))
    given = [argument(call.args, place) for place in places]
    texts = [
        as_text(resolver.value(a.value, ctx, depth + 1)) if a is not None else None for a in given
    ]
    separator = texts[0] if texts[0] is not None else Text((Lit(", ", call.start),))
    items = resolver.value(call.receiver, ctx, depth + 1)
    return _around(join(resolver, separator, items, call), texts[1], texts[2])


def _collect(resolver: Resolver, call: CallE, args: list[Arg], ctx: Ctx, depth: int) -> Value:
    """`stream.collect(Collectors.joining(" AND ", prefix, suffix))`: the stream's elements
    joined (other collectors make no text)."""
    collector = args[0].value if args else None
    if call.receiver is None or not isinstance(collector, CallE) or collector.callee != "joining":
        return resolver.hole(call)
    texts = [as_text(resolver.value(a.value, ctx, depth + 1)) for a in collector.args]
    separator = texts[0] if texts else Text(())
    items = resolver.value(call.receiver, ctx, depth + 1)
    prefix, suffix = (texts[1], texts[2]) if len(texts) >= 3 else (None, None)
    return _around(join(resolver, separator, items, call), prefix, suffix)


def _around(joined: Value, prefix: Text | None, suffix: Text | None) -> Value:
    if prefix is None and suffix is None:
        return joined
    found: list[Value] = []
    for option in options(joined):
        text = as_text(option)
        if prefix is not None:
            text = prefix.plus(text)
        if suffix is not None:
            text = text.plus(suffix)
        found.append(text)
    return alt(found)


def _join_args(resolver: Resolver, call: CallE, args: list[Arg], ctx: Ctx, depth: int) -> Value:
    """`strings.Join(items, sep)`: the separator is an argument, not the receiver."""
    if len(args) < 2:
        return resolver.hole(call)
    items = resolver.value(args[0].value, ctx, depth + 1)
    separator = resolver.value(args[1].value, ctx, depth + 1)
    return join(resolver, as_text(separator), items, call)


def _join_first(resolver: Resolver, call: CallE, args: list[Arg], ctx: Ctx, depth: int) -> Value:
    """`string.Join(sep, items)`, `String.join(" and ", a, b)`, `implode(sep, $parts)`:
    the separator first."""
    if len(args) < 2:
        return resolver.hole(call)
    separator = as_text(resolver.value(args[0].value, ctx, depth + 1))
    if len(args) == 2:
        items = resolver.value(args[1].value, ctx, depth + 1)
    else:
        items = SeqV(tuple(resolver.value(a.value, ctx, depth + 1) for a in args[1:]))
    return join(resolver, separator, items, call)


def _pairs(resolver: Resolver, call: CallE, args: list[Arg], ctx: Ctx, depth: int) -> Value:
    """`HashMap::from([("k", v), ...])`: the mapping of its pairs."""
    if not args:
        return MapV((), call.start, call.end)
    found = [
        pairs_map(option) or option
        for option in options(resolver.value(args[0].value, ctx, depth + 1))
    ]
    return alt(found)


def join(resolver: Resolver, separator: Text, items: Value, call: CallE) -> Value:
    found: list[Value] = []
    for option in options(items):
        if not isinstance(option, SeqV) or not option.items:
            text = resolver.model.parsed.text[call.start : call.end]
            hole = Hole(text, call.start, call.end, "")
            found.append(Text((hole, *separator.pieces, hole)))
            continue
        pieces: list[Piece] = []
        for k, item in enumerate(option.items):
            if k:
                pieces.extend(separator.pieces)
            pieces.extend(as_text(item, call.start, call.end).pieces)
        found.append(Text(tuple(pieces)))
    return alt(found)


def query_string(resolver: Resolver, mapping: Value, call: CallE) -> Value:
    """`name=value&...` of a mapping; a wrapper's parameter stays one (its caller's query)."""
    if isinstance(mapping, AltV):
        return alt(query_string(resolver, o, call) for o in mapping.options)
    source = resolver.model.parsed.text[call.start : call.end]
    if is_param(mapping):
        return as_text(mapping, call.start, call.end, source)
    if not isinstance(mapping, MapV):
        return resolver.hole(call)
    pieces: list[Piece] = []
    for entry in mapping.entries:
        if entry.key is None and not is_param(entry.value):
            continue
        if pieces:
            pieces.append(Lit("&", entry.key_start))
        if entry.key is None:  # the caller's own query, then what the wrapper adds
            pieces.extend(as_text(entry.value, call.start, call.end, source).pieces)
            continue
        pieces.append(Lit(entry.key, entry.key_start))
        pieces.append(Lit("=", entry.key_end))
        value = as_text(scalar(entry.value), entry.key_start, entry.key_end)
        pieces.extend(_encoded(p) if isinstance(p, Lit) else p for p in value.pieces)
    return Text(tuple(pieces))


_RESERVED = {"&": "%26", "#": "%23", "+": "%2B", "%": "%25"}


def _encoded(lit: Lit) -> Lit:
    """A query value's text as the encoder writes it: `&`, `#`, `+` and `%` escaped (the
    query is read back decoded, each character at the place it is written)."""
    if not any(c in _RESERVED for c in lit.text):
        return lit
    chars: list[str] = []
    offsets: list[int] = []
    for k, c in enumerate(lit.text):
        written = _RESERVED.get(c, c)
        chars.append(written)
        offsets.extend([lit.offset(k)] * len(written))
    return Lit("".join(chars), lit.start, tuple(offsets), lit.var)


TRANSFORMS = {
    "join": _join,
    "items_join": _items_join,
    "join_args": _join_args,
    "join_first": _join_first,
    "join_items": _join_items,
    "collect": _collect,
    "entries": _entries,
    "values": _values,
    "pairs": _pairs,
    "pair_args": _pair_args,
    "list": _list,
    "pair": _pair,
}
