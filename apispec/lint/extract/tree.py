"""The tree path: parse, lower, find requests, follow their values, build References.

Requests come from the knowledge rows and the file's own wrappers (clients.py);
a string literal that names an API URL but reaches no request the model knows (a
custom client, a constant handed elsewhere) still counts where its context is an
ordinary value, as the text path always read it. Evidence decides which located
paths are this API's (evidence.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import PurePath

from apispec.lint.extract import parse as parse_module
from apispec.lint.extract.build import (
    Located,
    header_values,
    join_base,
    locate,
    mapping_query,
    segments,
    texts,
    url_query,
)
from apispec.lint.extract.clients import Request, Requests, _leads
from apispec.lint.extract.context import Ctx, options
from apispec.lint.extract.evidence import FileEvidence
from apispec.lint.extract.ir import CallE, Lit, Name, ObjV, Opaque, Str, Text, Value
from apispec.lint.extract.lower import FileModel, lower
from apispec.lint.extract.parse import parse
from apispec.lint.extract.summaries import export
from apispec.lint.helpers import Helper, HelperTable
from apispec.lint.knowledge import VERBS, Knowledge, knowledge
from apispec.lint.lines import Lines
from apispec.lint.reference import QueryValue, Reference, Span

_VERB = re.compile(r"(?:^|_|(?<=[a-z]))(get|post|put|patch|delete|head)(?=$|_|[A-Z]|Async)", re.I)
_PATTERN = re.compile(r"[*^$()\[\]\"]|/:[A-Za-z]|\s")
_WORD_METHOD = re.compile(r"(?i)(?:^|[^A-Za-z])(GET|POST|PUT|PATCH|DELETE|HEAD)(?:$|[^A-Za-z])")

_VERB_NAMES = frozenset({"get", "post", "put", "patch", "delete", "head", "options", "all", "use"})
# tree languages: the apispec language name -> the grammar (and its lowering)
GRAMMAR_OF = {"python": "python", "csharp": "csharp"}
# grammars chosen by the file's extension where one language has several
GRAMMAR_BY_SUFFIX: dict[str, str] = {}


def grammar_for(language: str, filename: str) -> str:
    """The grammar that parses a file of `language` (TypeScript and TSX by extension)."""
    suffix = PurePath(filename).suffix.lower()
    return GRAMMAR_BY_SUFFIX.get(suffix) or GRAMMAR_OF[language]


@dataclass
class Found:
    request: Request | None  # None: a literal that reaches no request the model knows
    loc: Located
    method: str | None
    callee: str


def extract_tree(
    text: str,
    language: str,
    known: frozenset[str],
    lines: Lines | None = None,
    helpers: HelperTable | None = None,
    filename: str = "",
    evidence_text: str | None = None,
) -> tuple[list[Reference], list[Helper]]:
    """The References of one file (or region) in a tree language, and the wrappers it defines.

    `evidence_text`: the whole file a region is part of (its prose names the API too).
    """
    grammar = grammar_for(language, filename)
    kept = parse_module.TREES
    parsed = (
        kept.parse(filename, text, grammar)
        if kept is not None and filename
        else parse(text, grammar)
    )
    rows = knowledge(language)
    model = lower(parsed, callees_of(rows, helpers))
    model.language = language  # the grammar may be a dialect's (TypeScript for JavaScript)
    finder = Requests(model, rows, helpers)
    found: list[Found] = []
    used: set[int] = set()
    for request in finder.all():
        for loc in _locations(request):
            found.append(Found(request, loc, request.method, request.call.callee))
            used.update(loc.flat.offsets)
        for url in texts(request.url):  # taken even where the client's join leaves the API
            used.update(
                p.offset(i) for p in url.pieces if isinstance(p, Lit) for i in range(len(p.text))
            )
    found.extend(_orphans(model, finder, used))
    evidence = FileEvidence.of(evidence_text if evidence_text is not None else text, known)
    for item in found:
        evidence.learn(item.loc)
    for ref in model.strings:
        if "." in ref.raw and (":1616" in ref.raw or "prtg" in ref.raw.lower()):
            literal = ref.literal
            if len(literal.pieces) == 1 and isinstance(literal.pieces[0], Lit):
                evidence.literal(literal.pieces[0].text)
    lines = lines if lines is not None else Lines(text)
    refs: dict[tuple[int, str | None], Reference] = {}
    for item in found:
        made = _reference(item, evidence, language, lines)
        if made is not None:
            refs.setdefault((made.span.start, made.method), made)
    defined = export(finder, language, filename, evidence.strong) if model.functions else []
    return sorted(refs.values(), key=lambda r: (r.span.start, r.method or "")), defined


def callees_of(rows: Knowledge, helpers: HelperTable | None) -> frozenset[str]:
    """The call names lowering keeps: what sends, fills a mapping, sets a header, or
    is a wrapper of another file."""
    names = {name for row in rows.clients for name in row.callees}
    names.update(rows.mutators)
    names.update(rows.header_setters)
    names.update(rows.matchers)
    names.update(rows.route_callees)
    names.update(rows.query_setters)
    names.update(rows.auth_setters)
    names.update(rows.constructors)  # a constructor chained to another (`: this(...)`)
    names.update(VERBS)
    names.add("request")
    if helpers:
        names.update(h.name for h in helpers.helpers)
    return frozenset(names)


def _locations(request: Request) -> list[Located]:
    found = []
    bases: list[Text | None] = [*texts(request.base)] or [None]
    for url in texts(request.url):
        for base in bases:
            full = join_base(base, url, request.join) if base is not None else url
            if full is None:
                continue
            loc = locate(full)
            if loc is not None:
                found.append(loc)
    return found


def _orphans(model: FileModel, finder: Requests, used: set[int]) -> list[Found]:
    """String literals naming an API URL that no known request took, in value contexts."""
    found: list[Found] = []
    resolver = finder.resolver
    for ref in model.strings:
        if ref.context != "value":
            continue
        raw = ref.raw
        if "/" not in raw and "api" not in raw.lower():
            continue
        literal, whole = ref.literal, ref.whole
        if any(
            isinstance(p, Lit) and any(p.offset(i) in used for i in range(len(p.text)))
            for p in literal.pieces
        ):
            continue  # a request took (part of) this literal
        function = model.function_at(literal.start)
        resolver.fresh()
        open_id = function.node_id if function is not None else -1
        value = resolver.value(whole, Ctx(literal.start, function, open=open_id))
        if function is not None and _leads(value, function.node_id):
            continue  # a wrapper's own URL template: its callers are the calls
        call = _enclosing_call(model, literal)
        if call is not None and _not_a_request(call, finder, Ctx(literal.start, function)):
            continue
        method = _verb_of(call.callee) if call is not None else None
        sent = _verb_request(call, value, method, finder, Ctx(literal.start, function))
        for text in texts(value):
            loc = locate(text)
            if loc is None:
                continue
            path = loc.flat.chars[loc.start : loc.end]
            if not loc.via_api_v2 and "/" not in path.strip("/") and not path.startswith("/"):
                continue  # a lone word is a path only as a request's argument
            found.append(Found(sent, loc, method, call.callee if call else ""))
    return found


def _enclosing_call(model: FileModel, literal: Str) -> CallE | None:
    best: CallE | None = None
    for call in model.calls:
        if call.start <= literal.start and literal.end <= call.end:
            if best is None or call.end - call.start < best.end - best.start:
                best = call
        elif call.start > literal.start:
            break
    return best


_QUERY_KEYWORDS = ("params", "query", "searchparams", "search_params", "qs")


def _verb_request(
    call: CallE | None, url: Value, method: str | None, finder: Requests, ctx: Ctx
) -> Request | None:
    """A verb-named call no row knows (`session.get(url, params={...})` on an object of
    unknown class): its query and headers keywords are read as a client's would be."""
    if call is None or method is None:
        return None
    request = Request(call, url, method, row="verb")
    for arg in call.args:
        name = (arg.name or "").lower()
        if name in _QUERY_KEYWORDS and request.query is None:
            request.query = finder.resolver.value(arg.value, ctx)
        elif name == "headers" and request.headers is None:
            request.headers = finder.resolver.value(arg.value, ctx)
    return request


