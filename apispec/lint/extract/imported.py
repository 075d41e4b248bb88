"""Wrappers of other files, applied at a call only where they are in scope.

The repository pass hands every file the summaries (`Helper`) of the wrappers the
other files of the tree define (summaries.py). A call uses one only where the
wrapper is in scope: a function the file imports from the defining module, a
method of the receiver's class (known from a constructor or a declared type), or,
for a receiver of unknown class, a method whose name no HTTP library or mapping
shares; a wrapper named in the configuration applies by its name.
"""

from __future__ import annotations

import re

from apispec.lint.extract.context import Ctx, options
from apispec.lint.extract.ir import (
    Attr,
    CallE,
    Entry,
    Hole,
    Lit,
    MapV,
    Name,
    ObjV,
    Text,
    Value,
    argument,
)
from apispec.lint.extract.request import Request
from apispec.lint.extract.values import Resolver
from apispec.lint.helpers import Helper

# Method names shared by HTTP libraries, mappings and responses: a wrapper with one of
# these names applies only where the receiver's class is known.
COMMON = frozenset(
    {
        "get",
        "post",
        "put",
        "patch",
        "delete",
        "head",
        "options",
        "request",
        "send",
        "fetch",
        "call",
        "json",
        "execute",
        "run",
        "query",
        "open",
        "read",
        "invoke",
    }
)


def in_scope(helper: Helper, call: CallE, receiver: Value | None, imports: dict[str, str]) -> bool:
    """Whether a call may mean this wrapper: imported, a method of its class, or a rare name."""
    if helper.language == "*":  # named in the configuration
        if helper.receiver is None:
            return True
        written = receiver_name(call)
        return written is not None and written.lower() == helper.receiver.lower()
    if not helper.owner:
        if call.receiver is None:
            target = imports.get(call.callee, "")
            return target.endswith("." + helper.name) and _same_module(
                target.rsplit(".", 1)[0], helper.module
            )
        for option in options(receiver) if receiver is not None else []:
            if isinstance(option, ObjV) and option.kind == "module":
                return _same_module(option.name, helper.module)
        return False
    for option in options(receiver) if receiver is not None else []:
        if isinstance(option, ObjV) and option.kind in ("instance", "class"):
            return option.name == helper.owner
    if call.receiver is None:
        return False
    return helper.name.lower() not in COMMON


def receiver_name(call: CallE) -> str | None:
    receiver = call.receiver
    if isinstance(receiver, Name):
        return receiver.name
    if isinstance(receiver, Attr):
        return receiver.name
    return None


def _same_module(imported: str, defined: str) -> bool:
    """`prtgkit.client` names the file `.../prtgkit/client.py` (a suffix of its dotted path)."""
    if not imported or not defined:
        return False
    imported = imported.lstrip(".")
    return defined == imported or defined.endswith("." + imported)


def through(resolver: Resolver, helper: Helper, call: CallE, ctx: Ctx) -> Request | None:
    """The request a call of a wrapper of another file sends."""
    path_arg = argument(call.args, (helper.path, helper.path_name))
    if path_arg is None:
        return None
    path = resolver.value(path_arg.value, ctx)
    at = path_arg.value.start
    base: Value | None = None
    if helper.base:
        pieces: list[Lit | Hole] = []
        hints = iter(helper.hints)
        for chunk in re.split(r"(\0)", helper.base):
            if chunk == "\0":
                pieces.append(Hole("", at, at, next(hints, "")))
            elif chunk:
                pieces.append(Lit(chunk, at, tuple([at] * len(chunk))))
        base = Text(tuple(pieces))
    method = helper.implied
    if helper.method is not None or helper.method_name:
        arg = argument(
            call.args,
            (helper.method if helper.method is not None else -1, helper.method_name or ""),
        )
        literal = resolver.literal(arg.value, ctx) if arg is not None else None
        method = literal.upper() if literal else helper.method_default
    query: Value | None = None
    if helper.query is not None or helper.query_name:
        arg = argument(
            call.args, (helper.query if helper.query is not None else -1, helper.query_name or "")
        )
        query = resolver.value(arg.value, ctx) if arg is not None else None
    elif helper.query_kwargs:
        known = set(helper.params)
        entries: list[Entry] = []
        for arg in call.args:
            if arg.name and arg.name not in known:
                written = (arg.value.start, arg.value.end)
                entries.append(
                    Entry(
                        arg.name,
                        arg.value.start,
                        arg.value.end,
                        resolver.value(arg.value, ctx),
                        written,
                    )
                )
            elif arg.spread == "**":  # `**params`: the mapping's entries are keywords
                for option in options(resolver.value(arg.value, ctx)):
                    if isinstance(option, MapV):
                        entries.extend(e for e in option.entries if e.key not in known)
                        break
        query = MapV(tuple(entries))
    join = helper.join if helper.join != "concat" else "concat"
    request = Request(call, path, method, base, join, query, None, "wrapper", wrapped=True)
    return request
