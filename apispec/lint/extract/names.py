"""Names, fields and loops: where a value comes from in its scope.

A name is read in its scope: a bound parameter or loop variable, the last
assignment before the use (then what was added to it since: `params["sort"] = ...`,
`q.update(...)`, `clauses.append(...)`), a loop's elements, an attribute of the
class's object, an import, a class. A parameter of the wrapper being summarised
stays open (a hole the caller fills); one with a declared client class is a client.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING

from apispec.lint.extract import urls
from apispec.lint.extract.builders import linked
from apispec.lint.extract.context import (
    Ctx,
    alt,
    as_text,
    element,
    entry_of,
    is_param,
    key_span,
    options,
    pairs,
    pairs_map,
    query_text,
    sub,
)
from apispec.lint.extract.ir import (
    AltV,
    Arg,
    CallE,
    Entry,
    Function,
    Hole,
    Lit,
    MapV,
    Name,
    ObjV,
    Param,
    ParamV,
    Piece,
    SeqV,
    Text,
    Value,
)

if TYPE_CHECKING:
    from apispec.lint.extract.lower import Assign
    from apispec.lint.extract.values import Resolver
    from apispec.lint.knowledge import Builder


def name(
    resolver: Resolver, name: str, ctx: Ctx, depth: int, start: int = 0, end: int = 0
) -> Value:
    """What a name holds where it is read (see the module's docstring for the order)."""
    for bound, value in ctx.bound:
        if bound == name:
            return value
    function = ctx.function
    if function is not None and function.start <= ctx.pos < function.end:
        for index, (param, _kind, _default) in enumerate(function.params):
            if param == name:
                given = parameter(resolver, function, index, ctx, depth, start, end)
                # reassigned in the function (`if base == "" { base = os.Getenv(...) }`)
                again = assigned_before(resolver, name, ctx, depth, given, function.node_id)
                return again if again is not None else given
        if name in function.members:
            return member(resolver, function, name, ctx, depth, start, end)
    method = resolver.model.receiver_at(ctx.pos, name)
    if method is not None and method.owner:
        this = ctx.this
        if isinstance(this, ObjV) and this.name == method.owner:
            return this  # the object the method was called on
        return ObjV("instance", method.owner)
    found = assigned_before(resolver, name, ctx, depth)
    if found is not None:
        return found
    loop = loop_value(resolver, name, ctx, depth)
    if loop is not None:
        return loop
    owner = resolver.model.class_at(ctx.pos)
    if owner is not None and "@" + owner + "." + name in resolver.model.assigns:
        return field(resolver, owner, name, ctx, depth, start, end)
    target = resolver.model.imports.get(name)
    if target is not None:
        return ObjV("module", target)
    if name in resolver.model.classes:
        return ObjV("class", name)
    last = re.split(r"::|\\|\.", name)[-1]
    if last != name and last in resolver.model.classes:
        return ObjV("class", last)  # `Prtg::Api`: the file's class `Api` of module Prtg
    return unbound(resolver, name, ctx, depth, start, end)


def unbound(resolver: Resolver, name: str, ctx: Ctx, depth: int, start: int, end: int) -> Value:
    """A name nothing in the file binds: a library constant, a module used without an
    import (`Net::HTTP::Get`, `Faraday`), a method called without parentheses (Ruby's
    `prtg_conn`), else a hole of its name."""
    knowledge = resolver.knowledge
    constant = knowledge.constants.get(name)
    if constant is not None:
        return Text((Lit(constant, start),))
    if name in knowledge.modules or name in knowledge.module_clients:
        return ObjV("module", name)
    if knowledge.paren_free:
        function = resolver.callee_function(CallE(name, None, (), start, end), ctx, depth)
        if function is not None and all(kind or default for _, kind, default in function.params):
            returned = resolver.returns(CallE(name, None, (), start, end), ctx, depth)
            if returned is not None:
                return returned
    return Text((Hole(name, start, end, name.lower()),))


def parameter(
    resolver: Resolver, function: Function, index: int, ctx: Ctx, depth: int, start: int, end: int
) -> Value:
    """A parameter: its bound argument, an open hole (a wrapper's), its declared class,
    its default, or the class its calls say it is."""
    name, kind, default = function.params[index]
    if ctx.env is not None:
        for bound, value in ctx.env:
            if bound == name:
                return value
    param_id = Param(function.node_id, index, name, kind)
    if function.name in resolver.knowledge.constructors and function.node_id != ctx.open:
        chained = _chained(resolver, function, index, depth)
        if chained is not None:
            return chained
    declared = typed(resolver, function.types.get(name))
    if declared is not None and (declared.kind == "client" or not declared.module):
        # `session: aiohttp.ClientSession`, `c *Client` (a class of the file): an object
        # whatever the caller passes; an imported type (`q url.Values`) may be data
        return declared
    if function.node_id == ctx.open:
        fallback = (
            resolver.value(default, replace(ctx, pos=default.start), depth + 1)
            if default is not None
            else None
        )
        if kind == "**" or (fallback is not None and not isinstance(fallback, Text)):
            return ParamV(param_id, start, end, fallback)
        return Text((Hole(name, start, end, name.lower(), param_id),))
    if declared is not None:
        return declared
    if default is not None and function.name in resolver.knowledge.constructors:
        # a constructor's default is the object's value unless a caller says otherwise
        # (`def __init__(self, base="https://prtg:1616/api/v2")`); another function's
        # parameter varies with its callers: it stays a parameter. An empty default
        # (`token = ""`) says only that none was given.
        fallback = resolver.value(default, replace(ctx, pos=default.start), depth + 1)
        if not _empty(fallback):
            return fallback
    owner = resolver.duck.get(name)
    if owner is not None:  # `s.paginate(...)` elsewhere: `s` is what has paginate
        return ObjV("instance", owner[0], module=owner[1])
    if kind == "**":
        return MapV((), start, end, partial=True)
    return Text((Hole(name, start, end, name.lower()),))


def member(
    resolver: Resolver, function: Function, name: str, ctx: Ctx, depth: int, start: int, end: int
) -> Value:
    """A name a destructured parameter binds (`function f({ method = "GET", query })`):
    the entry of the argument passed there, open in a wrapper, else its default."""
    index, key, default = function.members[name]
    param = function.params[index][0] if index < len(function.params) else ""
    for bound, value in ctx.env or ():
        if bound == param:
            found = entry_of(value, key)
            if found is not None:
                return found
            break
    else:
        if function.node_id == ctx.open:
            param_id = Param(function.node_id, index, name)
            return Text((Hole(name, start, end, name.lower(), param_id),))
    if default is not None:
        return resolver.value(default, replace(ctx, pos=default.start), depth + 1)
    return Text((Hole(name, start, end, name.lower()),))


def _empty(value: Value) -> bool:
    """`token = ""`: a default that only says "none given"."""
    return isinstance(value, Text) and value.known == ""


def _chained(resolver: Resolver, function: Function, index: int, depth: int) -> Value | None:
    """A constructor's parameter as another constructor of its class passes it
    (`PrtgClient(string host) : this(new HttpClient { BaseAddress = ... })`)."""
    model = resolver.model
    for call in model.calls:
        if call.callee != function.name or call.receiver is not None:
            continue
        if (
            function.start <= call.start < function.end
            or model.class_at(call.start) != function.owner
        ):
            continue
        args = [a for a in call.args if a.name is None and not a.spread]
        if len(args) != len(function.params) or index >= len(args):
            continue
        caller = model.function_at(call.start)
        return resolver.value(args[index].value, Ctx(call.start, caller), depth + 1)
    return None


def typed(resolver: Resolver, written: str | None) -> ObjV | None:
    """An object of a declared type, when the type is a class the file knows or imports."""
    if not written:
        return None
    name = written.rsplit(".", 1)[-1]
    head, _, rest = written.partition(".")
    target = resolver.model.imports.get(head) if rest else None
    if name in resolver.model.classes and target is None:
        return ObjV("instance", name)
    if not rest:
        target = resolver.model.imports.get(head)
    if target is None and rest and head in resolver.knowledge.modules:
        target = head  # a type written with its crate or module (`reqwest::Client`)
    if target is None:  # a name code uses without importing it (`String`, a snippet's)
        target = resolver.knowledge.default_imports.get(head)
    qualified = f"{target}.{rest}" if target and rest else target or ""
    if qualified and any(qualified.startswith(m + ".") for m in resolver.knowledge.mocks):
        return ObjV("mock", qualified)  # `server: MockWebServer`: a test double
    factory = resolver.knowledge.factory(qualified)
    if factory is not None:  # `session: aiohttp.ClientSession`: a client object
        return ObjV("client", factory.name)
    if target is not None and name[:1].isupper():
        module = target.rsplit(".", 1)[0] if written == name else target
        return ObjV("instance", name, module=module)
    if resolver.knowledge.types_by_name and target is None:
        factory = resolver.knowledge.factory(name)
        if factory is not None:  # `HttpClient http`: a client object
            return ObjV("client", factory.name)
        if name[:1].isupper():  # a class of another file of the namespace or package
            return ObjV("instance", name)
    return None


def assigned_before(
    resolver: Resolver,
    key: str,
    ctx: Ctx,
    depth: int,
    held: Value | None = None,
    scope_id: int | None = None,
) -> Value | None:
    """What the assignments to `key` before the read give; `held`: what the name holds
    where none of them ran (a parameter reassigned in one branch keeps its argument)."""
    assigns = resolver.model.assigns.get(key)
    if not assigns:
        return None
    scopes = resolver.model.scopes_at(ctx.pos)
    for scope in scopes if scope_id is None else [scope_id]:
        in_scope = resolver.model.assigns_in(key, scope)
        if not in_scope:
            continue
        # an assignment's own value reads what the name held before it (`X=${X:-default}`)
        before = [a for a in in_scope if a.start < ctx.pos and not ctx.pos < a.end]
        if scope == 0 and len(scopes) > 1:
            # read by a function: the module's state set by other functions (PowerShell's
            # `$script:base = ...` in `Connect-X`) whichever comes first in the file
            before = [
                a
                for a in in_scope
                if a in before or resolver.model.function_at(a.start) is not None
            ] or in_scope  # a module constant read by a function runs after it
        if not before:
            continue
        return from_assignments(resolver, key, before, ctx, depth, held)
    return None


def reaching(before: list[Assign], pos: int) -> tuple[list[int], bool]:
    """The plain assignments whose value may be read at `pos`, latest first, and whether
    the earliest of them always runs before it.

    An assignment in a block that does not hold the read (a branch, a loop body) may
    not have run: the one before it may be what is read (`if x { p = a } else { p = b }`
    reads either; `if base == "" { base = os.Getenv(...) }` reads either)."""
    found: list[int] = []
    for k in range(len(before) - 1, -1, -1):
        assign = before[k]
        if assign.item is not None or assign.add:
            continue
        found.append(k)
        block = assign.block
        if block is None or block[0] <= pos < block[1] or len(found) >= 4:
            return found, True
    return found, False


def from_assignments(
    resolver: Resolver,
    key: str,
    before: list[Assign],
    ctx: Ctx,
    depth: int,
    held: Value | None = None,
) -> Value:
    """The value of the plain assignments that may reach the read (each with what was
    added to it after), or of what the name held before them."""
    plain, closed = reaching(before, ctx.pos)
    values: list[Value] = []
    for k in plain:
        value = assigned(resolver, before[k], ctx, depth)
        for later in before[k + 1 :]:
            if later.item is not None or later.add:
                value = updated(resolver, value, later, ctx, depth)
        values.append(value)
    if not plain:
        value = MapV((), partial=True)
        for later in before:
            value = updated(resolver, value, later, ctx, depth)
        values.append(value)
    elif not closed and held is not None:
        values.append(held)
    start = before[plain[0]].start if plain else -1
    value = mutated(resolver, key, alt(values), start, ctx, depth)
    if resolver.knowledge.query_attrs and any(isinstance(v, Text) for v in options(value)):
        value = url_query(resolver, key, value, start, ctx, depth)
    return url_parts(resolver, key, value, start, ctx, depth)


def url_parts(
    resolver: Resolver, key: str, value: Value, after: int, ctx: Ctx, depth: int
) -> Value:
    """A URL object's parts set by assignment after it is made: `u.RawQuery = q.Encode()`,
    `u.Path += "/x"` (the knowledge names the parts), in the scope it is read in."""
    parts = resolver.knowledge.url_parts
    if not parts:
        return value
    scope = resolver.model.scopes_at(ctx.pos)[0]
    for field_name, part in parts.items():
        for assign in resolver.model.assigns.get(key + "." + field_name, ()):
            if not after < assign.start < ctx.pos or assign.item is not None:
                continue
            if resolver.model.scopes_at(assign.start)[0] != scope:
                continue
            given = resolver.text_of(assigned(resolver, assign, ctx, depth), assign.value)
            value = urls.with_part(value, part, given, assign.add)
    return value


def url_query(
    resolver: Resolver, key: str, value: Value, after: int, ctx: Ctx, depth: int
) -> Value:
    """A URL object's query set after it was made continues its text: mutations of its
    query mapping (`url.searchParams.set(...)`), a query string assigned (`url.search`)."""
    added: list[Piece] = []
    for attr, kind in resolver.knowledge.query_attrs.items():
        dotted = f"{key}.{attr}"
        if kind == "map" and dotted in resolver.model.calls_on:
            query = mutated(resolver, dotted, MapV((), query=True), after, ctx, depth)
            if isinstance(query, MapV) and query.entries:
                text = query_text(query)
                added.extend((Lit("&" if added else "?", text.start), *text.pieces))
        elif kind == "items":  # `comps.queryItems = [URLQueryItem(name: k, value: v)]`
            items = resolver.model.assigns_within(dotted, after, ctx.pos)
            plain = [a for a in items if a.item is None and not a.add]
            for option in options(assigned(resolver, plain[-1], ctx, depth)) if plain else []:
                items_map = pairs_map(option) if isinstance(option, SeqV) else None
                if items_map is not None and items_map.entries:
                    text = query_text(items_map)
                    added.extend((Lit("&" if added else "?", text.start), *text.pieces))
                    break
        elif kind == "text":
            later = [
                a
                for a in resolver.model.assigns.get(key, ())
                if after < a.start < ctx.pos
                and a.item is not None
                and resolver.literal(a.item, ctx) == attr
            ]
            if later:
                text = as_text(assigned(resolver, later[-1], ctx, depth))
                pieces = list(text.pieces)
                first = pieces[0] if pieces else None
                if isinstance(first, Lit) and first.text.startswith("?"):
                    pieces[0] = sub(first, 1, len(first.text))
                added.extend((Lit("&" if added else "?", later[-1].start), *pieces))
    if not added:
        return value
    return alt(Text((*v.pieces, *added)) if isinstance(v, Text) else v for v in options(value))


def assigned(resolver: Resolver, assign: Assign, ctx: Ctx, depth: int) -> Value:
    """The value one assignment gives (memoised when no parameter is bound)."""
    memo_key = (id(assign), ctx.open)
    cacheable = ctx.env is None and ctx.this is None
    if cacheable and memo_key in resolver.memo:
        return resolver.memo[memo_key]
    if id(assign) in resolver.active:
        return resolver.hole(assign.value)
    resolver.active.add(id(assign))
    try:
        inner = replace(ctx, pos=assign.start)  # read before the assignment takes effect
        value = resolver.value(assign.value, inner, depth + 1)
        if assign.unpack != -1:
            value = alt(element(v, assign.unpack) for v in options(value))
    finally:
        resolver.active.discard(id(assign))
    if cacheable:
        resolver.memo[memo_key] = value
    return value


def updated(resolver: Resolver, value: Value, later: Assign, ctx: Ctx, depth: int) -> Value:
    added = assigned(resolver, later, ctx, depth)
    if later.item is not None:
        key = resolver.literal(later.item, replace(ctx, pos=later.start), depth)
        written = (later.value.start, later.value.end)
        entry = Entry(key, later.item.start, later.item.end, added, written)
        if isinstance(value, MapV):
            return replace(value, entries=(*value.entries, entry))
        if isinstance(value, SeqV):
            return SeqV((*value.items, added), value.start, value.end, value.partial)
        if any(
            isinstance(o, Text) and any(isinstance(p, Lit) for p in o.pieces)
            for o in options(value)
        ):
            return value  # a property of a string or URL object (`url.search = q`)
        return MapV((entry,), partial=True)
    if later.add:
        if isinstance(value, SeqV):
            extra = added.items if isinstance(added, SeqV) else (added,)
            return SeqV((*value.items, *extra), value.start, value.end, value.partial)
        if isinstance(value, MapV) and isinstance(added, MapV):
            return MapV((*value.entries, *added.entries), value.start, value.end)
        return resolver.concat([value, added], [later.value, later.value])
    return value


def mutated(resolver: Resolver, key: str, value: Value, after: int, ctx: Ctx, depth: int) -> Value:
    """Entries and items added by method calls on the name (`q.update`, `l.append`)."""
    calls = resolver.model.calls_between(key, after, ctx.pos)
    if not calls:
        return value
    scope = resolver.model.scopes_at(ctx.pos)[0]
    for call in calls:
        if resolver.model.scopes_at(call.start)[0] != scope:
            continue
        inner = replace(ctx, pos=call.start)
        if any(isinstance(o, ObjV) for o in options(value)):
            # a builder's link written as a statement (`conn.setRequestMethod("POST")`), a
            # setter of a fluent client called as a statement (`client.SetBaseURL(b)`) sets
            # its field; another object's method (`rsps.add(...)`) changes nothing here
            value = _set_on(resolver, value, call, inner, depth)
            continue
        effect = resolver.knowledge.mutators.get(call.callee)
        if effect is not None:
            value = mutate(resolver, value, effect, call, inner, depth)
    return value


def _set_on(resolver: Resolver, value: Value, call: CallE, ctx: Ctx, depth: int) -> Value:
    found: list[Value] = []
    for option in options(value):
        if not isinstance(option, ObjV) or option.kind != "client":
            found.append(option)
            continue
        link = resolver.knowledge.link(option.name, call.callee)
        builder = resolver.knowledge.builder("object:" + option.name, call.callee)
        if link is not None and link.part:
            found.append(linked(resolver, option, link, call, ctx, depth + 1))
        elif builder is not None:
            found.append(built(resolver, option, builder, call, ctx, depth))
        else:
            found.append(option)
    return alt(found)


def mutate(
    resolver: Resolver, value: Value, effect: str, call: CallE, ctx: Ctx, depth: int
) -> Value:
    if isinstance(value, AltV):  # each value the name may hold gets the entry
        return alt(mutate(resolver, o, effect, call, ctx, depth) for o in value.options)
    args = [a for a in call.args if not a.spread]
    if effect == "add":  # `.Add(k, v)` on a mapping, `.Add(x)` on a list
        effect = "set" if len(args) >= 2 else "append"
    copied = _copied(resolver, call, args, ctx, depth) if effect in ("set", "append") else None
    if copied is not None:  # `for (const [k, v] of Object.entries(m)) q.set(k, v)`
        return _merged(value, copied)
    if effect == "set" and len(args) >= 2:
        key = resolver.literal(args[0].value, ctx, depth)
        entry = Entry(
            key,
            *key_span(args[0].value),
            resolver.value(args[1].value, ctx, depth + 1),
            (args[1].value.start, args[1].value.end),
        )
        if isinstance(value, MapV):
            return replace(value, entries=(*value.entries, entry))
        return MapV((*_entries(value), entry), partial=True)
    if effect == "merge" and args:
        added = resolver.value(args[0].value, ctx, depth + 1)
        entries = _entries(value)
        more = _entries(added)  # a wrapper's parameter: its caller's mapping, spread
        kw = tuple(
            Entry(a.name, a.value.start, a.value.end, resolver.value(a.value, ctx, depth + 1))
            for a in call.args
            if a.name
        )
        if isinstance(value, MapV):
            partial = value.partial or not isinstance(added, MapV)
            return replace(value, entries=(*entries, *more, *kw), partial=partial)
        return MapV((*entries, *more, *kw), partial=not isinstance(added, MapV))
    if effect == "append" and len(args) >= 2 and isinstance(value, MapV):
        return mutate(resolver, value, "set", call, ctx, depth)  # `params.append(k, v)`
    if effect == "append" and args:
        before: tuple[Value, ...] = value.items if isinstance(value, SeqV) else ()
        return SeqV((*before, resolver.value(args[-1].value, ctx, depth + 1)))
    if effect == "extend" and args:
        extension = resolver.value(args[0].value, ctx, depth + 1)
        held: tuple[Value, ...] = value.items if isinstance(value, SeqV) else ()
        appended = extension.items if isinstance(extension, SeqV) else (extension,)
        return SeqV((*held, *appended))
    return value


def _copied(resolver: Resolver, call: CallE, args: list[Arg], ctx: Ctx, depth: int) -> Value | None:
    """The mapping a loop copies entry by entry: the call's key is the key a loop over
    the mapping's (key, value) pairs takes, so the call adds every entry of it."""
    if len(args) < 2 or not isinstance(args[0].value, Name):
        return None
    for loop in resolver.model.loops.get(args[0].value.name, ()):
        if loop.unpack == 0 and loop.start <= call.start < loop.end:
            return resolver.value(loop.iterable, replace(ctx, pos=loop.start), depth + 1)
    return None


def _merged(value: Value, added: Value) -> MapV:
    """A mapping with another's entries added; one only a wrapper's caller knows is kept
    as a spread entry (its parameter says where the entries come from)."""
    entries = _entries(value)
    more: tuple[Entry, ...] = ()
    for option in options(added):
        more = (*more, *_entries(option))
    known = isinstance(added, MapV)
    if isinstance(value, MapV):
        return replace(value, entries=(*entries, *more), partial=value.partial or not known)
    return MapV((*entries, *more), partial=not known)


def _entries(value: Value) -> tuple[Entry, ...]:
    """A mapping's entries before more are set; a wrapper's parameter stays in it as an
    unknown spread (`q.Set("limit", ...)` on the caller's `q` keeps the caller's query)."""
    if isinstance(value, MapV):
        return value.entries
    if is_param(value):
        return (Entry(None, 0, 0, value),)
    return ()


def built(
    resolver: Resolver, obj: ObjV, builder: Builder, call: CallE, ctx: Ctx, depth: int
) -> ObjV:
    """A fluent object after one of its setters: `SetBaseURL(b)`, `SetQueryParam(k, v)`."""
    if not builder.field:
        return obj
    held = obj.field(builder.field)
    if builder.effect == "set":
        args = [a for a in call.args if not a.spread]
        if not args:
            return obj
        value = resolver.value(args[0].value, ctx, depth + 1)
    else:
        effect = "set" if builder.effect == "entry" else "merge"
        start = held if isinstance(held, MapV) else MapV(())
        value = mutate(resolver, start, effect, call, ctx, depth)
    fields = tuple((k, v) for k, v in obj.fields if k != builder.field)
    return ObjV(obj.kind, obj.name, (*fields, (builder.field, value)), obj.module)


def loop_value(resolver: Resolver, name: str, ctx: Ctx, depth: int) -> Value | None:
    loops = resolver.model.loops.get(name)
    if not loops:
        return None
    around = [lp for lp in loops if lp.start <= ctx.pos < lp.end]
    if not around:
        return None
    loop = max(around, key=lambda lp: lp.start)
    iterable = resolver.value(loop.iterable, replace(ctx, pos=loop.start), depth + 1)
    found = [
        element(item, loop.unpack) if loop.unpack != -1 else item
        for item in elements(resolver, iterable, ctx, depth, loop.pairs, pairs(loop.unpack))
    ]
    if not found:
        return None
    return alt(found)


def elements(
    resolver: Resolver,
    iterable: Value,
    ctx: Ctx,
    depth: int,
    pairs: bool = False,
    unpacked: bool = False,
) -> list[Value]:
    """What a loop over a value visits: a list's items, a mapping's keys, an enum's members.

    `pairs`: the loop walks (key, value) pairs (Go's `range`): a list's (index, item), a
    mapping's (key, value); `unpacked`: it unpacks each element (C#'s `foreach (var (k, v)
    in map)`), so a mapping gives its entries as (key, value) pairs."""
    found: list[Value] = []
    for option in options(iterable):
        if isinstance(option, SeqV):
            if pairs:
                found.extend(SeqV((Text((Hole("", 0, 0),)), item)) for item in option.items)
            else:
                found.extend(option.items)
        elif isinstance(option, MapV):
            found.extend(
                SeqV((Text((Lit(e.key, e.key_start),)), e.value))
                if pairs or unpacked
                else Text((Lit(e.key, e.key_start),))
                for e in option.entries
                if e.key is not None
            )
        elif isinstance(option, ObjV) and option.kind == "class":
            found.extend(members(resolver, option.name, ctx, depth))
    return found


def members(resolver: Resolver, cls: str, ctx: Ctx, depth: int) -> list[Value]:
    """The values of a class's own attributes, in order (an enumeration's members)."""
    prefix = "@" + cls + "."
    found: list[Value] = []
    for key, assigns in resolver.model.assigns.items():
        if not key.startswith(prefix):
            continue
        for assign in assigns:
            if resolver.model.function_at(assign.start) is None:
                found.append(assigned(resolver, assign, ctx, depth))
                break
    return found


def field(
    resolver: Resolver, owner: str, name: str, ctx: Ctx, depth: int, start: int, end: int
) -> Value:
    """An attribute of an object of class `owner`: where its methods assign it."""
    this = ctx.this
    if isinstance(this, ObjV) and this.name == owner:
        given = this.field("@" + name)
        if given is not None:
            return given  # the field as the object's construction gave it
    key = "@" + owner + "." + name
    assigns = resolver.model.assigns.get(key)
    if not assigns:
        bases = resolver.model.classes.get(owner, (0, 0, ()))[2]
        for base in bases:
            if base in resolver.model.classes and base != owner:
                return field(resolver, base, name, ctx, depth + 1, start, end)
        return Text((Hole(name, start, end, name.lower()),))
    # the constructor's assignment, else the last one
    chosen = assigns[-1]
    for assign in assigns:
        function = resolver.model.function_at(assign.start)
        if function is not None and function.name in resolver.knowledge.constructors:
            chosen = assign
            break
    function = resolver.model.function_at(chosen.start)
    inner = Ctx(chosen.start, function, None, this, ctx.open, ctx.inline)
    if isinstance(this, ObjV) and this.kind == "instance" and function is not None:
        env = tuple((k, v) for k, v in this.fields if not k.startswith("@"))
        inner = Ctx(chosen.start, function, env, this, ctx.open, ctx.inline)
    later = [a for a in assigns if a is not chosen and (a.item is not None or a.add)]
    value = assigned(resolver, chosen, inner, depth)
    for assign in later:
        value = updated(resolver, value, assign, inner, depth)
    return filled(resolver, owner, name, value, depth)


def filled(resolver: Resolver, owner: str, name: str, value: Value, depth: int) -> Value:
    """A field with the entries and items its class adds where it sets its fields up: a
    static block or a constructor (`static { PATHS.put("probes", "/x"); }`)."""
    calls = resolver.model.calls_on.get(name)
    span = resolver.model.classes.get(owner)
    if not calls or span is None or any(isinstance(o, ObjV) for o in options(value)):
        return value
    for call in calls:
        effect = resolver.knowledge.mutators.get(call.callee)
        if effect is None or not span[0] <= call.start < span[1]:
            continue
        function = resolver.model.function_at(call.start)
        if function is not None and function.name not in resolver.knowledge.constructors:
            continue
        if resolver.model.class_at(call.start) != owner:
            continue
        value = mutate(resolver, value, effect, call, Ctx(call.start, function), depth + 1)
    return value
