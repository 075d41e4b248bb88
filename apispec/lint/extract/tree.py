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
from typing import TYPE_CHECKING

from apispec.lint.budget import check
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
from apispec.lint.extract.imported import module_of
from apispec.lint.extract.ir import (
    Attr,
    CallE,
    FuncE,
    Function,
    ListE,
    Lit,
    MapV,
    Name,
    ObjV,
    Opaque,
    Str,
    Text,
    Value,
)
from apispec.lint.extract.lower import VERB_NAME, lower
from apispec.lint.extract.lower.model import FileModel
from apispec.lint.extract.parse import Parsed, parse
from apispec.lint.extract.regions import RegionReader, literal_regions
from apispec.lint.extract.summaries import export
from apispec.lint.helpers import QUERY_PARAMS, Helper, HelperTable
from apispec.lint.knowledge import VERBS, Knowledge, knowledge
from apispec.lint.lines import Lines
from apispec.lint.reference import QueryValue, Reference, Span

if TYPE_CHECKING:
    from tree_sitter import Node

_VERB_UPPER = frozenset(v.upper() for v in VERBS)
_PATTERN = re.compile(r"[*^$()\[\]\"]|/:[A-Za-z]|\s")
_WORD_METHOD = re.compile(r"(?i)(?:^|[^A-Za-z])(GET|POST|PUT|PATCH|DELETE|HEAD)(?:$|[^A-Za-z])")

_KEY = re.compile(r"[A-Za-z_][\w.-]*")  # a mapping's key: a word, no path
_VERB_NAMES = frozenset({"get", "post", "put", "patch", "delete", "head", "options", "all", "use"})
# tree languages: the apispec language name -> the grammar (and its lowering)
GRAMMAR_OF = {
    "python": "python",
    "csharp": "csharp",
    "javascript": "javascript",
    "go": "go",
    "rust": "rust",
    "ruby": "ruby",
    "php": "php",
    "shell": "shell",
    "java": "java",
    "kotlin": "kotlin",
    "groovy": "groovy",
    "swift": "swift",
    "powershell": "powershell",
}
# grammars chosen by the file's extension where one language has several
GRAMMAR_BY_SUFFIX: dict[str, str] = {
    ".ts": "typescript",
    ".mts": "typescript",
    ".cts": "typescript",
    ".tsx": "tsx",
}


# languages whose files open their code with a tag (`<?php`): code without one (a
# Markdown fence, a snippet) is read by the grammar of the code alone
GRAMMAR_WITHOUT_TAG = {"php": ("<?", "php_only")}


def grammar_for(language: str, filename: str, text: str = "") -> str:
    """The grammar that parses a file of `language` (TypeScript and TSX by extension, PHP
    code without `<?php` by its code-only grammar)."""
    suffix = PurePath(filename).suffix.lower()
    tagged = GRAMMAR_WITHOUT_TAG.get(language)
    if tagged is not None and tagged[0] not in text:
        return tagged[1]
    return GRAMMAR_BY_SUFFIX.get(suffix) or GRAMMAR_OF[language]


@dataclass
class Found:
    request: Request | None  # None: a literal that reaches no request the model knows
    loc: Located
    method: str | None
    callee: str
    query: Value | None = None  # the query mapping sent with this URL


