"""Which function of the file a call runs, and with what: a callee found by name, by
its receiver's class or a base class; `module.function` for imported modules; the
call's arguments bound to the function's parameters; the function's returned value.

Apart from calls.py because answering "which function" and "bound how" is a question
of its own that clients.py, names.py and tree.py ask too (through the Resolver).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from apispec.lint.extract.context import (
    MAX_INLINE,
    Ctx,
    alt,
    options,
)
from apispec.lint.extract.ir import (
    Arg,
    Attr,
    CallE,
    Entry,
    Expr,
    Function,
    Lit,
    MapV,
    Name,
    ObjV,
    SeqV,
    Str,
    Text,
    Value,
)

if TYPE_CHECKING:
    from apispec.lint.extract.values import Resolver


def bind(
    r: Resolver, function: Function, args: Sequence[Arg], ctx: Ctx, depth: int
) -> list[tuple[str, Value]]:
    """Parameter name -> argument value, by position and by keyword (a mapping spread
    into the call gives keywords: `f(**opts)`, PowerShell's `Invoke-X @params`)."""
    bound: list[tuple[str, Value]] = []
    positional = [a for a in args if a.name is None and not a.spread]
    keywords = {a.name: a for a in args if a.name}
    spread = _spread_keywords(r, args, ctx, depth)
    rest: list[Entry] = []
    names = {p[0] for p in function.params}
    if r.knowledge.positional_fill:  # positional arguments take the unnamed params
        taken = {name for name, _, _ in function.params if name in keywords}
        taken.update(name for name, _, _ in function.params if name.lower() in spread)
        free = [k for k, (name, _, _) in enumerate(function.params) if name not in taken]
        order = {k: free.index(k) for k in free}
    for index, (name, kind, default) in enumerate(function.params):
        at = order.get(index, -1) if r.knowledge.positional_fill else index
        if kind == "**":
            rest.extend(
                Entry(k, a.value.start, a.value.end, r.value(a.value, ctx, depth + 1))
                for k, a in keywords.items()
                if k not in names
            )
            for spread_arg in (a for a in args if a.spread == "**"):
                found = r.value(spread_arg.value, ctx, depth + 1)
                if isinstance(found, MapV):
                    rest.extend(found.entries)
            bound.append((name, MapV(tuple(rest))))
        elif kind == "*":
            items = tuple(r.value(a.value, ctx, depth + 1) for a in positional[index:])
            bound.append((name, SeqV(items)))
        elif name in keywords:
            bound.append((name, r.value(keywords[name].value, ctx, depth + 1)))
        elif name.lower() in spread:
            bound.append((name, spread[name.lower()]))
        elif kind == "kw":
            continue  # keyword-only (`def f(url:)`): never a positional argument
        elif 0 <= at < len(positional):
            bound.append((name, r.value(positional[at].value, ctx, depth + 1)))
        elif default is not None and not _blank(default) and "" not in spread:
            # left out by the call: the parameter's default (an empty text says
            # nothing: `token = ""` stands for a value given elsewhere)
            given = replace(ctx, pos=default.start, env=None)
            bound.append((name, r.value(default, given, depth + 1)))
    return bound


def _spread_keywords(r: Resolver, args: Sequence[Arg], ctx: Ctx, depth: int) -> dict[str, Value]:
    """The entries of mappings spread into a call, by lower-case key; the key "" is
    set when a spread is not known whole (any parameter may come from it)."""
    found: dict[str, Value] = {}
    for arg in args:
        if arg.spread != "**":
            continue
        for option in options(r.value(arg.value, ctx, depth + 1)):
            if not isinstance(option, MapV) or option.partial:
                found[""] = Text(())
            if isinstance(option, MapV):
                for entry in option.entries:
                    if entry.key is not None:
                        found.setdefault(entry.key.lower(), entry.value)
    return found


def returns(r: Resolver, call: CallE, ctx: Ctx, depth: int) -> Value | None:
    """A function of this file that returns a value built from its arguments."""
    if ctx.inline >= MAX_INLINE:
        return None
    function = callee_function(r, call, ctx, depth)
    if function is None or not function.returns:
        return None
    env = tuple(bind(r, function, call.args, ctx, depth))
    this = receiver_object(r, call, ctx, depth)
    found = []
    for lowered in function.returns[:4]:
        expr = lowered()
        inner = Ctx(expr.start, function, env, this, ctx.open, ctx.inline + 1)
        found.append(r.value(expr, inner, depth + 1))
    return alt(found)


def receiver_object(r: Resolver, call: CallE, ctx: Ctx, depth: int) -> Value | None:
    receiver = call.receiver
    if receiver is None:
        return None
    if isinstance(receiver, Name) and receiver.name in r.knowledge.self_names:
        return ctx.this
    return r.value(receiver, ctx, depth + 1)


def callee_function(r: Resolver, call: CallE, ctx: Ctx, depth: int) -> Function | None:
    """The function of this file a call runs: by name in scope, or a method of its receiver."""
    candidates = r.model.by_name.get(call.callee)
    if not candidates:
        return None
    receiver = call.receiver
    if receiver is None:
        plain = [f for f in candidates if f.owner is None]
        if plain or not r.knowledge.implicit_this:
            return plain[0] if plain else None
        # `send(req)`: a method of the class around the call, called without `this.`
        return _method_of(r, r.model.class_at(call.start), candidates)
    if isinstance(receiver, Name) and receiver.name in r.knowledge.self_names:
        owner = r.model.class_at(call.start)
        if owner is None and ctx.function is not None:  # a method of an object literal
            owner = ctx.function.owner
        return _method_of(r, owner, candidates)
    if isinstance(receiver, Name) and receiver.name not in r.model.classes:
        found = next((f for f in candidates if f.owner == receiver.name), None)
        if found is not None:  # `api.get(...)` for `const api = { get(p) {...} }`
            return found
    for option in options(r.value(receiver, ctx, depth + 1)):
        if isinstance(option, ObjV) and option.kind in ("instance", "class"):
            if option.module:
                continue  # `c.http.Do(req)`: net/http's Client, not the file's own
            found = _method_of(r, option.name, candidates)
            if found is not None:
                return found
    return None


def _method_of(r: Resolver, owner: str | None, candidates: list[Function]) -> Function | None:
    """The method of `owner` among the candidates, or one it inherits from a base class
    of this file (`class PrtgClient extends BaseClient`: `get(path)` is BaseClient's)."""
    for cls in lineage(r, owner):
        found = next((f for f in candidates if f.owner == cls), None)
        if found is not None:
            return found
    return None


def lineage(r: Resolver, owner: str | None) -> list[str]:
    """A class and the classes it extends, nearest first (those this file names)."""
    found: list[str] = []
    while owner is not None and owner not in found:
        found.append(owner)
        bases = r.model.classes.get(owner, (0, 0, ()))[2]
        owner = next((b.rsplit(".", 1)[-1] for b in bases), None)
    return found


def qualified(r: Resolver, call: CallE, ctx: Ctx, depth: int) -> str:
    """`module.function` for a module's function (`requests.get`), else the callee."""
    receiver = call.receiver
    if receiver is None:
        return imported(r, call.callee) or call.callee
    if isinstance(receiver, Name):
        target = imported(r, receiver.name)
        if target is not None:
            return f"{target}.{call.callee}"
        if receiver.name not in r.model.assigns and _names_module(r, receiver.name):
            return f"{receiver.name}.{call.callee}"
    if isinstance(receiver, Attr):
        dotted = _dotted(receiver) or r.model.parsed.text[receiver.start : receiver.end]
        head = dotted.split(".")[0]
        target = imported(r, head)
        if target is not None:
            return f"{target}{dotted[len(head) :]}.{call.callee}"
        if _names_module(r, dotted):
            return f"{dotted}.{call.callee}"
    if isinstance(receiver, Str):
        return f"str.{call.callee}"
    return call.callee


def _names_module(r: Resolver, dotted: str) -> bool:
    """A name not imported is the module it names when it is an HTTP library's or a test
    double's (`responses.RequestsMock()`): snippets and examples leave imports out."""
    mocks = r.knowledge.mocks
    return dotted.split(".")[0] in r.knowledge.modules or any(
        dotted == m or dotted.startswith(m + ".") for m in mocks
    )


def imported(r: Resolver, name: str) -> str | None:
    """What a name imports, or names without an import (`String`, `System`)."""
    target = r.model.imports.get(name)
    if target is not None:
        return target
    if name in r.model.assigns or name in r.model.classes:
        return None
    return r.knowledge.default_imports.get(name)


def _dotted(expr: Expr) -> str | None:
    """`a.b.c` from the names of an attribute chain, however the language writes the
    separator (`reqwest::Client`) or spaces it over lines."""
    parts: list[str] = []
    while isinstance(expr, Attr):
        parts.append(expr.name)
        expr = expr.obj
    if not isinstance(expr, Name):
        return None
    parts.append(expr.name)
    return ".".join(reversed(parts))


def _blank(expr: Expr) -> bool:
    """An empty text literal (`""`)."""
    return isinstance(expr, Str) and all(isinstance(p, Lit) and not p.text for p in expr.pieces)
