"""Library calls that transform text: joins, encoders, `urljoin`, `json.dumps`, jq's
`@uri`, trims, replacements, URI builders' segments and query parameters, merges and
defaults. Each knowledge row names a transform; `transform` runs it on the call.

Apart from formats.py (templates: `%`, `.format`, `-f`, printf verbs) because the
table of transforms is long and grows with every client library a language adds.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING

from apispec.lint.extract import sequences, urls
from apispec.lint.extract.context import alt, as_text, element, options, sub
from apispec.lint.extract.formats import fill
from apispec.lint.extract.ir import (
    Arg,
    CallE,
    Entry,
    Expr,
    Lit,
    MapV,
    ObjV,
    Piece,
    SeqV,
    Text,
    Value,
)

if TYPE_CHECKING:
    from apispec.lint.extract.context import Ctx
    from apispec.lint.extract.values import Resolver


_JQ_ARG = re.compile(r"\s*\$(\w+)\s*(?:\|\s*@(?:uri|text)\s*)?")  # `$f|@uri`
_JQ_RAW = re.compile(r"\s*(?:\.|@uri|\.\s*\|\s*@uri)\s*")  # the raw input, encoded


def transform(resolver: Resolver, kind: str, call: CallE, ctx: Ctx, depth: int) -> Value:
    """What a library call that changes text returns (its knowledge row names the kind)."""
    args = [a for a in call.args if not a.spread]
    if kind.startswith("format:"):
        return _format_call(resolver, kind.split(":", 1)[1], call, args, ctx, depth)
    if kind.startswith("item:"):  # `entry.getValue()`: one part of a pair
        if call.receiver is None:
            return resolver.hole(call)
        index = int(kind.split(":", 1)[1])
        pair = resolver.value(call.receiver, ctx, depth + 1)
        return alt(element(o, index) for o in options(pair))
    if kind.startswith("object:"):  # `"https://h/api/v2/".toHttpUrl()`: a URL object
        held = call.receiver if call.receiver is not None else args[0].value if args else None
        if held is None:
            return resolver.hole(call)
        text = resolver.text_of(resolver.value(held, ctx, depth + 1), held)
        return ObjV("client", kind.split(":", 1)[1], (("url", text),))
    if kind.startswith("urljoin:"):  # `urljoin:1,0`: the base is the second argument
        base_at, path_at = (int(k) for k in kind.split(":", 1)[1].split(","))
        return _urljoin(resolver, call, args, ctx, depth, base_at, path_at)
    handler = _TRANSFORMS.get(kind)
    if handler is None:
        return resolver.hole(call)
    return handler(resolver, call, args, ctx, depth)


def _identity(resolver: Resolver, call: CallE, args: list[Arg], ctx: Ctx, depth: int) -> Value:
    """An encoder the server undoes (`quote`, `encodeURIComponent`): the text itself."""
    return resolver.value(args[0].value, ctx, depth + 1) if args else resolver.hole(call)


def _dict(resolver: Resolver, call: CallE, args: list[Arg], ctx: Ctx, depth: int) -> Value:
    """`dict(a=1, **b)`, `dict(mapping, c=2)`: a mapping."""
    entries: list[Entry] = []
    for arg in call.args:
        if arg.name:
            written = (arg.value.start, arg.value.end)
            value = resolver.value(arg.value, ctx, depth + 1)
            entries.append(Entry(arg.name, arg.value.start, arg.value.end, value, written))
            continue
        for option in options(resolver.value(arg.value, ctx, depth + 1)):
            if isinstance(option, MapV):
                entries.extend(option.entries)
                break
    return MapV(tuple(entries), call.start, call.end)


def _quoted(resolver: Resolver, call: CallE, args: list[Arg], ctx: Ctx, depth: int) -> Value:
    """`json.dumps(x)`: the text in double quotes."""
    if not args:
        return resolver.hole(call)
    inner = resolver.text_of(resolver.value(args[0].value, ctx, depth + 1), args[0].value)
    return Text((Lit('"', call.start), *inner.pieces, Lit('"', call.end - 1)))


def _receiver(resolver: Resolver, call: CallE, args: list[Arg], ctx: Ctx, depth: int) -> Value:
    """A method that returns its receiver's text (`.strip()`, `.encode()`)."""
    if call.receiver is None:
        return resolver.hole(call)
    return resolver.value(call.receiver, ctx, depth + 1)