def extract_tree(
    text: str,
    language: str,
    known: frozenset[str],
    lines: Lines | None = None,
    helpers: HelperTable | None = None,
    filename: str = "",
    evidence_text: str | None = None,
    read: RegionReader | None = None,
) -> tuple[list[Reference], list[Helper]]:
    """The References of one file (or region) in a tree language, and the wrappers it defines.

    `evidence_text`: the whole file a region is part of (its prose names the API too).
    `read`: how code of another language inside a literal is read (a Jenkinsfile's `sh`
    step: the shell language's extractor).
    """
    grammar = grammar_for(language, filename, text)
    kept = parse_module.TREES
    parsed = (
        kept.parse(filename, text, grammar)
        if kept is not None and filename
        else parse(text, grammar)
    )
    rows = knowledge(language)
    model = lower(parsed, callees_of(rows, helpers))
    model.language = language  # the grammar may be a dialect's (TypeScript for JavaScript)
    for local, module in rows.default_imports.items():
        if local not in model.imports and local not in model.assigns:
            model.imports[local] = module  # `http.Get(...)` in a snippet without its imports
    module = module_of(filename, rows.scope == "directory") if filename else ""
    finder = Requests(model, rows, helpers, module)
    found: list[Found] = []
    used: set[int] = set()
    for request in finder.all():
        for loc, query in _locations(request):
            found.append(Found(request, loc, request.method, request.call.callee, query))
            used.update(loc.flat.offsets)
        for url in texts(request.url):  # taken even where the client's join leaves the API
            used.update(
                p.offset(i) for p in url.pieces if isinstance(p, Lit) for i in range(len(p.text))
            )
    found.extend(_orphans(model, finder, used))
    evidence = FileEvidence.of(evidence_text if evidence_text is not None else text, known)
    evidence.source = text
    for item in found:
        evidence.learn(item.loc)
    for ref in model.strings:
        if "." in ref.raw and (":1616" in ref.raw or "prtg" in ref.raw.lower()):
            literal = ref.literal
            if len(literal.pieces) == 1 and isinstance(literal.pieces[0], Lit):
                evidence.literal(literal.pieces[0].text)
    lines = lines if lines is not None else Lines(text)
    refs: dict[tuple[int, str | None], Reference] = {}
    for k, item in enumerate(found):
        if not k & 63:
            check()
        made = _reference(item, evidence, language, lines)
        if made is not None:
            refs.setdefault((made.span.start, made.method), made)
    if model.regions and read is not None:  # a Jenkinsfile's `sh` steps: shell code
        page = evidence_text if evidence_text is not None else text
        for made in literal_regions(model, finder.resolver, known, lines, page, read):
            refs.setdefault((made.span.start, made.method), made)
    defined = (
        export(finder, language, filename, evidence.strong)
        if model.functions or model.assigns
        else []
    )
    return sorted(refs.values(), key=lambda r: (r.span.start, r.method or "")), defined


def callees_of(rows: Knowledge, helpers: HelperTable | None) -> frozenset[str]:
    """The call names lowering keeps: what sends, fills a mapping, sets a header, or
    is a wrapper of another file."""
    names = {name for row in rows.clients for name in row.callees}
    names.update(rows.mutators)
    names.update(rows.header_setters)
    names.update(rows.matchers)
    names.update(rows.route_callees)
    names.update(rows.binders)
    names.update(rows.link_names)  # a builder's links written as statements of a block
    names.update(rows.class_setters)
    names.update(rows.handle_setters)
    names.update(rows.holder_calls)
    names.update(m.rsplit(".", 1)[-1] for m in rows.mocks)  # `stub_request(...)`: no call
    names.update(rows.builder_names)
    names.update(rows.mock_links)
    names.update(rows.query_setters)
    names.update(rows.auth_setters)
    names.update(rows.constructors)  # a constructor chained to another (`: this(...)`)
    names.update(VERBS)
    names.add("request")
    names.update(rows.commands)
    if helpers:
        names.update(h.name for h in helpers.helpers)
    return frozenset(names)


def _locations(request: Request) -> list[tuple[Located, Value | None]]:
    """Where each URL the request may send names its path, with the query sent with it.

    A URL and a query that are alternatives of the same number (`const { path, params } =
    TABLE[name]`) are taken pairwise: the entries of one table row travel together.
    """
    found = []
    bases: list[Text | None] = [*texts(request.base)] or [None]
    urls = options(request.url)
    queries = options(request.query) if request.query is not None else []
    paired = len(queries) == len(urls) > 1
    for k, url in enumerate(urls):
        if not isinstance(url, Text):
            continue
        query = queries[k] if paired else request.query
        for base in bases:
            full = join_base(base, url, request.join) if base is not None else url
            if full is None:
                continue
            loc = locate(full)
            if loc is not None:
                found.append((loc, query))
    return found


