"""Names, fields and loops: where a value comes from in its scope.

A name is read in its scope: a bound parameter or loop variable, the last
assignment before the use (then what was added to it since: `params["sort"] = ...`,
`q.update(...)`, `clauses.append(...)`), a loop's elements, an attribute of the
class's object, an import, a class. A parameter of the wrapper being summarised
stays open (a hole the caller fills); one with a declared client class is a client.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from apispec.lint.extract.context import Ctx, alt, element, options
from apispec.lint.extract.ir import (
    CallE,
    Entry,
    Function,
    Hole,
    Lit,
    MapV,
    ObjV,
    Param,
    ParamV,
    SeqV,
    Text,
    Value,
)

if TYPE_CHECKING:
    from apispec.lint.extract.lower import Assign
    from apispec.lint.extract.values import Resolver


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
                return parameter(resolver, function, index, ctx, depth, start, end)
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
    if declared is not None and declared.kind == "client":
        return declared  # `session: aiohttp.ClientSession`: whatever the caller passes
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
        # parameter varies with its callers: it stays a parameter
        return resolver.value(default, replace(ctx, pos=default.start), depth + 1)
    owner = resolver.duck.get(name)
    if owner is not None:  # `s.paginate(...)` elsewhere: `s` is what has paginate
        return ObjV("instance", owner[0], module=owner[1])
    if kind == "**":
        return MapV((), start, end, partial=True)
    return Text((Hole(name, start, end, name.lower()),))


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
    if name in resolver.model.classes:
        return ObjV("instance", name)
    head, _, rest = written.partition(".")
    target = resolver.model.imports.get(head)
    factory = resolver.knowledge.factory(f"{target}.{rest}" if target and rest else target or "")
    if factory is not None:  # `session: aiohttp.ClientSession`: a client object
        return ObjV("client", factory.name)
    if target is not None and name[:1].isupper():
        module = target.rsplit(".", 1)[0] if written == name else target
        return ObjV("instance", name, module=module)
    if resolver.knowledge.types_by_name and target is None:
        factory = resolver.knowledge.factory(name)
        if factory is not None:  # `HttpClient http`: a client object
            return ObjV("client", factory.name)
        if name[:1].isupper():  # a class of another file of the namespace
            return ObjV("instance", name)
    return None


def assigned_before(resolver: Resolver, key: str, ctx: Ctx, depth: int) -> Value | None:
    assigns = resolver.model.assigns.get(key)
    if not assigns:
        return None
    scopes = resolver.model.scopes_at(ctx.pos)
    for scope in scopes:
        in_scope = [a for a in assigns if a.scope == scope]
        if not in_scope:
            continue
        before = [a for a in in_scope if a.start < ctx.pos]
        if not before and scope == 0 and len(scopes) > 1:
            before = in_scope  # a module constant read by a function runs after it
        if not before:
            continue
        return from_assignments(resolver, key, before, ctx, depth)
    return None


def from_assignments(
    resolver: Resolver, key: str, before: list[Assign], ctx: Ctx, depth: int
) -> Value:
    """The value of the last plain assignment, with what was added to it after."""
    base_index = max((k for k, a in enumerate(before) if a.item is None and not a.add), default=-1)
    if base_index >= 0:
        value = assigned(resolver, before[base_index], ctx, depth)
        since = before[base_index + 1 :]
        start = before[base_index].start
    else:
        value, since, start = MapV((), partial=True), before, -1
    for later in since:
        value = updated(resolver, value, later, ctx, depth)
    value = mutated(resolver, key, value, start, ctx, depth)
    return value


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
        inner = replace(ctx, pos=assign.value.start)
        value = resolver.value(assign.value, inner, depth + 1)
        if assign.unpack >= 0:
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
            return MapV((*value.entries, entry), value.start, value.end, value.partial)
        if isinstance(value, SeqV):
            return SeqV((*value.items, added), value.start, value.end, value.partial)
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
    calls = resolver.model.calls_on.get(key)
    if not calls:
        return value
    scope = resolver.model.scopes_at(ctx.pos)[0]
    for call in calls:
        if not after < call.start < ctx.pos:
            continue
        if resolver.model.scopes_at(call.start)[0] != scope:
            continue
        effect = resolver.knowledge.mutators.get(call.callee)
        if effect is None or any(isinstance(o, ObjV) for o in options(value)):
            continue  # an object's method (`rsps.add(...)`), not a mapping's or list's
        inner = replace(ctx, pos=call.start)
        value = mutate(resolver, value, effect, call, inner, depth)
    return value


def mutate(
    resolver: Resolver, value: Value, effect: str, call: CallE, ctx: Ctx, depth: int
) -> Value:
    args = [a for a in call.args if not a.spread]
    if effect == "add":  # `.Add(k, v)` on a mapping, `.Add(x)` on a list
        effect = "set" if len(args) >= 2 else "append"
    if effect == "set" and len(args) >= 2:
        key = resolver.literal(args[0].value, ctx, depth)
        entry = Entry(
            key,
            args[0].value.start,
            args[0].value.end,
            resolver.value(args[1].value, ctx, depth + 1),
        )
        entries = value.entries if isinstance(value, MapV) else ()
        return MapV((*entries, entry), partial=not isinstance(value, MapV))
    if effect == "merge" and args:
        added = resolver.value(args[0].value, ctx, depth + 1)
        entries = value.entries if isinstance(value, MapV) else ()
        more = added.entries if isinstance(added, MapV) else ()
        kw = tuple(
            Entry(a.name, a.value.start, a.value.end, resolver.value(a.value, ctx, depth + 1))
            for a in call.args
            if a.name
        )
        return MapV((*entries, *more, *kw), partial=not isinstance(added, MapV))
    if effect == "append" and args:
        before: tuple[Value, ...] = value.items if isinstance(value, SeqV) else ()
        return SeqV((*before, resolver.value(args[-1].value, ctx, depth + 1)))
    if effect == "extend" and args:
        extension = resolver.value(args[0].value, ctx, depth + 1)
        held: tuple[Value, ...] = value.items if isinstance(value, SeqV) else ()
        appended = extension.items if isinstance(extension, SeqV) else (extension,)
        return SeqV((*held, *appended))
    return value


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
        element(item, loop.unpack) if loop.unpack >= 0 else item
        for item in elements(resolver, iterable, ctx, depth, loop.unpack >= 0)
    ]
    if not found:
        return None
    return alt(found)


def elements(
    resolver: Resolver, iterable: Value, ctx: Ctx, depth: int, pairs: bool = False
) -> list[Value]:
    """What a loop over a value visits: a list's items, a mapping's keys (its entries as
    (key, value) pairs where the loop unpacks them: C#'s `foreach (var (k, v) in map)`),
    an enum's members."""
    found: list[Value] = []
    for option in options(iterable):
        if isinstance(option, SeqV):
            found.extend(option.items)
        elif isinstance(option, MapV) and pairs:
            found.extend(
                SeqV((Text((Lit(e.key, e.key_start),)), e.value))
                for e in option.entries
                if e.key is not None
            )
        elif isinstance(option, MapV):
            found.extend(
                Text((Lit(e.key, e.key_start),)) for e in option.entries if e.key is not None
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
    key = "@" + owner + "." + name
    assigns = resolver.model.assigns.get(key)
    if not assigns:
        bases = resolver.model.classes.get(owner, (0, 0, ()))[2]
        for base in bases:
            if base in resolver.model.classes and base != owner:
                return field(resolver, base, name, ctx, depth + 1, start, end)
        return Text((Hole(name, start, end, name.lower()),))
    this = ctx.this
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
    return value
