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
from pathlib import PurePath

from apispec.lint.extract.commands import Word, build, command_words
from apispec.lint.extract.context import Ctx, alt, entry_of, known_text, options
from apispec.lint.extract.ir import (
    Arg,
    Attr,
    CallE,
    Entry,
    Hole,
    Lit,
    MapV,
    Name,
    ObjV,
    Piece,
    Text,
    Value,
    argument,
)
from apispec.lint.extract.request import Request
from apispec.lint.extract.values import Resolver
from apispec.lint.helpers import Helper, HelperTable
from apispec.lint.knowledge import knowledge

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


_SCRIPT_SUFFIXES = frozenset({".js", ".mjs", ".cjs", ".jsx", ".ts", ".mts", ".cts", ".tsx"})


def in_scope(
    helper: Helper,
    call: CallE,
    receiver: Value | None,
    imports: dict[str, str],
    importer: str = "",
    directory: bool = False,
) -> bool:
    """Whether a call may mean this wrapper: imported, a function of the same package, a
    method of its class (or of an object its module made), or a rare name.

    `importer`: the calling file's dotted module path, against which relative imports
    (`./client`, `from .client import`) are resolved; `directory`: the files of a
    directory are one module (Go's packages), so the importer's own functions are in
    scope wherever they are defined. An import of everything a module defines (a shell
    `source lib.sh`, `from m import *`) is the key `*<module>`; `*` alone: a module the
    code names only at run time (`source "$LIB"`), whose wrappers are any of the tree's,
    by name."""
    if helper.language == "*":  # named in the configuration
        if helper.receiver is None:
            return True
        written = receiver_name(call)
        return written is not None and written.lower() == helper.receiver.lower()
    if not helper.owner:
        if call.receiver is None:
            if directory and helper.module == importer:
                return True  # a function of another file of the package
            target = imports.get(call.callee, "")
            if target.endswith("." + helper.name) and same_module(
                target.rsplit(".", 1)[0], helper.module, importer, directory
            ):
                return True
            if any(
                local.startswith("*")
                and (module == "*" or same_module(module, helper.module, importer, directory))
                for local, module in imports.items()
            ):
                return True
            return _global(helper, call)
        for option in options(receiver) if receiver is not None else []:
            if isinstance(option, ObjV) and option.kind == "module":
                return same_module(option.name, helper.module, importer, directory)
        return False
    for option in options(receiver) if receiver is not None else []:
        if isinstance(option, ObjV) and option.kind in ("instance", "class"):
            if not option.name:  # an object a function of its module returned
                return same_module(option.module, helper.module, importer, directory)
            return option.name == helper.owner
        if isinstance(option, ObjV) and option.kind == "module":  # an object it exports
            module, _, name = option.name.rpartition(".")
            return name == helper.owner and same_module(module, helper.module, importer, directory)
    if call.receiver is None:
        return False
    return helper.name.lower() not in COMMON


def _global(helper: Helper, call: CallE) -> bool:
    """A function the language calls by name wherever it is defined (its knowledge's
    `global_functions`: PowerShell's commands share one namespace per session)."""
    rule = knowledge(helper.language).global_functions
    return rule is not None and rule.fullmatch(call.callee.lower()) is not None


def receiver_name(call: CallE) -> str | None:
    receiver = call.receiver
    if isinstance(receiver, Name):
        return receiver.name
    if isinstance(receiver, Attr):
        return receiver.name
    return None


def module_of(filename: str, directory: bool = False) -> str:
    """A file's dotted module path as imports name it (`pkg/client.py` -> `pkg.client`);
    `directory`: the files of a directory are one module (`pkg/client.go` -> `pkg`)."""
    if not PurePath(filename).name:
        return ""
    path = PurePath(filename).parent if directory else PurePath(filename).with_suffix("")
    parts = list(path.parts[1:] if path.anchor else path.parts)  # `/`, `C:\\` are no module
    if parts and parts[-1] in ("__init__", "index", "mod") and not directory:
        parts.pop()
    return ".".join(p for p in parts if p not in ("", ".", ".."))


