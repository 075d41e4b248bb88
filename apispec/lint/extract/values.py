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
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from itertools import product
from typing import TYPE_CHECKING

from apispec.lint.extract.ir import (
    AltV,
    Arg,
    Attr,
    CallE,
    Concat,
    Cond,
    Entry,
    Expr,
    Format,
    Function,
    Hole,
    Index,
    ListE,
    Lit,
    Mapping,
    MapV,
    Name,
    ObjV,
    Opaque,
    Param,
    ParamV,
    Piece,
    SeqV,
    Str,
    Text,
    Value,
    argument,
)

if TYPE_CHECKING:
    from apispec.lint.extract.lower import Assign, FileModel
    from apispec.lint.knowledge import Knowledge

MAX_STEPS = 4000  # per top-level question; a file of tables and formats stays far below
MAX_DEPTH = 24  # names followed through names
MAX_INLINE = 3  # function calls inlined inside one another
MAX_OPTIONS = 12  # alternatives kept for one value (conditions, loops over tables)

_PRINTF = re.compile(r"%(?:\((\w+)\))?[-+ #0]*(?:\*|\d+)?(?:\.(?:\*|\d+))?[hlL]?([a-zA-Z%])")
_BRACE = re.compile(r"\{([^{}]*)\}")


@dataclass(frozen=True, slots=True)
class Ctx:
    """Where a value is read: position, the function evaluated, its bound parameters."""

    pos: int
    function: Function | None = None
    env: tuple[tuple[str, Value], ...] | None = None  # bound parameters (an inlined call)
    this: Value | None = None  # the receiver object of an inlined method call
    open: int = -1  # node id of the function whose parameters stay open (a wrapper)
    inline: int = 0


def hint_of(text: str) -> str:
    """The last identifier of an expression, lower case (`self.base_url` -> `base_url`)."""
    words = re.findall(r"[A-Za-z_][A-Za-z0-9_]*", text)
    return words[-1].lower() if words else ""


def as_text(value: Value, start: int = 0, end: int = 0, text: str = "") -> Text:
    """A value where a string is expected: a text, or a hole standing for it."""
    if isinstance(value, Text):
        return value
    if isinstance(value, ParamV):
        return Text(
            (Hole(text, value.start or start, value.end or end, hint_of(text), value.param),)
        )
    if isinstance(value, AltV):
        return as_text(value.options[0], start, end, text) if value.options else Text(())
    if isinstance(value, MapV) and value.query:  # `${new URLSearchParams(...)}`
        return query_text(value)
    return Text((Hole(text, start, end, hint_of(text)),))


def options(value: Value) -> list[Value]:
    return list(value.options) if isinstance(value, AltV) else [value]


def alt(values: Iterable[Value]) -> Value:
    flat: list[Value] = []
    for value in values:
        for option in options(value):
            if option not in flat:
                flat.append(option)
    if len(flat) == 1:
        return flat[0]
    return AltV(tuple(flat[:MAX_OPTIONS]))


