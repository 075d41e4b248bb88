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
from bisect import bisect_right
from dataclasses import replace
from typing import TYPE_CHECKING

from apispec.lint.budget import check
from apispec.lint.extract import builders, commands, configured, formats, names, setters
from apispec.lint.extract.build import texts
from apispec.lint.extract.context import (
    MAX_INLINE,
    Ctx,
    element,
    known_text,
    options,
    pairs,
    unknown,
)
from apispec.lint.extract.headers import object_headers
from apispec.lint.extract.imported import COMMON, imported_client, in_scope, through
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
from apispec.lint.knowledge import RECEIVER, VERBS, Client

if TYPE_CHECKING:
    from apispec.lint.extract.lower import FileModel, Loop
    from apispec.lint.knowledge import Knowledge

_VERB_WORDS = frozenset(VERBS)
_WORD = re.compile(r"[a-z_][a-z0-9_]*")


def _names_word(name: str, text: str) -> bool:
    """Whether `name` is written in `text` as a whole word (in any case: PowerShell's
    names ignore it, and a loop variable is lowered in lower case)."""
    name, text = name.lower(), text.lower()
    at = text.find(name)
    while at >= 0:
        before = text[at - 1] if at else " "
        after = text[at + len(name)] if at + len(name) < len(text) else " "
        if not (before.isalnum() or before == "_") and not (after.isalnum() or after == "_"):
            return True
        at = text.find(name, at + 1)
    return False


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
            for bound in self.iterations(call, function):
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

    def iterations(
        self, call: CallE, function: Function | None
    ) -> list[tuple[tuple[str, Value], ...]]:
        """The loop variables of each pass of the innermost loop around a call.

        `for path, method in [("/a", "GET"), ("/b", "POST")]: send(method, path)` makes
        two requests, each with its own pair: the variables are bound together.
        """
        group = self._innermost_loop(call)
        if not group:
            return [()]
        written = self.model.parsed.text[call.start : call.end]
        if not any(_names_word(loop.key, written) for loop in group):
            return [()]  # the call names none of the loop's variables
        self.resolver.fresh()
        iterable = self.resolver.value(group[0].iterable, Ctx(group[0].start, function))
        items = self.resolver.elements(
            iterable,
            Ctx(group[0].start, function),
            0,
            group[0].pairs,
            any(pairs(loop.unpack) for loop in group),
        )
        if not items or len(items) > 12:
            return [()]
        return [
            tuple(
                (loop.key, element(item, loop.unpack) if loop.unpack != -1 else item)
                for loop in group
            )
            for item in items
        ]

    def _innermost_loop(self, call: CallE) -> list[Loop]:
        """The loop variables of the innermost loop around a call (one `for` may bind several).

        Loops nest like the code's blocks, so the innermost one around a position is found
        from the last loop starting before it by climbing to the loops around that one.
        """
        if self._loops is None:
            by_start: dict[int, list[Loop]] = {}
            for loops in self.model.loops.values():
                for loop in loops:
                    by_start.setdefault(loop.start, []).append(loop)
            self._loops = sorted(by_start.values(), key=lambda group: group[0].start)
            self._loop_starts = [group[0].start for group in self._loops]
            stack: list[int] = []
            self._loop_parent = []
            for k, group in enumerate(self._loops):
                while stack and not group[0].start < self._loops[stack[-1]][0].end:
                    stack.pop()
                self._loop_parent.append(stack[-1] if stack else -1)
                stack.append(k)
        k = bisect_right(self._loop_starts, call.start) - 1
        while k >= 0 and not call.start < self._loops[k][0].end:
            k = self._loop_parent[k]
        return self._loops[k] if k >= 0 else []

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
        row, base, join, obj = self._row(call, receiver, ctx)
        if row is not None and base is None and isinstance(call.receiver, Name):
            for attr in self.knowledge.base_attrs:  # `axios.defaults.baseURL = ...` before
                key = f"{call.receiver.name}.{attr}"
                if key in self.model.assigns:
                    base = resolver.name(key, ctx, 0)
                    break
        if row is not None and function is None:
            return [self._request(call, row, ctx, base, join, obj)]
        if function is None and receiver is not None and _open_param(receiver, ctx.open):
            # `klass.new(uri)`, `session.get(url)` on a parameter of the wrapper being
            # read: its callers' arguments say which client, so the wrapper is one
            row = next((r for r in self.knowledge.clients if call.callee in r.callees), None)
            if row is not None:
                template = self._request(call, row, ctx, None, "slash", None)
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
                    sent.url = self._request_url(call, sent.url, ctx)
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

    def _row(
        self, call: CallE, receiver: Value | None, ctx: Ctx
    ) -> tuple[Client | None, Value | None, str, ObjV | None]:
        knowledge = self.knowledge
        for option in options(receiver) if receiver is not None else []:
            on_object = self._object_row(option, call, ctx)
            if on_object is not None:
                return on_object
        qualified = self.resolver.qualified(call, ctx, 0)
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
            itself = self._called_itself(call, ctx)
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
        self, option: Value, call: CallE, ctx: Ctx
    ) -> tuple[Client, Value | None, str, ObjV | None] | None:
        """The row for a method of a client object (made here, of a client subclass or a
        class configured as a client, or imported from the module that makes it), or of a
        client module (`Http::get(...)`: Laravel's module is itself a client)."""
        knowledge = self.knowledge
        if isinstance(option, ObjV) and option.kind in ("instance", "super", "class"):
            kind = self.client_class(option.name)
            if kind is not None:
                option = ObjV("client", kind, self._class_fields(option.name, ctx))
        if isinstance(option, ObjV) and option.kind == "module":
            row = knowledge.client(option.name, call.callee)
            if row is not None:
                return row, None, "slash", None
            kind = knowledge.module_clients.get(option.name)
            if kind is not None:
                option = ObjV("client", kind)
            else:
                made = self._imported(option, call)
                row = knowledge.client("object:" + made.name, call.callee) if made else None
                if made is not None and row is not None:
                    return row, made.field("base"), self.join_of(made.name), made
        if isinstance(option, ObjV) and option.kind == "client":
            row = knowledge.client("object:" + option.name, call.callee)
            if row is not None:
                factory = next(
                    (f for f in knowledge.factories.values() if f.name == option.name), None
                )
                base = option.field("base")
                if base is None and factory is not None and factory.base[1]:
                    base = setters.set_later(self, call, factory.base[1])
                return row, base, factory.join if factory else "slash", option
        return None

    def _called_itself(
        self, call: CallE, ctx: Ctx
    ) -> tuple[Client, Value | None, str, ObjV | None] | None:
        """A client object called itself: `api("/x")` for `api = ofetch.create(...)`."""
        called = self.resolver.name(call.callee, ctx, 0, call.start, call.start)
        for option in options(called):
            if isinstance(option, ObjV) and option.kind == "module":
                option = self._imported(option, call) or option
            if isinstance(option, ObjV) and option.kind == "client":
                row = self.knowledge.client("object:" + option.name, "()")
                if row is not None:
                    return row, option.field("base"), self.join_of(option.name), option
        return None

    def _imported(self, option: ObjV, call: CallE) -> ObjV | None:
        """A client object another module exports, where this file imports it."""
        if not self.helpers:
            return None
        language = self.model.language
        return imported_client(self.helpers, option, language, self.module, call.start)

    def join_of(self, kind: str) -> str:
        """How the library of a client object kind joins a path onto its base."""
        factory = next((f for f in self.knowledge.factories.values() if f.name == kind), None)
        return factory.join if factory else "slash"

    def _request(
        self,
        call: CallE,
        row: Client,
        ctx: Ctx,
        base: Value | None,
        join: str,
        obj: ObjV | None,
    ) -> Request:
        resolver = self.resolver
        found_url = self._place(call, row.url, row.config, ctx)
        url = found_url if found_url is not None else Text((Hole("", call.start, call.start),))
        if row.url == RECEIVER and call.receiver is not None:
            url = resolver.value(call.receiver, ctx)
        if row.template >= 0:  # `getForObject("/x/{id}?f={f}", T.class, id, f)`
            url = formats.uri_template(resolver, url, call.args[row.template :], ctx)
        held, held_query = builders.url_and_query(url)  # a URL object: its text and query
        if held is not None:
            url = held
        method = self._method(call, row, ctx)
        if row.method == "line":
            method, url = builders.request_line(url)
        query = self._place(call, row.query, row.config, ctx)
        headers = self._place(call, row.headers, row.config, ctx)
        if query is None:  # `**kwargs` spread into the call: its `params` entry
            query = self._from_spread(call, ctx, "params")
        if query is None and method in row.body_query:
            query = self._place(call, row.body, row.config, ctx)  # a GET's body: its query
        if headers is None:
            headers = self._from_spread(call, ctx, "headers")
        if headers is None:
            headers = object_headers(self, call)
        if query is None and held_query is not None:
            query = held_query
        if self.knowledge.request_url:
            url = self._request_url(call, url, ctx)
        built_query, built_headers = setters.built(self, call, ctx)
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
            self._chained(request, call, ctx)
        if row.declared:
            builders.bound(request, call, self.model, self.resolver, self.knowledge)
        if row.configure:  # `client.get("x") { parameter("filter", f) }`
            given: tuple[tuple[str, Value], ...] = (
                (("url", url),) if found_url is not None and texts(url) else ()
            )
            made = builders.configured(resolver, call, ObjV("client", row.configure, given), ctx, 0)
            if made is not None:
                builders.apply(request, made, self.knowledge)
        if obj is not None:
            defaults = obj.field("params")
            if defaults is not None:
                request.extra_query.append(defaults)
            default_headers = obj.field("headers")
            if default_headers is not None and request.headers is None:
                request.headers = default_headers
        configured.apply(self.model, self.knowledge, resolver, request, ctx)
        return request

    def _chained(self, request: Request, call: CallE, ctx: Ctx) -> None:
        """A request a builder chain makes: the object its last link returns says the
        URL, the method, the headers and the query (links before and after the call)."""
        top = self.model.chain(call)
        made = top if top is not None else call
        value = self.resolver.value(made, ctx)
        holder = self.model.holder(made.node_id) if isinstance(made, CallE) else None
        function = ctx.function
        if holder and "." not in holder and function is not None and call.start < function.end:
            # the builder held in a variable: the links its statements call on it after
            # (`conn.setRequestMethod("POST")`), as it is when its function ends
            at_end = Ctx(function.end - 1, function, ctx.env, ctx.this, ctx.open, ctx.inline)
            later = self.resolver.name(holder, at_end, 0)
            if any(isinstance(o, ObjV) and o.kind == "client" for o in options(later)):
                value = later
        for option in options(value):
            if isinstance(option, ObjV) and option.kind == "client":
                builders.apply(request, option, self.knowledge)
                return

    def _method(self, call: CallE, row: Client, ctx: Ctx) -> str | None:
        """The method a row's call sends; an argument or option that names it (a library
        whose method is an option sends GET when the known options name none)."""
        if not isinstance(row.method, tuple):
            return builders.method_of(self.resolver, call, row, ctx)
        verb = self._place(call, row.method, row.config, ctx)
        literal = known_text(verb) if verb is not None else None
        if literal:
            return literal.upper()
        if verb is not None:
            return builders.verb_of(verb)  # `HttpMethod.PATCH`, an imported constant
        if row.default_method and self._spreads_known(call, ctx):
            return row.default_method  # no method given: the library's default
        if row.method[0] < 0 and self._options_known(call, row, ctx):
            return "GET"
        return None

    def _request_url(self, call: CallE, url: Value, ctx: Ctx) -> Value:
        """A request object's URL with the parts set on it after it is made, in its
        function (`req.URL.RawQuery = q.Encode()` before the request is sent)."""
        holder = self.model.holder(call.node_id)
        if not holder:
            return url
        function = self.model.function_at(call.start)
        end = function.end - 1 if function is not None else len(self.model.parsed.text)
        key = f"{holder}.{self.knowledge.request_url}"
        return names.url_parts(self.resolver, key, url, call.start, replace(ctx, pos=end), 0)

    def _options_known(self, call: CallE, row: Client, ctx: Ctx) -> bool:
        """Whether the call's options object, if any, is known whole (no unknown spread,
        not a parameter): then a method it does not name is the library's default."""
        if not row.config or any(a.spread for a in call.args):
            return False
        positional = [a for a in call.args if a.name is None and not a.spread]
        for index in row.config:
            if index >= len(positional) or index <= row.url[0]:
                continue
            for option in options(self.resolver.value(positional[index].value, ctx)):
                if not isinstance(option, MapV) or option.partial:
                    return False  # an options object the code does not show
        return True

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
                    self._chained(request, call, ctx)
                if self.knowledge.request_url:  # `req, _ := c.newRequest(...)`, then
                    request.url = self._request_url(call, request.url, ctx)  # req.URL...
                inner.append(request)
        return inner

    def _place(
        self, call: CallE, place: tuple[int, str], config: tuple[int, ...], ctx: Ctx
    ) -> Value | None:
        """The value at a row's place; a keyword may also come from a mapping spread into
        the call (`requests.get(**opts)`, PowerShell's splatting `Invoke-RestMethod @p`)."""
        found = self.resolver.place(call, place, config, ctx)
        if found is None and place[1]:
            return self._from_spread(call, ctx, place[1])
        return found

    def _from_spread(self, call: CallE, ctx: Ctx, key: str) -> Value | None:
        """The entry `key` of a mapping spread into the call (names compared as the
        language's keywords are: without case)."""
        for arg in call.args:
            if arg.spread != "**":
                continue
            value = self.resolver.value(arg.value, ctx)
            for option in options(value):
                if isinstance(option, MapV):
                    for entry in reversed(option.entries):
                        if entry.key is not None and entry.key.lower() == key.lower():
                            return entry.value
                if isinstance(option, ParamV):
                    return None
        return None

    def _spreads_known(self, call: CallE, ctx: Ctx) -> bool:
        """Whether every mapping spread into the call is known whole (a keyword it does
        not hold is not given)."""
        for arg in call.args:
            if arg.spread != "**":
                continue
            for option in options(self.resolver.value(arg.value, ctx)):
                if not isinstance(option, MapV) or option.partial:
                    return False
        return True


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


def positional(args: tuple[Arg, ...]) -> list[Arg]:
    return [a for a in args if a.name is None and not a.spread]


__all__ = ["Request", "Requests", "positional", "replace"]