def _orphans(model: FileModel, finder: Requests, used: set[int]) -> list[Found]:
    """String literals naming an API URL that no known request took, in value contexts."""
    found: list[Found] = []
    resolver = finder.resolver
    read: set[int] = set()  # expressions around several literals, read once for them all
    for index, ref in enumerate(model.strings):
        if not index & 15:
            check()  # the time budget, where no alarm can interrupt (budget.py)
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
        if whole is not literal:
            if id(whole) in read:
                continue  # `$base + "/x" + "/y"`: its URLs were read from its first literal
            read.add(id(whole))
        function = model.function_at(literal.start)
        resolver.fresh()
        open_id = function.node_id if function is not None else -1
        value = resolver.value(whole, Ctx(literal.start, function, open=open_id))
        if function is not None and _leads(value, function.node_id):
            continue  # a wrapper's own URL template: its callers are the calls
        ctx = Ctx(literal.start, function)
        call = _enclosing_call(model, literal) or _sending_call(ref.calls(), finder, ctx)
        if call is not None and _not_a_request(call, finder, ctx):
            continue
        method, url_at = _verb_of_call(call, literal, finder, ctx) if call else (None, 0)
        if method is None and call is not None:
            method = _method_given(call, finder, literal.start) or _verb_argument(call, finder, ctx)
        sent = _verb_request(call, value, method, finder, ctx, url_at)
        if sent is not None and call is not None and (url_at or _argument_at(call, literal, 0)):
            sent.row = "verb:url"  # the verb call's own URL argument (`conn.get("/libraries")`)
        for text in texts(value):
            loc = locate(text)
            if loc is None:
                continue
            if all(o in used for o in loc.flat.offsets[loc.start : loc.end]):
                continue  # a path a request located: `"$(printf '%s/x' "$B")"` as curl's URL
            path = loc.flat.chars[loc.start : loc.end]
            if not loc.via_api_v2 and "/" not in path.strip("/") and not path.startswith("/"):
                continue  # a lone word is a path only as a request's argument
            if any(c.isspace() for c in loc.prefix):
                continue  # `"DELETE /api/v2/..."`: a line of text, not a URL
            query = sent.query if sent is not None else None
            found.append(Found(sent, loc, method, call.callee if call else "", query))
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


_QUERY_KEYWORDS = QUERY_PARAMS | {"search_params"}


def _verb_request(
    call: CallE | None,
    url: Value,
    method: str | None,
    finder: Requests,
    ctx: Ctx,
    url_at: int = 0,
) -> Request | None:
    """A verb-named call no row knows (`session.get(url, params={...})` on an object of
    unknown class), or one given a query (`Invoke-PrtgRestMethod -Path ... -QueryParameter
    @{...}`): its query and headers keywords are read as a client's would be, or the
    mapping after its URL: the entries of an options mapping (`['query' => ...]`), else,
    for a read, the query itself (`conn.get(path, limit: 10)`)."""
    if call is None:
        return None
    if method is None and not any((a.name or "").lower() in _QUERY_KEYWORDS for a in call.args):
        return None
    request = Request(call, url, method, row="verb")
    resolver = finder.resolver
    for arg in call.args:
        name = (arg.name or "").lower()
        if name in _QUERY_KEYWORDS and request.query is None:
            request.query = resolver.value(arg.value, ctx)
        elif name == "headers" and request.headers is None:
            request.headers = resolver.value(arg.value, ctx)
    positional = [a for a in call.args if a.name is None and not a.spread]
    after = positional[url_at + 1] if len(positional) > url_at + 1 else None
    mapping = resolver.value(after.value, ctx) if after is not None else None
    if request.query is None and isinstance(mapping, MapV):
        keys = {(e.key or "").lower(): e for e in mapping.entries}
        option = next((keys[k] for k in _QUERY_KEYWORDS if k in keys), None)
        if option is not None:
            request.query = option.value
        elif method in ("GET", "HEAD", "DELETE") and not _OPTION_KEYS.intersection(keys):
            request.query = mapping
        if request.headers is None and "headers" in keys:
            request.headers = keys["headers"].value
    return request


