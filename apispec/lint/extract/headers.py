"""Headers set on the object a request is made through, or on the request object itself.

`session.headers["Authorization"] = ...`, `session.headers.update({...})` and
`req.add_header("Authorization", ...)` (after `req = Request(url)`) belong to the
requests made through that object (knowledge.header_setters names the setters).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from apispec.lint.extract.context import Ctx
from apispec.lint.extract.ir import CallE, Entry, MapV, Value

if TYPE_CHECKING:
    from apispec.lint.extract.lower import FileModel
    from apispec.lint.extract.values import Resolver
    from apispec.lint.knowledge import Knowledge


def object_headers(
    model: FileModel, resolver: Resolver, knowledge: Knowledge, call: CallE
) -> Value | None:
    """The headers set on the call's receiver or on the name its result is held in."""
    names: list[str] = []
    text = model.parsed.text
    if call.receiver is not None:
        names.append(text[call.receiver.start : call.receiver.end])
    holder = model.holder(call.node_id)
    if holder:
        names.append(holder)
    entries: list[Entry] = []
    for name in names:
        for assign in model.assigns.get(name + ".headers", ()):
            if assign.item is None:
                continue
            inner = Ctx(assign.start, model.function_at(assign.start))
            key = resolver.literal(assign.item, inner)
            value = resolver.value(assign.value, inner)
            written = (assign.value.start, assign.value.end)
            entries.append(Entry(key, assign.item.start, assign.item.end, value, written))
        for setter in _setters(model, knowledge, name):
            inner = Ctx(setter.start, model.function_at(setter.start))
            positional = [a for a in setter.args if a.name is None and not a.spread]
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


def _setters(model: FileModel, knowledge: Knowledge, name: str) -> list[CallE]:
    text = model.parsed.text
    holders = {f"{name}.{h}".lower() for h in knowledge.header_holders}
    found = []
    for call in model.calls:
        receiver = call.receiver
        if receiver is None or call.callee not in knowledge.header_setters:
            continue
        written = text[receiver.start : receiver.end].lower()
        if written == name.lower() or written in holders:
            found.append(call)
    return found
