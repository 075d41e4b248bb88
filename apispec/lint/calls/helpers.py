"""Own API helpers: which functions of a file are helpers, and which calls call one.

A function is a helper when its body joins one of its parameters onto a base
that ends in `/api/v2` (`f"{self.base}{path}"`, `$script:PrtgBase + $Path`,
`c.BaseURL + path`, `"${PRTG_API}${path}"`, `'/api/v2' + $Endpoint`), hands it
to a client created with such a base (`http.get(path)` after `axios.create({
baseURL: API })`), or passes it on at another helper's path position
(`self._get(path, ...)` in `paged`). What the helper does with its other
parameters is read alongside: a method parameter and its default, the one verb
its body always sends, a query mapping or `**params`. The table of helpers
(apispec/lint/helpers.py) then says, at each call site, which argument is the
path, the method and the query.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import NamedTuple

from apispec.lint.calls.assemble import CallInfo
from apispec.lint.calls.callee import callee_before
from apispec.lint.calls.method import MEMBER_SPACED, VERB_SET, from_callee
from apispec.lint.candidates import Chain
from apispec.lint.evidence import Context
from apispec.lint.functions import FunctionDef, Param, split_top
from apispec.lint.helpers import METHOD_PARAMS, QUERY_PARAMS, Helper, HelperTable
from apispec.lint.patterns import lazy
from apispec.lint.scan import Source

# Before a parameter: a base (a variable holding one, or a literal ending in /api/v2)
# and what joins them: `+`, `.`, adjacent interpolations, a `/`, a comma (`urljoin(B, p)`).
_JOINED = lazy(
    r"(?:(?P<lit>/api/v2)/?['\"`]?|(?P<var>[A-Za-z_]\w*)[})]?['\"`]?)"
    r"[ \t]*(?:\+|\.{1,2}|,)?[ \t]*['\"`]?/?\$?[{(]?\Z"
)
# A base-URL client option: axios/ky/got, HttpClient, httpx/aiohttp, resty, Faraday, Guzzle.
_BASE_OPTION = lazy(
    r"\b(?:baseURL|baseUrl|BaseAddress|base_url|prefixUrl|base_uri|BaseUri|SetBaseURL)\b\s*[:=(]"
)
# What every base option above contains: searched first, most files have none.
# After a base (its name, or a literal ending in /api/v2): what joins a name onto it.
_JOINED_AFTER = re.compile(
    r"/?[}\)]?['\"`]?\s*(?:(?:\+|\.|,)\s*\$?\(?[A-Za-z_]|/?(?:\$\{|\{|\$)[A-Za-z_])"
)
_OPTION_WORDS = ("aseURL", "aseUrl", "ase_url", "aseAddress", "ase_uri", "aseUri", "refixUrl")
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
_VERB_WORD = lazy(
    r"['\"](GET|POST|PUT|PATCH|DELETE)['\"]|\bMethod(Get|Post|Put|Patch|Delete)\b"
    r"|\bHttpMethod\.(Get|Post|Put|Patch|Delete)\b|-Method\s+['\"]?(Get|Post|Put|Patch|Delete)\b"
    r"|-X\s+['\"]?(GET|POST|PUT|PATCH|DELETE)\b",
    re.I,
)
_KEYWORD_ARG = lazy(r"\s*([A-Za-z_]\w*)\s*(?:=(?!=)|:(?!:))")
_PS_NAMED = lazy(r"-([A-Za-z_]\w*)\s*:?\s*\Z")
_SHELL_LOCAL = lazy(r"\b([A-Za-z_]\w*)=\"?\$\{?([1-9])\b")
_ALIAS_REACH = 200  # characters of an assignment's right-hand side read for an alias
_ASSIGN = lazy(
    r"(?:^|[;{(\s])(?:var\s+|let\s+|const\s+|local\s+|my\s+)?\$?([A-Za-z_]\w*)\s*(?::=|=(?!=))[ \t]*(?=\S)",
    re.M,
)
# A parameter handed to a client (not joined to a base) is the path only if named like one.
_PATH_LIKE = lazy(r"path|endpoint|ur[il]|route|resource|location|relative", re.I)


class HelperCall(NamedTuple):
    """A call of a helper: the helper, and where its other arguments stand."""

    helper: Helper
    method: str | None  # the method this call sends, as the helper's arguments say
    query_at: int  # offset of the query argument (a mapping or a variable); -1: none
    query_kwargs: tuple[tuple[str, int], ...]  # (name, value offset) of `**params` keywords
    # the object it is called on: "" none (`api_get(...)`, a command), "()" the result of
    # an expression (`resp.json().get(...)`, `row["x"].get(...)`), else its last name
    receiver: str = ""


# -- inference ------------------------------------------------------------------


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
        for m in _VERB_WORD.finditer(source.text, fn.body[0], fn.body[1])
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
    found = _bracket_argument(source, at)
    if found is None:
        return None
    name, receiver, index, keyword = found
    helper = table.get(name, dialect.name)
    if helper is None or not _receiver_fits(helper, receiver):
        return None
    if keyword is not None:
        return (helper, index) if keyword.lower() == helper.path_name.lower() else None
    return (helper, index) if index == helper.path else None


# -- call sites -----------------------------------------------------------------


def _receiver_fits(helper: Helper, receiver: str) -> bool:
    return helper.receiver is None or receiver.lower() == helper.receiver.lower()


def _bracket_argument(source: Source, at: int) -> tuple[str, str, int, str | None] | None:
    """(callee name, receiver, argument index, keyword) of the call whose argument holds `at`."""
    text = source.text
    opener = source.enclosing_opener(at, 600)
    if opener < 0 or text[opener] != "(":
        return None
    m = callee_before(text, max(source.pos, opener - 200), opener)
    if m is None:
        return None
    parts = [p for p in MEMBER_SPACED.split(m.group(1)) if p]
    if not parts:
        return None
    name = parts[-1].lstrip("$@")
    receiver = parts[-2].lstrip("$@").split("(")[0] if len(parts) > 1 else ""
    if (len(parts) > 1 and parts[-2].endswith((")", "]"))) or (
        m.start() > 0 and text[m.start() - 1] in ".>:" and not receiver
    ):
        receiver = "()"  # a call's or subscript's result: `resp.json().get(`, `u.get(k, {}).get(`
    closer = source.matching_closer(opener)
    args = _arguments(source, opener, closer if closer > 0 else at + 1)
    for index, (start, end, keyword) in enumerate(args):
        if start <= at <= end:
            positional = sum(1 for s, e, k in args[:index] if k is None)
            return name, receiver, positional, keyword
    return None


def _arguments(source: Source, opener: int, closer: int) -> list[tuple[int, int, str | None]]:
    """Each argument's span and keyword (`path=`, `ct:`) between a call's brackets."""
    text = source.text
    found: list[tuple[int, int, str | None]] = []
    depth = 0
    start = opener + 1
    i = start
    while i <= closer:
        token = source.token_at(i) if i < closer else None
        if token is not None and token[0] >= start:
            i = token[1]
            continue
        ch = text[i] if i < closer else ","
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == "," and depth <= 0:
            piece = text[start:i]
            if piece.strip():
                keyword = _KEYWORD_ARG.match(piece)
                word = (
                    keyword.group(1)
                    if keyword and source.token_at(start + keyword.start(1)) is None
                    else None
                )
                found.append((start, i, word))
            start = i + 1
        i += 1
    return found


def helper_call(
    source: Source, chain: Chain, table: HelperTable, info: CallInfo | None = None
) -> HelperCall | None:
    """The helper call `chain` is the path argument of, with the method and query it shows."""
    if not table:
        return None
    if source.dialect.command_calls:
        return _command_call(source, chain, table, info)
    found = _bracket_argument(source, chain.start)
    if found is None:
        return None
    name, receiver, index, keyword = found
    helper = table.get(name, source.dialect.name)
    if helper is None or not _receiver_fits(helper, receiver):
        return None
    if keyword is not None and keyword.lower() != helper.path_name.lower():
        return None
    if keyword is None and index != helper.path:
        return None
    opener = source.enclosing_opener(chain.start, 600)
    closer = source.matching_closer(opener)
    args = _arguments(source, opener, closer if closer > 0 else chain.end)
    return _use(source, helper, args)._replace(receiver=receiver)


def _use(source: Source, helper: Helper, args: list[tuple[int, int, str | None]]) -> HelperCall:
    text = source.text
    positional = [a for a in args if a[2] is None]
    by_name = {a[2].lower(): a for a in args if a[2] is not None}

    def argument(index: int | None, name: str | None) -> tuple[int, int, str | None] | None:
        if name is not None and name.lower() in by_name:
            return by_name[name.lower()]
        if index is not None and index < len(positional):
            return positional[index]
        return None

    method = helper.implied
    if helper.method is not None or helper.method_name is not None:
        given = argument(helper.method, helper.method_name)
        written = text[given[0] : given[1]] if given else ""
        verbs = [g for m in _VERB_WORD.finditer(written) for g in m.groups() if g]
        bare = written.split("=", 1)[-1].split(":", 1)[-1].strip(" \t\n'\"").upper()
        method = (verbs[0].upper() if verbs else bare if bare in VERB_SET else None) or (
            helper.method_default if given is None else None
        )
    query_at = -1
    given = argument(helper.query, helper.query_name)
    if given is not None:
        value = given[0]
        if given[2] is not None:
            value = text.index(given[2], given[0]) + len(given[2])
            value = text.find("=", value, given[1]) + 1 or text.find(":", value, given[1]) + 1
        query_at = source.skip_space(value)
    kwargs: list[tuple[str, int]] = []
    if helper.query_kwargs:
        own = {p.lower() for p in helper.params}
        for start, end, keyword in args:
            if keyword is None:
                # `**params`: a mapping expanded into the keywords that are query values
                at = source.skip_space(start)
                if query_at < 0 and text.startswith("**", at):
                    query_at = source.skip_space(at + 2)
                continue
            if keyword.lower() in own:
                continue
            k = text.find(keyword, start, end) + len(keyword)
            eq = text.find("=", k, end)
            kwargs.append((keyword, source.skip_space(eq + 1)))
    return HelperCall(helper, method, query_at, tuple(kwargs))


def _command_call(
    source: Source, chain: Chain, table: HelperTable, info: CallInfo | None
) -> HelperCall | None:
    """A helper called as a command: `Invoke-PrtgApi -Path '/x'`, `prtg_get /x`."""
    if info is None:
        info = source.dialect.command_context(source, chain)
    if info is None or not info.callee:
        return None
    helper = table.get(info.callee.rsplit("/", 1)[-1], source.dialect.name)
    if helper is None:
        return None
    text = source.text
    start = text.find(info.callee, info.window[0], chain.start + 1)
    if start < 0:
        return None  # the path is the command's name, or before it
    start += len(info.callee)
    # The argument holding the path is the outermost bracket group it stands in, if any:
    # a value of a hashtable or array literal or of a script block is never the path
    # (`-QueryParameter @{ include = 'inheritance' }`, `-Body @{ tags = @('x') }`).
    word_start = chain.start
    opener = source.enclosing_opener(word_start, word_start - start)
    while opener >= start:
        word_start = opener
        opener = source.enclosing_opener(opener, opener - start) if opener > start else -1
    if word_start < chain.start and (text[word_start] == "{" or text[word_start - 1] == "@"):
        return None
    words = _command_words(text[start:word_start])
    named = _PS_NAMED.search(text[start:word_start])
    if named is not None:
        if named.group(1).lower() != helper.path_name.lower():
            return None
    elif _positional(words) != helper.path:
        return None
    after = _command_words(text[chain.end : info.window[1]])
    every = [*words, "\0", *after]
    method = helper.implied
    if helper.method_name is not None:
        method = _named_value(every, helper.method_name) or helper.method_default
        if method is None and helper.method is not None and source.dialect.name == "shell":
            positional = [w for w in words if not w.startswith("-")]
            if helper.method < len(positional):
                method = positional[helper.method].strip("'\"").upper() or None
        method = method.upper() if method and method.upper() in VERB_SET else helper.method_default
    query_at = -1
    if helper.query_name is not None:
        m = re.compile(r"-" + re.escape(helper.query_name) + r"\s*:?\s*", re.I).search(
            text, info.window[0], info.window[1]
        )
        if m is not None:
            query_at = m.end()
    return HelperCall(helper, method, query_at, ())


def _command_words(text: str) -> list[str]:
    """Words of a command line, bracketed groups (`@{...}`, `(...)`) and quoted strings kept whole."""
    pieces = split_top(text.replace("`\n", " ").replace("\\\n", " "), " ")
    return [p for p in pieces if p and p != "\0"]


def _positional(words: list[str]) -> int:
    """How many positional arguments precede, `-Name value` pairs left out."""
    count = 0
    skip = False
    for word in words:
        if skip:
            skip = False
            continue
        if word.startswith("-") and len(word) > 1 and not word[1:2].isdigit():
            skip = True
            continue
        count += 1
    return count


def _named_value(words: list[str], name: str) -> str | None:
    for k, word in enumerate(words):
        if word.lower().rstrip(":") == "-" + name.lower() and k + 1 < len(words):
            return words[k + 1].strip("'\"")
    return None


# Receivers that are the helper's own object where its class calls it.
_SELF = frozenset({"self", "this", "cls", "me", "base", "super", "static"})
# Go's method receiver (`func (c *Client) Health(...)`): the method's own object.
_GO_RECEIVER = lazy(r"func[ \t]*\([ \t]*([A-Za-z_]\w*)[ \t]+\*?[\w.]+")


def trusted_receivers(uses: list[tuple[HelperCall, bool]]) -> frozenset[str]:
    """Receivers the file hands this API's own relative paths to through a helper.

    `uses` pairs each helper call with whether its path stands on its own (a
    registry path written relative, not through a base): an object given
    `"/experimental/sensors"` by the helper's name is the API client, so its
    other calls of the helper are too (`api._get("/sensor-status-summary")`).
    """
    return frozenset(
        use.receiver.lower() for use, own in uses if own and use.receiver not in ("", "()")
    )


def through_helper(source: Source, use: HelperCall, at: int, trusted: frozenset[str]) -> bool:
    """Whether a helper call may make a path a call that nothing else makes one.

    Helpers learnt from a method are called on an object, and their names are
    the common ones (`get`, `post`, `request`): `body.get("code")`,
    `headers.get("authorization")`, `resp.json().get("edition")` and
    `requests.get(url)` call a dictionary's or a library's method of that
    name, not the helper. So a path that only the helper makes a call (a first
    segment the registry does not know, a single word) counts when the helper
    is called without an object (a function, a command), on its own object
    (`self`, `this`, Go's method receiver), or on an object the file hands
    this API's own paths to by the same helper (`trusted_receivers`); never on
    the result of a call or subscript. A configured helper names its receiver.
    """
    receiver = use.receiver
    if not receiver or use.helper.language == "*":
        return True
    if receiver == "()":
        return False
    low = receiver.lower()
    if low in _SELF or low in trusted:
        return True
    if source.dialect.name == "go":
        k = source.text.rfind("\nfunc", source.pos, at)
        m = _GO_RECEIVER.match(source.text, k + 1) if k >= 0 else None
        return m is not None and m.group(1) == receiver
    return False


def with_helper(info: CallInfo, use: HelperCall) -> None:
    """What a helper's arguments say, over what the call stage guessed from the call alone."""
    if use.method is not None:
        info.method = use.method
    if use.query_at >= 0:
        info.query_expr = use.query_at
    if use.query_kwargs:
        info.query_kwargs = use.query_kwargs
