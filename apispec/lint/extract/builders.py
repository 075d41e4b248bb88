"""Builder objects: a request or a URL put together link by link.

`HttpRequest.newBuilder(uri).header(k, v).DELETE()`, `new Request.Builder().url(u)
.post(body)`, `UriComponentsBuilder.fromUriString(b).path("/x").queryParam(k, v)`,
`web.get().uri("/x/{id}", id)`: each link returns the object with one part set
(knowledge.Link says which). The object is an `ObjV` of kind "client" whose fields are
the parts: `url`, `base`, `method`, `query` and `headers` (mappings), and the URL's
`scheme`, `host` and `port` where a builder is given them apart.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from apispec.lint.extract import formats
from apispec.lint.extract.build import join_base, rstrip_slash
from apispec.lint.extract.context import Ctx, alt, as_text, key_span, options
from apispec.lint.extract.ir import (
    CallE,
    Entry,
    Expr,
    FuncE,
    Lit,
    MapV,
    Name,
    ObjV,
    Piece,
    Text,
    Value,
    argument,
)
from apispec.lint.extract.request import Request
from apispec.lint.knowledge import VERBS

if TYPE_CHECKING:
    from apispec.lint.extract.lower.model import FileModel
    from apispec.lint.extract.values import Resolver
    from apispec.lint.knowledge import Client, Knowledge, Link

_VERBS = ("get", "post", "put", "patch", "delete", "head", "options")
_VERBS_ALL = frozenset(VERBS)
_PREFIX = re.compile(r"(?i:(get|post|put|patch|delete|head|options))(?![a-z])")
_LINE = re.compile(r"(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)\s+")


def linked(resolver: Resolver, obj: ObjV, link: Link, call: CallE, ctx: Ctx, depth: int) -> Value:
    """The object a link returns: `obj` with the link's part set from the call's arguments."""
    kind = link.kind or obj.name
    args = [a for a in call.args if not a.spread and a.name is None]
    part = link.part
    if not part or (not args and part not in ("verb",)):
        return ObjV("client", kind, obj.fields, obj.module)
    handler = _PARTS.get(part)
    if handler is None:
        return ObjV("client", kind, obj.fields, obj.module)
    fields = dict(obj.fields)
    handler(resolver, fields, link, call, ctx, depth)
    return ObjV("client", kind, tuple(fields.items()), obj.module)


Fields = dict[str, Value]


def _url(resolver: Resolver, fields: Fields, link: Link, call: CallE, ctx: Ctx, depth: int) -> None:
    arg = call.args[0].value
    value = resolver.value(arg, ctx, depth + 1)
    if link.argument:  # a function that builds the URL from a builder it is handed
        held = fields.get("url")
        start = ObjV("client", link.argument, (("url", held),) if held is not None else ())
        value = alt(
            called(resolver, o, start, ctx, depth) if _is_function(o) else o for o in options(value)
        )
    if link.template >= 0:  # `uri("/x/{id}?filter={f}", id, f)`
        value = formats.uri_template(resolver, value, call.args[link.template :], ctx)
    url, query = url_and_query(value)
    if url is not None:
        fields["url"] = url
    elif not any(isinstance(o, ObjV) for o in options(value)):
        fields["url"] = alt(_texts(resolver, value, arg))
    if query is not None:
        fields["query"] = _merged(fields.get("query"), query)


def _base(
    resolver: Resolver, fields: Fields, link: Link, call: CallE, ctx: Ctx, depth: int
) -> None:
    arg = [a for a in call.args if a.name is None and not a.spread][-1].value
    value = resolver.value(arg, ctx, depth + 1)
    url, _ = url_and_query(value)
    fields["base"] = url if url is not None else alt(_texts(resolver, value, arg))


def _path(
    resolver: Resolver, fields: Fields, link: Link, call: CallE, ctx: Ctx, depth: int
) -> None:
    arg = call.args[0].value
    added = _texts(resolver, resolver.value(arg, ctx, depth + 1), arg)
    fields["url"] = alt(url.plus(more) for url in url_texts(fields) for more in added)


def _segments(
    resolver: Resolver, fields: Fields, link: Link, call: CallE, ctx: Ctx, depth: int
) -> None:
    given = [a for a in call.args if a.name is None and not a.spread]
    segments = [
        _texts(resolver, resolver.value(a.value, ctx, depth + 1), a.value)[0] for a in given
    ]
    found: list[Value] = []
    for url in url_texts(fields):
        for arg, segment in zip(given, segments, strict=True):
            first = segment.pieces[0] if segment.pieces else None
            relative = link.part == "appended" and not url.pieces
            url = rstrip_slash(url)
            if not relative and not (isinstance(first, Lit) and first.text.startswith("/")):
                url = url.plus(Text((Lit("/", arg.value.start),)))
            url = url.plus(segment)
        found.append(url)
    fields["url"] = alt(found)


def _entry(
    resolver: Resolver, fields: Fields, link: Link, call: CallE, ctx: Ctx, depth: int
) -> None:
    args = [a for a in call.args if a.name is None and not a.spread]
    if len(args) < 2:
        return
    key = resolver.literal(args[0].value, ctx, depth)
    value = resolver.value(args[1].value, ctx, depth + 1)
    written = (args[1].value.start, args[1].value.end)
    start, end = key_span(args[0].value)
    entry = Entry(key, start, end, value, written)
    fields[link.part] = _merged(fields.get(link.part), MapV((entry,)))


def _entries(
    resolver: Resolver, fields: Fields, link: Link, call: CallE, ctx: Ctx, depth: int
) -> None:
    value = resolver.value(call.args[0].value, ctx, depth + 1)
    found = next((o for o in options(value) if isinstance(o, MapV)), None)
    if found is not None:
        fields["query"] = _merged(fields.get("query"), found)


def _method(
    resolver: Resolver, fields: Fields, link: Link, call: CallE, ctx: Ctx, depth: int
) -> None:
    verb = verb_of(resolver.value(call.args[0].value, ctx, depth + 1))
    if verb is not None:
        fields["method"] = Text((Lit(verb, call.args[0].value.start),))


def _verb(
    resolver: Resolver, fields: Fields, link: Link, call: CallE, ctx: Ctx, depth: int
) -> None:
    fields["method"] = Text((Lit(call.callee.upper(), call.start),))


def _resolve(
    resolver: Resolver, fields: Fields, link: Link, call: CallE, ctx: Ctx, depth: int
) -> None:
    arg = call.args[0].value
    found: list[Value] = []
    for relative in _texts(resolver, resolver.value(arg, ctx, depth + 1), arg):
        for url in url_texts(fields):
            joined = join_base(url, relative, "rfc3986")
            found.append(joined if joined is not None else relative)
    fields["url"] = alt(found)


def _callback(
    resolver: Resolver, fields: Fields, link: Link, call: CallE, ctx: Ctx, depth: int
) -> None:
    for option in options(resolver.value(call.args[0].value, ctx, depth + 1)):
        if not _is_function(option):
            continue
        start = ObjV("client", link.argument)
        for made in options(called(resolver, option, start, ctx, depth)):
            if isinstance(made, ObjV) and made.kind == "client":
                for part in ("headers", "query"):
                    added = made.field(part)
                    if isinstance(added, MapV):
                        fields[part] = _merged(fields.get(part), added)
                base = made.field("base")
                if base is not None:
                    fields["base"] = base


def _texts(resolver: Resolver, value: Value, expr: Expr) -> list[Text]:
    """A value's texts: each alternative that is one, else the value as one text."""
    found = [o for o in options(value) if isinstance(o, Text)]
    return found or [resolver.text_of(value, expr)]


