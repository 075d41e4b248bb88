"""What a call returns, for value flow: readers of the environment, encoders, factories
and builder links, and the objects a call makes (a class of the file, a constructor on
a class, a function-typed parameter's declared result).

Apart from values.py so the Resolver's core (names, strings, attributes, indexes) reads
at once; these functions take the Resolver as `r` and ask it for sub-values.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from apispec.lint.extract import assignments, builders, callees, names, objects, transforms
from apispec.lint.extract.context import (
    Ctx,
    alt,
    entry_of,
    options,
    unknown,
)
from apispec.lint.extract.ir import (
    CallE,
    Hole,
    Lit,
    MapV,
    Name,
    ObjV,
    Text,
    Value,
    argument,
)

if TYPE_CHECKING:
    from apispec.lint.extract.values import Resolver
    from apispec.lint.knowledge import Factory


def call_value(r: Resolver, call: CallE, ctx: Ctx, depth: int) -> Value:
    """What a call returns, where the model knows: readers, encoders, factories, functions."""
    knowledge = r.knowledge
    qualified = callees.qualified(r, call, ctx, depth)
    env_default = knowledge.env_reader(qualified, call)
    if env_default is None and isinstance(call.receiver, CallE):
        # `System.getenv().getOrDefault(name, default)`: a reader on a reader's result
        inner = callees.qualified(r, call.receiver, ctx, depth)
        env_default = knowledge.env_reader(f"{inner}().{call.callee}", call)
    if env_default is not None:
        name_arg, default_arg = env_default
        variable = r.literal(name_arg.value, ctx, depth) if name_arg is not None else None
        if default_arg is not None:
            return r.value(default_arg.value, ctx, depth + 1)
        text = r.model.parsed.text[call.start : call.end]
        return Text((Hole(text, call.start, call.end, (variable or "").lower()),))
    transform = knowledge.transform(qualified, call.callee)
    if transform is not None:
        return transforms.transform(r, transform, call, ctx, depth)
    if any(qualified == m or qualified.startswith(m + ".") for m in knowledge.mocks):
        return ObjV("mock", qualified)  # `responses.RequestsMock()`: a test double
    if qualified in knowledge.router_factories:
        return ObjV("router", qualified)  # `express()`, `new Hono()`: a web app
    factory = knowledge.factory(qualified)
    if factory is not None:
        return _made_by(r, factory, call, ctx, depth)
    configured = objects.made(r, call, ctx, depth)
    if configured is not None:
        return configured
    built = _linked(r, call, ctx, depth) or _built(r, call, ctx, depth)
    if built is not None:
        return built
    made = _constructed(r, call, ctx, depth) if call.receiver is None else None
    if made is not None:
        return made
    made = _made_on_class(r, call, ctx, depth) if made is None else None
    if made is not None:
        return made
    if qualified != call.callee and (
        call.new or (knowledge.class_calls and call.callee[:1].isupper())
    ):
        # a class imported from another module: an instance of it
        return ObjV("instance", call.callee, module=qualified.rsplit(".", 1)[0])
    if knowledge.types_by_name and call.new and call.callee[:1].isupper():
        return ObjV("instance", call.callee)  # `new X()` of a class of the package
    if qualified != call.callee and not knowledge.class_calls and call.receiver is not None:
        # a function of another module (`prtgclient.New()`): an object of that module,
        # whose methods are its classes' (which one, the module's summary says)
        return ObjV("instance", "", module=qualified.rsplit(".", 1)[0])
    returned = callees.returns(r, call, ctx, depth)
    if returned is not None:
        return returned
    receiver = call.receiver
    if knowledge.types_by_name and isinstance(receiver, Name) and _a_class(r, receiver):
        # `MonitorClient.fromEnvironment()`: a static factory of a class of the file's
        # own package (defined elsewhere) makes an object of that class
        return ObjV("instance", receiver.name)
    read = objects.attribute(r, call, ctx, depth)
    return read if read is not None else r.hole(call)


def _made_by(r: Resolver, factory: Factory, call: CallE, ctx: Ctx, depth: int) -> ObjV:
    """The client object a factory call makes, with the fields its arguments set."""
    fields = []
    for field_name, where in factory.fields:
        found = place(r, call, where, factory.config, ctx, depth)
        if found is not None:
            fields.append((field_name, found))
    if factory.method:  # a request builder's method until a link sets one
        fields.append(("method", Text((Lit(factory.method, call.start),))))
    client = ObjV("client", factory.name, tuple(fields))
    if factory.configure:  # `HttpClient(CIO) { defaultRequest { url(base) } }`
        client = builders.configured(r, call, client, ctx, depth) or client
    return client


def _a_class(r: Resolver, name: Name) -> bool:
    """A capitalised name the file neither assigns nor imports: a class of its package."""
    return (
        name.name[:1].isupper()
        and name.name not in r.model.assigns
        and callees.imported(r, name.name) is None
    )


def _linked(r: Resolver, call: CallE, ctx: Ctx, depth: int) -> Value | None:
    """A link of a builder chain (`.header(k, v)`, `.uri("/x")`): the builder with
    the part it sets (knowledge.Link rows; builders.py)."""
    if call.receiver is None or (
        call.callee not in r.knowledge.link_names and not r.knowledge.fluent_kinds
    ):
        return None
    found: list[Value] = []
    receiver = r.value(call.receiver, ctx, depth + 1)
    for option in options(receiver):
        if isinstance(option, ObjV) and option.kind == "mock":
            return option  # a test double's method (`server.expect(...)`): the double
        if isinstance(option, ObjV) and option.kind == "client":
            link = r.knowledge.link(option.name, call.callee)
            if link is not None:
                found.append(builders.linked(r, option, link, call, ctx, depth))
    if not found and all(unknown(o) for o in options(receiver)):
        # `api.newBuilder().addPathSegment("x")` on an object the file says nothing
        # of: a link only one kind of builder has says the kind, the object its URL
        sole = r.knowledge.sole_builder(call.callee)
        if sole is not None:
            made = ObjV("client", sole.on.removeprefix("object:"), (("url", receiver),))
            found.append(builders.linked(r, made, sole, call, ctx, depth))
    return alt(found) if found else None


def _built(r: Resolver, call: CallE, ctx: Ctx, depth: int) -> Value | None:
    """A method of a fluent client object (`resty.New().SetBaseURL(b).R()`): the object,
    with what the method sets (its knowledge row says which field)."""
    if call.receiver is None or not r.knowledge.may_build(call.callee):
        return None
    found: list[Value] = []
    for option in options(r.value(call.receiver, ctx, depth + 1)):
        if not isinstance(option, ObjV) or option.kind != "client":
            continue
        builder = r.knowledge.builder("object:" + option.name, call.callee)
        if builder is not None:
            found.append(assignments.built(r, option, builder, call, ctx, depth))
    return alt(found) if found else None


def _constructed(r: Resolver, call: CallE, ctx: Ctx, depth: int) -> ObjV | None:
    """A bare call that makes an object the file knows: a class of the file, what a
    function-typed parameter is declared to return, `cls(...)`, `super()`."""
    if call.callee in r.model.classes:
        return instance(r, call.callee, call, ctx, depth)
    declared = _declared_result(r, call)
    if declared is not None:
        return declared
    owner = r.model.class_at(call.start)
    if owner is not None and call.callee in r.knowledge.self_names:
        return instance(r, owner, call, ctx, depth)  # `cls(...)` in a class method
    if owner is not None and call.callee == "super":
        return ObjV("super", owner)
    return None


def _made_on_class(r: Resolver, call: CallE, ctx: Ctx, depth: int) -> ObjV | None:
    """A constructor called on its class (`Prtg::new(base)`, Ruby's `Prtg.new(base)`):
    an object of the file's class, or of a class the file imports."""
    receiver = call.receiver
    if not isinstance(receiver, Name) or call.callee not in r.knowledge.constructors:
        return None
    if receiver.name in r.model.classes:
        return instance(r, receiver.name, call, ctx, depth)
    imported = r.model.imports.get(receiver.name)
    if imported is not None and receiver.name[:1].isupper():
        return ObjV("instance", receiver.name, module=imported.rsplit(".", 1)[0])
    return None


def _declared_result(r: Resolver, call: CallE) -> ObjV | None:
    """A call of a function-typed parameter (`client func() *prtg.Client`): an object
    of the type it is declared to return."""
    for function in r.model.functions_at(call.start):
        written = function.types.get(call.callee + "()")
        if written is not None:
            return names.typed(r, written)
        if any(p[0] == call.callee for p in function.params):
            return None
    return None


def place(
    r: Resolver,
    call: CallE,
    where: tuple[int, str],
    config: tuple[int, ...],
    ctx: Ctx,
    depth: int = 0,
) -> Value | None:
    """The value at an argument place, or the entry of that name in an options object.

    `config`: positions where an options object may stand; an argument there that is
    a mapping is the options (`axios({ url })`), never the value of a positional place
    that has a keyword to look up in it (RestClient's headers hash is both: the
    headers place, no keyword, and the options its `params:` entry is read from).
    """
    arg = argument(call.args, where)
    if arg is not None:
        value = r.value(arg.value, ctx, depth + 1)
        positional = [a for a in call.args if a.name is None and not a.spread]
        at = next((k for k, a in enumerate(positional) if a is arg), -1)
        if at not in config or not where[1] or not any(isinstance(o, MapV) for o in options(value)):
            return value
    if not where[1] or not config:
        return None
    for index in config:
        holder = argument(call.args, (index, ""))
        if holder is None:
            continue
        found = entry_of(r.value(holder.value, ctx, depth + 1), where[1])
        if found is not None:
            return found
    return None


def instance(r: Resolver, cls: str, call: CallE, ctx: Ctx, depth: int) -> ObjV:
    """An object of a class of this file, its constructor's parameters bound."""
    ctor = next(
        (f for f in r.model.functions if f.owner == cls and f.name in r.knowledge.constructors),
        None,
    )
    fields: list[tuple[str, Value]] = []
    if ctor is not None:
        fields.extend(callees.bind(r, ctor, call.args, ctx, depth))
    else:  # no constructor: keywords name the fields (`Client{base: b}`, a dataclass)
        fields.extend(("@" + a.name, r.value(a.value, ctx, depth + 1)) for a in call.args if a.name)
    return ObjV("instance", cls, tuple(fields))
