"""Which calls send requests: knowledge rows, the file's own wrappers, and verb-named calls.

A call is a request when a client row says so (`requests.get`, a method of an
object an `httpx.Client(...)` made), when it runs a wrapper of this file (a
function whose parameter reaches a request's URL: the request is read again with
the call's arguments bound, a few levels deep), or when its name is a verb and an
argument holds an API URL. A wrapper's own request, whose URL depends on its
parameters, is a template, not a call; each call of the wrapper is one.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from apispec.lint.budget import check
from apispec.lint.extract import (
    commands,
    loops,
    rows,
)
from apispec.lint.extract.context import (
    MAX_INLINE,
    Ctx,
    options,
)
from apispec.lint.extract.imported import COMMON, in_scope, through
from apispec.lint.extract.ir import (
    AltV,
    Arg,
    CallE,
    Function,
    Hole,
    Lit,
    MapV,
    Name,
    ObjV,
    ParamV,
    SeqV,
    Str,
    Text,
    Value,
)
from apispec.lint.extract.request import Request
from apispec.lint.extract.values import Resolver
from apispec.lint.helpers import QUERY_PARAMS, HelperTable
from apispec.lint.knowledge import VERBS

if TYPE_CHECKING:
    from apispec.lint.extract.lower.model import FileModel, Loop
    from apispec.lint.knowledge import Knowledge

_VERB_WORDS = frozenset(VERBS)
_WORD = re.compile(r"[a-z_][a-z0-9_]*")


class Requests:
    """Finds the requests of one file's model."""

    def __init__(
        self,
        model: FileModel,
        knowledge: Knowledge,
        helpers: HelperTable | None = None,
        module: str = "",
    ) -> None:
        self.model = model
        self.module = module  # the file's dotted module path (relative imports resolve to it)
        self.knowledge = knowledge
        self.directory = knowledge.scope == "directory"  # Go: a package's files share a scope
        self.resolver = Resolver(model, knowledge)
        self.helpers = helpers if helpers is not None else HelperTable()
        self._wrapper: dict[int, bool] = {}
        self._by_function: dict[int, list[CallE]] | None = None
        self._loops: list[list[Loop]] | None = None  # one list per `for`, in order
        self._loop_starts: list[int] = []
        self._loop_parent: list[int] = []
        self.outer: dict[int, CallE] | None = None  # call node id -> the call chained on it
        self.setters_by_receiver: dict[str, list[CallE]] | None = None  # headers.py
        self.setter_starts: dict[str, list[int]] = {}  # headers.py
        self.resolver.duck = self._duck_types()

    def _duck_types(self) -> dict[str, tuple[str, str]]:
        """Receivers of unknown class that call a method only one class has (not a common
        name: `s.paginate(...)`, `api.get_json(...)`): they are of that class, in the file."""
        found: dict[str, tuple[str, str]] = {}
        methods: dict[str, set[str]] = {}
        for function in self.model.functions:
            if function.owner:
                methods.setdefault(function.name, set()).add(function.owner)
        for call in self.model.calls:
            receiver = call.receiver
            if not isinstance(receiver, Name) or call.callee.lower() in COMMON:
                continue
            owners = methods.get(call.callee)
            if owners is not None and len(owners) == 1:
                found.setdefault(receiver.name, (next(iter(owners)), ""))
                continue
            owned = [h for h in self.helpers.named(call.callee, self.model.language) if h.owner]
            if len({h.owner for h in owned}) == 1:
                found.setdefault(receiver.name, (owned[0].owner, owned[0].module))
        return found

    def all(self) -> list[Request]:
        """Every request the file makes, outside the templates of its wrappers."""
        found: list[Request] = []
        senders = self._senders()
        for index, call in enumerate(self.model.calls):
            if not index & 15:
                check()  # the time budget, where no alarm can interrupt (budget.py)
            if call.node_id in self.model.decorators:
                continue
            if call.callee not in senders and call.callee.lower() not in senders:
                continue  # no row, wrapper or verb has this name: it sends nothing
            function = self.model.function_at(call.start)
            if self._plain_receiver(call, function):
                continue
            for bound in loops.iterations(self, call, function):
                ctx = Ctx(call.start, function, bound=bound)
                self.resolver.fresh()
                for request in self.at(call, ctx, 0):
                    if (
                        function is not None
                        and _may_depend(request, function)
                        and self._depends(request, function)
                    ):
                        continue  # a wrapper's template: its callers are the calls
                    found.append(request)
        return found

    def _plain_receiver(self, call: CallE, function: Function | None) -> bool:
        """A method called on a name nothing in the file makes a client or an object of
        (`event.get("items")` on a parameter): no row or wrapper can apply, and a literal
        URL among its arguments is read as a literal (tree.py) anyway."""
        receiver = call.receiver
        if not isinstance(receiver, Name) or call.callee in self.model.by_name:
            return False
        if any(h.language == "*" for h in self.helpers.named(call.callee, "*")):
            return False  # a configured wrapper applies on any receiver of its name
        if self.knowledge.client("object:*", call.callee) is not None:
            return False  # so does a method name only one library has
        name = receiver.name
        model = self.model
        if (
            name in self.knowledge.self_names
            or name in model.assigns
            or name in model.imports
            or name in model.loops
            or name in model.classes
            or name in self.knowledge.modules
            or name in self.resolver.duck
            or name in self.knowledge.default_imports
        ):
            return False
        if self.knowledge.types_by_name and name[:1].isupper():
            return False  # a class of the file's package (`MonitorClient.fromEnvironment()`)
        if function is not None and any(p[0] == name for p in function.params):
            return name not in function.types
        if any(f.receiver == name for f in model.functions_at(call.start)):
            return False  # the object a method is called on, named (Go's `c` of `func (c *T)`)
        # a field read by its bare name, of this class or one it extends (C#, Java's
        # `rest.getForObject(...)`)
        owner = model.class_at(call.start)
        return owner is None or not any(
            f"@{cls}.{name}" in model.assigns for cls in self.resolver.lineage(owner)
        )

    def _senders(self) -> set[str]:
        """Callee names a request can be made through: rows, the file's functions, wrappers
        of other files, verbs. Every other call is skipped before its arguments are read."""
        names = {name for row in self.knowledge.clients for name in row.callees}
        names.update(self.model.by_name)
        names.update(_VERB_WORDS)
        names.add("request")
        names.update(self.knowledge.commands)
        if "()" in names:  # a client object called itself (`api("/x")`)
            names.update(key for key in self.model.assigns if "." not in key)
            names.update(self.model.imports)
        if self.helpers:
            names.update(h.name for h in self.helpers.helpers)
            names.update(h.name.lower() for h in self.helpers.helpers)
        return names

    def _depends(self, request: Request, function: Function) -> bool:
        """Whether the request's path is built from a parameter of `function` (a base
        from a parameter alone, `run(host)`, leaves the path known: the call is one)."""
        call = request.call
        ctx = Ctx(call.start, function, open=function.node_id)
        self.resolver.fresh()
        return any(_leads(again.url, function.node_id) for again in self.at(call, ctx, 0))

    def at(self, call: CallE, ctx: Ctx, depth: int) -> list[Request]:
        """The requests one call sends (through wrappers, bound to its arguments)."""
        resolver = self.resolver
        receiver = None
        if call.receiver is not None:
            if isinstance(call.receiver, Name) and call.receiver.name in self.knowledge.self_names:
                receiver = ctx.this
                if receiver is None and (owner := self.model.class_at(call.start)) is not None:
                    receiver = ObjV("instance", owner)
            else:
                receiver = resolver.value(call.receiver, ctx)
        function = resolver.callee_function(call, ctx, 0) if depth < MAX_INLINE else None
        command = self.knowledge.command(call.callee) if call.receiver is None else None
        if command is not None and function is None:  # `curl ...` (not a function named so)
            return [commands.request(resolver, call, command, ctx)]
        if function is None:
            routed = self._through_override(call, receiver, ctx, depth)
            if routed is not None:
                return routed
        row, base, join, obj = rows.row(self, call, receiver, ctx)
        if row is not None and base is None and isinstance(call.receiver, Name):
            for attr in self.knowledge.base_attrs:  # `axios.defaults.baseURL = ...` before
                key = f"{call.receiver.name}.{attr}"
                if key in self.model.assigns:
                    base = resolver.name(key, ctx, 0)
                    break
        if row is not None and function is None:
            return [rows.request(self, call, row, ctx, base, join, obj)]
        if function is None and receiver is not None and _open_param(receiver, ctx.open):
            # `klass.new(uri)`, `session.get(url)` on a parameter of the wrapper being
            # read: its callers' arguments say which client, so the wrapper is one
            row = next((r for r in self.knowledge.clients if call.callee in r.callees), None)
            if row is not None:
                template = rows.request(self, call, row, ctx, None, "slash", None)
                template.method = None
                return [template]
        if depth < MAX_INLINE and function is not None and self.is_wrapper(function):
            return self._inlined(call, function, receiver, ctx, depth)
        return self._through_helpers(call, receiver, ctx)

    def _through_helpers(self, call: CallE, receiver: Value | None, ctx: Ctx) -> list[Request]:
        """The request a call sends through a wrapper of another file, where one is in
        scope (imported, of the package, a method of the receiver's class or its bases)."""
        if receiver is None and call.receiver is None and self.knowledge.implicit_this:
            owner = self.model.class_at(call.start)  # `get(path)`: a method of this class's
            receiver = ObjV("instance", owner) if owner is not None else None
        for helper in self.helpers.named(call.callee, self.model.language) if self.helpers else ():
            if helper.client or not any(
                in_scope(helper, call, option, self.model.imports, self.module, self.directory)
                for option in self._lineage(receiver)
            ):
                continue  # another module's function of that name, or a client object
            sent = through(self.resolver, helper, call, ctx)
            if sent is not None:
                sent.trusted = helper.strong
                if self.knowledge.request_url:  # a request another file's wrapper made
                    sent.url = rows.request_url(self, call, sent.url, ctx)
                return [sent]
        return []

    def _lineage(self, receiver: Value | None) -> list[Value | None]:
        """The receiver, then its class's base classes as objects (a method a class
        inherits from a base class of another file is a wrapper of that class)."""
        found: list[Value | None] = [receiver]
        for option in options(receiver) if receiver is not None else []:
            if isinstance(option, ObjV) and option.kind == "instance":
                for base in self.resolver.lineage(option.name)[1:]:
                    found.append(ObjV("instance", base))
                for base in self.model.classes.get(option.name, (0, 0, ()))[2]:
                    found.append(ObjV("instance", base.rsplit(".", 1)[-1]))
        return found

    def calls_in(self, function: Function) -> list[CallE]:
        """The calls in a function's own body and in the callbacks written inside it
        (`new Promise((resolve) => https.request(...))`: a closure sees the function's
        parameters), not in named functions nested inside it."""
        if self._by_function is None:
            self._by_function = {}
            for call in self.model.calls:
                owner = self.model.function_at(call.start)
                while owner is not None:
                    self._by_function.setdefault(owner.node_id, []).append(call)
                    if owner.name:
                        break
                    owner = self.model.parent_of(owner)
        return self._by_function.get(function.node_id, [])

    def is_wrapper(self, function: Function) -> bool:
        """Whether a parameter of the function reaches a request's URL."""
        known = self._wrapper.get(function.node_id)
        if known is not None:
            return known
        self._wrapper[function.node_id] = False  # recursion: not (yet) a wrapper
        result = False
        for call in self.calls_in(function):
            if self._plain_receiver(call, None):
                continue  # a method of a name nothing makes an object of: it sends nothing
            ctx = Ctx(call.start, function, open=function.node_id)
            for request in self.at(call, ctx, 1):
                if _leads(request.url, function.node_id) or _has_param(
                    request.base, function.node_id
                ):
                    result = True
                    break
            if result:
                break
        self._wrapper[function.node_id] = result
        return result

    def client_class(self, cls: str) -> str | None:
        """The client object kind a class of the file extends (`class S(requests.Session)`)."""
        seen = set()
        while cls in self.model.classes and cls not in seen:
            seen.add(cls)
            for written in self.model.classes[cls][2]:
                head, _, rest = written.partition(".")
                target = self.model.imports.get(head, head)
                factory = self.knowledge.factory(f"{target}.{rest}" if rest else target)
                if factory is not None:
                    return factory.name
                if written in self.model.classes:
                    cls = written
                    break
            else:
                return None
        return None

    def _class_fields(self, cls: str, ctx: Ctx) -> tuple[tuple[str, Value], ...]:
        """What the class body sets on a client class (HTTParty's `base_uri base`)."""
        setters = self.knowledge.class_setters
        if not setters or cls not in self.model.classes:
            return ()
        start, end, _ = self.model.classes[cls]
        fields: list[tuple[str, Value]] = []
        for call in self.model.calls:
            field = setters.get(call.callee)
            if field is None or call.receiver is not None or not start <= call.start < end:
                continue
            if self.model.function_at(call.start) is not None or not call.args:
                continue
            inner = Ctx(call.start, None, this=ctx.this, open=ctx.open)
            fields.append((field, self.resolver.value(call.args[0].value, inner)))
        return tuple(fields)

    def _through_override(
        self, call: CallE, receiver: Value | None, ctx: Ctx, depth: int
    ) -> list[Request] | None:
        """A verb method of a client subclass that overrides `request`: the override runs.

        `class S(requests.Session)` whose `request(method, url)` joins its base: `s.get(p)`
        is `s.request("GET", p)`, so the override is read with those arguments bound.
        """
        if depth >= MAX_INLINE or call.callee.lower() not in _VERB_WORDS:
            return None
        for option in options(receiver) if receiver is not None else []:
            if not isinstance(option, ObjV) or option.kind != "instance":
                continue
            kind = self.client_class(option.name)
            if kind is None:
                continue
            override = next(
                (f for f in self.model.by_name.get("request", ()) if f.owner == option.name),
                None,
            )
            if override is None or not self.is_wrapper(override):
                return None
            verb = Str((Lit(call.callee.upper(), call.start),), call.start, call.start)
            args = (Arg(verb), *call.args)
            env = tuple(self.resolver.bind(override, args, ctx, 0))
            found: list[Request] = []
            for inside in self.calls_in(override):
                inside_ctx = Ctx(inside.start, override, env, option, ctx.open, ctx.inline + 1)
                for request in self.at(inside, inside_ctx, depth + 1):
                    request.call = call if depth == 0 else request.call
                    request.wrapped = True
                    found.append(request)
            return found
        return None

    def join_of(self, kind: str) -> str:
        """How the library of a client object kind joins a path onto its base."""
        factory = next((f for f in self.knowledge.factories.values() if f.name == kind), None)
        return factory.join if factory else "slash"

    def _inlined(
        self, call: CallE, function: Function, receiver: Value | None, ctx: Ctx, depth: int
    ) -> list[Request]:
        """The requests of a wrapper of this file, its parameters bound to the call's
        arguments (a parameter named for the query is the query the flow does not show)."""
        env = tuple(self.resolver.bind(function, call.args, ctx, 0))
        this = receiver if receiver is not None else ctx.this
        named = _query_named(function, env)
        inner: list[Request] = []
        for inside in self.calls_in(function):
            inside_ctx = Ctx(inside.start, function, env, this, ctx.open, ctx.inline + 1)
            for request in self.at(inside, inside_ctx, depth + 1):
                request.call = call if depth == 0 else request.call
                request.wrapped = True
                if request.query is None:
                    request.query = named
                if request.chain:  # `authorized(url).DELETE().build()`: links after it
                    rows.chained(self, request, call, ctx)
                if self.knowledge.request_url:  # `req, _ := c.newRequest(...)`, then
                    request.url = rows.request_url(self, call, request.url, ctx)  # req.URL...
                inner.append(request)
        return inner