def _piece(
    resolver: Resolver, fields: Fields, link: Link, call: CallE, ctx: Ctx, depth: int
) -> None:
    arg = call.args[0].value
    fields[link.part] = resolver.text_of(resolver.value(arg, ctx, depth + 1), arg)


_PARTS = {
    "url": _url,
    "base": _base,
    "path": _path,
    "segments": _segments,
    "appended": _segments,
    "query": _entry,
    "headers": _entry,
    "queries": _entries,
    "method": _method,
    "verb": _verb,
    "resolve": _resolve,
    "callback": _callback,
    "scheme": _piece,
    "host": _piece,
    "port": _piece,
}


def url_texts(fields: Fields) -> list[Text]:
    """The URL a builder holds so far (each alternative): its `url`, or one put together
    from its pieces."""
    url = fields.get("url")
    if url is not None:
        return [o for o in options(url) if isinstance(o, Text)] or [as_text(url)]
    host = fields.get("host")
    if host is None:
        return [Text(())]
    scheme = fields.get("scheme")
    pieces: list[Piece] = []
    start = as_text(host).start
    pieces.extend(as_text(scheme).pieces if scheme is not None else (Lit("https", start),))
    pieces.append(Lit("://", start))
    pieces.extend(as_text(host).pieces)
    port = fields.get("port")
    if port is not None:
        pieces.append(Lit(":", start))
        pieces.extend(as_text(port).pieces)
    return [Text(tuple(pieces))]


