"""Call assembly: from a path expression to the call that sends it.

The nearest unclosed bracket around the expression is the call's argument
list; the name before it is the callee. URL builders (`urljoin(...)`,
`URI.create(...)`) are looked through to the call around them; a URL
assigned to a variable is followed to its next use (`url = ...` then
`requests.get(url)`); commands (shell, PowerShell) and data files (YAML, JSON)
describe their calls through dialect hooks. Where the query is read from is
recorded here and read by the details stage.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from dataclasses import dataclass, field

from apispec.lint.calls import chains, exclusions, method
from apispec.lint.calls.method import MEMBER_SPACED
from apispec.lint.candidates import Candidate, Chain
from apispec.lint.languages.clients import table
from apispec.lint.patterns import lazy
from apispec.lint.receivers import Link, callee_of, links_after, method_chain
from apispec.lint.reference import QueryValue
from apispec.lint.scan import Part, Source

_ASSIGN = lazy(
    r"(?:^|[;{(\s])(?:(?:const|let|var|my|local|final|String|string|val|auto)\s+)?"
    r"(\$?(?:script:|global:|env:)?[A-Za-z_][\w.]*)\s*(?::=|=)\s*(?:(?:new|await)\s+)?$",
    re.M,
)
_MEMBER = lazy(r"\.|->|::")
# What stands before a `{` that opens a body of code: a lambda's arrow, a block keyword;
# before the `(...)` of a signature, a word that makes the block a value (`when (k) {`,
# PowerShell's `$p = if (...) { "/x" }`) or none.
_CODE_BLOCK = lazy(r"(?:->|=>|\b(?:try|do|finally))\s*\Z")
_VALUE_BLOCK = lazy(r"\b(?:if|when|switch|match|case|else)\s*\Z")
_CHOOSER = lazy(r"(\$?[A-Za-z_][\w.]*)\s*(?::\s*\w+\s*)?=\s*(?:when|if|switch|match|case)\b[^{]*\Z")
# What may stand before an entry of a table on its line: `name = `, `name: `, `"name": `,
# `[name] = `, a YAML `- `, or nothing (an element of a list).
_ENTRY = lazy(
    r"[ \t-]*((?:\$?[\w.-]+|[\"'][\w.-]+[\"']|\[[\"']?[\w.-]+[\"']?\])[ \t]*(?:=>|=|:)[ \t]*)?\Z"
)
# The query of a URL held in a variable, set apart: Go's `u.RawQuery = ...`, JavaScript's
# `url.search = ...`, .NET's `builder.Query = ...`.
_QUERY_SET = lazy(r"\$?([A-Za-z_]\w*)\s*\.\s*(?:RawQuery|search|Query)\s*=(?!=)\s*")
# Calls that print or log what they are given: a URL passed to them is not sent.
_PRINTERS = frozenset(
    (
        "print",
        "println",
        "printf",
        "echo",
        "write-host",
        "write-output",
        "write-verbose",
        "write-warning",
        "write-debug",
        "write-information",
        "writeline",
        "write",
        "puts",
        "debug",
        "info",
        "warn",
        "warning",
        "error",
    )
)
# Keys whose value names or describes a thing (never a path), and keys that hold a path.
_LABEL_KEYS = frozenset(
    ("name", "title", "label", "id", "kind", "type", "description", "key", "method", "text")
)
_PATH_KEYS = frozenset(("path", "url", "uri", "endpoint", "route", "resource", "href"))
# How far from a call the code around it is read: a window in lines, and in
# characters as well, so that a file of one long line costs no more per call.
_ASSIGN_REACH = 300  # characters before a URL where `name =` may stand
_USE_LINES = 40  # lines after an assignment where the variable's use is looked for
_USE_REACH = 8000


@dataclass
class CallInfo:
    """What the code around an expression shows about the call it is part of."""

    callee: str = ""
    opener: int = -1
    closer: int = -1
    method: str | None = None
    route: bool = False
    window: tuple[int, int] = (0, 0)
    expr_start: int = -1  # where the URL expression starts when wrapped (`URI(...)`)
    methods: tuple[str, ...] = ()  # several methods on one path (an OpenAPI path key)
    # The query the call sends: values read here (command options), or where the
    # details stage reads them - the call's arguments, a mapping literal, the
    # mapping a variable holds - else the query of the call `fallback` describes.
    query: list[QueryValue] = field(default_factory=list)
    query_args: tuple[int, int] | None = None
    query_mapping: int = -1
    query_variable: tuple[str, int] | None = None
    # An own helper's query argument (a mapping or a variable holding one) and its
    # `**params` keywords (name, value offset): apispec/lint/calls/helpers.py.
    query_expr: int = -1
    query_kwargs: tuple[tuple[str, int], ...] = ()
    fallback: CallInfo | None = None
    # The other calls of the method chain the call is part of (`.SetQueryParam(...)`).
    chain: tuple[Link, ...] = ()
    # Where the value assigned to the URL variable's query starts (`u.RawQuery = ...`).
    query_assigned: int = -1


def http_helper_argument(source: Source, chain: Chain) -> bool:
    """A one-word path without a slash ('devices') counts only as an HTTP helper's argument."""
    opener = source.enclosing_opener(chain.start, 200)
    if opener < 0 or source.text[opener] != "(":
        return False
    if source.text[opener + 1 : chain.start].strip():
        return False
    m = callee_of(source, max(source.pos, opener - 120), opener)
    if m is None:
        return False
    callee = m.group(1).lower()
    name = _MEMBER.split(callee)[-1].removesuffix("async")  # .NET's PostAsync is post
    receiver = _MEMBER.split(callee)[0]
    clients = table(source.dialect.name)
    if any(word in name for word in clients.helper_words):
        return True
    if callee.startswith("@") and exclusions.request_annotation(source, clients, opener):
        return True  # Retrofit's @GET("devices"): relative to the client's base URL
    return any(word in receiver and name in calls for word, calls in clients.helper_receivers)


