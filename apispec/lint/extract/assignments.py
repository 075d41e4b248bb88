"""Assignments and what changes a value after them: the assignments of a name that reach
a use (the last one before it, each branch's), what one assignment holds, and what is
added to it since (`params["sort"] = ...`, `q.update(...)`, `clauses.append(...)`, a
fluent setter such as `SetQueryParam(k, v)`); URLs read apart from an assigned name.

Apart from names.py (which decides where a name's value comes from: parameter, loop,
field, import) because following assignments and their mutations is the larger half
of value flow and a concern of its own.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from apispec.lint.extract import urls
from apispec.lint.extract.builders import linked
from apispec.lint.extract.context import (
    Ctx,
    alt,
    as_text,
    element,
    is_param,
    key_span,
    options,
    pairs_map,
    query_text,
    sub,
)
from apispec.lint.extract.ir import (
    AltV,
    Arg,
    CallE,
    Entry,
    Lit,
    MapV,
    Name,
    ObjV,
    Piece,
    SeqV,
    Text,
    Value,
)

if TYPE_CHECKING:
    from apispec.lint.extract.lower.model import Assign
    from apispec.lint.extract.values import Resolver
    from apispec.lint.knowledge import Builder


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