_OPTION_KEYS = frozenset({"headers", "json", "body", "timeout", "auth", "data", "form_params"})


def _verb_of_call(call: CallE, literal: Str, finder: Requests, ctx: Ctx) -> tuple[str | None, int]:
    """The method a call says and the position of the argument holding the literal: its
    name (`get(url)`), else a verb or a verb's class written before the URL
    (`request("GET", url)`, `call(Net::HTTP::Delete, url)`, `run_request(:patch, url)`)."""
    positional = [a for a in call.args if a.name is None and not a.spread]
    at = next(
        (k for k, a in enumerate(positional) if a.value.start <= literal.start < a.value.end), 0
    )
    method = _verb_of(call.callee)
    if method is not None and at and call.callee.lower() in VERBS:
        key = finder.resolver.literal(positional[0].value, ctx)
        if key is not None and _KEY.fullmatch(key):
            return None, at  # `paths.put("probes", "/x")`: a path stored under a key
    if method is not None:
        return method, at
    for arg in positional[:at]:
        written = finder.resolver.literal(arg.value, ctx)
        if written is None and isinstance(arg.value, (Name, Attr)):
            text = finder.model.parsed.text[arg.value.start : arg.value.end]
            written = re.split(r"::|\.|->", text)[-1]
        if written is not None and written.lower() in VERBS:
            return written.upper(), at
    return None, at


def _argument_at(call: CallE, literal: Str, index: int) -> bool:
    positional = [a for a in call.args if a.name is None and not a.spread]
    if index >= len(positional):
        return False
    return positional[index].value.start <= literal.start < positional[index].value.end


def _not_a_request(call: CallE, finder: Requests, ctx: Ctx) -> bool:
    """A literal inside a test double, a matcher or a route registration is no call."""
    rows = finder.knowledge
    if call.callee in rows.matchers or call.callee in rows.route_callees:
        return True
    own = finder.resolver.callee_function(call, ctx, 0)
    if own is not None and call.receiver is not None and _sends_nothing(own, finder):
        return True  # a method of the file's own class that sends nothing with it
    root = call
    while isinstance(root.receiver, CallE):  # `nock(host).get("/x").reply(200)`: its root
        root = root.receiver
    for link in (call, root):
        qualified = finder.resolver.qualified(link, ctx, 0)
        if any(qualified == m or qualified.startswith(m + ".") for m in rows.mocks):
            return True
    receiver = call.receiver
    if isinstance(receiver, Name) and receiver.name in rows.mocks:
        return True  # a test double handed in by name (pytest's `requests_mock` fixture)
    made = root if root.receiver is None else root.receiver
    for option in options(finder.resolver.value(made, ctx)):
        if isinstance(option, ObjV) and option.kind == "mock":
            return True  # on an object a test double made (`scope = nock(h)`, `mock()`)
        router = isinstance(option, ObjV) and option.kind == "router"
        if router and made is not root and call.callee.lower() in _VERB_NAMES:
            return True  # `app.get("/x", ...)` for `app = express()`
    if _stubbed(call, finder.model, rows.mock_links):
        return True
    if call.callee.lower() in _VERB_NAMES and any(
        isinstance(a.value, Opaque) and a.value.kind == "function" for a in call.args[1:]
    ):
        return True  # a verb call with a handler after the path: a route or a stub
    # `get("/x", (req, res) -> ...)` with no object and a function after the path (Spark,
    # Ktor routing): a route
    if (
        call.callee.lower() in _VERB_NAMES
        and receiver is None
        and any(isinstance(a.value, FuncE) for a in call.args[1:])
    ):
        return True
    # `app.get("/x", handler)`, `Route::get('/x', [Controller::class, 'show'])`: a route
    # of the file's own app (the handler a name, a function or a callable array)
    return (
        isinstance(receiver, Name)
        and receiver.name.lower() in rows.routers
        and call.callee.lower() in _VERB_NAMES
        and any(isinstance(a.value, (Name, Opaque, ListE, FuncE)) for a in call.args[1:])
    )