class Resolver:
    """Answers "what does this expression hold here?" for one file's model."""

    def __init__(self, model: FileModel, knowledge: Knowledge) -> None:
        self.model = model
        self.knowledge = knowledge
        self.steps = 0
        self._memo: dict[tuple[int, int], Value] = {}  # (id of assignment, open) -> value
        self._active: set[int] = set()

    def fresh(self) -> None:
        """A new top-level question: the step budget starts again."""
        self.steps = 0

    # -- expressions ------------------------------------------------------------

    def value(self, expr: Expr, ctx: Ctx, depth: int = 0) -> Value:
        self.steps += 1
        if self.steps > MAX_STEPS or depth > MAX_DEPTH:
            return self._hole(expr)
        if isinstance(expr, Str):
            return self._string(expr, ctx, depth)
        if isinstance(expr, Name):
            return self.name(expr.name, ctx, depth, expr.start, expr.end)
        if isinstance(expr, Concat):
            return self.concat([self.value(p, ctx, depth + 1) for p in expr.parts], expr.parts)
        if isinstance(expr, Format):
            return self._format(expr, ctx, depth)
        if isinstance(expr, Mapping):
            return self._mapping(expr, ctx, depth)
        if isinstance(expr, ListE):
            items = tuple(self.value(i, ctx, depth + 1) for i in expr.items)
            return SeqV(items, expr.start, expr.end)
        if isinstance(expr, Cond):
            return alt(self.value(o, ctx, depth + 1) for o in expr.options)
        if isinstance(expr, Attr):
            return self._attr(expr, ctx, depth)
        if isinstance(expr, Index):
            return self._index(expr, ctx, depth)
        if isinstance(expr, CallE):
            return self.call_value(expr, ctx, depth)
        return self._hole(expr)

    def _hole(self, expr: Expr) -> Text:
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
            value = self.value(piece, ctx, depth + 1)
            found = options(value)
            if len(found) > 1:
                alternatives.append([self._text_of(v, piece) for v in found])
                pieces.append(Hole("", -1, -1))  # a marker filled per alternative
            else:
                pieces.extend(self._text_of(found[0], piece).pieces)
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

    def _text_of(self, value: Value, expr: Expr) -> Text:
        text = self.model.parsed.text[expr.start : expr.end]
        found = as_text(value, expr.start, expr.end, text)
        if (
            len(found.pieces) == 1
            and isinstance(hole := found.pieces[0], Hole)
            and expr.start <= hole.start
            and hole.end <= expr.end
        ):  # an unknown piece spans its interpolation as written (`${id}`)
            return Text((Hole(text, expr.start, expr.end, hole.hint, hole.param),))
        return found

    def concat(self, values: Sequence[Value], exprs: Sequence[Expr]) -> Value:
        """Operands joined as strings (each alternative of each operand)."""
        if all(isinstance(v, SeqV) for v in values) and values:  # list + list
            items: list[Value] = []
            for v in values:
                items.extend(v.items)  # type: ignore[union-attr]
            return SeqV(tuple(items))
        pieces: list[Piece] = []
        alternatives: list[list[Text]] = []
        for value, expr in zip(values, exprs, strict=True):
            found = options(value)
            if len(found) > 1:
                alternatives.append([self._text_of(v, expr) for v in found])
                pieces.append(Hole("", -1, -1))
            else:
                pieces.extend(self._text_of(found[0], expr).pieces)
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
                continue
            name = self.literal(key, ctx, depth)
            entries.append(Entry(name, key.start, key.end, self.value(value, ctx, depth + 1)))
        return MapV(tuple(entries), expr.start, expr.end, partial)

    def literal(self, expr: Expr, ctx: Ctx, depth: int = 0) -> str | None:
        """The expression's text when it is wholly known (a key, a method name)."""
        value = self.value(expr, ctx, depth + 1)
        if isinstance(value, Text) and all(isinstance(p, Lit) for p in value.pieces):
            return "".join(p.text for p in value.pieces)  # type: ignore[union-attr]
        return None

    # -- names ------------------------------------------------------------------

    def name(self, name: str, ctx: Ctx, depth: int, start: int = 0, end: int = 0) -> Value:
        function = ctx.function
        if function is not None and function.start <= ctx.pos < function.end:
            for index, (param, kind, default) in enumerate(function.params):
                if param != name:
                    continue
                if ctx.env is not None:
                    for bound, value in ctx.env:
                        if bound == name:
                            return self._used_at(value, start, end)
                if any(
                    lp.start <= function.start < lp.end for lp in self.model.loops.get(name, ())
                ):
                    looped = self._loop(name, ctx, depth)  # `items.forEach((item) => ...)`
                    if looped is not None:
                        return looped
                param_id = Param(function.node_id, index, name, kind)
                if function.node_id == ctx.open:
                    fallback = (
                        self.value(default, replace(ctx, pos=default.start), depth + 1)
                        if default is not None
                        else None
                    )
                    if kind == "**" or (fallback is not None and not isinstance(fallback, Text)):
                        return ParamV(param_id, start, end, fallback)
                    return Text((Hole(name, start, end, name.lower(), param_id),))
                typed = self.typed(function.types.get(name))
                if typed is not None:
                    return typed
                if default is not None:
                    fallback = self.value(default, replace(ctx, pos=default.start), depth + 1)
                    # a constructor's defaults configure the object (`port=1616`); elsewhere
                    # a word is one value of many (`range="short"`), a URL the one meant
                    if not _empty(fallback) and (
                        function.name in self.knowledge.constructors or not _word(fallback)
                    ):
                        return fallback
                if kind == "**":
                    return MapV((), start, end, partial=True)
                return Text((Hole(name, start, end, name.lower()),))
            if name in function.members:
                return self._member(function, name, ctx, depth, start, end)
        found = self._assigned(name, ctx, depth)
        if found is not None:
            return self._used_at(found, start, end)
        loop = self._loop(name, ctx, depth)
        if loop is not None:
            return loop
        owner = self.model.class_at(ctx.pos)
        if owner is not None and "@" + owner + "." + name in self.model.assigns:
            return self.field(owner, name, ctx, depth, start, end)
        target = self.model.imports.get(name)
        if target is not None:
            return ObjV("module", target)
        if name in self.model.classes:
            return ObjV("class", name)
        return Text((Hole(name, start, end, name.lower()),))

    def _member(
        self, function: Function, name: str, ctx: Ctx, depth: int, start: int, end: int
    ) -> Value:
        """A name a destructured parameter binds: the entry of the argument passed there."""
        index, key, default = function.members[name]
        param = function.params[index][0] if index < len(function.params) else ""
        for bound, value in ctx.env or ():
            if bound == param:
                found = entry_of(value, key)
                if found is not None:
                    return self._used_at(found, start, end)
                break
        else:
            if function.node_id == ctx.open:
                param_id = Param(function.node_id, index, name)
                return Text((Hole(name, start, end, name.lower(), param_id),))
        if default is not None:
            return self.value(default, replace(ctx, pos=default.start), depth + 1)
        return Text((Hole(name, start, end, name.lower()),))

    def _used_at(self, value: Value, start: int, end: int) -> Value:
        """An unknown value read through a name is reported where the name is written.

        `headers = { Authorization: key }` with `key = process.env.KEY`: the header's text
        is written in the mapping; a filter's `${groupId}` in the function that builds it,
        not at the caller's argument. The hole keeps what it knows (its name, its parameter).
        """
        if (
            end > start
            and isinstance(value, Text)
            and len(value.pieces) == 1
            and isinstance(hole := value.pieces[0], Hole)
        ):
            text = self.model.parsed.text[start:end]
            return Text((Hole(text, start, end, hole.hint, hole.param),))
        return value

    def typed(self, written: str | None) -> ObjV | None:
        """An object of a declared type, when the type is a class the file knows or imports."""
        if not written:
            return None
        name = written.rsplit(".", 1)[-1]
        if name in self.model.classes:
            return ObjV("instance", name)
        target = self.model.imports.get(written.split(".")[0])
        if target is not None and name[:1].isupper():
            module = target.rsplit(".", 1)[0] if written == name else target
            return ObjV("instance", name, module=module)
        return None

    def _assigned(self, key: str, ctx: Ctx, depth: int) -> Value | None:
        assigns = self.model.assigns.get(key)
        if not assigns:
            return None
        scopes = self.model.scopes_at(ctx.pos)
        for scope in scopes:
            in_scope = [a for a in assigns if a.scope == scope]
            if not in_scope:
                continue
            before = [a for a in in_scope if a.start < ctx.pos]
            if not before and scope == 0 and len(scopes) > 1:
                before = in_scope  # a module constant read by a function runs after it
            if not before:
                continue
            return self._from_assignments(key, before, ctx, depth)
        return None

    def _from_assignments(self, key: str, before: list[Assign], ctx: Ctx, depth: int) -> Value:
        """The value of the last plain assignment, with what was added to it after."""
        base_index = max(
            (k for k, a in enumerate(before) if a.item is None and not a.add), default=-1
        )
        if base_index >= 0:
            value = self.assigned(before[base_index], ctx, depth)
            since = before[base_index + 1 :]
            start = before[base_index].start
        else:
            value, since, start = MapV((), partial=True), before, -1
        for later in since:
            value = self._updated(value, later, ctx, depth)
        value = self._mutated(key, value, start, ctx, depth)
        if self.knowledge.query_attrs and any(isinstance(v, Text) for v in options(value)):
            value = self._url_query(key, value, start, ctx, depth)
        return value

    def _url_query(self, key: str, value: Value, after: int, ctx: Ctx, depth: int) -> Value:
        """A URL object's query set after it was made: `url.searchParams.set(...)`,
        `url.search = ...` (the language's query attributes) continue its text."""
        added: list[Piece] = []
        for attr, kind in self.knowledge.query_attrs.items():
            dotted = f"{key}.{attr}"
            if kind == "map" and dotted in self.model.calls_on:
                query = self._mutated(dotted, MapV((), query=True), after, ctx, depth)
                if isinstance(query, MapV) and query.entries:
                    text = query_text(query)
                    at = text.start
                    added.extend((Lit("&" if added else "?", at), *text.pieces))
            elif kind == "text":  # `url.search = ...`: a property, or an item of the name
                later = [
                    a
                    for a in (*self.model.assigns.get(dotted, ()), *self.model.assigns.get(key, ()))
                    if after < a.start < ctx.pos
                    and (
                        a.key == dotted
                        or (a.item is not None and self.literal(a.item, ctx) == attr)
                    )
                ]
                if later:
                    text = as_text(self.assigned(later[-1], ctx, depth))
                    pieces = list(text.pieces)
                    first = pieces[0] if pieces else None
                    if isinstance(first, Lit) and first.text.startswith("?"):
                        pieces[0] = _sub(first, 1, len(first.text))
                    added.extend((Lit("&" if added else "?", later[-1].start), *pieces))
        if not added:
            return value
        return alt(Text((*v.pieces, *added)) if isinstance(v, Text) else v for v in options(value))

    def assigned(self, assign: Assign, ctx: Ctx, depth: int) -> Value:
        """The value one assignment gives (memoised when no parameter is bound)."""
        memo_key = (id(assign), ctx.open)
        cacheable = ctx.env is None and ctx.this is None
        if cacheable and memo_key in self._memo:
            return self._memo[memo_key]
        if id(assign) in self._active:
            return self._hole(assign.value)
        self._active.add(id(assign))
        try:
            inner = replace(ctx, pos=assign.value.start)
            value = self.value(assign.value, inner, depth + 1)
            if assign.unpack != -1:
                value = alt(_element(v, assign.unpack) for v in options(value))
        finally:
            self._active.discard(id(assign))
        if cacheable:
            self._memo[memo_key] = value
        return value

    def _updated(self, value: Value, later: Assign, ctx: Ctx, depth: int) -> Value:
        added = self.assigned(later, ctx, depth)
        if later.item is not None:
            key = self.literal(later.item, replace(ctx, pos=later.start), depth)
            entry = Entry(key, later.item.start, later.item.end, added)
            if isinstance(value, MapV):
                return replace(value, entries=(*value.entries, entry))
            if isinstance(value, SeqV):
                return SeqV((*value.items, added), value.start, value.end, value.partial)
            if isinstance(value, Text) and any(isinstance(p, Lit) for p in value.pieces):
                return value  # a property of a string or URL object (`url.search = q`)
            return MapV((entry,), partial=True)
        if later.add:
            if isinstance(value, SeqV):
                extra = added.items if isinstance(added, SeqV) else (added,)
                return SeqV((*value.items, *extra), value.start, value.end, value.partial)
            if isinstance(value, MapV) and isinstance(added, MapV):
                return MapV((*value.entries, *added.entries), value.start, value.end)
            return self.concat([value, added], [later.value, later.value])
        return value

    def _mutated(self, key: str, value: Value, after: int, ctx: Ctx, depth: int) -> Value:
        """Entries and items added by method calls on the name (`q.update`, `l.append`)."""
        calls = self.model.calls_on.get(key)
        if not calls:
            return value
        scope = self.model.scopes_at(ctx.pos)[0]
        for call in calls:
            if not after < call.start < ctx.pos:
                continue
            if self.model.scopes_at(call.start)[0] != scope:
                continue
            effect = self.knowledge.mutators.get(call.callee)
            if effect is None:
                continue
            inner = replace(ctx, pos=call.start)
            value = self._mutate(value, effect, call, inner, depth)
        return value

    def _mutate(self, value: Value, effect: str, call: CallE, ctx: Ctx, depth: int) -> Value:
        args = [a for a in call.args if not a.spread]
        if effect == "set" and len(args) >= 2:
            key = self.literal(args[0].value, ctx, depth)
            entry = Entry(
                key,
                args[0].value.start,
                args[0].value.end,
                self.value(args[1].value, ctx, depth + 1),
            )
            if isinstance(value, MapV):
                return replace(value, entries=(*value.entries, entry))
            return MapV((entry,), partial=True)
        if effect == "merge" and args:
            added = self.value(args[0].value, ctx, depth + 1)
            entries = value.entries if isinstance(value, MapV) else ()
            more = added.entries if isinstance(added, MapV) else ()
            kw = tuple(
                Entry(a.name, a.value.start, a.value.end, self.value(a.value, ctx, depth + 1))
                for a in call.args
                if a.name
            )
            if isinstance(value, MapV):
                return replace(
                    value,
                    entries=(*entries, *more, *kw),
                    partial=value.partial or not isinstance(added, MapV),
                )
            return MapV((*entries, *more, *kw), partial=not isinstance(added, MapV))
        if effect == "append" and len(args) >= 2 and isinstance(value, MapV):
            return self._mutate(value, "set", call, ctx, depth)  # `params.append(name, value)`
        if effect == "append" and args:
            items = value.items if isinstance(value, SeqV) else ()
            return SeqV((*items, self.value(args[-1].value, ctx, depth + 1)))
        if effect == "extend" and args:
            added = self.value(args[0].value, ctx, depth + 1)
            items = value.items if isinstance(value, SeqV) else ()
            more = added.items if isinstance(added, SeqV) else (added,)
            return SeqV((*items, *more))
        return value

    def _loop(self, name: str, ctx: Ctx, depth: int) -> Value | None:
        loops = self.model.loops.get(name)
        if not loops:
            return None
        around = [lp for lp in loops if lp.start <= ctx.pos < lp.end]
        if not around:
            return None
        loop = max(around, key=lambda lp: lp.start)
        iterable = self.value(loop.iterable, replace(ctx, pos=loop.start), depth + 1)
        found: list[Value] = []
        for option in options(iterable):
            if isinstance(option, SeqV):
                found.extend(
                    _element(item, loop.unpack) if loop.unpack != -1 else item
                    for item in option.items
                )
            elif isinstance(option, MapV):  # iterating a mapping gives its keys
                found.extend(
                    Text((Lit(e.key, e.key_start),)) for e in option.entries if e.key is not None
                )
            elif isinstance(option, ObjV) and option.kind == "class":  # an enum's members
                found.extend(self.members(option.name, ctx, depth))
        if not found:
            return None
        return alt(found)

    # -- attributes, items, calls -------------------------------------------------

    def members(self, cls: str, ctx: Ctx, depth: int) -> list[Value]:
        """The values of a class's own attributes, in order (an enumeration's members)."""
        prefix = "@" + cls + "."
        found: list[Value] = []
        for key, assigns in self.model.assigns.items():
            if not key.startswith(prefix):
                continue
            for assign in assigns:
                if self.model.function_at(assign.start) is None:
                    found.append(self.assigned(assign, ctx, depth))
                    break
        return found

    def field(self, owner: str, name: str, ctx: Ctx, depth: int, start: int, end: int) -> Value:
        """An attribute of an object of class `owner`: where its methods assign it."""
        key = "@" + owner + "." + name
        assigns = self.model.assigns.get(key)
        if not assigns:
            bases = self.model.classes.get(owner, (0, 0, ()))[2]
            for base in bases:
                if base in self.model.classes and base != owner:
                    return self.field(base, name, ctx, depth + 1, start, end)
            return Text((Hole(name, start, end, name.lower()),))
        this = ctx.this
        # the constructor's assignment, else the last one
        chosen = assigns[-1]
        for assign in assigns:
            function = self.model.function_at(assign.start)
            if function is not None and function.name in self.knowledge.constructors:
                chosen = assign
                break
        function = self.model.function_at(chosen.start)
        inner = Ctx(chosen.start, function, None, this, ctx.open, ctx.inline)
        if isinstance(this, ObjV) and this.kind == "instance" and function is not None:
            env = tuple((k, v) for k, v in this.fields if not k.startswith("@"))
            inner = Ctx(chosen.start, function, env, this, ctx.open, ctx.inline)
        later = [a for a in assigns if a is not chosen and (a.item is not None or a.add)]
        value = self.assigned(chosen, inner, depth)
        for assign in later:
            value = self._updated(value, assign, inner, depth)
        return value

    def _attr(self, expr: Attr, ctx: Ctx, depth: int) -> Value:
        obj = expr.obj
        if isinstance(obj, Name) and obj.name in self.knowledge.self_names:
            owner = self.model.class_at(expr.start)
            if owner is not None:
                return self.field(owner, expr.name, ctx, depth + 1, expr.start, expr.end)
            function = self.model.function_at(expr.start)
            if function is not None and function.owner:  # `this` of an object literal
                this = ctx.this
                if not isinstance(this, MapV):
                    this = self.name(function.owner, replace(ctx, pos=function.start), depth + 1)
                found = entry_of(this, expr.name)
                if found is not None:
                    return found
        env = self.knowledge.environment(expr, self.model.parsed.text)
        if env is not None:
            return Text(
                (Hole(self.model.parsed.text[expr.start : expr.end], expr.start, expr.end, env),)
            )
        dotted = self.model.parsed.text[expr.start : expr.end]
        if dotted in self.model.assigns:
            found = self._assigned(dotted, ctx, depth)
            if found is not None:
                return found
        target = self.value(obj, ctx, depth + 1)
        for option in options(target):
            if isinstance(option, Text) and expr.name in self.knowledge.text_attrs:
                return option  # an enumeration member's value, a URL object's `href`
            if isinstance(option, ObjV):
                if option.kind in ("instance", "class") and option.name in self.model.classes:
                    bound = replace(ctx, this=option)
                    return self.field(
                        option.name, expr.name, bound, depth + 1, expr.start, expr.end
                    )
                found = option.field(expr.name)
                if found is not None:
                    return found
                if option.kind == "module":
                    return ObjV("module", f"{option.name}.{expr.name}")
            if isinstance(option, MapV):
                for entry in reversed(option.entries):
                    if entry.key == expr.name:
                        return entry.value
        return Text((Hole(dotted, expr.start, expr.end, dotted.lower()),))

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
                        if entry.key == key:
                            found.append(entry.value)
                            break
                else:
                    found.extend(e.value for e in option.entries)
            elif isinstance(option, SeqV):
                if key is not None and key.lstrip("-").isdigit():
                    index = int(key)
                    if -len(option.items) <= index < len(option.items):
                        found.append(option.items[index])
                else:
                    found.extend(option.items)
        if found:
            return alt(found)
        return self._hole(expr)

    def call_value(self, call: CallE, ctx: Ctx, depth: int) -> Value:
        """What a call returns, where the model knows: readers, encoders, factories, functions."""
        knowledge = self.knowledge
        qualified = self.qualified(call, ctx, depth)
        env_default = knowledge.env_reader(qualified, call)
        if env_default is not None:
            name_arg, default_arg = env_default
            variable = self.literal(name_arg.value, ctx, depth) if name_arg is not None else None
            if default_arg is not None:
                return self.value(default_arg.value, ctx, depth + 1)
            text = self.model.parsed.text[call.start : call.end]
            return Text((Hole(text, call.start, call.end, (variable or "").lower()),))
        transform = knowledge.transform(qualified, call.callee)
        if transform is not None:
            return self._transform(transform, call, ctx, depth)
        factory = knowledge.factory(qualified)
        if factory is not None:
            fields = []
            for field_name, where in factory.fields:
                found = self.place(call, where, factory.config, ctx, depth)
                if found is not None:
                    fields.append((field_name, found))
            return ObjV("client", factory.name, tuple(fields))
        if qualified in knowledge.router_factories:
            return ObjV("router", qualified)
        if any(qualified == m or qualified.startswith(m + ".") for m in knowledge.mocks):
            return ObjV("mock", qualified)  # a test double: `nock(host)`, `new MockAdapter(ax)`
        if call.receiver is None and call.callee in self.model.classes:
            return self.instance(call.callee, call, ctx, depth)
        if call.receiver is None and call.callee in self.knowledge.self_names:
            owner = self.model.class_at(call.start)  # `cls(...)` in a class method
            if owner is not None:
                return self.instance(owner, call, ctx, depth)
        if call.receiver is None and call.callee == "super":
            owner = self.model.class_at(call.start)
            if owner is not None:
                return ObjV("super", owner)
        if call.callee[:1].isupper() and qualified != call.callee:
            # a class imported from another module: an instance of it
            return ObjV("instance", call.callee, module=qualified.rsplit(".", 1)[0])
        returned = self.returns(call, ctx, depth)
        if returned is not None:
            return returned
        return self._hole(call)

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
        a mapping is the options (`axios({ url })`), never the value of a positional place.
        """
        arg = argument(call.args, where)
        if arg is not None:
            value = self.value(arg.value, ctx, depth + 1)
            positional = [a for a in call.args if a.name is None and not a.spread]
            at = next((k for k, a in enumerate(positional) if a is arg), -1)
            if at not in config or not any(isinstance(o, MapV) for o in options(value)):
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
        return ObjV("instance", cls, tuple(fields))

    def bind(
        self, function: Function, args: Sequence[Arg], ctx: Ctx, depth: int
    ) -> list[tuple[str, Value]]:
        """Parameter name -> argument value, by position and by keyword."""
        bound: list[tuple[str, Value]] = []
        positional = [a for a in args if a.name is None and not a.spread]
        keywords = {a.name: a for a in args if a.name}
        rest: list[Entry] = []
        names = {p[0] for p in function.params}
        for index, (name, kind, _default) in enumerate(function.params):
            if kind == "**":
                rest.extend(
                    Entry(k, a.value.start, a.value.end, self.value(a.value, ctx, depth + 1))
                    for k, a in keywords.items()
                    if k not in names
                )
                for spread in (a for a in args if a.spread == "**"):
                    found = self.value(spread.value, ctx, depth + 1)
                    if isinstance(found, MapV):
                        rest.extend(found.entries)
                bound.append((name, MapV(tuple(rest))))
            elif kind == "*":
                items = tuple(self.value(a.value, ctx, depth + 1) for a in positional[index:])
                bound.append((name, SeqV(items)))
            elif name in keywords:
                bound.append((name, self.value(keywords[name].value, ctx, depth + 1)))
            elif index < len(positional):
                bound.append((name, self.value(positional[index].value, ctx, depth + 1)))
        return bound

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
        for expr in function.returns[:4]:
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
            return plain[0] if plain else None
        if isinstance(receiver, Name) and receiver.name in self.knowledge.self_names:
            owner = self.model.class_at(call.start)
            if owner is None and ctx.function is not None:  # a method of an object literal
                owner = ctx.function.owner
            return next((f for f in candidates if f.owner == owner), None)
        if isinstance(receiver, Name) and receiver.name not in self.model.classes:
            found = next((f for f in candidates if f.owner == receiver.name), None)
            if found is not None:  # `api.get(...)` for `const api = { get(p) {...} }`
                return found
        for option in options(self.value(receiver, ctx, depth + 1)):
            if isinstance(option, ObjV) and option.kind in ("instance", "class"):
                found = next((f for f in candidates if f.owner == option.name), None)
                if found is not None:
                    return found
        return None

    def qualified(self, call: CallE, ctx: Ctx, depth: int) -> str:
        """`module.function` for a module's function (`requests.get`), else the callee."""
        receiver = call.receiver
        if receiver is None:
            return self.model.imports.get(call.callee, call.callee)
        if isinstance(receiver, Name):
            target = self.model.imports.get(receiver.name)
            if target is not None:
                return f"{target}.{call.callee}"
            if receiver.name not in self.model.assigns and receiver.name in self.knowledge.modules:
                return f"{receiver.name}.{call.callee}"
        if isinstance(receiver, Attr):
            dotted = self.model.parsed.text[receiver.start : receiver.end]
            head = dotted.split(".")[0]
            target = self.model.imports.get(head)
            if target is not None:
                return f"{target}{dotted[len(head) :]}.{call.callee}"
            if head in self.knowledge.modules:
                return f"{dotted}.{call.callee}"
        if isinstance(receiver, Str):
            return f"str.{call.callee}"
        return call.callee

    # -- formats, joins, encoders ---------------------------------------------------

    def _format(self, expr: Format, ctx: Ctx, depth: int) -> Value:
        template = self.value(expr.template, ctx, depth + 1)
        args = [self.value(a.value, ctx, depth + 1) if not a.spread else None for a in expr.args]
        named = {a.name: args[k] for k, a in enumerate(expr.args) if a.name}
        positional = [
            (args[k], a.value) for k, a in enumerate(expr.args) if not a.name and not a.spread
        ]
        if len(positional) == 1 and isinstance(positional[0][0], MapV) and expr.style == "printf":
            for entry in positional[0][0].entries:  # "%(name)s" % {...}
                if entry.key:
                    named[entry.key] = entry.value
        found = [
            self.fill(t, expr.style, positional, named)
            for t in options(template)
            if isinstance(t, Text)
        ]
        return alt(found) if found else self._hole(expr)

    def fill(
        self,
        template: Text,
        style: str,
        positional: list[tuple[Value | None, Expr]],
        named: dict[str, Value | None],
    ) -> Text:
        """The template with each slot replaced by its argument's text (a hole if unknown)."""
        pattern = _PRINTF if style in ("printf", "go") else _BRACE
        pieces: list[Piece] = []
        counter = 0
        for piece in template.pieces:
            if not isinstance(piece, Lit):
                pieces.append(piece)
                continue
            text = piece.text
            at = 0
            for m in pattern.finditer(text):
                if style in ("printf", "go") and m.group(2) == "%":
                    continue
                if at < m.start():
                    pieces.append(_sub(piece, at, m.start()))
                slot_start, slot_end = piece.offset(m.start()), piece.offset(m.end() - 1) + 1
                if style in ("printf", "go"):
                    key = m.group(1)
                    value = named.get(key) if key else None
                    expr = None
                    if not key and counter < len(positional):
                        value, expr = positional[counter]
                        counter += 1
                    verb = m.group(2)
                else:
                    field_name = m.group(1).split(":")[0].split("!")[0].strip()
                    expr = None
                    if field_name.isdigit():
                        k = int(field_name)
                        value, expr = positional[k] if k < len(positional) else (None, None)
                    elif field_name:
                        value = named.get(field_name)
                    else:
                        value, expr = (
                            positional[counter] if counter < len(positional) else (None, None)
                        )
                        counter += 1
                    verb = "s"
                slot_text = text[m.start() : m.end()]
                if value is None:
                    pieces.append(Hole(slot_text, slot_start, slot_end, ""))
                else:
                    filled = as_text(value, slot_start, slot_end, slot_text)
                    if verb == "q":  # Go's %q quotes its argument
                        filled = Text(
                            (Lit('"', slot_start), *filled.pieces, Lit('"', slot_end - 1))
                        )
                    pieces.extend(filled.pieces)
                del expr
                at = m.end()
            if at < len(text):
                pieces.append(_sub(piece, at, len(text)))
        return Text(tuple(pieces))

    def _transform(self, transform: str, call: CallE, ctx: Ctx, depth: int) -> Value:
        args = [a for a in call.args if not a.spread]
        receiver = call.receiver
        if transform == "identity":
            if not args:
                return self._hole(call)
            return self.value(args[0].value, ctx, depth + 1)
        if transform == "receiver":  # a method that returns its receiver's text (`.encode()`)
            return (
                self.value(receiver, ctx, depth + 1) if receiver is not None else self._hole(call)
            )
        if transform == "replace":  # `"/devices/{id}".replace("{id}", id)`
            if receiver is None or len(args) < 2:
                return self._hole(call)
            old = self.literal(args[0].value, ctx, depth)
            if not old:
                return self._hole(call)
            new = self._text_of(self.value(args[1].value, ctx, depth + 1), args[1].value)
            return alt(
                _replaced(v, old, new) if isinstance(v, Text) else v
                for v in options(self.value(receiver, ctx, depth + 1))
            )
        if transform in ("strip", "lstrip", "rstrip"):  # `url.lstrip("/")`, `.trim()`
            if receiver is None:
                return self._hole(call)
            chars = self.literal(args[0].value, ctx, depth) if args else None
            return alt(
                _stripped(v, chars, transform) if isinstance(v, Text) else v
                for v in options(self.value(receiver, ctx, depth + 1))
            )
        if transform == "join":  # "sep".join(items)
            if receiver is None or not args:
                return self._hole(call)
            separator = self.value(receiver, ctx, depth + 1)
            items = self.value(args[0].value, ctx, depth + 1)
            return self.join(as_text(separator), items, call)
        if transform == "items_join":  # items.join(separator)
            if receiver is None:
                return self._hole(call)
            separator = (
                as_text(self.value(args[0].value, ctx, depth + 1))
                if args
                else Text((Lit(",", call.end),))
            )
            return self.join(separator, self.value(receiver, ctx, depth + 1), call)
        if transform == "query_map":  # a query builder from a mapping (`URLSearchParams`)
            if not args:
                return MapV((), call.start, call.end, query=True)
            found_maps: list[Value] = []
            for option in options(self.value(args[0].value, ctx, depth + 1)):
                found_maps.append(
                    replace(option, query=True) if isinstance(option, MapV) else option
                )
            return alt(found_maps)
        if transform.startswith("urljoin"):  # urljoin(base, path): RFC 3986 resolution
            # `urljoin:1,0`: the base is the second argument (`new URL(path, base)`)
            order = transform.partition(":")[2] or "0,1"
            base_at, path_at = (int(k) for k in order.split(","))
            if len(args) == 1:  # a URL alone
                return self.value(args[0].value, ctx, depth + 1)
            if len(args) < 2:
                return self._hole(call)
            from apispec.lint.extract.build import join_base

            base = as_text(self.value(args[base_at].value, ctx, depth + 1), call.start, call.end)
            found = []
            for path in options(self.value(args[path_at].value, ctx, depth + 1)):
                joined = join_base(base, as_text(path, call.start, call.end), "rfc3986")
                if joined is not None:
                    found.append(joined)
            return alt(found) if found else self._hole(call)
        if transform == "query_string":  # urlencode(mapping)
            if not args:
                return self._hole(call)
            return self.query_string(self.value(args[0].value, ctx, depth + 1), call)
        if transform.startswith("format:"):
            if not args:
                return self._hole(call)
            style = transform.split(":", 1)[1]
            template = self.value(args[0].value, ctx, depth + 1)
            rest = [(self.value(a.value, ctx, depth + 1), a.value) for a in args[1:] if not a.name]
            named = {a.name: self.value(a.value, ctx, depth + 1) for a in args[1:] if a.name}
            found = [
                self.fill(t, style, rest, named) for t in options(template) if isinstance(t, Text)
            ]
            return alt(found) if found else self._hole(call)
        return self._hole(call)

    def join(self, separator: Text, items: Value, call: CallE) -> Value:
        found: list[Value] = []
        for option in options(items):
            if not isinstance(option, SeqV) or not option.items:
                text = self.model.parsed.text[call.start : call.end]
                hole = Hole(text, call.start, call.end, "")
                found.append(Text((hole, *separator.pieces, hole)))
                continue
            pieces: list[Piece] = []
            for k, item in enumerate(option.items):
                if k:
                    pieces.extend(separator.pieces)
                pieces.extend(as_text(item, call.start, call.end).pieces)
            found.append(Text(tuple(pieces)))
        return alt(found)

    def query_string(self, mapping: Value, call: CallE) -> Value:
        if not isinstance(mapping, MapV):
            return self._hole(call)
        return query_text(mapping)


