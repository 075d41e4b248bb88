"""Names, fields and loops: where a value comes from in its scope.

A name is read in its scope: a bound parameter or loop variable, the last
assignment before the use (then what was added to it since: `params["sort"] = ...`,
`q.update(...)`, `clauses.append(...)`), a loop's elements, an attribute of the
class's object, an import, a class. A parameter of the wrapper being summarised
stays open (a hole the caller fills); one with a declared client class is a client.
The assignments themselves, and what changes a value after them, are followed in
assignments.py.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING

from apispec.lint.extract import assignments
from apispec.lint.extract.context import (
    Ctx,
    alt,
    element,
    entry_of,
    options,
    pairs,
)
from apispec.lint.extract.ir import (
    CallE,
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
                given = parameter(resolver, function, index, ctx, depth, start, end)
                # reassigned in the function (`if base == "" { base = os.Getenv(...) }`)
                again = assignments.assigned_before(
                    resolver, name, ctx, depth, given, function.node_id
                )
                return again if again is not None else given
        if name in function.members:
            return member(resolver, function, name, ctx, depth, start, end)
    method = resolver.model.receiver_at(ctx.pos, name)
    if method is not None and method.owner:
        this = ctx.this
        if isinstance(this, ObjV) and this.name == method.owner:
            return this  # the object the method was called on
        return ObjV("instance", method.owner)
    found = assignments.assigned_before(resolver, name, ctx, depth)
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
                found.append(assignments.assigned(resolver, assign, ctx, depth))
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
    value = assignments.assigned(resolver, chosen, inner, depth)
    for assign in later:
        value = assignments.updated(resolver, value, assign, inner, depth)
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
        value = assignments.mutate(
            resolver, value, effect, call, Ctx(call.start, function), depth + 1
        )
    return value