def url_and_query(value: Value) -> tuple[Value | None, MapV | None]:
    """A URL value's text (its alternatives) and the query a builder set apart from it."""
    for option in options(value):
        if isinstance(option, ObjV) and option.kind == "client":
            fields = dict(option.fields)
            if "url" not in fields and "host" not in fields:
                continue
            query = fields.get("query")
            return alt(url_texts(fields)), query if isinstance(query, MapV) else None
    return None, None


def apply(request: Request, built: ObjV, knowledge: Knowledge) -> None:
    """A request takes what a builder object holds: URL, base, method, headers, query."""
    url, query = url_and_query(built)
    if url is not None:
        request.url = url
    if query is not None:
        request.query = query
    base = built.field("base")
    if base is not None:
        request.base = base
        factory = next((f for f in knowledge.factories.values() if f.name == built.name), None)
        request.join = factory.join if factory is not None else request.join
    method = built.field("method")
    verb = verb_of(method) if method is not None else None
    if verb is not None:
        request.method = verb
    headers = built.field("headers")
    if headers is not None:
        request.headers = headers


def bound(
    request: Request, call: CallE, model: FileModel, resolver: Resolver, knowledge: Knowledge
) -> None:
    """A declarative client's request: the base and headers of the builder its interface
    is bound by (`Feign.builder().requestInterceptor(...).target(Api.class, url)`)."""
    owner = model.class_at(call.start)
    if owner is None:
        return
    named = re.compile(rf"{re.escape(owner)}(?:\.class|::class(?:\.java)?)")
    text = model.parsed.text
    for binder in model.calls:
        if binder.callee not in knowledge.binders or not any(
            named.fullmatch(text[a.value.start : a.value.end]) for a in binder.args
        ):
            continue
        top = model.chain(binder)
        ctx = Ctx(binder.start, model.function_at(binder.start))
        for option in options(resolver.value(top if top is not None else binder, ctx)):
            if isinstance(option, ObjV) and option.kind == "client":
                apply(request, option, knowledge)
                return


def request_line(url: Value) -> tuple[str | None, Value]:
    """`"GET /x/{id}"` (Feign's `@RequestLine`): the verb, and the URL after it."""
    for option in options(url):
        if not isinstance(option, Text) or not option.pieces:
            continue
        first = option.pieces[0]
        m = _LINE.match(first.text) if isinstance(first, Lit) else None
        if m is None or not isinstance(first, Lit):
            continue
        offsets = first.offsets[m.end() :] if first.offsets is not None else None
        rest = Lit(first.text[m.end() :], first.offset(m.end()), offsets)
        return m.group(1), Text((rest, *option.pieces[1:]))
    return None, url


