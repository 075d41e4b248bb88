"""Headers set on the object a request is made through, or on the request object itself.

`session.headers["Authorization"] = ...`, `session.headers.update({...})` and
`req.add_header("Authorization", ...)` (after `req = Request(url)`) belong to the
requests made through that object (knowledge.header_setters names the setters, and
knowledge.header_holders the properties that hold an object's headers).
"""

from __future__ import annotations

from bisect import bisect_left
from typing import TYPE_CHECKING

from apispec.lint.extract.context import Ctx
from apispec.lint.extract.ir import CallE, Entry, MapV, Value

if TYPE_CHECKING:
    from apispec.lint.extract.clients import Requests
    from apispec.lint.extract.lower.model import Assign


def object_headers(finder: Requests, call: CallE) -> Value | None:
    """The headers set on the call's receiver, or on the name its result is held in after
    it is made (only that scope's: another request object may have the same name)."""
    model = finder.model
    resolver = finder.resolver
    names: list[tuple[str, bool]] = []  # (name, the request object this call makes)
    text = model.parsed.text
    if call.receiver is not None:
        names.append((text[call.receiver.start : call.receiver.end], False))
    holder = model.holder(call.node_id)
    if holder:
        names.append((holder, True))
    entries: list[Entry] = []
    # a local name is another object in another function: only the scopes around the
    # call see it (a field, `self.session`, is set in the constructor and read anywhere)
    visible = set(model.scopes_at(call.start))
    for name, made in names:
        local = name.isidentifier() and name not in model.imports
        for assign in _assigns(finder, name, visible if local else None):
            if assign.item is None or (made and not _after_in_scope(finder, call, assign.start)):
                continue
            inner = Ctx(assign.start, model.function_at(assign.start))
            key = resolver.literal(assign.item, inner)
            value = resolver.value(assign.value, inner)
            written = (assign.value.start, assign.value.end)
            entries.append(Entry(key, assign.item.start, assign.item.end, value, written))
        around = model.functions_at(call.start)
        spans = [(0, len(text))]
        if made and around:  # a request object's setters follow it in its function
            spans = [(call.start, around[0].end)]
        elif local and around:  # a local name's: its outermost function's, the module's
            outer = around[-1]
            spans = [(0, outer.start), (outer.start, outer.end), (outer.end, len(text))]
        for setter in (c for lo, hi in spans for c in _setters(finder, name, lo, hi)):
            if made and not _after_in_scope(finder, call, setter.start):
                continue  # another request object of the same name
            if local and model.scopes_at(setter.start)[0] not in visible:
                continue  # a local object of the same name in another function
            inner = Ctx(setter.start, model.function_at(setter.start))
            positional = [a for a in setter.args if a.name is None and not a.spread]
            named = next(
                (a for a in setter.args if a.name in finder.knowledge.header_name_labels), None
            )
            if named is not None and positional:  # `setValue(v, forHTTPHeaderField: k)`
                positional = [named, positional[0]]
            if len(positional) >= 2:
                key = resolver.literal(positional[0].value, inner)
                value = resolver.value(positional[1].value, inner)
                written = (positional[1].value.start, positional[1].value.end)
                start, end = positional[0].value.start, positional[0].value.end
                entries.append(Entry(key, start, end, value, written))
            elif len(positional) == 1:
                found = resolver.value(positional[0].value, inner)
                if isinstance(found, MapV):
                    entries.extend(found.entries)
    return MapV(tuple(entries)) if entries else None


def _assigns(finder: Requests, name: str, visible: set[int] | None) -> list[Assign]:
    """Assignments to the object's headers (`name.headers[k] = v`), in the scopes that
    see a local name (every one for a field or a module's object)."""
    model = finder.model
    keys = dict.fromkeys(
        (name + ".headers", *(f"{name}.{h}" for h in finder.knowledge.header_holders))
    )
    if visible is None:
        return [a for key in keys for a in model.assigns.get(key, ())]
    return [a for key in keys for scope in visible for a in model.assigns_in(key, scope)]


def _after_in_scope(finder: Requests, call: CallE, pos: int) -> bool:
    """Whether `pos` follows the call in the function that makes the call."""
    scopes_at = finder.model.scopes_at
    return call.start < pos and scopes_at(pos)[0] == scopes_at(call.start)[0]


def _setters(finder: Requests, name: str, lo: int, hi: int) -> list[CallE]:
    """The header-setting calls between two positions on an object or on its headers
    holder, by the written receiver (indexed once per file, with their positions: a file
    of many requests reads it for each, a request object's own lie in its function)."""
    holders = finder.knowledge.header_holders
    if finder.setters_by_receiver is None:
        finder.setters_by_receiver = {}
        text = finder.model.parsed.text
        for call in finder.model.calls:
            receiver = call.receiver
            if receiver is not None and call.callee in finder.knowledge.header_setters:
                written = text[receiver.start : receiver.end].lower()
                finder.setters_by_receiver.setdefault(written, []).append(call)
    found: list[CallE] = []
    for written in dict.fromkeys((name.lower(), *(f"{name}.{h}".lower() for h in holders))):
        setters = finder.setters_by_receiver.get(written, [])
        starts = finder.setter_starts.get(written)
        if starts is None:
            starts = finder.setter_starts[written] = [c.start for c in setters]
        found.extend(setters[bisect_left(starts, lo) : bisect_left(starts, hi)])
    return sorted(found, key=lambda c: c.start)