def table_entry(source: Source, found: list[Candidate], k: int) -> bool:
    """A one-word path (`'channels'`) among API paths of one table: a dispatch list or map.

    `inventories = { probes = "experimental/probes", channels = "channels" }`,
    an enum of endpoints, a YAML list of `path:` entries: the word is a path when
    a neighbouring entry (within six lines, same bracket, same indentation) is
    one, and a path's neighbour as well when that neighbour is such a word.
    """
    own = found[k].chain.start
    entry = _ENTRY.match(source.text, source.line_start(own), own)
    opener = source.enclosing_opener(own, 2000)
    if entry is None or (opener < 0 and not entry.group(1) and "-" not in entry.group(0)):
        return False  # outside brackets, `name = ".."`, `name: ..` and `- ..` lines make a table
    key = _key(entry)
    if key in _LABEL_KEYS:
        return False  # `title: "devices"`: a label that happens to be a collection's name
    indent = _indent(source, own)
    line = source.line_col(own)[0]
    for step in (-1, 1):
        j = k + step
        while 0 <= j < len(found):
            other = found[j].chain.start
            distance = abs(source.line_col(other)[0] - line)
            if distance > 6:
                break
            if distance == 0:  # the entry's own key (`"channels": "channels"`)
                j += step
                continue
            neighbour = _ENTRY.match(source.text, source.line_start(other), other)
            if (
                neighbour is None
                or source.enclosing_opener(other, 2000) != opener
                or _indent(source, other) != indent
            ):
                break
            other_key = _key(neighbour)
            if other_key in _PATH_KEYS and other_key != key:
                return False  # a record (`{ title: ..., path: ... }`), not a table of paths
            if not found[j].one_word:
                return True
            j += step
    return False


def _key(entry: re.Match[str]) -> str:
    """The key of a table entry's line (`path: `, `"probes" = `): lower case, unquoted."""
    return re.sub(r"[\W_]+", "", (entry.group(1) or "").split("=")[0].split(":")[0]).lower()


def _indent(source: Source, offset: int) -> int:
    start = source.line_start(offset)
    return len(source.text[start:offset]) - len(source.text[start:offset].lstrip(" \t-"))


def call_info(source: Source, chain: Chain) -> CallInfo:
    """The call `chain` is part of; a variable it is assigned to is followed to its use."""
    dialect = source.dialect
    info: CallInfo | None = dialect.command_context(source, chain)
    command = info is not None
    if info is None:
        info = call_at(source, chain.start, chain.end)
    if info.opener >= 0 and info.expr_start < 0 and not info.route:  # the bracket around it
        around = exclusions.compared(
            source, chain, table(dialect.name), info.opener, info.callee or None
        )
    elif command:  # a command's words: only operators and case patterns apply
        around = exclusions.compared(source, chain, table(dialect.name), -1, None)
    else:
        around = exclusions.compared(source, chain, table(dialect.name))
    if around:
        return CallInfo(route=True)  # compared, matched or a table key: never a request
    if info.route or info.method or info.methods or (info.callee and info.expr_start < 0):
        return info
    at = info.expr_start if info.expr_start >= 0 else chain.start
    var = assigned_variable(source, at) or dialect.assigned_by_block(source, at)
    if not var and info.opener >= 0 and not info.callee:
        var = chosen_variable(source, info.opener)
    if not var:
        return info
    after = chain.end
    for _ in range(3):  # past uses that only print the URL
        use = use_of(source, var, after)
        if use is None:
            break
        used: CallInfo = dialect.command_context(source, use) or call_at(source, use.start, use.end)
        if _prints(used.callee):
            after = use.end
            continue
        if used.callee or used.route or used.method:
            used.fallback = info
            query = _QUERY_SET.search(source.text, chain.end, use.start)
            while query is not None and query.group(1) != var.lstrip("$"):
                query = _QUERY_SET.search(source.text, query.end(), use.start)
            if query is not None:  # `u.RawQuery = q.Encode()`, `url.search = params.toString()`
                used.query_assigned = query.end()
            return used
        break
    return info


