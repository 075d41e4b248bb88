"""Own API helpers, inferred: which functions of a file are helpers of this API.

A function is a helper when its body joins one of its parameters onto a base
that ends in `/api/v2` (`f"{self.base}{path}"`, `$script:PrtgBase + $Path`,
`c.BaseURL + path`, `"${PRTG_API}${path}"`, `'/api/v2' + $Endpoint`), hands it
to a client created with such a base (`http.get(path)` after `axios.create({
baseURL: API })`), or passes it on at another helper's path position
(`self._get(path, ...)` in `paged`). What the helper does with its other
parameters is read alongside: a method parameter and its default, the one verb
its body always sends, a query mapping or `**params`. Their call sites are
calls/helpers.py's.
"""

from __future__ import annotations

import re
from functools import lru_cache

from apispec.lint.calls.callee import callee_before
from apispec.lint.calls.helpers import VERB_WORD, bracket_argument, receiver_fits
from apispec.lint.calls.method import MEMBER_SPACED, VERB_SET, from_callee
from apispec.lint.evidence import Context
from apispec.lint.functions import FunctionDef, Param
from apispec.lint.helpers import METHOD_PARAMS, QUERY_PARAMS, Helper, HelperTable
from apispec.lint.patterns import lazy
from apispec.lint.scan import Source

_ALIAS_REACH = 200  # characters of an assignment's right-hand side read for an alias
_ASSIGN = lazy(
    r"(?:^|[;{(\s])(?:var\s+|let\s+|const\s+|local\s+|my\s+)?\$?([A-Za-z_]\w*)\s*(?::=|=(?!=))[ \t]*(?=\S)",
    re.M,
)
# A base-URL client option: axios/ky/got, HttpClient, httpx/aiohttp, resty, Faraday, Guzzle.
_BASE_OPTION = lazy(
    r"\b(?:baseURL|baseUrl|BaseAddress|base_url|prefixUrl|base_uri|BaseUri|SetBaseURL)\b\s*[:=(]"
)
# Before a parameter: a base (a variable holding one, or a literal ending in /api/v2)
# and what joins them: `+`, `.`, adjacent interpolations, a `/`, a comma (`urljoin(B, p)`).
_JOINED = lazy(
    r"(?:(?P<lit>/api/v2)/?['\"`]?|(?P<var>[A-Za-z_]\w*)[})]?['\"`]?)"
    r"[ \t]*(?:\+|\.{1,2}|,)?[ \t]*['\"`]?/?\$?[{(]?\Z"
)
# What every base option above contains: searched first, most files have none.
# After a base (its name, or a literal ending in /api/v2): what joins a name onto it.
_JOINED_AFTER = re.compile(
    r"/?[}\)]?['\"`]?\s*(?:(?:\+|\.|,)\s*\$?\(?[A-Za-z_]|/?(?:\$\{|\{|\$)[A-Za-z_])"
)
_OPTION_WORDS = ("aseURL", "aseUrl", "ase_url", "aseAddress", "ase_uri", "aseUri", "refixUrl")
# A parameter handed to a client (not joined to a base) is the path only if named like one.
_PATH_LIKE = lazy(r"path|endpoint|ur[il]|route|resource|location|relative", re.I)


_SENDS = frozenset(
    [
        "get",
        "post",
        "put",
        "patch",
        "delete",
        "head",
        "request",
        "send",
        "fetch",
        "do",
        "exchange",
        "execute",
        "getasync",
        "postasync",
        "putasync",
        "patchasync",
        "deleteasync",
        "sendasync",
        "getfromjsonasync",
        "postasjsonasync",
        "putasjsonasync",
        "patchasjsonasync",
        "getstringasync",
        "getstreamasync",
        "httprequestmessage",
        "newrequest",
        "newrequestwithcontext",
    ]
)


def infer(source: Source, context: Context) -> list[Helper]:
    """The helpers the source defines (strong when its base or the file names this API)."""
    text = source.text
    clients = _base_clients(source, context)
    if not context.bases and not clients[1] and text.find("/api/v2", source.pos, source.endpos) < 0:
        return []  # no base in this region: nothing to join a path onto
    if not clients[1] and not _joins(source, context):
        return []  # no parameter-like name is ever joined onto a base here
    functions = source.dialect.functions(source)
    if not functions:
        return []
    # What a body must mention to join a parameter onto a base: checked first, as
    # most functions of a file have nothing to do with the API.
    bases = (*context.bases, "/api/v2")
    bodies = {fn.start: text[fn.body[0] : fn.body[1]].lower() for fn in functions}
    found: dict[str, Helper] = {}
    for fn in functions:
        body = bodies[fn.start]
        by_client = clients[1] and any(_PATH_LIKE.search(p.name) for p in fn.params)
        if not by_client and not any(base in body for base in bases):
            continue
        helper = _direct(source, fn, context, clients)
        if helper is not None:
            found.setdefault(fn.name.lower(), helper)
    for _ in range(4):  # helpers calling helpers, a few levels deep
        if not found:
            break
        table = HelperTable(found.values())
        added = False
        for fn in functions:
            if fn.name.lower() in found or not any(name in bodies[fn.start] for name in found):
                continue
            helper = _passed_on(source, fn, table)
            if helper is not None:
                found[fn.name.lower()] = helper
                added = True
        if not added:
            break
    return list(found.values())