def _urljoin(
    resolver: Resolver,
    call: CallE,
    args: list[Arg],
    ctx: Ctx,
    depth: int,
    base_at: int = 0,
    path_at: int = 1,
) -> Value:
    """`urljoin(base, path)`, `new URL(path, base)`: RFC 3986 resolution; one argument is
    the URL itself (`[uri]::new($url)`)."""
    if len(args) == 1:
        return resolver.value(args[0].value, ctx, depth + 1)
    if len(args) < 2:
        return resolver.hole(call)
    from apispec.lint.extract.build import join_base

    base = as_text(resolver.value(args[base_at].value, ctx, depth + 1), call.start, call.end)
    found = []
    for path in options(resolver.value(args[path_at].value, ctx, depth + 1)):
        joined = join_base(base, as_text(path, call.start, call.end), "rfc3986")
        if joined is not None:
            found.append(joined)
    return alt(found) if found else resolver.hole(call)


def _query_map(resolver: Resolver, call: CallE, args: list[Arg], ctx: Ctx, depth: int) -> Value:
    """A query builder made from a mapping (`new URLSearchParams({...})`), or empty."""
    if not args:
        return MapV((), call.start, call.end, query=True)
    return alt(
        replace(option, query=True) if isinstance(option, MapV) else option
        for option in options(resolver.value(args[0].value, ctx, depth + 1))
    )


def _replace(resolver: Resolver, call: CallE, args: list[Arg], ctx: Ctx, depth: int) -> Value:
    """`"/devices/{id}".replace("{id}", id)`: each literal occurrence replaced."""
    if call.receiver is None or len(args) < 2:
        return resolver.hole(call)
    old = resolver.literal(args[0].value, ctx, depth)
    if not old:
        return resolver.hole(call)
    new = resolver.text_of(resolver.value(args[1].value, ctx, depth + 1), args[1].value)
    return alt(
        _replaced(v, old, new) if isinstance(v, Text) else v
        for v in options(resolver.value(call.receiver, ctx, depth + 1))
    )


def _replaced(text: Text, old: str, new: Text) -> Text:
    pieces: list[Piece] = []
    for piece in text.pieces:
        if not isinstance(piece, Lit) or old not in piece.text:
            pieces.append(piece)
            continue
        at = 0
        while (found := piece.text.find(old, at)) >= 0:
            if found > at:
                pieces.append(sub(piece, at, found))
            pieces.extend(new.pieces)
            at = found + len(old)
        if at < len(piece.text):
            pieces.append(sub(piece, at, len(piece.text)))
    return Text(tuple(pieces))


def _query_string(resolver: Resolver, call: CallE, args: list[Arg], ctx: Ctx, depth: int) -> Value:
    """`urlencode(mapping)`: `name=value&...`."""
    if not args:
        return resolver.hole(call)
    return sequences.query_string(resolver, resolver.value(args[0].value, ctx, depth + 1), call)


def _format_call(
    resolver: Resolver, style: str, call: CallE, args: list[Arg], ctx: Ctx, depth: int
) -> Value:
    """`sprintf(template, ...)`, `String.format(...)`: the template filled."""
    if not args:
        return resolver.hole(call)
    template = resolver.value(args[0].value, ctx, depth + 1)
    rest: list[tuple[Value | None, Expr | None]] = [
        (resolver.value(a.value, ctx, depth + 1), a.value) for a in args[1:] if not a.name
    ]
    named: dict[str, Value | None] = {
        a.name: resolver.value(a.value, ctx, depth + 1) for a in args[1:] if a.name
    }
    found: list[Value] = [
        fill(resolver, t, style, rest, named) for t in options(template) if isinstance(t, Text)
    ]
    return alt(found) if found else resolver.hole(call)


