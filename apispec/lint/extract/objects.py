"""What calls on objects give: instances made by a method, configured clients, attributes.

Languages differ in how an object is made and read: Ruby makes one with a method
(`Prtg::Client.new(url: x)`) and reads an attribute with a call (`client.base`,
an `attr_reader`); Laravel's `Http::withToken($t)->acceptJson()` and HTTP.rb's
`HTTP.headers(h)` return the client each link configures. One of the flow modules
(see values.py); the knowledge rows say which methods do what.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from apispec.lint.extract.context import Ctx, options
from apispec.lint.extract.ir import (
    Arg,
    CallE,
    Entry,
    Lit,
    MapV,
    Name,
    ObjV,
    Text,
    Value,
)

if TYPE_CHECKING:
    from apispec.lint.extract.values import Resolver


def made(resolver: Resolver, call: CallE, ctx: Ctx, depth: int) -> Value | None:
    """An instance a constructor method makes, or a client a configuring link returns."""
    receiver = call.receiver
    if receiver is None:
        return None
    knowledge = resolver.knowledge
    if knowledge.new_method and call.callee == knowledge.new_method:
        written = resolver.model.parsed.text[receiver.start : receiver.end]
        cls = written.replace("::", ".").rsplit(".", 1)[-1]
        if cls in resolver.model.classes:
            return resolver.instance(cls, call, ctx, depth)
        if isinstance(receiver, Name) and cls[:1].isupper():
            module = written.replace("::", ".").rpartition(".")[0]
            return ObjV("instance", cls, module=module)
        return None
    if call.callee not in knowledge.chain_methods:
        return None
    for option in options(resolver.value(receiver, ctx, depth + 1)):
        kind = _client_kind(resolver, option)
        links = knowledge.chains.get(kind or "")
        if kind is None or links is None or call.callee not in links:
            continue
        client = option if isinstance(option, ObjV) and option.kind == "client" else None
        fields = client.fields if client is not None else ()
        return ObjV("client", kind, _configured(resolver, fields, links[call.callee], call, ctx))
    return None


def attribute(resolver: Resolver, call: CallE, ctx: Ctx, depth: int) -> Value | None:
    """`client.base` with no such method: the attribute of the object's class (Ruby's
    `attr_reader`, a property read through a call)."""
    if call.receiver is None or call.args or not resolver.knowledge.paren_free:
        return None
    for option in options(resolver.value(call.receiver, ctx, depth + 1)):
        if not isinstance(option, ObjV) or option.kind != "instance":
            continue
        if option.name not in resolver.model.classes:
            continue
        if any(f.owner == option.name for f in resolver.model.by_name.get(call.callee, ())):
            return None  # a method of its class: its return value
        bound = replace(ctx, this=option)
        return resolver.field(option.name, call.callee, bound, depth + 1, call.start, call.end)
    return None


def _client_kind(resolver: Resolver, option: Value) -> str | None:
    if not isinstance(option, ObjV):
        return None
    if option.kind == "client":
        return option.name
    if option.kind == "module":
        return resolver.knowledge.module_clients.get(option.name)
    return None


def _configured(
    resolver: Resolver,
    fields: tuple[tuple[str, Value], ...],
    field: str,
    call: CallE,
    ctx: Ctx,
) -> tuple[tuple[str, Value], ...]:
    """A client's fields once one link has set `field` from its first argument."""
    args = [a for a in call.args if a.name is None and not a.spread]
    if not field or not args:
        return fields
    value = resolver.value(args[0].value, ctx)
    if field == "bearer":
        field, value = "headers", _bearer(resolver, args[0], value)
    if field in ("headers", "params"):
        held = next((v for k, v in fields if k == field), None)
        if isinstance(held, MapV) and isinstance(value, MapV):
            value = MapV((*held.entries, *value.entries), value.start, value.end)
    return (*((k, v) for k, v in fields if k != field), (field, value))


def _bearer(resolver: Resolver, arg: Arg, token: Value) -> MapV:
    """`withToken($t)`: the header `Authorization: Bearer $t`."""
    start, end = arg.value.start, arg.value.end
    text = resolver.text_of(token, arg.value)
    value = Text((Lit("Bearer ", start, (start,) * 7), *text.pieces))
    return MapV((Entry("Authorization", start, end, value, (start, end)),), start, end)