def _prints(callee: str) -> bool:
    """A call that prints or logs its arguments (`Write-Host "... $path"`, `log.info(url)`)."""
    name = MEMBER_SPACED.split(callee)[-1].lower() if callee else ""
    first = MEMBER_SPACED.split(callee)[0].lower() if callee else ""
    return name in _PRINTERS or first in ("log", "logger", "logging", "console")


def assigned_variable(source: Source, start: int) -> str | None:
    """The variable the expression at `start` is assigned to (`url = ...`), if any."""
    lo = max(source.line_start(start), start - _ASSIGN_REACH)
    m = _ASSIGN.search(source.text, lo, start)
    if m is None:
        return None
    return m.group(1)


def chosen_variable(source: Source, opener: int) -> str | None:
    """The variable a conditional's value goes to, for a path in one of its branches.

    `val path = when (kind) { A -> "/x" ... }`, `path = if (...) { "/x" } else { ... }`,
    `String path = switch (kind) { case A -> "/x"; ... }`.
    """
    if source.text[opener] != "{":
        return None
    m = _CHOOSER.search(source.text, source.head_start(opener), opener)
    return m.group(1) if m else None


def use_of(source: Source, var: str, after: int) -> Chain | None:
    """The next place (within 40 lines) where `var` is passed on."""
    text = source.text
    limit = min(source.endpos, after + _USE_REACH)
    starts = source.lines.starts
    k = bisect_left(starts, after + 2) + _USE_LINES - 1  # newlines after `after`, from the 1st
    if k < len(starts):
        limit = min(limit, starts[k] - 1)
    pattern = re.compile(source.dialect.use_pattern(var))
    for m in pattern.finditer(text, after, limit):
        if source.in_comment(m.start()) or _works_on(text, source.pos, m.start(), m.end()):
            continue
        return Chain(m.start(), m.end(), [Part(m.group(), True, m.start(), m.end())])
    return None


def _map_entry(source: Source, callee: str, opener: int, start: int) -> bool:
    """`PATHS.put("devices", "/devices")`: a dispatch table's entry, not an HTTP PUT.

    A verb-named callee takes the URL first; a `put` with a string literal
    before the path stores the path under a key.
    """
    if MEMBER_SPACED.split(callee)[-1] != "put":
        return False
    k = source.first_lit_after(opener)
    return k < len(source.lits) and source.lits[k].end <= start


def _works_on(text: str, floor: int, start: int, end: int) -> bool:
    """A statement that works on the URL held in a variable rather than sending it:
    `url.searchParams.set(...)`, `u.RawQuery = q.Encode()`, `q := u.Query()`."""
    if not text.startswith((".", "["), end):
        return False
    k = start - 1
    while k >= floor and text[k] in " \t":
        k -= 1
    return k < floor or text[k] in ";{}\n=" or text[k - 1 : k + 1] == ":="


def _code_block(source: Source, opener: int) -> bool:
    """Whether the `{` at `opener` opens a body of code (a function, a lambda) rather than
    a mapping or a block whose value is a path (`when (k) { A -> "/x" }`)."""
    text = source.text
    k = opener
    while k > source.pos and text[k - 1] in " \t\r\n":
        k -= 1
    if k > source.pos and text[k - 1] == ")":
        paren = source.brackets.opener(k - 1)
        return paren >= 0 and not _VALUE_BLOCK.search(text, max(source.pos, paren - 20), paren)
    return _CODE_BLOCK.search(text, max(source.pos, k - 12), k) is not None