def _jq(resolver: Resolver, call: CallE, args: list[Arg], ctx: Ctx, depth: int) -> Value:
    """A jq program that only prints one of its `--arg` values (`jq -rn --arg f "$x"
    '$f|@uri'`) or, reading raw text (`-R`), its input (`... | jq -sRr @uri`): that text
    (the server undoes the URL-encoding, as for `quote`)."""
    named: dict[str, Expr] = {}
    program: str | None = None
    raw = False
    k = 0
    while k < len(args):
        written = resolver.literal(args[k].value, ctx, depth)
        if written in ("--arg", "--argjson") and k + 2 < len(args):
            name = resolver.literal(args[k + 1].value, ctx, depth)
            if name:
                named[name] = args[k + 2].value
            k += 3
            continue
        if written is not None and written.startswith("-") and not written.startswith("--"):
            raw = raw or "R" in written
        elif written is not None and not written.startswith("-") and program is None:
            program = written
        k += 1
    m = _JQ_ARG.fullmatch(program) if program is not None else None
    if m is not None and m.group(1) in named:
        return resolver.value(named[m.group(1)], ctx, depth + 1)
    if raw and call.receiver is not None and program is not None and _JQ_RAW.fullmatch(program):
        return resolver.value(call.receiver, ctx, depth + 1)
    return resolver.hole(call)


def _encode_receiver(
    resolver: Resolver, call: CallE, args: list[Arg], ctx: Ctx, depth: int
) -> Value:
    """`q.Encode()`: the receiver mapping as a query string."""
    if call.receiver is None:
        return resolver.hole(call)
    return sequences.query_string(resolver, resolver.value(call.receiver, ctx, depth + 1), call)


def _empty_mapping(resolver: Resolver, call: CallE, args: list[Arg], ctx: Ctx, depth: int) -> Value:
    """`u.Query()`: a mapping the code fills next (what it held before is not known)."""
    return MapV((), call.start, call.end, partial=True)


def _uri(resolver: Resolver, call: CallE, args: list[Arg], ctx: Ctx, depth: int) -> Value:
    """A URI object: `Uri(text)` is its text, `Uri(base, relative)` the RFC 3986 join
    (a second argument that is no text, `UriKind.Relative`, says how to read the first)."""
    if len(args) >= 2:
        second = resolver.value(args[1].value, ctx, depth + 1)
        if any(
            isinstance(o, Text) and any(isinstance(p, Lit) for p in o.pieces)
            for o in options(second)
        ):
            return _urljoin(resolver, call, args, ctx, depth)
    return _identity(resolver, call, args, ctx, depth)


def _segment_pieces(resolver: Resolver, base: Value, parts: list[Value], call: CallE) -> Value:
    """Path segments appended to a URL, one slash between each (Flurl, `Url.Combine`)."""
    found: list[Value] = []
    for option in options(base):
        pieces: list[Piece] = list(_rstrip_slash(as_text(option, call.start, call.end)).pieces)
        for part in parts:
            text = as_text(part, call.start, call.end)
            inner = list(text.pieces)
            if inner and isinstance(inner[0], Lit) and inner[0].text.startswith("/"):
                first = inner[0]
                inner[0] = (
                    sub(first, 1, len(first.text)) if len(first.text) > 1 else Lit("", first.start)
                )
            at = text.start if text.pieces else call.start
            pieces.append(Lit("/", at))
            pieces.extend(inner)
        found.append(Text(tuple(pieces)))
    return alt(found) if found else resolver.hole(call)


def _rstrip_slash(text: Text) -> Text:
    pieces = list(text.pieces)
    last = pieces[-1] if pieces else None
    if isinstance(last, Lit) and last.text.endswith("/"):
        pieces[-1] = sub(last, 0, len(last.text.rstrip("/")))
    return Text(tuple(pieces))


def _append_segments(
    resolver: Resolver, call: CallE, args: list[Arg], ctx: Ctx, depth: int
) -> Value:
    """`url.AppendPathSegment(s)(...)`: the receiver URL with each argument a segment."""
    if call.receiver is None:
        return resolver.hole(call)
    base = resolver.value(call.receiver, ctx, depth + 1)
    parts = [resolver.value(a.value, ctx, depth + 1) for a in args]
    return _segment_pieces(resolver, base, parts, call)


def _segments(resolver: Resolver, call: CallE, args: list[Arg], ctx: Ctx, depth: int) -> Value:
    """`Url.Combine(base, "a", "b")`: the arguments joined as path segments."""
    if not args:
        return resolver.hole(call)
    base = resolver.value(args[0].value, ctx, depth + 1)
    parts = [resolver.value(a.value, ctx, depth + 1) for a in args[1:]]
    return _segment_pieces(resolver, base, parts, call)


