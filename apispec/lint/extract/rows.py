"""A call matched to a knowledge row (`requests.get`, a method of an object an
`httpx.Client(...)` made, a client object called itself) and the request read from the
row's places: URL, method, query, headers, body, options objects and spread mappings.

Apart from clients.py, which decides which calls are requests (rows, wrappers, verbs):
this module answers what one row-matched call sends. The functions take the file's
`Requests` as `q`.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from apispec.lint.extract import assignments, builders, configured, formats, setters
from apispec.lint.extract.build import texts
from apispec.lint.extract.context import (
    Ctx,
    known_text,
    options,
    unknown,
)
from apispec.lint.extract.headers import object_headers
from apispec.lint.extract.imported import imported_client
from apispec.lint.extract.ir import (
    CallE,
    Hole,
    MapV,
    ObjV,
    ParamV,
    Text,
    Value,
)
from apispec.lint.extract.request import Request
from apispec.lint.knowledge import RECEIVER, Client

if TYPE_CHECKING:
    from apispec.lint.extract.clients import Requests


def row(
    q: Requests, call: CallE, receiver: Value | None, ctx: Ctx
) -> tuple[Client | None, Value | None, str, ObjV | None]:
    knowledge = q.knowledge
    for option in options(receiver) if receiver is not None else []:
        on_object = _object_row(q, option, call, ctx)
        if on_object is not None:
            return on_object
    qualified = q.resolver.qualified(call, ctx, 0)
    if "." in qualified:
        on, _, callee = qualified.rpartition(".")
        row = knowledge.client(on, callee)  # `requests.get`
        if row is not None:
            return row, None, "slash", None
    elif call.receiver is None:  # a function or constructor called bare (`fetch(...)`)
        row = knowledge.client("", call.callee)
        if row is not None:
            return row, None, "slash", None
    if call.receiver is None and "." not in qualified:
        itself = _called_itself(q, call, ctx)
        if itself is not None:
            return itself
    if receiver is not None and any(setters.names_text(o) for o in options(receiver)):
        row = knowledge.client("text", call.callee)  # a verb of a URL: Flurl's
        if row is not None:
            return row, None, "slash", None
    if receiver is not None and all(unknown(o) for o in options(receiver)):
        row = knowledge.client("object:*", call.callee)  # a client made elsewhere
        if row is not None:
            return row, None, "slash", None
    return None, None, "slash", None


def _object_row(
    q: Requests, option: Value, call: CallE, ctx: Ctx
) -> tuple[Client, Value | None, str, ObjV | None] | None:
    """The row for a method of a client object (made here, of a client subclass or a
    class configured as a client, or imported from the module that makes it), or of a
    client module (`Http::get(...)`: Laravel's module is itself a client)."""
    knowledge = q.knowledge
    if isinstance(option, ObjV) and option.kind in ("instance", "super", "class"):
        kind = q.client_class(option.name)
        if kind is not None:
            option = ObjV("client", kind, q._class_fields(option.name, ctx))
    if isinstance(option, ObjV) and option.kind == "module":
        row = knowledge.client(option.name, call.callee)
        if row is not None:
            return row, None, "slash", None
        kind = knowledge.module_clients.get(option.name)
        if kind is not None:
            option = ObjV("client", kind)
        else:
            made = _imported(q, option, call)
            row = knowledge.client("object:" + made.name, call.callee) if made else None
            if made is not None and row is not None:
                return row, made.field("base"), q.join_of(made.name), made
    if isinstance(option, ObjV) and option.kind == "client":
        row = knowledge.client("object:" + option.name, call.callee)
        if row is not None:
            factory = next((f for f in knowledge.factories.values() if f.name == option.name), None)
            base = option.field("base")
            if base is None and factory is not None and factory.base[1]:
                base = setters.set_later(q, call, factory.base[1])
            return row, base, factory.join if factory else "slash", option
    return None


def _called_itself(
    q: Requests, call: CallE, ctx: Ctx
) -> tuple[Client, Value | None, str, ObjV | None] | None:
    """A client object called itself: `api("/x")` for `api = ofetch.create(...)`."""
    called = q.resolver.name(call.callee, ctx, 0, call.start, call.start)
    for option in options(called):
        if isinstance(option, ObjV) and option.kind == "module":
            option = _imported(q, option, call) or option
        if isinstance(option, ObjV) and option.kind == "client":
            row = q.knowledge.client("object:" + option.name, "()")
            if row is not None:
                return row, option.field("base"), q.join_of(option.name), option
    return None


def _imported(q: Requests, option: ObjV, call: CallE) -> ObjV | None:
    """A client object another module exports, where this file imports it."""
    if not q.helpers:
        return None
    language = q.model.language
    return imported_client(q.helpers, option, language, q.module, call.start)


def request(
    q: Requests,
    call: CallE,
    row: Client,
    ctx: Ctx,
    base: Value | None,
    join: str,
    obj: ObjV | None,
) -> Request:
    resolver = q.resolver
    found_url = _place(q, call, row.url, row.config, ctx)
    url = found_url if found_url is not None else Text((Hole("", call.start, call.start),))
    if row.url == RECEIVER and call.receiver is not None:
        url = resolver.value(call.receiver, ctx)
    if row.template >= 0:  # `getForObject("/x/{id}?f={f}", T.class, id, f)`
        url = formats.uri_template(resolver, url, call.args[row.template :], ctx)
    held, held_query = builders.url_and_query(url)  # a URL object: its text and query
    if held is not None:
        url = held
    method = _method(q, call, row, ctx)
    if row.method == "line":
        method, url = builders.request_line(url)
    query = _place(q, call, row.query, row.config, ctx)
    headers = _place(q, call, row.headers, row.config, ctx)
    if query is None:  # `**kwargs` spread into the call: its `params` entry
        query = _from_spread(q, call, ctx, "params")
    if query is None and method in row.body_query:
        query = _place(q, call, row.body, row.config, ctx)  # a GET's body: its query
    if headers is None:
        headers = _from_spread(q, call, ctx, "headers")
    if headers is None:
        headers = object_headers(q, call)
    if query is None and held_query is not None:
        query = held_query
    if q.knowledge.request_url:
        url = request_url(q, call, url, ctx)
    built_query, built_headers = setters.built(q, call, ctx)
    if query is None and built_query is not None:
        query = built_query
    if headers is None and built_headers is not None:
        headers = built_headers
    request = Request(call, url, method, base, join, query, headers, "client")
    request.option_names = row.options
    request.query_keyword = row.query[1]
    request.config = row.config
    request.method_keyword = row.method[1] if isinstance(row.method, tuple) else ""
    if row.chain:
        request.chain = True
        chained(q, request, call, ctx)
    if row.declared:
        builders.bound(request, call, q.model, q.resolver, q.knowledge)
    if row.configure:  # `client.get("x") { parameter("filter", f) }`
        given: tuple[tuple[str, Value], ...] = (
            (("url", url),) if found_url is not None and texts(url) else ()
        )
        made = builders.configured(resolver, call, ObjV("client", row.configure, given), ctx, 0)
        if made is not None:
            builders.apply(request, made, q.knowledge)
    if obj is not None:
        defaults = obj.field("params")
        if defaults is not None:
            request.extra_query.append(defaults)
        default_headers = obj.field("headers")
        if default_headers is not None and request.headers is None:
            request.headers = default_headers
    configured.apply(q.model, q.knowledge, resolver, request, ctx)
    return request


def chained(q: Requests, request: Request, call: CallE, ctx: Ctx) -> None:
    """A request a builder chain makes: the object its last link returns says the
    URL, the method, the headers and the query (links before and after the call)."""
    top = q.model.chain(call)
    made = top if top is not None else call
    value = q.resolver.value(made, ctx)
    holder = q.model.holder(made.node_id) if isinstance(made, CallE) else None
    function = ctx.function
    if holder and "." not in holder and function is not None and call.start < function.end:
        # the builder held in a variable: the links its statements call on it after
        # (`conn.setRequestMethod("POST")`), as it is when its function ends
        at_end = Ctx(function.end - 1, function, ctx.env, ctx.this, ctx.open, ctx.inline)
        later = q.resolver.name(holder, at_end, 0)
        if any(isinstance(o, ObjV) and o.kind == "client" for o in options(later)):
            value = later
    for option in options(value):
        if isinstance(option, ObjV) and option.kind == "client":
            builders.apply(request, option, q.knowledge)
            return


def _method(q: Requests, call: CallE, row: Client, ctx: Ctx) -> str | None:
    """The method a row's call sends; an argument or option that names it (a library
    whose method is an option sends GET when the known options name none)."""
    if not isinstance(row.method, tuple):
        return builders.method_of(q.resolver, call, row, ctx)
    verb = _place(q, call, row.method, row.config, ctx)
    literal = known_text(verb) if verb is not None else None
    if literal:
        return literal.upper()
    if verb is not None:
        return builders.verb_of(verb)  # `HttpMethod.PATCH`, an imported constant
    if row.default_method and _spreads_known(q, call, ctx):
        return row.default_method  # no method given: the library's default
    if row.method[0] < 0 and _options_known(q, call, row, ctx):
        return "GET"
    return None


def request_url(q: Requests, call: CallE, url: Value, ctx: Ctx) -> Value:
    """A request object's URL with the parts set on it after it is made, in its
    function (`req.URL.RawQuery = q.Encode()` before the request is sent)."""
    holder = q.model.holder(call.node_id)
    if not holder:
        return url
    function = q.model.function_at(call.start)
    end = function.end - 1 if function is not None else len(q.model.parsed.text)
    key = f"{holder}.{q.knowledge.request_url}"
    return assignments.url_parts(q.resolver, key, url, call.start, replace(ctx, pos=end), 0)


def _options_known(q: Requests, call: CallE, row: Client, ctx: Ctx) -> bool:
    """Whether the call's options object, if any, is known whole (no unknown spread,
    not a parameter): then a method it does not name is the library's default."""
    if not row.config or any(a.spread for a in call.args):
        return False
    positional = [a for a in call.args if a.name is None and not a.spread]
    for index in row.config:
        if index >= len(positional) or index <= row.url[0]:
            continue
        for option in options(q.resolver.value(positional[index].value, ctx)):
            if not isinstance(option, MapV) or option.partial:
                return False  # an options object the code does not show
    return True


def _place(
    q: Requests, call: CallE, place: tuple[int, str], config: tuple[int, ...], ctx: Ctx
) -> Value | None:
    """The value at a row's place; a keyword may also come from a mapping spread into
    the call (`requests.get(**opts)`, PowerShell's splatting `Invoke-RestMethod @p`)."""
    found = q.resolver.place(call, place, config, ctx)
    if found is None and place[1]:
        return _from_spread(q, call, ctx, place[1])
    return found


def _from_spread(q: Requests, call: CallE, ctx: Ctx, key: str) -> Value | None:
    """The entry `key` of a mapping spread into the call (names compared as the
    language's keywords are: without case)."""
    for arg in call.args:
        if arg.spread != "**":
            continue
        value = q.resolver.value(arg.value, ctx)
        for option in options(value):
            if isinstance(option, MapV):
                for entry in reversed(option.entries):
                    if entry.key is not None and entry.key.lower() == key.lower():
                        return entry.value
            if isinstance(option, ParamV):
                return None
    return None


def _spreads_known(q: Requests, call: CallE, ctx: Ctx) -> bool:
    """Whether every mapping spread into the call is known whole (a keyword it does
    not hold is not given)."""
    for arg in call.args:
        if arg.spread != "**":
            continue
        for option in options(q.resolver.value(arg.value, ctx)):
            if not isinstance(option, MapV) or option.partial:
                return False
    return True
