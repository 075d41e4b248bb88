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

from apispec.lint.calls import exclusions, method
from apispec.lint.calls.callee import callee_before
from apispec.lint.calls.method import MEMBER_SPACED
from apispec.lint.candidates import Chain
from apispec.lint.languages.clients import table
from apispec.lint.reference import QueryValue
from apispec.lint.scan import Part, Source

_ASSIGN = re.compile(
    r"(?:^|[;{(\s])(?:(?:const|let|var|my|local|final|String|string|val|auto)\s+)?"
    r"(\$?(?:script:|global:|env:)?[A-Za-z_][\w.]*)\s*(?::=|=)\s*$",
    re.M,
)
_MEMBER = re.compile(r"\.|->|::")
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


def http_helper_argument(source: Source, chain: Chain) -> bool:
    """A one-word path without a slash ('devices') counts only as an HTTP helper's argument."""
    opener = source.enclosing_opener(chain.start, 200)
    if opener < 0 or source.text[opener] != "(":
        return False
    if source.text[opener + 1 : chain.start].strip():
        return False
    m = callee_before(source.text, max(0, opener - 120), opener)
    if m is None:
        return False
    callee = m.group(1).lower()
    name = _MEMBER.split(callee)[-1]
    receiver = _MEMBER.split(callee)[0]
    clients = table(source.dialect.name)
    if any(word in name for word in clients.helper_words):
        return True
    return any(word in receiver and name in calls for word, calls in clients.helper_receivers)


def call_info(source: Source, chain: Chain) -> CallInfo:
    """The call `chain` is part of; a variable it is assigned to is followed to its use."""
    dialect = source.dialect
    info = dialect.command_context(source, chain)
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
    var = assigned_variable(source, info.expr_start if info.expr_start >= 0 else chain.start)
    if var:
        use = use_of(source, var, chain.end)
        if use is not None:
            used = dialect.command_context(source, use) or call_at(source, use.start, use.end)
            if used.callee or used.route or used.method:
                used.fallback = info
                return used
    return info


def assigned_variable(source: Source, start: int) -> str | None:
    """The variable the expression at `start` is assigned to (`url = ...`), if any."""
    lo = max(source.line_start(start), start - _ASSIGN_REACH)
    m = _ASSIGN.search(source.text, lo, start)
    if m is None:
        return None
    return m.group(1)


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
        if source.in_comment(m.start()):
            continue
        return Chain(m.start(), m.end(), [Part(m.group(), True, m.start(), m.end())])
    return None


def call_at(source: Source, start: int, end: int, depth: int = 0) -> CallInfo:
    """The bracketed call (or tuple, list, mapping) around text[start:end]."""
    text = source.text
    info = CallInfo()
    opener = source.enclosing_opener(start)
    if exclusions.decorated(text, source.line_start(start), start):
        info.route = True
        return info
    if opener < 0:
        info.window = (start, end)
        return info
    closer = source.matching_closer(opener)
    if closer < 0:
        closer = min(source.endpos, end + 400)
    info.opener, info.closer = opener, closer
    info.window = (opener, closer + 1)
    bracket = text[opener]
    args_before = text[opener + 1 : start]
    args_after = text[end:closer]
    clients = table(source.dialect.name)
    if bracket == "(":
        m = callee_before(text, max(source.pos, opener - 160), opener)
        info.callee = m.group(1) if m else ""
        last = MEMBER_SPACED.split(info.callee)[-1].lower().lstrip("$@")
        if m and last in clients.url_builders and depth < 3:
            outer = call_at(source, m.start(1), closer + 1, depth + 1)
            if outer.callee or outer.route:
                return outer
            # the builder stands alone (`uri = URI(...)`, `.uri(URI.create(...))`)
            info.expr_start = outer.expr_start if outer.expr_start >= 0 else m.start(1)
    if bracket != "(" or not info.callee:
        # an element of a tuple, list or mapping: (path, method, label), @{Path=..; Method=..}
        group = text[opener:closer]
        info.method = method.hinted(group, clients.method_hints, whole_literals=True)
        info.route = exclusions.router_object(group)
        return info
    after_call = text[closer + 1 : closer + 40]
    if exclusions.is_route(clients, info.callee, args_after, after_call):
        info.route = True
        return info
    if text[opener + 1 : start].strip() and exclusions.is_route(
        clients, info.callee, "", after_call
    ):
        info.route = True
        return info
    info.method = (
        method.from_callee(info.callee)
        or method.quoted(args_before)
        or method.hinted(args_before + " " + args_after, clients.method_hints, whole_literals=False)
    )
    if source.dialect.builder_calls:
        stmt_end = min(source.endpos, closer + 600)
        semicolon = text.find(";", closer, stmt_end)
        if semicolon >= 0:
            stmt_end = semicolon
        info.window = (opener, stmt_end)
        if info.method is None:
            info.method = method.chained(text, closer, stmt_end)
    if info.method is None:
        info.method = source.dialect.method_nearby(source, closer)
    info.query_args = (opener, closer)
    return info
