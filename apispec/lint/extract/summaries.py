"""Wrappers across files: what a file's wrappers do, exported as rows; applied where in scope.

Inside a file a wrapper is read again at each call with its arguments bound
(clients.py). Across files the repository pass carries a summary per exported
wrapper (`Helper`): the base text before the path parameter, which parameters are
the path, the method and the query, and where the wrapper is defined. A call in
another file uses it only where the wrapper is in scope: a function the file
imports, a method of the receiver's class (known from a constructor or a declared
type), or, for a receiver of unknown class, a method whose name no HTTP library
or dictionary shares.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from apispec.lint.extract.context import Ctx, options, param_of
from apispec.lint.extract.imported import module_of
from apispec.lint.extract.ir import (
    CallE,
    Function,
    Hole,
    Lit,
    Mapping,
    MapV,
    Name,
    ObjV,
    ParamV,
    Piece,
    Text,
)
from apispec.lint.extract.request import Request
from apispec.lint.helpers import QUERY_PARAMS, Helper
from apispec.lint.knowledge import VERBS

if TYPE_CHECKING:
    from apispec.lint.extract.clients import Requests

_NAMES_THIS_API = re.compile(r":1616\b|prtg", re.I)
_IDENTIFIER = re.compile(r"[A-Za-z_]\w*")


def export(finder: Requests, language: str, filename: str, file_names_api: bool) -> list[Helper]:
    """A summary of each wrapper the file defines, for the other files of the tree.

    `file_names_api`: the defining file names this API (its port, `prtg`, an
    experimental path), which makes its wrappers' bases this API's.
    """
    helpers: list[Helper] = []
    module = module_of(filename, finder.knowledge.scope == "directory")
    for function in finder.model.functions:
        if not function.name or not function.exported or not finder.calls_in(function):
            continue
        if not finder.is_wrapper(function):
            continue
        template = _template(finder, function)
        if template is None:
            continue
        request, path_index, slashed = template
        url = request.url if isinstance(request.url, Text) else None
        if url is None:
            continue
        pieces = url.pieces
        base_pieces = list(pieces[:path_index])
        base_text = "".join(p.text if isinstance(p, Lit) else "\0" for p in base_pieces)
        hints = tuple(p.hint for p in base_pieces if isinstance(p, Hole) and p.hint)
        join = "concat"
        for option in options(request.base) if request.base is not None else []:
            if isinstance(option, Text):
                base_text = "".join(p.text if isinstance(p, Lit) else "\0" for p in option.pieces)
                hints = tuple(p.hint for p in option.pieces if isinstance(p, Hole) and p.hint)
                join = request.join
                break
        hole = pieces[path_index]
        assert isinstance(hole, Hole) and hole.param is not None
        if join in ("rfc3986", "directory") and _strips_slash(
            finder, function, request, hole.param.name
        ):
            join = "slash"  # `path.TrimStart('/')`: a leading slash never reaches the client
        if join == "concat" and slashed:
            join = "slash"  # `base + (p.startsWith("/") ? p : "/" + p)`: one slash either way
        params = tuple(name for name, _, _ in function.params)
        method_index, method_name, method_default = _method_param(finder, function, request)
        query_index, query_name, kwargs = _query_param(function, request, hole.param.name)
        if query_index is None and not query_name and not kwargs:
            query_index, query_name = _query_named(function)
        options_index = _options_param(function, request)
        if (
            query_index is None
            and not query_name
            and not kwargs
            and _spreads_keywords(request, function)
        ):
            query_name = request.query_keyword or None  # `**kwargs` handed on: `params=...`
        # strong: the base is this API's (it ends in /api/v2 and it, or the defining file,
        # names this API), so any path through the wrapper is a call; otherwise only paths
        # that start as this API's do (evidence.py)
        api_base = base_text.rstrip("/").endswith("/api/v2")
        strong = (api_base and (file_names_api or bool(_NAMES_THIS_API.search(base_text)))) or any(
            "prtg" in h for h in hints
        )
        helpers.append(
            Helper(
                name=function.name,
                path=hole.param.index,
                path_name=hole.param.name,
                strong=strong,
                method=method_index,
                method_name=method_name,
                method_default=method_default,
                implied=request.method if method_index is None else None,
                query=query_index,
                query_name=query_name,
                query_kwargs=kwargs,
                params=params,
                language=language,
                base=base_text,
                hints=hints,
                join=join,
                owner=function.owner or "",
                module=module,
                options=options_index,
                options_query=request.query_keyword if options_index is not None else "",
                suffix=_suffix(pieces[path_index + 1 :], function),
                **_command_line(request, function),
            )
        )
    helpers.extend(_client_verbs(finder, helpers))
    helpers.extend(_clients(finder, language, module, file_names_api))
    return helpers


def _command_line(request: Request, function: Function) -> dict[str, Any]:
    """A command line's options, and where the wrapper hands its callers' words on."""
    if not request.command:
        return {}
    forwarded = request.forwarded
    options = (
        forwarded.index
        if forwarded is not None and forwarded.function == function.node_id
        else None
    )
    return {"command": request.command, "words": request.words, "forwards": options}


def _clients(finder: Requests, language: str, module: str, file_names_api: bool) -> list[Helper]:
    """The client objects the module makes at its top level, with a base URL, for the
    files that import them (`export const prtg = axios.create({ baseURL })`)."""
    found: list[Helper] = []
    for key, assigns in finder.model.assigns.items():
        top = [a for a in assigns if a.scope == 0 and a.item is None and not a.add]
        if "." in key or key.startswith("@") or len(top) != 1 or top[0].unpack != -1:
            continue
        if not isinstance(top[0].value, CallE):
            continue  # a client object is made by a call (its factory's)
        finder.resolver.fresh()
        value = finder.resolver.value(top[0].value, Ctx(top[0].start))
        for option in options(value):
            if not isinstance(option, ObjV) or option.kind != "client":
                continue
            base = next(
                (t for t in options(option.field("base") or Text(())) if isinstance(t, Text)), None
            )
            if base is None or not base.pieces:
                continue
            base_text = "".join(p.text if isinstance(p, Lit) else "\0" for p in base.pieces)
            hints = tuple(p.hint for p in base.pieces if isinstance(p, Hole) and p.hint)
            api_base = base_text.rstrip("/").endswith("/api/v2")
            strong = (
                api_base and (file_names_api or bool(_NAMES_THIS_API.search(base_text)))
            ) or any("prtg" in h for h in hints)
            found.append(
                Helper(
                    name=key,
                    path=-1,
                    path_name="",
                    strong=strong,
                    language=language,
                    base=base_text,
                    hints=hints,
                    join=finder.join_of(option.name),
                    module=module,
                    client=option.name,
                )
            )
            break
    return found


def _strips_slash(finder: Requests, function: Function, request: Request, name: str) -> bool:
    """Whether the wrapper drops a leading slash of its path before the client joins it:
    its calls read again with the path `/x` send a URL that no longer starts with one
    (also where the slash is dropped by another wrapper it calls: `get` -> `request`)."""
    probe = Text((Lit("/x", request.call.start),))
    for call in finder.calls_in(function):
        ctx = Ctx(call.start, function, ((name, probe),), open=function.node_id)
        finder.resolver.fresh()
        for again in finder.at(call, ctx, 1):
            for option in options(again.url):
                first = option.pieces[0] if isinstance(option, Text) and option.pieces else None
                if isinstance(first, Lit) and first.text.startswith("x"):
                    return True
    return False


def _spreads_keywords(request: Request, function: Function) -> bool:
    """Whether the request's call hands on the wrapper's own `**kwargs`."""
    names = {name for name, kind, _ in function.params if kind == "**"}
    return any(
        arg.spread == "**" and isinstance(arg.value, Name) and arg.value.name in names
        for arg in request.call.args
    )


def _client_verbs(finder: Requests, helpers: list[Helper]) -> list[Helper]:
    """A client subclass's verb methods, inherited from the library, run its `request`
    override: `PrtgSession(...).get(path)` in another file is `request("GET", path)`."""
    found = []
    for helper in helpers:
        if helper.name != "request" or not helper.owner:
            continue
        kind = finder.client_class(helper.owner)
        if kind is None:
            continue
        for verb in VERBS:
            if any(h.name == verb and h.owner == helper.owner for h in helpers):
                continue
            found.append(
                helper._replace(
                    name=verb,
                    path=0,
                    method=None,
                    method_name=None,
                    method_default=None,
                    implied=verb.upper(),
                    query=None,
                    query_name=helper.query_name or "params",
                )
            )
    return found


def _template(finder: Requests, function: Function) -> tuple[Request, int, bool] | None:
    """The wrapper's request with its parameters open, where the path parameter is, and
    whether the wrapper writes the path both after a slash and not (it makes sure of one
    slash between base and path: its callers' paths join by the slash rule)."""
    for call in finder.calls_in(function):
        ctx = Ctx(call.start, function, open=function.node_id)
        finder.resolver.fresh()
        for request in finder.at(call, ctx, 1):
            found: list[tuple[Text, int]] = []
            for option in options(request.url):
                if not isinstance(option, Text):
                    continue
                for k, piece in enumerate(option.pieces):
                    if (
                        isinstance(piece, Hole)
                        and piece.param is not None
                        and piece.param.function == function.node_id
                    ):
                        found.append((option, k))
                        break
            if found:
                request.url, at = found[0]
                after_slash = {_after_slash(option, k) for option, k in found}
                return request, at, len(after_slash) == 2
    return None


def _suffix(pieces: Sequence[Piece], function: Function) -> tuple[str | int, ...]:
    """What the URL holds after the path parameter, up to its query: literal texts and the
    function's parameters by position; () where another unknown piece stands there (the
    caller cannot fill it, and the path is the caller's whole path then)."""
    found: list[str | int] = []
    for piece in pieces:
        if isinstance(piece, Lit):
            text, mark, _ = piece.text.partition("?")
            if text:
                found.append(text)
            if mark:
                break
            continue
        param = piece.param
        if param is None or param.function != function.node_id or param.kind:
            return ()
        found.append(param.index)
    return tuple(found)


def _after_slash(text: Text, at: int) -> bool:
    before = text.pieces[at - 1] if at else None
    return isinstance(before, Lit) and before.text.endswith("/")


def _method_param(
    finder: Requests, function: Function, request: Request
) -> tuple[int | None, str | None, str | None]:
    """The wrapper's parameter that holds the method, and its default verb."""
    if request.method is not None:
        return None, None, None
    taken = request.method_param
    if taken is not None and taken.function == function.node_id and not taken.kind:
        return taken.index, taken.name or None, None  # `-X "$1"`: whatever it is called
    named = [(index, name, default) for index, (name, _, default) in enumerate(function.params)]
    # a destructured parameter's names too (`function f({ method = "GET" })`)
    named += [(index, name, default) for name, (index, _, default) in function.members.items()]
    for index, name, default in named:
        if name.lower() in ("method", "verb", "http_method", "httpmethod"):
            literal = None
            if default is not None:
                literal = finder.resolver.literal(default, Ctx(default.start))
            return index, name, literal.upper() if literal else None
    return None, None, None


def _query_named(function: Function) -> tuple[int | None, str | None]:
    """A parameter named for the query (`$QueryParameter`, `params`) whose way into the URL
    the flow does not show (a loop over its keys writing `name=value` pairs)."""
    for index, (name, kind, _) in enumerate(function.params):
        if not kind and name.lower() in QUERY_PARAMS:
            return index, name
    return None, None


def _options_param(function: Function, request: Request) -> int | None:
    """The wrapper's parameter the library takes as its options object, as written at the
    call (`fetch(url, init)`, `fetch(url, { ...init, headers })`): its position."""
    call = request.call
    positional = [a for a in call.args if a.name is None and not a.spread]
    names = [name for name, _, _ in function.params]
    for at in request.config:
        if at >= len(positional):
            continue
        value = positional[at].value
        written = [value] if isinstance(value, Name) else []
        if isinstance(value, Mapping):
            written = [v for k, v in value.items if k is None and isinstance(v, Name)]
        for name in written:
            if isinstance(name, Name) and name.name in names:
                return names.index(name.name)
    return None


def _query_param(
    function: Function, request: Request, path: str
) -> tuple[int | None, str | None, bool]:
    for option in options(request.query) if request.query is not None else []:
        param = None
        if isinstance(option, ParamV):
            param = option.param
        elif (
            isinstance(option, Text)
            and len(option.pieces) == 1
            and isinstance(option.pieces[0], Hole)
        ):
            param = option.pieces[0].param
        elif isinstance(option, MapV):  # `{**params}`, `dict(params)`: the caller's keywords
            for entry in option.entries:
                if isinstance(entry.value, ParamV) and entry.value.param.kind == "**":
                    return None, None, True
                spread = param_of(entry.value) if entry.key is None else None
                if spread is not None and spread.function == function.node_id:
                    param = spread  # `{ limit: 100, ...query }`: the caller's mapping
        if param is not None and param.function == function.node_id:
            if param.kind == "**":
                return None, None, True
            return param.index, param.name, False
    return _encoded_query(function, request, path)


def _encoded_query(
    function: Function, request: Request, path: str
) -> tuple[int | None, str | None, bool]:
    """A parameter the wrapper encodes into its URL after the `?` (`url += "?" +
    string.Join("&", query.Select(...))`): its callers' mapping is the query."""
    params = {name: index for index, (name, _, _) in enumerate(function.params)}
    for option in options(request.url):
        if not isinstance(option, Text):
            continue
        after = False
        for piece in option.pieces:
            if isinstance(piece, Lit):
                after = after or "?" in piece.text
                continue
            if not after:
                continue
            if piece.param is not None and piece.param.function == function.node_id:
                return piece.param.index, piece.param.name, False
            for word in _IDENTIFIER.findall(piece.text):
                if word in params and word != path:
                    return params[word], word, False
    return None, None, False