def same_module(imported: str, defined: str, importer: str = "", directory: bool = False) -> bool:
    """`prtgkit.client` names the file `.../prtgkit/client.py` (a suffix of its dotted path);
    a relative import is resolved against the importing module first; `directory`: a
    package path (`example.com/noc/prtgclient`) names the directory it ends with."""
    if not imported or not defined:
        return False
    if directory:
        last = imported.rstrip("/").rsplit("/", 1)[-1]
        if "/" not in imported:  # a JVM package (`org.acme.netmon.sdk`): its last name
            last = last.rsplit(".", 1)[-1]
        return last == defined.rsplit(".", 1)[-1]
    resolved = resolve_module(imported, importer)
    return defined == resolved or defined.endswith("." + resolved)


def resolve_module(imported: str, importer: str) -> str:
    """An import's module as a dotted path, relative ones resolved against the importer.

    `./client` and `../api/client` (JavaScript) climb from the importer's directory;
    `.client` and `..pkg.client` (Python) from its package; others are written whole
    (`prtgkit.client`, `@/api/client`), matched as a suffix of the defining file's path.
    """
    package = importer.split(".")[:-1] if importer else []
    if imported.startswith(("./", "../")) or imported in (".", ".."):
        if not importer:
            return _dotted(imported)
        parts = list(package)
        for step in imported.split("/"):
            if step == "..":
                if parts:
                    parts.pop()
            elif step not in (".", ""):
                parts.append(step)
        return _dotted("/".join(parts))
    if imported.startswith("."):
        rest = imported.lstrip(".")
        if not importer:
            return rest
        up = len(imported) - len(rest) - 1
        kept = package[: len(package) - up] if up else list(package)
        return ".".join([*kept, *filter(None, rest.split("."))])
    return _dotted(imported)


def _dotted(spec: str) -> str:
    """`src/api/client.ts` -> `src.api.client`: a module written as a path, in dotted form
    (a dotted name, `prtgkit.client`, is one already)."""
    if "/" not in spec:
        return spec
    parts = [p for p in spec.lstrip("@").split("/") if p not in ("", ".")]
    if parts and PurePath(parts[-1]).suffix in _SCRIPT_SUFFIXES:
        parts[-1] = PurePath(parts[-1]).stem
    if parts and parts[-1] == "index":
        parts.pop()
    return ".".join(parts)


def imported_client(
    helpers: HelperTable, option: ObjV, language: str, importer: str, at: int
) -> ObjV | None:
    """The client object another module makes, where this file imports it by name
    (`import { prtg } from "../api/prtgClient"`): its kind and base URL."""
    module, _, name = option.name.rpartition(".")
    for helper in helpers.named(name, language) if module else ():
        if helper.client and same_module(module, helper.module, importer):
            return ObjV("client", helper.client, (("base", base_of(helper, at)),))
    return None


def base_of(helper: Helper, at: int) -> Text:
    """A summary's base text, its holes named by their hints, placed at `at`."""
    pieces: list[Lit | Hole] = []
    hints = iter(helper.hints)
    for chunk in re.split(r"(\0)", helper.base):
        if chunk == "\0":
            pieces.append(Hole("", at, at, next(hints, "")))
        elif chunk:
            pieces.append(Lit(chunk, at, tuple([at] * len(chunk))))
    return Text(tuple(pieces))