def _query_named(function: Function, env: tuple[tuple[str, Value], ...]) -> Value | None:
    """The mapping a wrapper's parameter named for the query holds (`$QueryParameter`,
    `params`): query values, whether or not the flow shows how they reach the URL."""
    for name, kind, _ in function.params:
        if kind or name.lower() not in QUERY_PARAMS:
            continue
        for bound, value in env:
            if bound == name and any(isinstance(o, MapV) for o in options(value)):
                return value
    return None


def _may_depend(request: Request, function: Function) -> bool:
    """Whether a request's URL has a piece named like one of the function's parameters
    (read with its parameters unbound, a parameter is a hole of its name)."""
    names = {name.lower() for name, _, _ in function.params}
    names.update(name.lower() for name in function.members)
    if not names:
        return False
    return any(
        isinstance(option, Text)
        and any(
            isinstance(p, Hole)
            and (p.hint in names or not names.isdisjoint(_WORD.findall(p.text.lower())))
            for p in option.pieces
        )
        for option in options(request.url)
    )


def _leads(value: Value | None, function: int) -> bool:
    """Whether a parameter of `function` stands before or in the URL's first path segment.

    Such a function is a wrapper: its callers say which endpoint it calls. A parameter
    further on (`f"/devices/{device_id}"`) is an id: the function itself is the call.
    """
    from apispec.lint.extract.build import locate

    for option in options(value) if value is not None else []:
        if not isinstance(option, Text):
            continue
        loc = locate(option)
        if loc is None:
            if _has_param(option, function):
                return True
            continue
        flat = loc.flat
        k = loc.start
        while k < loc.end and flat.chars[k] == "/":
            k += 1
        while k < loc.end and flat.chars[k] != "/":
            k += 1
        for hole in flat.holes[loc.start : k]:  # a parameter in the host is a base, no path
            if hole is not None and hole.param is not None and hole.param.function == function:
                return True
    return False


def _open_param(value: Value, function: int) -> bool:
    """Whether a value is wholly a parameter of `function` (a receiver handed in)."""
    for option in options(value):
        if isinstance(option, ParamV) and option.param.function == function:
            return True
        if (
            isinstance(option, Text)
            and len(option.pieces) == 1
            and isinstance(option.pieces[0], Hole)
            and option.pieces[0].param is not None
            and option.pieces[0].param.function == function
        ):
            return True
    return False


def _has_param(value: Value | None, function: int) -> bool:
    if value is None:
        return False
    if isinstance(value, Text):
        return any(
            isinstance(p, Hole) and p.param is not None and p.param.function == function
            for p in value.pieces
        )
    if isinstance(value, AltV):
        return any(_has_param(v, function) for v in value.options)
    if isinstance(value, ParamV):
        return value.param.function == function
    if isinstance(value, SeqV):
        return any(_has_param(v, function) for v in value.items)
    return False


__all__ = ["Request", "Requests"]
