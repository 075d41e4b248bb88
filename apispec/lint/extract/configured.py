"""Parts of a request set apart from the call that makes it, on the name that holds it.

A request is often made first and filled in after: `req = Net::HTTP::Get.new(uri)`
then `req['Authorization'] = ...`; Faraday hands the request to the call's block
(`conn.get('x') { |req| req.params['filter'] = ... }`, `req.url 'path'`); curl makes
a handle and sets its URL, method, body and headers with `curl_setopt($ch, ...)`
calls. What each attribute, call or option sets is a knowledge row; this module
reads those statements between the call and the next assignment of its holder.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from apispec.lint.extract import assignments
from apispec.lint.extract.context import Ctx, options
from apispec.lint.extract.ir import (
    CallE,
    Entry,
    Hole,
    Lit,
    MapV,
    Name,
    Piece,
    SeqV,
    Text,
    Value,
    argument,
)

if TYPE_CHECKING:
    from apispec.lint.extract.lower.model import Assign, FileModel
    from apispec.lint.extract.request import Request
    from apispec.lint.extract.values import Resolver
    from apispec.lint.knowledge import HandleSetter, Knowledge


def apply(
    model: FileModel, knowledge: Knowledge, resolver: Resolver, request: Request, ctx: Ctx
) -> None:
    """Fill `request` with what the statements on the names holding its call set."""
    if not (knowledge.holder_parts or knowledge.holder_calls or knowledge.handle_setters):
        return
    call = request.call
    for holder in model.holders(call.node_id):
        start, end = _region(model, holder, call)
        inner = replace(ctx, pos=end)
        for attr, part in knowledge.holder_parts.items():
            key = f"{holder}.{attr}" if attr else holder
            if part == "method":  # `req.httpMethod = "DELETE"` before it is sent
                _method(model, resolver, request, key, start, end, inner)
                continue
            found = _filled(model, knowledge, resolver, key, start, end, inner)
            if found is not None:
                _add(request, part, found)
        _calls(model, knowledge, resolver, request, holder, start, end, inner)


def _method(
    model: FileModel,
    resolver: Resolver,
    request: Request,
    key: str,
    start: int,
    end: int,
    ctx: Ctx,
) -> None:
    """The method assigned to the request's method attribute last before it is sent."""
    plain = [a for a in model.assigns_within(key, start, end) if a.item is None and not a.add]
    if plain:
        written = resolver.literal(plain[-1].value, replace(ctx, pos=plain[-1].start))
        if written:
            request.method = written.upper()


def _region(model: FileModel, holder: str, call: CallE) -> tuple[int, int]:
    """Where statements on the holder belong to this call's request: from the call to
    the holder's next assignment (or the end of the function)."""
    function = model.function_at(call.start)
    end = function.end if function is not None else len(model.parsed.text)
    for assign in model.assigns_within(holder, call.end - 1, end):
        if assign.item is None and not assign.add:
            end = assign.start
            break
    return call.start, end


def _filled(
    model: FileModel,
    knowledge: Knowledge,
    resolver: Resolver,
    key: str,
    start: int,
    end: int,
    ctx: Ctx,
) -> Value | None:
    """The entries `key[item] = value` and mapping calls on `key` add (`req.params.update`)."""
    steps: list[tuple[int, Assign | CallE]] = [
        (a.start, a) for a in model.assigns_within(key, start, end) if a.item is not None
    ]
    text = model.parsed.text
    for call in model.calls_within(start + 1, end):
        receiver = call.receiver
        if (
            receiver is not None
            and call.callee in knowledge.mutators
            and text[receiver.start : receiver.end] == key
        ):
            steps.append((call.start, call))
    if not steps:
        return None
    value: Value = MapV((), partial=True)
    for at, step in sorted(steps, key=lambda s: s[0]):
        inner = replace(ctx, pos=at)
        if isinstance(step, CallE):
            value = assignments.mutate(
                resolver, value, knowledge.mutators[step.callee], step, inner, 0
            )
        else:
            value = assignments.updated(resolver, value, step, inner, 0)
    return value