def _joins(source: Source, context: Context) -> bool:
    """Whether the region joins a name onto a base anywhere: `BASE + path`, `{BASE}{path}`,
    `'/api/v2' + $Endpoint`. Cheap, so files with no helper skip reading their functions."""
    region = source.text[source.pos : source.endpos]
    lower = region.lower()
    for base in (*context.bases, "/api/v2"):
        at = lower.find(base)
        while at >= 0:
            end = at + len(base)
            whole = base == "/api/v2" or not (
                at and (lower[at - 1].isalnum() or lower[at - 1] == "_")
            )
            if region[end : end + 1] == "/" and region[end + 1 : end + 2].isalnum():
                pass  # `/api/v2/devices`: a path goes on, which _JOINED_AFTER never matches
            elif whole and _JOINED_AFTER.match(region, end):
                return True
            at = lower.find(base, end)
    return False


def _base_clients(source: Source, context: Context) -> tuple[frozenset[str], bool]:
    """Variables holding a client made with a base URL ending in /api/v2, and whether any is made."""
    text = source.text
    names: set[str] = set()
    made = False
    if not any(text.find(word, source.pos, source.endpos) >= 0 for word in _OPTION_WORDS):
        return frozenset(), False
    for m in _BASE_OPTION.finditer(text, source.pos, source.endpos):
        if source.in_comment(m.start()):
            continue
        value = text[m.end() : m.end() + 200]
        first = re.match(r"\s*(?:new\s+Uri\(\s*)?(\$?[\"'`]?)([^,;\n)]*)", value)
        if first is None:
            continue
        shown = first.group(2)
        var = shown.strip("\"'`$ {}").split(".")[-1].lower()
        if "/api/v2" not in shown and var not in context.bases:
            continue
        made = True
        lo = max(source.pos, text.rfind("\n", 0, m.start()) - 200)
        statement = text[lo : m.start()]
        assigned = re.findall(r"([A-Za-z_$][\w$]*)\s*(?::[^=\n]+)?=(?!=)", statement)
        if assigned:
            names.add(assigned[-1].lower())
    return frozenset(names), made


def _aliases(source: Source, fn: FunctionDef, param: Param) -> list[str]:
    """The parameter's name and locals assigned from it in the body (`url = f"{B}{path}"`)."""
    names = [param.name]
    if param.name.isdigit():  # shell `$1`
        return names
    text = source.text
    start, end = fn.body
    word = _word(param.name)
    for m in _ASSIGN.finditer(text, start, end):
        line_end = text.find("\n", m.end(), min(end, m.end() + _ALIAS_REACH))
        rhs = text[m.end() : line_end if line_end >= 0 else min(end, m.end() + _ALIAS_REACH)]
        if m.group(1).lower() != param.name.lower() and word.search(rhs):
            names.append(m.group(1))
    return names


def _occurrences(source: Source, fn: FunctionDef, name: str) -> list[int]:
    return [m.start() for m in _word(name).finditer(source.text, fn.body[0], fn.body[1])]


@lru_cache(maxsize=512)
def _word(name: str) -> re.Pattern[str]:
    """A parameter's name where it is used: `path`, `$Path`, `${path}`, shell `$1`."""
    if name.isdigit():
        return re.compile(r"\$\{?" + name + r"(?!\d)")
    return re.compile(r"(?<![\w])\$?\{?" + re.escape(name) + r"(?!\w)", re.I)


def _direct(
    source: Source, fn: FunctionDef, context: Context, clients: tuple[frozenset[str], bool]
) -> Helper | None:
    text = source.text
    names, made = clients
    body = text[fn.body[0] : fn.body[1]].lower()
    for param in fn.params:
        if param.kind not in ("positional", "keyword") or param.name.lower() in METHOD_PARAMS:
            continue
        if param.name.lower() not in body:
            continue
        path_like = _PATH_LIKE.search(param.name) is not None
        for alias in _aliases(source, fn, param):
            for at in _occurrences(source, fn, alias):
                lo = max(fn.body[0], text.rfind("\n", 0, at) + 1, at - 120)
                before = text[lo:at]
                joined = _JOINED.search(before)
                strong = context.strong
                if joined is not None:
                    var = joined.group("var")
                    if joined.group("lit"):
                        strong = strong or context.names_this_api(before, None)
                    elif var is None or var.lower() not in context.bases:
                        joined = None
                    else:
                        strong = strong or context.bases[var.lower()].strong
                if joined is None and not (path_like and _sent_by_client(source, at, names, made)):
                    continue
                return _helper(source, fn, param, strong)
    return None


