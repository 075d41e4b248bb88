"""Value flow inside one file: what an expression holds, followed a bounded number of steps.

Names are read in their scope (the last assignment before the use, then what was
added to it since: `params["sort"] = ...`, `q.update(...)`, `clauses.append(...)`),
attributes of `self` in the class's methods, constructor defaults, environment
variables with defaults, format strings of every style, joins, encoders, function
returns (with the call's arguments bound), loops over tables and conditions (each
branch a value). A value that cannot be followed becomes a hole that remembers where
it is written. The walk is bounded by steps and depth, never by characters.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from itertools import product
from typing import TYPE_CHECKING

from apispec.lint.extract import builders, formats, names, objects
from apispec.lint.extract.context import (
    MAX_DEPTH,
    MAX_INLINE,
    MAX_OPTIONS,
    MAX_STEPS,
    Ctx,
    alt,
    as_text,
    entry_of,
    hint_of,
    is_param,
    key_span,
    options,
    unknown,
)
from apispec.lint.extract.ir import (
    Arg,
    Attr,
    CallE,
    Concat,
    Cond,
    Each,
    Entry,
    Expr,
    Format,
    FuncE,
    Function,
    Hole,
    Index,
    Interp,
    ListE,
    Lit,
    Mapping,
    MapV,
    Name,
    ObjV,
    Opaque,
    Param,
    Piece,
    SeqV,
    Str,
    Text,
    Value,
    argument,
)

_WORD = re.compile(r"[A-Za-z][\w.-]*")
_SLICE = re.compile(r"(\d*):")  # `items[1:]`: the elements from one on

if TYPE_CHECKING:
    from apispec.lint.extract.lower import FileModel
    from apispec.lint.knowledge import Factory, Knowledge


class Resolver:
    """Answers "what does this expression hold here?" for one file's model."""

    def __init__(self, model: FileModel, knowledge: Knowledge) -> None:
        self.model = model
        self.knowledge = knowledge
        self.steps = 0
        self.memo: dict[tuple[int, int], Value] = {}  # (id of assignment, open) -> value
        self.active: set[int] = set()
        # receiver name -> (class, module) its calls say it is (clients.Requests fills it)
        self.duck: dict[str, tuple[str, str]] = {}

    def fresh(self) -> None:
        """A new top-level question: the step budget starts again."""
        self.steps = 0

    # -- expressions ------------------------------------------------------------

    def value(self, expr: Expr, ctx: Ctx, depth: int = 0) -> Value:
        self.steps += 1
        if self.steps > MAX_STEPS or depth > MAX_DEPTH:
            return self.hole(expr)
        if isinstance(expr, Str):
            return self._string(expr, ctx, depth)
        if isinstance(expr, Interp):
            return self.value(expr.expr, ctx, depth)
        if isinstance(expr, Name):
            return names.name(self, expr.name, ctx, depth, expr.start, expr.end)
        if isinstance(expr, Concat):
            return self.concat([self.value(p, ctx, depth + 1) for p in expr.parts], expr.parts, ctx)
        if isinstance(expr, Format):
            return formats.format_value(self, expr, ctx, depth)
        if isinstance(expr, Mapping):
            return self._mapping(expr, ctx, depth)
        if isinstance(expr, ListE):
            items = tuple(self.value(i, ctx, depth + 1) for i in expr.items)
            return SeqV(items, expr.start, expr.end)
        if isinstance(expr, Each):
            return self._each(expr, ctx, depth)
        if isinstance(expr, Cond):
            return alt(self.value(o, ctx, depth + 1) for o in expr.options)
        if isinstance(expr, Attr):
            return self._attr(expr, ctx, depth)
        if isinstance(expr, Index):
            return self._index(expr, ctx, depth)
        if isinstance(expr, CallE):
            return self.call_value(expr, ctx, depth)
        if isinstance(expr, FuncE):
            return builders.function_value(expr)
        return self.hole(expr)

    def hole(self, expr: Expr) -> Text:
        if isinstance(expr, Opaque):
            return Text((Hole(expr.text, expr.start, expr.end, hint_of(expr.text)),))
        text = self.model.parsed.text[expr.start : expr.end]
        return Text((Hole(text, expr.start, expr.end, hint_of(text)),))

    def _string(self, expr: Str, ctx: Ctx, depth: int) -> Value:
        pieces: list[Piece] = []
        alternatives: list[list[Text]] = []
        for piece in expr.pieces:
            if isinstance(piece, Lit):
                pieces.append(piece)
                continue
            inner = piece.expr if isinstance(piece, Interp) else piece
            value = self.value(inner, ctx, depth + 1)
            found = options(value)
            choices = self._choices(found, piece) if len(found) > 1 else []
            if len(choices) > 1:
                alternatives.append(choices)
                pieces.append(Hole("", -1, -1))  # a marker filled per alternative
            elif choices:
                pieces.extend(choices[0].pieces)
            else:
                pieces.extend(self._variable(self.text_of(found[0], piece), inner, ctx).pieces)
        if not alternatives:
            return Text(tuple(pieces))
        return self._expand(pieces, alternatives)

    def _expand(self, pieces: list[Piece], alternatives: list[list[Text]]) -> Value:
        results: list[Value] = []
        for choice in product(*alternatives):
            filled: list[Piece] = []
            k = 0
            for piece in pieces:
                if isinstance(piece, Hole) and piece.start == -1:
                    filled.extend(choice[k].pieces)
                    k += 1
                else:
                    filled.append(piece)
            results.append(Text(tuple(filled)))
            if len(results) >= MAX_OPTIONS:
                break
        return alt(results)

    def _choices(self, found: list[Value], expr: Expr) -> list[Text]:
        """The texts an interpolated value may be; words alone are one variable segment.

        `f"{base}/{KINDS[kind]}/{oid}"` names a collection by a variable: whichever word
        it holds, the path has a parameter there (the rules know every collection it
        may be). A choice between paths (`/a/b` or `/c`) stays a choice, and so does one
        between a query and none (`${qs ? `?${qs}` : ""}`).
        """
        texts = [self.text_of(v, expr) for v in found]
        if all(isinstance(v, Text) for v in found) and not any(
            "/" in p.text or "?" in p.text
            for text in texts
            for p in text.pieces
            if isinstance(p, Lit)
        ):
            source = self.model.parsed.text[expr.start : expr.end]
            holes = [p for text in texts for p in text.pieces if isinstance(p, Hole)]
            # the names of what it may hold (an env var's, a parameter's), and a
            # parameter among them: a wrapper's caller still fills it
            hints = list(dict.fromkeys(h.hint for h in holes if h.hint)) or [hint_of(source)]
            param = next((h.param for h in holes if h.param is not None), None)
            return [Text((Hole(source, expr.start, expr.end, "|".join(hints), param),))]
        return texts

    def _variable(self, text: Text, expr: Expr, ctx: Ctx) -> Text:
        """A single word a name holds, interpolated or joined into a string, marked as a
        variable's (a path segment of it is a parameter); a wrapper's bound argument is
        the caller's text as written, never marked."""
        if not isinstance(expr, (Name, Attr, Index)):
            return text
        if (
            isinstance(expr, Name)
            and ctx.env is not None
            and any(k == expr.name for k, _ in ctx.env)
        ):
            return text
        if not (len(text.pieces) == 1 and isinstance(text.pieces[0], Lit)):
            return text
        lit = text.pieces[0]
        if not _WORD.fullmatch(lit.text):
            return text
        return Text((Lit(lit.text, lit.start, lit.offsets, True),))

    def text_of(self, value: Value, expr: Expr) -> Text:
        text = self.model.parsed.text[expr.start : expr.end]
        found = as_text(value, expr.start, expr.end, text)
        if found.pieces and all(isinstance(p, Hole) for p in found.pieces):
            # wholly unknown: the placeholder stands where this string names it
            first = found.pieces[0]
            assert isinstance(first, Hole)
            return Text((Hole(text, expr.start, expr.end, first.hint, first.param),))
        return found

    def concat(
        self, values: Sequence[Value], exprs: Sequence[Expr], ctx: Ctx | None = None
    ) -> Value:
        """Operands joined as strings (each alternative of each operand)."""
        if all(isinstance(v, SeqV) for v in values) and values:  # list + list
            items: list[Value] = []
            for v in values:
                if isinstance(v, SeqV):
                    items.extend(v.items)
            return SeqV(tuple(items))
        pieces: list[Piece] = []
        alternatives: list[list[Text]] = []
        for value, expr in zip(values, exprs, strict=True):
            found = options(value)
            choices = self._choices(found, expr) if len(found) > 1 and len(values) > 1 else []
            if len(choices) > 1 or (len(found) > 1 and not choices):
                alternatives.append(choices or [self.text_of(v, expr) for v in found])
                pieces.append(Hole("", -1, -1))
            elif choices:
                pieces.extend(choices[0].pieces)
            else:
                text = self.text_of(found[0], expr)
                joined = ctx is not None and len(values) > 1
                pieces.extend(
                    self._variable(text, expr, ctx).pieces if joined and ctx else text.pieces
                )
        if not alternatives:
            return Text(tuple(pieces))
        return self._expand(pieces, alternatives)

    def _mapping(self, expr: Mapping, ctx: Ctx, depth: int) -> MapV:
        entries: list[Entry] = []
        partial = False
        for key, value in expr.items:
            if key is None:  # a spread: its entries, when known
                spread = self.value(value, ctx, depth + 1)
                if isinstance(spread, MapV):
                    entries.extend(spread.entries)
                    partial = partial or spread.partial
                else:
                    partial = True
                    kept = [o for o in options(spread) if is_param(o)]
                    if kept:  # a wrapper's parameter spread in: its callers' entries
                        entries.append(Entry(None, value.start, value.end, kept[0]))
                continue
            name = self.literal(key, ctx, depth)
            start, end = key_span(key)  # the name, not its quotes
            written = (value.start, value.end)
            entries.append(Entry(name, start, end, self.value(value, ctx, depth + 1), written))
        return MapV(tuple(entries), expr.start, expr.end, partial)

    def _each(self, expr: Each, ctx: Ctx, depth: int) -> SeqV:
        """The element for each item of the iterable, when the items are known (a few);
        else two copies of it read with the item unknown (what a join puts between
        elements still shows)."""
        at = replace(ctx, pos=expr.element.start)
        items = self.elements(self.value(expr.iterable, ctx, depth + 1), ctx, depth)
        if not items or len(items) > MAX_OPTIONS:
            element = self.value(expr.element, at, depth + 1)
            return SeqV((element, element), expr.start, expr.end)
        found = tuple(
            self.value(expr.element, replace(at, bound=((expr.key, item), *at.bound)), depth + 1)
            for item in items
        )
        return SeqV(found, expr.start, expr.end)

    def same_key(self, written: str | None, wanted: str) -> bool:
        """A mapping's key as the language compares keys (PowerShell's hashtables ignore
        case: `$cfg.baseUri` reads `BaseUri`)."""
        if written is None:
            return False
        if self.knowledge.keys_ignore_case:
            return written.lower() == wanted.lower()
        return written == wanted

    def literal(self, expr: Expr, ctx: Ctx, depth: int = 0) -> str | None:
        """The expression's text when it is wholly known (a key, a method name)."""
        value = self.value(expr, ctx, depth + 1)
        if isinstance(value, Text) and all(isinstance(p, Lit) for p in value.pieces):
            return "".join(p.text for p in value.pieces if isinstance(p, Lit))
        return None

    # -- names ------------------------------------------------------------------

    # -- attributes, items, calls -------------------------------------------------

    def _attr(self, expr: Attr, ctx: Ctx, depth: int) -> Value:
        obj = expr.obj
        if isinstance(obj, Name) and obj.name in self.knowledge.self_names:
            owner = self.model.class_at(expr.start)
            if owner is not None:
                return names.field(self, owner, expr.name, ctx, depth + 1, expr.start, expr.end)
            found = self._literal_this(expr, ctx, depth)
            if found is not None:
                return found
        env = self.knowledge.environment(expr, self.model.parsed.text)
        if env is not None:
            return Text(
                (Hole(self.model.parsed.text[expr.start : expr.end], expr.start, expr.end, env),)
            )
        dotted = self.model.parsed.text[expr.start : expr.end]
        constant = self.knowledge.constants.get(dotted) if self.knowledge.constants else None
        if constant is not None:  # `HttpMethod.Patch`: the text the library constant names
            return Text((Lit(constant, expr.start),))
        if dotted in self.model.assigns:
            found = names.assigned_before(self, dotted, ctx, depth)
            if found is not None:
                return found
        target = self.value(obj, ctx, depth + 1)
        for option in options(target):
            if isinstance(option, Text) and expr.name in self.knowledge.text_attrs:
                return option  # an enumeration member's value, a URL object's `href`
            if isinstance(option, ObjV):
                if (
                    option.kind in ("instance", "class")
                    and option.name in self.model.classes
                    and not option.module  # a class of another module that shares the name
                ):
                    bound = replace(ctx, this=option)
                    return names.field(
                        self, option.name, expr.name, bound, depth + 1, expr.start, expr.end
                    )
                found = option.field(expr.name)
                if found is not None:
                    return found
                if option.kind == "module":
                    qualified = f"{option.name}.{expr.name}"
                    constant = self.knowledge.constants.get(qualified)
                    if constant is not None:  # `http.MethodDelete`
                        return Text((Lit(constant, expr.start),))
                    return ObjV("module", qualified)
            if isinstance(option, MapV):
                for entry in reversed(option.entries):
                    if self.same_key(entry.key, expr.name):
                        return entry.value
                if expr.name in self.knowledge.key_attrs:  # `$q.Keys`: the mapping's keys
                    keys = [e for e in option.entries if e.key is not None]
                    return SeqV(tuple(Text((Lit(e.key or "", e.key_start),)) for e in keys))
        return Text((Hole(dotted, expr.start, expr.end, dotted.lower()),))

    def _literal_this(self, expr: Attr, ctx: Ctx, depth: int) -> Value | None:
        """`this.base` in a method of an object literal bound to a name: its entry."""
        function = self.model.function_at(expr.start)
        if function is None or not function.owner or function.owner in self.model.classes:
            return None
        this = ctx.this
        if not isinstance(this, MapV):
            at = replace(ctx, pos=function.start, function=None, env=None)
            this = names.name(self, function.owner, at, depth + 1)
        return entry_of(this, expr.name)

    def _index(self, expr: Index, ctx: Ctx, depth: int) -> Value:
        env = self.knowledge.environment(expr, self.model.parsed.text)
        if env is not None:
            return Text(
                (Hole(self.model.parsed.text[expr.start : expr.end], expr.start, expr.end, env),)
            )
        target = self.value(expr.obj, ctx, depth + 1)
        key = self.literal(expr.key, ctx, depth)
        found: list[Value] = []
        for option in options(target):
            if isinstance(option, MapV):
                if key is not None:
                    for entry in reversed(option.entries):
                        if self.same_key(entry.key, key):
                            found.append(entry.value)
                            break
                else:
                    found.extend(e.value for e in option.entries)
            elif isinstance(option, SeqV):
                if key is not None and key.lstrip("-").isdigit():
                    index = int(key)
                    if -len(option.items) <= index < len(option.items):
                        found.append(option.items[index])
                elif key is not None and (m := _SLICE.fullmatch(key)):
                    found.append(SeqV(option.items[int(m.group(1) or 0) :]))
                else:
                    found.extend(option.items)
            elif isinstance(option, Text) and len(option.pieces) == 1:
                piece = option.pieces[0]
                if isinstance(piece, Hole):
                    return self._element(piece, key, expr)
        if found:
            return alt(found)
        return self.hole(expr)

    def _element(self, whole: Hole, key: str | None, expr: Index) -> Text:
        """An element (or the rest from one on) of an unknown list.

        Of a rest parameter (`*args`, a shell function's words) it is the parameter at
        that position: `args[0]`, `$1` is what a caller passes first, `"$@"` after a
        `shift` what it passes from the second on.
        """
        text = self.model.parsed.text[expr.start : expr.end]
        hint = hint_of(text) or whole.hint
        param = whole.param
        m = _SLICE.fullmatch(key) if key is not None else None
        if (
            param is not None
            and param.kind == "*"
            and key is not None
            and (key.isdigit() or m is not None)
        ):
            at = int(key) if key.isdigit() else int(m.group(1) or 0) if m else 0
            rest = "*" if m is not None else ""
            element = Param(param.function, param.index + at, "", rest)
            return Text((Hole(text, expr.start, expr.end, hint, element),))
        return Text((Hole(text, expr.start, expr.end, hint),))

    def call_value(self, call: CallE, ctx: Ctx, depth: int) -> Value:
        """What a call returns, where the model knows: readers, encoders, factories, functions."""
        knowledge = self.knowledge
        qualified = self.qualified(call, ctx, depth)
        env_default = knowledge.env_reader(qualified, call)
        if env_default is None and isinstance(call.receiver, CallE):
            # `System.getenv().getOrDefault(name, default)`: a reader on a reader's result
            inner = self.qualified(call.receiver, ctx, depth)
            env_default = knowledge.env_reader(f"{inner}().{call.callee}", call)
        if env_default is not None:
            name_arg, default_arg = env_default
            variable = self.literal(name_arg.value, ctx, depth) if name_arg is not None else None
            if default_arg is not None:
                return self.value(default_arg.value, ctx, depth + 1)
            text = self.model.parsed.text[call.start : call.end]
            return Text((Hole(text, call.start, call.end, (variable or "").lower()),))
        transform = knowledge.transform(qualified, call.callee)
        if transform is not None:
            return formats.transform(self, transform, call, ctx, depth)
        if any(qualified == m or qualified.startswith(m + ".") for m in knowledge.mocks):
            return ObjV("mock", qualified)  # `responses.RequestsMock()`: a test double
        if qualified in knowledge.router_factories:
            return ObjV("router", qualified)  # `express()`, `new Hono()`: a web app
        factory = knowledge.factory(qualified)
        if factory is not None:
            return self._made_by(factory, call, ctx, depth)
        configured = objects.made(self, call, ctx, depth)
        if configured is not None:
            return configured
        built = self._linked(call, ctx, depth) or self._built(call, ctx, depth)
        if built is not None:
            return built
        made = self._constructed(call, ctx, depth) if call.receiver is None else None
        if made is not None:
            return made
        made = self._made_on_class(call, ctx, depth) if made is None else None
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
        returned = self.returns(call, ctx, depth)
        if returned is not None:
            return returned
        receiver = call.receiver
        if knowledge.types_by_name and isinstance(receiver, Name) and self._a_class(receiver):
            # `MonitorClient.fromEnvironment()`: a static factory of a class of the file's
            # own package (defined elsewhere) makes an object of that class
            return ObjV("instance", receiver.name)
        read = objects.attribute(self, call, ctx, depth)
        return read if read is not None else self.hole(call)

    def _made_by(self, factory: Factory, call: CallE, ctx: Ctx, depth: int) -> ObjV:
        """The client object a factory call makes, with the fields its arguments set."""
        fields = []
        for field_name, where in factory.fields:
            found = self.place(call, where, factory.config, ctx, depth)
            if found is not None:
                fields.append((field_name, found))
        if factory.method:  # a request builder's method until a link sets one
            fields.append(("method", Text((Lit(factory.method, call.start),))))
        client = ObjV("client", factory.name, tuple(fields))
        if factory.configure:  # `HttpClient(CIO) { defaultRequest { url(base) } }`
            client = builders.configured(self, call, client, ctx, depth) or client
        return client

    def _a_class(self, name: Name) -> bool:
        """A capitalised name the file neither assigns nor imports: a class of its package."""
        return (
            name.name[:1].isupper()
            and name.name not in self.model.assigns
            and self._imported(name.name) is None
        )

    def _linked(self, call: CallE, ctx: Ctx, depth: int) -> Value | None:
        """A link of a builder chain (`.header(k, v)`, `.uri("/x")`): the builder with
        the part it sets (knowledge.Link rows; builders.py)."""
        if call.receiver is None or (
            call.callee not in self.knowledge.link_names and not self.knowledge.fluent_kinds
        ):
            return None
        found: list[Value] = []
        receiver = self.value(call.receiver, ctx, depth + 1)
        for option in options(receiver):
            if isinstance(option, ObjV) and option.kind == "mock":
                return option  # a test double's method (`server.expect(...)`): the double
            if isinstance(option, ObjV) and option.kind == "client":
                link = self.knowledge.link(option.name, call.callee)
                if link is not None:
                    found.append(builders.linked(self, option, link, call, ctx, depth))
        if not found and all(unknown(o) for o in options(receiver)):
            # `api.newBuilder().addPathSegment("x")` on an object the file says nothing
            # of: a link only one kind of builder has says the kind, the object its URL
            sole = self.knowledge.sole_builder(call.callee)
            if sole is not None:
                made = ObjV("client", sole.on.removeprefix("object:"), (("url", receiver),))
                found.append(builders.linked(self, made, sole, call, ctx, depth))
        return alt(found) if found else None

    def _built(self, call: CallE, ctx: Ctx, depth: int) -> Value | None:
        """A method of a fluent client object (`resty.New().SetBaseURL(b).R()`): the object,
        with what the method sets (its knowledge row says which field)."""
        if call.receiver is None or not self.knowledge.may_build(call.callee):
            return None
        found: list[Value] = []
        for option in options(self.value(call.receiver, ctx, depth + 1)):
            if not isinstance(option, ObjV) or option.kind != "client":
                continue
            builder = self.knowledge.builder("object:" + option.name, call.callee)
            if builder is not None:
                found.append(names.built(self, option, builder, call, ctx, depth))
        return alt(found) if found else None

    def _constructed(self, call: CallE, ctx: Ctx, depth: int) -> ObjV | None:
        """A bare call that makes an object the file knows: a class of the file, what a
        function-typed parameter is declared to return, `cls(...)`, `super()`."""
        if call.callee in self.model.classes:
            return self.instance(call.callee, call, ctx, depth)
        declared = self._declared_result(call)
        if declared is not None:
            return declared
        owner = self.model.class_at(call.start)
        if owner is not None and call.callee in self.knowledge.self_names:
            return self.instance(owner, call, ctx, depth)  # `cls(...)` in a class method
        if owner is not None and call.callee == "super":
            return ObjV("super", owner)
        return None

    def _made_on_class(self, call: CallE, ctx: Ctx, depth: int) -> ObjV | None:
        """A constructor called on its class (`Prtg::new(base)`, Ruby's `Prtg.new(base)`):
        an object of the file's class, or of a class the file imports."""
        receiver = call.receiver
        if not isinstance(receiver, Name) or call.callee not in self.knowledge.constructors:
            return None
        if receiver.name in self.model.classes:
            return self.instance(receiver.name, call, ctx, depth)
        imported = self.model.imports.get(receiver.name)
        if imported is not None and receiver.name[:1].isupper():
            return ObjV("instance", receiver.name, module=imported.rsplit(".", 1)[0])
        return None

    def _declared_result(self, call: CallE) -> ObjV | None:
        """A call of a function-typed parameter (`client func() *prtg.Client`): an object
        of the type it is declared to return."""
        for function in self.model.functions_at(call.start):
            written = function.types.get(call.callee + "()")
            if written is not None:
                return names.typed(self, written)
            if any(p[0] == call.callee for p in function.params):
                return None
        return None

    def place(
        self,
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
            value = self.value(arg.value, ctx, depth + 1)
            positional = [a for a in call.args if a.name is None and not a.spread]
            at = next((k for k, a in enumerate(positional) if a is arg), -1)
            if (
                at not in config
                or not where[1]
                or not any(isinstance(o, MapV) for o in options(value))
            ):
                return value
        if not where[1] or not config:
            return None
        for index in config:
            holder = argument(call.args, (index, ""))
            if holder is None:
                continue
            found = entry_of(self.value(holder.value, ctx, depth + 1), where[1])
            if found is not None:
                return found
        return None

    def instance(self, cls: str, call: CallE, ctx: Ctx, depth: int) -> ObjV:
        """An object of a class of this file, its constructor's parameters bound."""
        ctor = next(
            (
                f
                for f in self.model.functions
                if f.owner == cls and f.name in self.knowledge.constructors
            ),
            None,
        )
        fields: list[tuple[str, Value]] = []
        if ctor is not None:
            fields.extend(self.bind(ctor, call.args, ctx, depth))
        else:  # no constructor: keywords name the fields (`Client{base: b}`, a dataclass)
            fields.extend(
                ("@" + a.name, self.value(a.value, ctx, depth + 1)) for a in call.args if a.name
            )
        return ObjV("instance", cls, tuple(fields))

    def bind(
        self, function: Function, args: Sequence[Arg], ctx: Ctx, depth: int
    ) -> list[tuple[str, Value]]:
        """Parameter name -> argument value, by position and by keyword (a mapping spread
        into the call gives keywords: `f(**opts)`, PowerShell's `Invoke-X @params`)."""
        bound: list[tuple[str, Value]] = []
        positional = [a for a in args if a.name is None and not a.spread]
        keywords = {a.name: a for a in args if a.name}
        spread = self._spread_keywords(args, ctx, depth)
        rest: list[Entry] = []
        names = {p[0] for p in function.params}
        if self.knowledge.positional_fill:  # positional arguments take the unnamed params
            taken = {name for name, _, _ in function.params if name in keywords}
            taken.update(name for name, _, _ in function.params if name.lower() in spread)
            free = [k for k, (name, _, _) in enumerate(function.params) if name not in taken]
            order = {k: free.index(k) for k in free}
        for index, (name, kind, default) in enumerate(function.params):
            at = order.get(index, -1) if self.knowledge.positional_fill else index
            if kind == "**":
                rest.extend(
                    Entry(k, a.value.start, a.value.end, self.value(a.value, ctx, depth + 1))
                    for k, a in keywords.items()
                    if k not in names
                )
                for spread_arg in (a for a in args if a.spread == "**"):
                    found = self.value(spread_arg.value, ctx, depth + 1)
                    if isinstance(found, MapV):
                        rest.extend(found.entries)
                bound.append((name, MapV(tuple(rest))))
            elif kind == "*":
                items = tuple(self.value(a.value, ctx, depth + 1) for a in positional[index:])
                bound.append((name, SeqV(items)))
            elif name in keywords:
                bound.append((name, self.value(keywords[name].value, ctx, depth + 1)))
            elif name.lower() in spread:
                bound.append((name, spread[name.lower()]))
            elif kind == "kw":
                continue  # keyword-only (`def f(url:)`): never a positional argument
            elif 0 <= at < len(positional):
                bound.append((name, self.value(positional[at].value, ctx, depth + 1)))
            elif default is not None and not _blank(default) and "" not in spread:
                # left out by the call: the parameter's default (an empty text says
                # nothing: `token = ""` stands for a value given elsewhere)
                given = replace(ctx, pos=default.start, env=None)
                bound.append((name, self.value(default, given, depth + 1)))
        return bound

    def _spread_keywords(self, args: Sequence[Arg], ctx: Ctx, depth: int) -> dict[str, Value]:
        """The entries of mappings spread into a call, by lower-case key; the key "" is
        set when a spread is not known whole (any parameter may come from it)."""
        found: dict[str, Value] = {}
        for arg in args:
            if arg.spread != "**":
                continue
            for option in options(self.value(arg.value, ctx, depth + 1)):
                if not isinstance(option, MapV) or option.partial:
                    found[""] = Text(())
                if isinstance(option, MapV):
                    for entry in option.entries:
                        if entry.key is not None:
                            found.setdefault(entry.key.lower(), entry.value)
        return found

    def returns(self, call: CallE, ctx: Ctx, depth: int) -> Value | None:
        """A function of this file that returns a value built from its arguments."""
        if ctx.inline >= MAX_INLINE:
            return None
        function = self.callee_function(call, ctx, depth)
        if function is None or not function.returns:
            return None
        env = tuple(self.bind(function, call.args, ctx, depth))
        this = self.receiver_object(call, ctx, depth)
        found = []
        for lowered in function.returns[:4]:
            expr = lowered()
            inner = Ctx(expr.start, function, env, this, ctx.open, ctx.inline + 1)
            found.append(self.value(expr, inner, depth + 1))
        return alt(found)

    def receiver_object(self, call: CallE, ctx: Ctx, depth: int) -> Value | None:
        receiver = call.receiver
        if receiver is None:
            return None
        if isinstance(receiver, Name) and receiver.name in self.knowledge.self_names:
            return ctx.this
        return self.value(receiver, ctx, depth + 1)

    def callee_function(self, call: CallE, ctx: Ctx, depth: int) -> Function | None:
        """The function of this file a call runs: by name in scope, or a method of its receiver."""
        candidates = self.model.by_name.get(call.callee)
        if not candidates:
            return None
        receiver = call.receiver
        if receiver is None:
            plain = [f for f in candidates if f.owner is None]
            if plain or not self.knowledge.implicit_this:
                return plain[0] if plain else None
            # `send(req)`: a method of the class around the call, called without `this.`
            return self._method_of(self.model.class_at(call.start), candidates)
        if isinstance(receiver, Name) and receiver.name in self.knowledge.self_names:
            owner = self.model.class_at(call.start)
            if owner is None and ctx.function is not None:  # a method of an object literal
                owner = ctx.function.owner
            return self._method_of(owner, candidates)
        if isinstance(receiver, Name) and receiver.name not in self.model.classes:
            found = next((f for f in candidates if f.owner == receiver.name), None)
            if found is not None:  # `api.get(...)` for `const api = { get(p) {...} }`
                return found
        for option in options(self.value(receiver, ctx, depth + 1)):
            if isinstance(option, ObjV) and option.kind in ("instance", "class"):
                if option.module:
                    continue  # `c.http.Do(req)`: net/http's Client, not the file's own
                found = self._method_of(option.name, candidates)
                if found is not None:
                    return found
        return None

    def _method_of(self, owner: str | None, candidates: list[Function]) -> Function | None:
        """The method of `owner` among the candidates, or one it inherits from a base class
        of this file (`class PrtgClient extends BaseClient`: `get(path)` is BaseClient's)."""
        for cls in self.lineage(owner):
            found = next((f for f in candidates if f.owner == cls), None)
            if found is not None:
                return found
        return None

    def lineage(self, owner: str | None) -> list[str]:
        """A class and the classes it extends, nearest first (those this file names)."""
        found: list[str] = []
        while owner is not None and owner not in found:
            found.append(owner)
            bases = self.model.classes.get(owner, (0, 0, ()))[2]
            owner = next((b.rsplit(".", 1)[-1] for b in bases), None)
        return found

    def qualified(self, call: CallE, ctx: Ctx, depth: int) -> str:
        """`module.function` for a module's function (`requests.get`), else the callee."""
        receiver = call.receiver
        if receiver is None:
            return self._imported(call.callee) or call.callee
        if isinstance(receiver, Name):
            target = self._imported(receiver.name)
            if target is not None:
                return f"{target}.{call.callee}"
            if receiver.name not in self.model.assigns and self._names_module(receiver.name):
                return f"{receiver.name}.{call.callee}"
        if isinstance(receiver, Attr):
            dotted = _dotted(receiver) or self.model.parsed.text[receiver.start : receiver.end]
            head = dotted.split(".")[0]
            target = self._imported(head)
            if target is not None:
                return f"{target}{dotted[len(head) :]}.{call.callee}"
            if self._names_module(dotted):
                return f"{dotted}.{call.callee}"
        if isinstance(receiver, Str):
            return f"str.{call.callee}"
        return call.callee

    def _names_module(self, dotted: str) -> bool:
        """A name not imported is the module it names when it is an HTTP library's or a test
        double's (`responses.RequestsMock()`): snippets and examples leave imports out."""
        mocks = self.knowledge.mocks
        return dotted.split(".")[0] in self.knowledge.modules or any(
            dotted == m or dotted.startswith(m + ".") for m in mocks
        )

    def _imported(self, name: str) -> str | None:
        """What a name imports, or names without an import (`String`, `System`)."""
        target = self.model.imports.get(name)
        if target is not None:
            return target
        if name in self.model.assigns or name in self.model.classes:
            return None
        return self.knowledge.default_imports.get(name)

    # -- formats, joins, encoders ---------------------------------------------------

    # -- the flow modules' answers, for callers outside value flow --------------------

    def name(self, name: str, ctx: Ctx, depth: int, start: int = 0, end: int = 0) -> Value:
        return names.name(self, name, ctx, depth, start, end)

    def field(self, owner: str, name: str, ctx: Ctx, depth: int, start: int, end: int) -> Value:
        return names.field(self, owner, name, ctx, depth, start, end)

    def typed(self, written: str | None) -> ObjV | None:
        return names.typed(self, written)

    def elements(
        self, iterable: Value, ctx: Ctx, depth: int, pairs: bool = False, unpacked: bool = False
    ) -> list[Value]:
        return names.elements(self, iterable, ctx, depth, pairs, unpacked)


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
