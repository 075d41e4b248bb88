"""What the code sets on a client or a request apart from the call that sends it.

A client's option assigned after the client is made (`http.BaseAddress = ...` in a
constructor or a configuration callback), and query entries and headers a request
gets from calls chained on it, under it in its receiver chain, or on the name that
holds it (`request.AddQueryParameter(k, v)`, `url.WithHeader(k, v).GetAsync()`,
`.WithOAuthBearerToken(t)`): fluent request builders of every library.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from apispec.lint.extract.context import Ctx, options, pairs_map
from apispec.lint.extract.ir import CallE, Entry, Lit, MapV, SeqV, Str, Text, Value

if TYPE_CHECKING:
    from apispec.lint.extract.clients import Requests


def set_later(finder: Requests, call: CallE, field_name: str) -> Value | None:
    """A client option set on the object after it is made (`http.BaseAddress = ...`,
    in its constructor or a configuration callback), by the name the call uses."""
    if call.receiver is None:
        return None
    written = finder.model.parsed.text[call.receiver.start : call.receiver.end]
    for name in written_names(written, finder.knowledge.self_names):
        assigns = finder.model.assigns.get(f"{name}.{field_name}")
        if assigns:
            last = assigns[-1]
            inner = Ctx(last.start, finder.model.function_at(last.start))
            return finder.resolver.value(last.value, inner)
    return None


def built(finder: Requests, call: CallE, ctx: Ctx) -> tuple[Value | None, Value | None]:
    """Query entries and headers set by calls on the request a call makes or sends:
    chained on it (`new RestRequest(r).AddQueryParameter(k, v)`), under it in its
    receiver chain (`url.WithHeader(k, v).GetAsync()`), or on the name it is held by
    after it is made (`request.AddQueryParameter(k, v)`)."""
    rows = finder.knowledge
    if not (rows.query_setters or rows.auth_setters or rows.header_setters):
        return None, None
    query: list[Entry] = []
    headers: list[Entry] = []
    whole: Value | None = None
    for setter in _setters(finder, call):
        function = finder.model.function_at(setter.start)
        inner = Ctx(setter.start, function, ctx.env, ctx.this, ctx.open, ctx.inline)
        args = [a for a in setter.args if a.name is None and not a.spread]
        if setter.callee in rows.auth_setters and args:
            token = finder.resolver.value(args[0].value, inner)
            scheme = rows.auth_setters[setter.callee] + " "
            value = finder.resolver.concat(
                [Text((Lit(scheme, args[0].value.start),)), token],
                [args[0].value, args[0].value],
            )
            written = (args[0].value.start, args[0].value.end)
            headers.append(Entry("Authorization", setter.start, setter.end, value, written))
            continue
        target = (
            query
            if setter.callee in rows.query_setters
            else headers
            if setter.callee in rows.header_setters
            else None
        )
        if target is query and len(args) == 1:  # a mapping or (name, value) pairs at once
            given = finder.resolver.value(args[0].value, inner)
            entries = _entries(given)
            query.extend(entries)
            if not entries:
                whole = given  # a wrapper's parameter: its callers give the entries
            continue
        if target is None or len(args) < 2:
            continue
        key = finder.resolver.literal(args[0].value, inner)
        value = finder.resolver.value(args[1].value, inner)
        start, end = args[0].value.start, args[0].value.end
        if isinstance(args[0].value, Str) and len(args[0].value.pieces) == 1:
            piece = args[0].value.pieces[0]
            if isinstance(piece, Lit):
                start, end = piece.start, piece.end
        written = (args[1].value.start, args[1].value.end)
        target.append(Entry(key, start, end, value, written))
    return (
        MapV(tuple(query)) if query else whole,
        MapV(tuple(headers)) if headers else None,
    )


def _entries(value: Value) -> list[Entry]:
    """The entries of a query given whole: reqwest's `.query(&[("limit", "10")])`."""
    for option in options(value):
        found = pairs_map(option) if isinstance(option, SeqV) else option
        if isinstance(found, MapV):
            return list(found.entries)
    return []


def _setters(finder: Requests, call: CallE) -> list[CallE]:
    """The calls that configure the request a call makes (see `_built`)."""
    if finder.outer is None:
        finder.outer = {}
        for other in finder.model.calls:
            if isinstance(other.receiver, CallE):
                finder.outer[other.receiver.node_id] = other
    found: list[CallE] = []
    inner = call.receiver
    while isinstance(inner, CallE):  # under it: `url.WithHeader(k, v).GetAsync()`
        found.append(inner)
        inner = inner.receiver
    top = call
    while top.node_id in finder.outer:  # chained on it
        top = finder.outer[top.node_id]
        found.append(top)
    holder = finder.model.holder(top.node_id)
    if holder:
        scope = finder.model.scopes_at(call.start)[0]
        for later in finder.model.calls_on.get(holder, ()):
            if later.start > top.end and finder.model.scopes_at(later.start)[0] == scope:
                found.append(later)
    return found


def names_text(value: Value) -> bool:
    """Whether a value is a URL the code writes (a text with a literal part)."""
    return isinstance(value, Text) and any(
        isinstance(p, Lit) and ("/" in p.text or "." in p.text) for p in value.pieces
    )


def written_names(written: str, self_names: frozenset[str]) -> list[str]:
    """A receiver as assignments key it: `this._http` is also `_http`."""
    found = [written]
    for name in self_names:
        if written.startswith(name + "."):
            found.append(written[len(name) + 1 :])
    return found