def _sent_by_client(source: Source, at: int, names: frozenset[str], made: bool) -> bool:
    """Whether the text at `at` is an argument of a base-URL client's request method."""
    if not made:
        return False
    opener = source.enclosing_opener(at, 300)
    if opener >= 0 and source.text[opener] == "{":  # an option: `request({ url: path })`
        opener = source.enclosing_opener(opener, 300)
    if opener < 0 or source.text[opener] != "(":
        return False
    m = callee_before(source.text, max(source.pos, opener - 160), opener)
    if m is None:
        return False
    parts = [p for p in MEMBER_SPACED.split(m.group(1)) if p]
    if not parts or parts[-1].lower() not in _SENDS:
        return False
    receiver = parts[0].lower().lstrip("$@_") if len(parts) > 1 else ""
    return not names or receiver in {n.lstrip("_") for n in names} or len(parts) == 1


def _helper(source: Source, fn: FunctionDef, path: Param, strong: bool) -> Helper:
    method_param = next((p for p in fn.params if p.name.lower() in METHOD_PARAMS), None)
    query_param = next(
        (p for p in fn.params if p.name.lower() in QUERY_PARAMS and p.kind != "varargs"), None
    )
    implied = None
    if method_param is None:
        implied = _implied(source, fn)
    return Helper(
        fn.name,
        path.position,
        path.name,
        strong,
        method_param.position if method_param is not None else None,
        method_param.name if method_param is not None else None,
        _verb(method_param.default) if method_param is not None else None,
        implied,
        query_param.position if query_param and query_param.kind != "varkw" else None,
        query_param.name if query_param and query_param.kind != "varkw" else None,
        query_param is not None and query_param.kind == "varkw",
        tuple(p.name for p in fn.params),
        language=source.dialect.name,
    )


def _implied(source: Source, fn: FunctionDef) -> str | None:
    """The one verb a helper's body sends, if it names exactly one."""
    verbs = {
        next(g for g in m.groups() if g).upper()
        for m in VERB_WORD.finditer(source.text, fn.body[0], fn.body[1])
        if source.token_at(m.start()) is None or m.group(1)
    }
    if len(verbs) == 1:
        return verbs.pop()
    return from_callee(fn.name)


def _verb(written: str | None) -> str | None:
    """`'Get'`, `"GET"`, `http.MethodGet`, `HttpMethod.Get` -> GET."""
    if not written:
        return None
    word = written.strip("'\" ").rsplit(".", 1)[-1].upper().removeprefix("METHOD")
    return word if word in VERB_SET else None


def _passed_on(source: Source, fn: FunctionDef, table: HelperTable) -> Helper | None:
    """A function that hands a parameter to a helper at its path position is a helper too."""
    for param in fn.params:
        if param.kind not in ("positional", "keyword") or param.name.lower() in METHOD_PARAMS:
            continue
        for alias in _aliases(source, fn, param):
            for at in _occurrences(source, fn, alias):
                if source.token_at(at) is not None:
                    continue  # inside a string: part of a path, not the path passed on
                use = _call_of(source, at, table)
                if use is None:
                    continue
                inner, _ = use
                helper = _helper(source, fn, param, inner.strong)
                if helper.method is None and helper.implied is None:
                    helper = helper._replace(implied=inner.implied or inner.method_default)
                if not helper.query_kwargs and inner.query_kwargs:
                    varkw = next((p for p in fn.params if p.kind == "varkw"), None)
                    if varkw is not None and varkw.name.lower() in QUERY_PARAMS:
                        helper = helper._replace(query_kwargs=True)
                return helper
    return None


def _call_of(source: Source, at: int, table: HelperTable) -> tuple[Helper, int] | None:
    """The helper whose path argument the text at `at` is, and the argument's index."""
    dialect = source.dialect
    if dialect.command_calls:
        return None  # a command helper passing its path on: its own join is what counts
    found = bracket_argument(source, at)
    if found is None:
        return None
    name, receiver, index, keyword = found
    helper = table.get(name, dialect.name)
    if helper is None or not receiver_fits(helper, receiver):
        return None
    if keyword is not None:
        return (helper, index) if keyword.lower() == helper.path_name.lower() else None
    return (helper, index) if index == helper.path else None