def _not_a_request(call: CallE, finder: Requests, ctx: Ctx) -> bool:
    """A literal inside a test double, a matcher or a route registration is no call."""
    rows = finder.knowledge
    if call.callee in rows.matchers or call.callee in rows.route_callees:
        return True
    qualified = finder.resolver.qualified(call, ctx, 0)
    if any(qualified == m or qualified.startswith(m + ".") for m in rows.mocks):
        return True
    receiver = call.receiver
    if isinstance(receiver, Name) and receiver.name in rows.mocks:
        return True  # a test double handed in by name (pytest's `requests_mock` fixture)
    if receiver is not None and any(
        isinstance(o, ObjV) and o.kind == "mock"
        for o in options(finder.resolver.value(receiver, ctx))
    ):
        return True
    # `app.get("/x", handler)`: a route of the file's own app
    return (
        isinstance(receiver, Name)
        and receiver.name.lower() in rows.routers
        and call.callee.lower() in _VERB_NAMES
        and any(isinstance(a.value, (Name, Opaque)) for a in call.args[1:])
    )


def _verb_of(callee: str) -> str | None:
    m = _VERB.search(callee)
    return m.group(1).upper() if m else None


def _reference(
    item: Found, evidence: FileEvidence, language: str, lines: Lines
) -> Reference | None:
    loc = item.loc
    request = item.request
    path_text = loc.flat.chars[loc.start : loc.end]
    if _PATTERN.search(path_text.replace("\0", "")):
        return None  # a pattern, a route parameter or prose: not a request path
    wrapped = request is not None and request.wrapped
    client = request is not None and request.row == "client"
    if not loc.via_api_v2 and "/" not in path_text.strip("/") and not (wrapped or client):
        return None
    trusted = request is not None and request.trusted
    verdict = evidence.accepts(loc, wrapped=wrapped, client=client, trusted=trusted)
    if verdict is None:
        return None
    why, weak = verdict
    built = segments(loc)
    if built is None:
        return None
    segs, path, span = built
    if all(s.is_param for s in segs):
        return None  # no literal segment: nothing says which endpoint (`f"{base}/{a}/{b}"`)
    line, column = lines.position(span.start)
    end_line, end_column = lines.position(span.end)
    query: list[QueryValue] = url_query(loc)
    headers: list[tuple[str, str, Span | None]] = []
    if request is not None:
        seen = {q.name for q in query}
        for extra in (request.query, *request.extra_query):
            for q in mapping_query(extra, request.option_names):
                if q.name not in seen:
                    query.append(q)
                    seen.add(q.name)
        headers = header_values(request.headers)
    ref = Reference(
        path=path,
        segments=tuple(segs),
        span=span,
        line=line,
        column=column,
        end_line=end_line,
        end_column=end_column,
        method=item.method,
        query=tuple(query),
        headers=tuple(headers),
        language=language,
        evidence=why,
        extra={},
    )
    if weak:
        ref.extra["weak"] = True
    return ref


__all__ = ["GRAMMAR_OF", "Text", "extract_tree"]