def _with_query(
    resolver: Resolver, base: Value, rest: list[Arg], call: CallE, ctx: Ctx, depth: int
) -> Value:
    """A URL with query entries added: one `name, value` pair or a mapping of them."""
    if not rest:
        return base
    if len(rest) >= 2:
        name = rest[0].value
        key = resolver.literal(name, ctx, depth)
        if key is None:
            return base
        start, end = name.start, name.end
        value = resolver.text_of(resolver.value(rest[1].value, ctx, depth + 1), rest[1].value)
        added = Text(
            (Lit(key, start + 1 if end - start > len(key) else start), Lit("=", end), *value.pieces)
        )
    else:
        added = as_text(
            sequences.query_string(resolver, resolver.value(rest[0].value, ctx, depth + 1), call)
        )
    found: list[Value] = []
    for option in options(base):
        text = as_text(option, call.start, call.end)
        known = "".join(p.text for p in text.pieces if isinstance(p, Lit))
        glue = "&" if "?" in known else "?"
        found.append(Text((*text.pieces, Lit(glue, call.start), *added.pieces)))
    return alt(found)


def _query_param(resolver: Resolver, call: CallE, args: list[Arg], ctx: Ctx, depth: int) -> Value:
    """`url.SetQueryParam(k, v)`, `url.SetQueryParams(new { k = v })`: the URL with them."""
    if call.receiver is None:
        return resolver.hole(call)
    base = resolver.value(call.receiver, ctx, depth + 1)
    return _with_query(resolver, base, args, call, ctx, depth)


def _add_query(resolver: Resolver, call: CallE, args: list[Arg], ctx: Ctx, depth: int) -> Value:
    """`QueryHelpers.AddQueryString(url, k, v)` or `(url, mapping)`: the URL with them."""
    if not args:
        return resolver.hole(call)
    base = resolver.value(args[0].value, ctx, depth + 1)
    return _with_query(resolver, base, args[1:], call, ctx, depth)


def _words(resolver: Resolver, call: CallE, args: list[Arg], ctx: Ctx, depth: int) -> Value:
    """`AuthenticationHeaderValue("Bearer", token)`: the arguments' texts, a space between."""
    if not args:
        return resolver.hole(call)
    values = [resolver.value(a.value, ctx, depth + 1) for a in args]
    exprs: list[Expr] = []
    spaced: list[Value] = []
    for k, (value, arg) in enumerate(zip(values, args, strict=True)):
        if k:
            spaced.append(Text((Lit(" ", arg.value.start),)))
            exprs.append(arg.value)
        spaced.append(value)
        exprs.append(arg.value)
    return resolver.concat(spaced, exprs)


def _trimmed(
    resolver: Resolver, call: CallE, args: list[Arg], ctx: Ctx, depth: int, ends: str
) -> Value:
    """The receiver's text without the given characters (whitespace when none) at its
    start, end or both (`path.TrimStart('/')`, `base.rstrip("/")`); a trim called as a
    function takes the text first (PHP's `ltrim($path, '/')`)."""
    if call.receiver is None:
        if not args:
            return resolver.hole(call)
        subject, args = args[0].value, args[1:]
    else:
        subject = call.receiver
    value = resolver.value(subject, ctx, depth + 1)
    chars = "".join(resolver.literal(a.value, ctx, depth) or "" for a in args) or None
    found: list[Value] = []
    for option in options(value):
        if not isinstance(option, Text):
            found.append(option)
            continue
        pieces = list(option.pieces)
        if "s" in ends and pieces and isinstance(pieces[0], Lit):
            first = pieces[0]
            kept = first.text.lstrip(chars)
            pieces[0] = sub(first, len(first.text) - len(kept), len(first.text))
        if "e" in ends and pieces and isinstance(pieces[-1], Lit):
            last = pieces[-1]
            pieces[-1] = sub(last, 0, len(last.text.rstrip(chars)))
        found.append(Text(tuple(p for p in pieces if not isinstance(p, Lit) or p.text)))
    return alt(found) if found else resolver.hole(call)


def _trim_start(resolver: Resolver, call: CallE, args: list[Arg], ctx: Ctx, depth: int) -> Value:
    return _trimmed(resolver, call, args, ctx, depth, "s")


def _trim_end(resolver: Resolver, call: CallE, args: list[Arg], ctx: Ctx, depth: int) -> Value:
    return _trimmed(resolver, call, args, ctx, depth, "e")