def call_at(source: Source, start: int, end: int, depth: int = 0) -> CallInfo:
    """The bracketed call (or tuple, list, mapping) around text[start:end]."""
    text = source.text
    info = CallInfo()
    opener = source.enclosing_opener(start)
    clients = table(source.dialect.name)
    if (
        source.dialect.decorators
        and exclusions.decorated(text, source.line_start(start), start, opener)
    ) and not (opener >= 0 and exclusions.request_annotation(source, clients, opener)):
        info.route = True
        return info
    k = source.skip_space(end)
    links = links_after(source, end) if text.startswith((".", "?.", "->"), k) else ()
    verb = next(filter(None, (method.leading_verb(k.name) for k in links)), None)
    if (
        verb
    ):  # the URL is the root of a chain: `$"{Base}/devices/{id}".WithHeader(...).DeleteAsync()`
        info.chain = links
        info.window = (start, links[-1].closer + 1 if links[-1].closer >= 0 else end)
        info.method = verb
        return info
    if opener < 0:
        info.window = (start, end)
        info.chain = links  # a URL builder on the literal: `"...".toHttpUrl().newBuilder()...`
        return info
    closer = source.matching_closer(opener)
    if closer < 0:
        closer = min(source.endpos, end + 400)
    info.opener, info.closer = opener, closer
    info.window = (opener, closer + 1)
    bracket = text[opener]
    args_before = text[opener + 1 : start]
    args_after = text[end:closer]
    chained = None
    if bracket == "(":
        m = callee_of(source, max(source.pos, opener - 160), opener)
        info.callee = m.group(1) if m else ""
        last = MEMBER_SPACED.split(info.callee)[-1].lower().lstrip("$@")
        if source.dialect.builder_calls:
            chained = chains.request(source, opener, clients)
        if m and last in clients.url_builders and depth < 3 and not (chained and chained.method):
            outer = call_at(source, m.start(1), closer + 1, depth + 1)
            if outer.callee or outer.route:
                return outer
            # the builder stands alone (`uri = URI(...)`, `.uri(URI.create(...))`)
            info.expr_start = outer.expr_start if outer.expr_start >= 0 else m.start(1)
    if bracket == "{" and _code_block(source, opener):
        # a statement of a function or lambda body (`fun f() { val u = "..." }`): the
        # block is no table of paths, and its other statements name no method of this one
        info.opener = info.closer = -1
        info.window = (start, end)
        info.chain = links
        return info
    if bracket != "(" or not info.callee:
        # an element of a tuple, list or mapping: (path, method, label), @{Path=..; Method=..}
        group = text[opener:closer]
        info.method = method.hinted(group, clients.method_hints, whole_literals=True)
        info.route = exclusions.router_object(group) or exclusions.inside_fake(
            source, clients, opener
        )
        # the query beside the path in the same entry: `{ path: "/x", params: { limit: 50 } }`
        info.query_args = (opener, closer)
        return info
    after_call = text[closer + 1 : closer + 40]
    if exclusions.is_route(clients, info.callee, args_after, after_call) or (
        exclusions.bound_router(source, clients, info.callee, args_after)
        or exclusions.inside_fake(source, clients, opener)
    ):
        info.route = True
        return info
    if text[opener + 1 : start].strip() and exclusions.is_route(
        clients, info.callee, "", after_call
    ):
        info.route = True
        return info
    if chained is not None and chained.method is not None:
        # a request builder's chain names the method (`web.get().uri(...)`, `.url(u).post(b)`)
        info.method = chained.method
        info.chain = chained.links
        info.window = (chained.start, chained.end)
        info.query_args = (opener, closer)
        return info
    info.method = (
        (
            None
            if _map_entry(source, info.callee, opener, start)
            else method.from_callee(info.callee)
        )
        or method.quoted(args_before)
        or method.hinted(args_before + " " + args_after, clients.method_hints, whole_literals=False)
    )
    if chained is not None:
        info.chain = chained.links
        info.window = (min(opener, chained.start), max(closer + 1, chained.end))
        if info.method is None and chained.start < opener:
            info.expr_start = chained.start  # the chain's value goes on: follow its variable
    else:
        _chain(source, opener, info)
    if info.method is None:
        info.method = source.dialect.method_nearby(source, closer)
    info.query_args = (opener, closer)
    return info


def _chain(source: Source, opener: int, info: CallInfo) -> None:
    """What the method chain around the call adds: its extent, and a verb named after it.

    `PrtgApi.AppendPathSegment("groups").WithHeader(...).GetStringAsync()`,
    `client.R().SetQueryParam("limit", "50").Get("/devices")`: headers and query
    setters anywhere in the chain belong to the request, and a later call named
    for a method (`.GetStringAsync()`, `.PatchJsonAsync(...)`) sends it.
    """
    text = source.text
    after = source.skip_space(info.closer + 1) if info.closer >= 0 else source.endpos
    before = opener - len(info.callee) - 1
    while before > source.pos and text[before] in " \t\r\n":
        before -= 1
    if (
        "(" not in info.callee
        and not text.startswith((".", "?.", "->"), after)
        and (before < source.pos or text[before] not in ".>")
    ):
        return  # a call on its own, as most are: no chain to read
    chain = method_chain(source, opener)
    if chain is None or len(chain.links) < 2:
        return
    info.chain = chain.links
    lo = min(info.window[0], chain.root_start)
    info.window = (lo, max(info.window[1], chain.end))
    if info.method is None:
        for link in chain.links[chain.at + 1 :]:
            verb = method.leading_verb(link.name)
            if verb is not None:
                info.method = verb
                break