def _calls(
    model: FileModel,
    knowledge: Knowledge,
    resolver: Resolver,
    request: Request,
    holder: str,
    start: int,
    end: int,
    ctx: Ctx,
) -> None:
    """Calls on the holder (`req.url 'x'`) and setters of a handle it is (`curl_setopt`)."""
    text = model.parsed.text
    handle: dict[str, Value] = {}  # part -> the last value an option set
    for call in model.calls_within(start + 1, end):
        inner = replace(ctx, pos=call.start)
        receiver = call.receiver
        part = knowledge.holder_calls.get(call.callee)
        if part is not None and receiver is not None:
            if call.args and text[receiver.start : receiver.end] == holder:
                _add(request, part, resolver.value(call.args[0].value, inner))
            continue
        setter = knowledge.handle_setters.get(call.callee)
        if setter is not None:
            handle.update(_options(knowledge, resolver, setter, call, holder, inner))
    _apply_handle(request, handle)


def _options(
    knowledge: Knowledge,
    resolver: Resolver,
    setter: HandleSetter,
    call: CallE,
    holder: str,
    ctx: Ctx,
) -> dict[str, Value]:
    """The parts one setter call sets on the handle `holder` (none if another handle)."""
    handle = argument(call.args, (setter.handle, ""))
    value_arg = argument(call.args, (setter.value, ""))
    if handle is None or not isinstance(handle.value, Name) or handle.value.name != holder:
        return {}
    if value_arg is None:
        return {}
    found: dict[str, Value] = {}
    if setter.option < 0:  # a mapping of options
        for option in options(resolver.value(value_arg.value, ctx)):
            if isinstance(option, MapV):
                for entry in option.entries:
                    part = knowledge.handle_options.get(entry.key or "")
                    if part is not None:
                        found[part] = entry.value
                break
        return found
    option_arg = argument(call.args, (setter.option, ""))
    name = resolver.literal(option_arg.value, ctx) if option_arg is not None else None
    part = knowledge.handle_options.get(name or "")
    if part is not None:
        found[part] = resolver.value(value_arg.value, ctx)
    return found


def _apply_handle(request: Request, handle: dict[str, Value]) -> None:
    """A handle's options on its request: a method option wins, else the POST flag or a
    body alone means POST (as in libcurl)."""
    for part in ("url", "headers", "query"):
        if part in handle:
            _add(request, part, handle[part])
    method = _literal(handle["method"]) if "method" in handle else None
    if method:
        request.method = method.upper()
    elif "body" in handle or ("post" in handle and _literal(handle["post"]) not in ("false", "0")):
        request.method = "POST"


def _add(request: Request, part: str, value: Value) -> None:
    if part == "url":
        request.url = value
    elif part == "query":
        if request.query is None:
            request.query = value
        else:
            request.extra_query.append(value)
    elif part == "headers":
        request.headers = _merged(request.headers, _header_map(value))


def _merged(held: Value | None, added: Value) -> Value:
    if not isinstance(added, MapV):
        return held if held is not None else added
    if not isinstance(held, MapV):
        return added if held is None else held
    known = {(e.key, e.written) for e in held.entries}
    more = tuple(e for e in added.entries if (e.key, e.written) not in known)
    return MapV((*held.entries, *more), held.start, held.end, held.partial)


def _header_map(value: Value) -> Value:
    """Headers as a mapping: a list of `Name: value` lines (curl's) becomes one."""
    for option in options(value):
        if isinstance(option, SeqV):
            entries = [e for e in (_header_line(item) for item in option.items) if e is not None]
            return MapV(tuple(entries), option.start, option.end)
    return value


def _header_line(item: Value) -> Entry | None:
    """`'Authorization: Bearer ' . $token` -> the entry Authorization: `Bearer {}`."""
    if not isinstance(item, Text) or not item.pieces or not isinstance(item.pieces[0], Lit):
        return None
    first = item.pieces[0]
    colon = first.text.find(":")
    if colon <= 0:
        return None
    name = first.text[:colon].strip()
    rest = colon + 1
    while rest < len(first.text) and first.text[rest] == " ":
        rest += 1
    head: list[Piece] = []
    if rest < len(first.text):
        offsets = tuple(first.offset(k) for k in range(rest, len(first.text)))
        head.append(Lit(first.text[rest:], offsets[0], offsets))
    value = Text((*head, *item.pieces[1:]))
    key_start, key_end = first.offset(0), first.offset(colon)
    end = _end(item.pieces[-1])
    return Entry(name, key_start, key_end, value, (key_start, end))


def _end(piece: Piece) -> int:
    return piece.end if isinstance(piece, (Lit, Hole)) else 0


def _literal(value: Value) -> str | None:
    if isinstance(value, Text) and all(isinstance(p, Lit) for p in value.pieces):
        return "".join(p.text for p in value.pieces if isinstance(p, Lit))
    return None