def _method_given(call: CallE, finder: Requests, at: int) -> str | None:
    """The verb a call no row knows is given by name (`-Method Post`, `method="PATCH"`)."""
    for arg in call.args:
        if (arg.name or "").lower() == "method":
            ctx = Ctx(at, finder.model.function_at(at))
            verb = finder.resolver.literal(arg.value, ctx)
            if verb is not None and verb.upper() in _VERB_UPPER:
                return verb.upper()
    return None


def _sends_nothing(own: Function, finder: Requests) -> bool:
    """Whether a method of the file's own class sends nothing with what it is given: it
    is no wrapper and no call in its body takes one of its parameters (`String get(String
    channel) { return "#" + channel; }`). A method that gives `base + path` to a call
    the file cannot see into (an injected transport, a function of another module) may
    send it, so a literal given to it is still read as a call."""
    if finder.is_wrapper(own):
        return False
    names = {name for name, _, _ in own.params}
    return not names or not _calls_with(finder.model, own, names)


def _calls_with(model: FileModel, own: Function, names: set[str]) -> bool:
    """Whether a call written in the function's body takes one of `names`, or a local
    name given a value made of them (`const url = base + path; send(url)`). Read on the
    tree: calls of names no row knows are not lowered."""
    parsed = model.parsed
    body: list[Node] = []
    stack = [parsed.root]
    while stack:
        node = stack.pop()
        start, end = parsed.char(node.start_byte), parsed.char(node.end_byte)
        if end <= own.start or start >= own.end:
            continue
        if own.start <= start and end <= own.end:
            body.append(node)
        stack.extend(node.children)
    held = set(names)
    for _ in range(4):  # a value through a few local names
        before = len(held)
        for node in body:
            target = node.child_by_field_name("name") or node.child_by_field_name("left")
            value = node.child_by_field_name("value") or node.child_by_field_name("right")
            if target is not None and value is not None and _names_in(parsed, value) & held:
                held |= _names_in(parsed, target)
        if len(held) == before:
            break
    for node in body:
        if "call" in node.type or "invocation" in node.type:
            arguments = node.child_by_field_name("arguments") or node
            if _names_in(parsed, arguments) & held:
                return True
    return False


def _names_in(parsed: Parsed, node: Node) -> set[str]:
    found: set[str] = set()
    stack = [node]
    while stack:
        node = stack.pop()
        if node.type in ("identifier", "simple_identifier", "variable_name", "name"):
            found.add(parsed.node_text(node))
        stack.extend(node.children)
    return found


def _sending_call(calls: list[CallE], finder: Requests, ctx: Ctx) -> CallE | None:
    """The call around a literal that may send it: format and encoding calls are looked
    through (`call("DELETE", fmt.Sprintf("%s/x", base))` is `call`'s)."""
    for call in calls:
        qualified = finder.resolver.qualified(call, ctx, 0)
        if finder.knowledge.transform(qualified, call.callee) is None:
            return call
    return None


def _verb_argument(call: CallE, finder: Requests, ctx: Ctx) -> str | None:
    """A verb given to the call as a literal argument (`_api("GET", path)`)."""
    for arg in call.args:
        if arg.name is not None and arg.name.lower() not in ("method", "verb"):
            continue
        if not isinstance(arg.value, Str):
            continue
        literal = finder.resolver.literal(arg.value, ctx)
        if literal is not None and literal.lower() in VERBS:
            return literal.upper()
    return None


def _stubbed(call: CallE, model: FileModel, links: frozenset[str]) -> bool:
    """Whether a later link of the call's chain makes it a stub (`.get(p).reply(200)`)."""
    if not links:
        return False
    for later in model.calls:
        if later.start != call.start or later.callee not in links:
            continue
        inner = later.receiver
        while isinstance(inner, CallE):
            if inner.node_id == call.node_id:
                return True
            inner = inner.receiver
    return False


def _verb_of(callee: str) -> str | None:
    m = VERB_NAME.search(callee)
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
    client = request is not None and request.row in ("client", "verb:url")
    if not loc.via_api_v2 and "/" not in path_text and not (wrapped or client):
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
        for extra in (item.query, *request.extra_query):
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