def _trim(resolver: Resolver, call: CallE, args: list[Arg], ctx: Ctx, depth: int) -> Value:
    return _trimmed(resolver, call, args, ctx, depth, "se")


def _item(resolver: Resolver, call: CallE, args: list[Arg], ctx: Ctx, depth: int) -> Value:
    """`table.fetch(key, default)`, `map.get(key)`: the receiver's entry (every entry when
    the key is not known), else the default."""
    if call.receiver is None or not args:
        return resolver.hole(call)
    table = resolver.value(call.receiver, ctx, depth + 1)
    key = resolver.literal(args[0].value, ctx, depth)
    found: list[Value] = []
    for option in options(table):
        if isinstance(option, MapV):
            entries = [e for e in option.entries if key is None or e.key == key]
            found.extend(e.value for e in (entries if key is None else entries[-1:]))
        elif isinstance(option, SeqV) and key is not None and key.lstrip("-").isdigit():
            index = int(key)
            if -len(option.items) <= index < len(option.items):
                found.append(option.items[index])
    if not found and len(args) > 1:
        return resolver.value(args[1].value, ctx, depth + 1)
    return alt(found) if found else resolver.hole(call)


def _merge(resolver: Resolver, call: CallE, args: list[Arg], ctx: Ctx, depth: int) -> Value:
    """`a.merge(b)`, `array_merge($a, $b)`: the mappings' entries, later ones last."""
    sources = [call.receiver] if call.receiver is not None else []
    sources.extend(a.value for a in args if a.name is None)
    entries: list[Entry] = []
    partial = False
    for source in sources:
        value = resolver.value(source, ctx, depth + 1)
        mapping = next((o for o in options(value) if isinstance(o, MapV)), None)
        if mapping is None:
            partial = True
            continue
        entries.extend(mapping.entries)
        partial = partial or mapping.partial
    return MapV(tuple(entries), call.start, call.end, partial)


def _or_default(resolver: Resolver, call: CallE, args: list[Arg], ctx: Ctx, depth: int) -> Value:
    """`env::var("X").unwrap_or_else(|_| "https://...".into())`: either value."""
    if call.receiver is None:
        return resolver.hole(call)
    found = [resolver.value(call.receiver, ctx, depth + 1)]
    if args:
        found.append(resolver.value(args[0].value, ctx, depth + 1))
    return alt(found)


def _join_or_url(resolver: Resolver, call: CallE, args: list[Arg], ctx: Ctx, depth: int) -> Value:
    """`.join(x)`: a list's items with `x` between them (`clauses.join(" and ")`), or a
    URL's RFC 3986 resolution of `x` (`base.join("devices")`)."""
    if call.receiver is None or not args:
        return resolver.hole(call)
    receiver = resolver.value(call.receiver, ctx, depth + 1)
    argument = resolver.value(args[0].value, ctx, depth + 1)
    from apispec.lint.extract.build import join_base

    found: list[Value] = []
    for option in options(receiver):
        if isinstance(option, SeqV):
            found.append(sequences.join(resolver, as_text(argument), option, call))
            continue
        base = as_text(option, call.start, call.end)
        for path in options(argument):
            joined = join_base(base, as_text(path, call.start, call.end), "rfc3986")
            if joined is not None:
                found.append(joined)
    return alt(found) if found else resolver.hole(call)


_TRANSFORMS = {
    **sequences.TRANSFORMS,
    "or_default": _or_default,
    "join_or_url": _join_or_url,
    "trim_start": _trim_start,
    "trim_end": _trim_end,
    "trim": _trim,
    "item": _item,
    "merge": _merge,
    "identity": _identity,
    "jq": _jq,
    "dict": _dict,
    "quoted": _quoted,
    "receiver": _receiver,
    "urljoin": _urljoin,
    "query_string": _query_string,
    "append": urls.append,
    "path_join": urls.path_join,
    "path_join_receiver": urls.path_join_receiver,
    "resolve_receiver": urls.resolve_receiver,
    "url_fields": urls.url_fields,
    "encode_receiver": _encode_receiver,
    "empty_mapping": _empty_mapping,
    "query_map": _query_map,
    "replace": _replace,
    "uri": _uri,
    "append_segments": _append_segments,
    "segments": _segments,
    "query_param": _query_param,
    "add_query": _add_query,
    "words": _words,
}