def method_of(resolver: Resolver, call: CallE, row: Client, ctx: Ctx) -> str | None:
    """The method a client row's call sends: its callee's name, the verb the name starts
    with, an argument, or the row's fixed verb (None for a request line: it says)."""
    if row.method == "callee":
        return call.callee.upper() if call.callee.lower() in _VERBS_ALL else None
    if row.method == "prefix":  # `getForObject`, `PostMapping`
        m = _PREFIX.match(call.callee)
        return m.group(1).upper() if m else None
    if isinstance(row.method, tuple):
        arg = argument(call.args, row.method)
        if arg is None:
            return None
        return verb_of(resolver.value(arg.value, ctx))
    return None if row.method == "line" else row.method


def verb_of(value: Value) -> str | None:
    """The HTTP method a value names: a literal (`"PATCH"`) or a constant named for it
    (`HttpMethod.POST`, `RequestMethod.PATCH`)."""
    for option in options(value):
        if isinstance(option, ObjV) and option.kind == "module":
            word = option.name.rsplit(".", 1)[-1]  # `HttpMethod.POST`, an imported constant
        elif isinstance(option, Text) and len(option.pieces) == 1:
            piece = option.pieces[0]
            word = piece.text if isinstance(piece, Lit) else piece.hint.rsplit("|", 1)[-1]
        else:
            continue
        if word.lower() in _VERBS:
            return word.upper()
    return None


def called(resolver: Resolver, function: Value, builder: ObjV, ctx: Ctx, depth: int) -> Value:
    """What a function does to a builder a library hands it (a callback, a Kotlin block).

    Its statements' links on the builder (with no object written, as a Kotlin block's
    implicit receiver, or on its parameter: `{ parameter("filter", f); url { ... } }`)
    apply in order; a builder it returns (`uri(b -> b.path("/x").build())`) is the
    answer where it returns one.
    """
    assert isinstance(function, ObjV)
    found = resolver.model.function_by_id(int(function.name))
    if found is None:
        return builder
    name = found.params[0][0] if found.params else "it"
    env = ((name, builder),)
    current = builder
    for call in resolver.model.calls_in(found):
        receiver = call.receiver
        if receiver is not None and not (
            isinstance(receiver, Name) and receiver.name in (name, "this")
        ):
            continue
        link = resolver.knowledge.link(current.name, call.callee)
        if link is not None:
            inner = Ctx(call.start, found, ((name, current),), ctx.this, ctx.open, ctx.inline)
            made = linked(resolver, current, link, call, inner, depth + 1)
            current = made if isinstance(made, ObjV) else current
    for lowered in found.returns[:2]:
        expr = lowered()
        inner = Ctx(expr.start, found, env, ctx.this, ctx.open, ctx.inline)
        for option in options(resolver.value(expr, inner, depth + 1)):
            if isinstance(option, ObjV) and option.kind == "client" and option.name == builder.name:
                return option
    return current


def function_value(node: FuncE) -> ObjV:
    return ObjV("function", str(node.node_id))


def configured(resolver: Resolver, call: CallE, builder: ObjV, ctx: Ctx, depth: int) -> ObjV | None:
    """The builder after the function given to a call configures it (a Kotlin block
    after the call: `HttpClient(CIO) { ... }`, `client.get("x") { ... }`); None when the
    call is given no function."""
    for arg in reversed(call.args):
        if isinstance(arg.value, FuncE):
            made = called(resolver, function_value(arg.value), builder, ctx, depth)
            return next(
                (o for o in options(made) if isinstance(o, ObjV) and o.kind == "client"), builder
            )
    return None


def _is_function(value: Value) -> bool:
    return isinstance(value, ObjV) and value.kind == "function"


def _merged(held: Value | None, added: MapV) -> MapV:
    entries = held.entries if isinstance(held, MapV) else ()
    return MapV((*entries, *added.entries), added.start, added.end)