def through(resolver: Resolver, helper: Helper, call: CallE, ctx: Ctx) -> Request | None:
    """The request a call of a wrapper of another file sends."""
    path_arg = argument(call.args, (helper.path, helper.path_name))
    if path_arg is None:
        return None
    path = _named(resolver.value(path_arg.value, ctx), helper.path_name, helper, helper.path)
    if path is None:
        return None  # the caller's options object names no path
    if helper.suffix:
        path = _suffixed(resolver, helper, call, ctx, path, path_arg)
    at = path_arg.value.start
    base: Value | None = base_of(helper, at) if helper.base else None
    method = helper.implied
    if helper.method is not None or helper.method_name:
        arg = argument(
            call.args,
            (helper.method if helper.method is not None else -1, helper.method_name or ""),
        )
        verb = (
            _named(resolver.value(arg.value, ctx), helper.method_name, helper, helper.method)
            if arg
            else None
        )
        literal = known_text(verb) if verb is not None else None
        method = literal.upper() if literal else helper.method_default
    query: Value | None = None
    if helper.query is not None or helper.query_name:
        arg = argument(
            call.args, (helper.query if helper.query is not None else -1, helper.query_name or "")
        )
        query = (
            _named(resolver.value(arg.value, ctx), helper.query_name, helper, helper.query)
            if arg
            else None
        )
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
    if helper.options is not None:  # the caller's options object, handed on to the library
        method, query = _options(resolver, helper, call, ctx, method, query)
    join = helper.join if helper.join != "concat" else "concat"
    request = Request(call, path, method, base, join, query, None, "wrapper", wrapped=True)
    if helper.command and helper.forwards is not None:
        _command_options(resolver, helper, request, ctx)
    return request


def _command_options(resolver: Resolver, helper: Helper, request: Request, ctx: Ctx) -> None:
    """The words a caller hands on to a command-line wrapper's command: its options
    (`--data-urlencode 'filter=...'`), read with the wrapper's own (`-G`)."""
    row = resolver.knowledge.command(helper.command)
    if row is None or helper.forwards is None:
        return
    call = request.call
    at = call.start
    fixed = [Word(Text((Lit(w, at),)), w, fixed=True) for w in helper.words]
    given, _ = command_words(resolver, call, ctx, helper.forwards)
    sent = build(call, row, [*fixed, *given])
    if request.query is None:
        request.query = sent.query
    request.extra_query.extend(sent.extra_query)
    request.headers = sent.headers
    if helper.method is None and not helper.method_name:
        request.method = sent.method


def _options(
    resolver: Resolver,
    helper: Helper,
    call: CallE,
    ctx: Ctx,
    method: str | None,
    query: Value | None,
) -> tuple[str | None, Value | None]:
    """The method and query a caller's options object says (`api(path, { method })`)."""
    arg = argument(call.args, (helper.options if helper.options is not None else -1, ""))
    if arg is None:
        return method, query
    given = resolver.value(arg.value, ctx)
    verb = entry_of(given, "method")
    literal = known_text(verb) if verb is not None else None
    if literal and method is None:
        method = literal.upper()
    if query is None and helper.options_query:
        query = entry_of(given, helper.options_query)
    return method, query


def _suffixed(
    resolver: Resolver, helper: Helper, call: CallE, ctx: Ctx, path: Value, path_arg: Arg
) -> Value:
    """The caller's path with what the wrapper writes after it: `Pause(ctx, "devices", id)`
    for `kind + "/" + id + "/pause"` is `devices/{id}/pause`."""
    at = path_arg.value.end
    tail: list[Piece] = []
    for item in helper.suffix:
        if isinstance(item, str):
            tail.append(Lit(item, at, tuple([at] * len(item))))
            continue
        name = helper.params[item] if item < len(helper.params) else ""
        arg = argument(call.args, (item, name))
        if arg is None:
            tail.append(Hole("", at, at))
            continue
        tail.extend(resolver.text_of(resolver.value(arg.value, ctx), arg.value).pieces)
    return alt(
        Text((*resolver.text_of(option, path_arg.value).pieces, *tail)) for option in options(path)
    )


def _named(value: Value, name: str | None, helper: Helper, index: int | None) -> Value | None:
    """The argument at a wrapper's place, or, when the wrapper destructures a mapping there
    (`query({ endpoint, params })`), that mapping's entry of the place's name: none when
    the caller's mapping leaves it out (the whole mapping is not the place's value)."""
    if name and any(isinstance(o, MapV) for o in options(value)):
        found = entry_of(value, name)
        if found is not None:
            return found
        places = helper.params
        if index is not None and 0 <= index < len(places) and places[index].startswith("{"):
            return None  # a destructured parameter's place
    return value