def query_text(mapping: MapV) -> Text:
    """A mapping as the query string a library encodes it to: `name=value&...`."""
    pieces: list[Piece] = []
    for entry in mapping.entries:
        if entry.key is None:
            continue
        if pieces:
            pieces.append(Lit("&", entry.key_start))
        pieces.append(Lit(entry.key, entry.key_start))
        pieces.append(Lit("=", entry.key_end))
        pieces.extend(as_text(entry.value, entry.key_start, entry.key_end).pieces)
    return Text(tuple(pieces))


def _stripped(text: Text, chars: str | None, how: str) -> Text:
    """The known characters of `chars` (whitespace: None) removed from the text's ends."""
    pieces = list(text.pieces)
    if how in ("strip", "lstrip"):
        while pieces and isinstance(first := pieces[0], Lit):
            kept = first.text.lstrip(chars)
            if kept:
                pieces[0] = _sub(first, len(first.text) - len(kept), len(first.text))
                break
            pieces.pop(0)
    if how in ("strip", "rstrip"):
        while pieces and isinstance(last := pieces[-1], Lit):
            kept = last.text.rstrip(chars)
            if kept:
                pieces[-1] = _sub(last, 0, len(kept))
                break
            pieces.pop()
    return Text(tuple(pieces))


def _replaced(text: Text, old: str, new: Text) -> Text:
    """The text with each literal occurrence of `old` replaced by `new`'s pieces."""
    pieces: list[Piece] = []
    for piece in text.pieces:
        if not isinstance(piece, Lit) or old not in piece.text:
            pieces.append(piece)
            continue
        at = 0
        while (found := piece.text.find(old, at)) >= 0:
            if found > at:
                pieces.append(_sub(piece, at, found))
            pieces.extend(new.pieces)
            at = found + len(old)
        if at < len(piece.text):
            pieces.append(_sub(piece, at, len(piece.text)))
    return Text(tuple(pieces))


