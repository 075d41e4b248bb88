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

from apispec.lint.extract import assignments, builders, callees, calls, formats, names
from apispec.lint.extract.context import (
    MAX_DEPTH,
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
)

_WORD = re.compile(r"[A-Za-z][\w.-]*")
_SLICE = re.compile(r"(\d*):")  # `items[1:]`: the elements from one on

if TYPE_CHECKING:
    from apispec.lint.extract.lower.model import FileModel
    from apispec.lint.knowledge import Knowledge


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
            return calls.call_value(self, expr, ctx, depth)
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
            found = assignments.assigned_before(self, dotted, ctx, depth)
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

    # -- the call modules' answers, for callers outside value flow --------------------

    def place(
        self,
        call: CallE,
        where: tuple[int, str],
        config: tuple[int, ...],
        ctx: Ctx,
        depth: int = 0,
    ) -> Value | None:
        return calls.place(self, call, where, config, ctx, depth)

    def instance(self, cls: str, call: CallE, ctx: Ctx, depth: int) -> ObjV:
        return calls.instance(self, cls, call, ctx, depth)

    def bind(
        self, function: Function, args: Sequence[Arg], ctx: Ctx, depth: int
    ) -> list[tuple[str, Value]]:
        return callees.bind(self, function, args, ctx, depth)

    def returns(self, call: CallE, ctx: Ctx, depth: int) -> Value | None:
        return callees.returns(self, call, ctx, depth)

    def callee_function(self, call: CallE, ctx: Ctx, depth: int) -> Function | None:
        return callees.callee_function(self, call, ctx, depth)

    def lineage(self, owner: str | None) -> list[str]:
        return callees.lineage(self, owner)

    def qualified(self, call: CallE, ctx: Ctx, depth: int) -> str:
        return callees.qualified(self, call, ctx, depth)