def _empty(value: Value) -> bool:
    """`token = ""`: a default that only says "none given"."""
    return isinstance(value, Text) and value.known == ""


def _word(value: Value) -> bool:
    """A literal without a slash: one of the values a parameter takes (`range = "short"`),
    not the one it stands for; a default URL or path is what the function is written for."""
    return (
        isinstance(value, Text)
        and all(isinstance(p, Lit) for p in value.pieces)
        and "/" not in value.known
    )


def known_text(value: Value) -> str | None:
    """The text of a value wholly known (a method name), else None (also when it may be
    one of several)."""
    found = options(value)
    text = found[0] if len(found) == 1 else None
    if isinstance(text, Text) and text.pieces and all(isinstance(p, Lit) for p in text.pieces):
        return "".join(p.text for p in text.pieces)  # type: ignore[union-attr]
    return None


def entry_of(value: Value, key: str) -> Value | None:
    """The entry `key` of a mapping value: `a.b` a nested entry, `a|b` the first present."""
    for name in key.split("|"):
        found: Value | None = value
        for part in name.split("."):
            found = _entry(found, part) if found is not None else None
        if found is not None:
            return found
    return None


def _entry(value: Value, key: str) -> Value | None:
    found = []
    for option in options(value):
        if isinstance(option, MapV):
            for entry in reversed(option.entries):
                if entry.key == key:
                    found.append(entry.value)
                    break
    return alt(found) if found else None


def _sub(lit: Lit, start: int, end: int) -> Lit:
    if lit.offsets is None:
        return Lit(lit.text[start:end], lit.start + start)
    return Lit(lit.text[start:end], lit.offset(start), lit.offsets[start:end])


def _element(value: Value, index: int | str) -> Value:
    """The `index`-th item of a sequence, or the entry `index` of a mapping (destructuring)."""
    if isinstance(index, str):
        if isinstance(value, MapV):
            for entry in reversed(value.entries):
                if entry.key == index:
                    return entry.value
            return Text((Hole(index, value.start, value.end, index.lower()),))
        if isinstance(value, ObjV):
            found = value.field(index)
            return found if found is not None else Text((Hole(index, 0, 0, index.lower()),))
        return value
    if isinstance(value, SeqV) and 0 <= index < len(value.items):
        return value.items[index]
    return value
