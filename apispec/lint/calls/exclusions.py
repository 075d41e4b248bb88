"""Paths that are not calls: routes of the file's own web app, fakes, and paths compared.

A server defines `/devices` with a decorator or a router method, a test fakes
it with `responses.add(...)` or `nock(...).get(...)`, a test double compares
the path it received (`r.URL.Path == "/api/v2/devices"`, `"/group" in url`,
`path.startswith(...)`, `case "/api/v2/session":`, `Assert.Equal(...)`): the
path is right there, but nothing calls the API. A string compared, matched or
registered as a route is never a call. The names come from languages/clients.py.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from functools import lru_cache
from typing import TYPE_CHECKING, cast

from apispec.lint.calls.callee import callee_before
from apispec.lint.calls.method import MEMBER_SPACED
from apispec.lint.languages.clients import ClientTable
from apispec.lint.patterns import lazy
from apispec.lint.receivers import callee_of

if TYPE_CHECKING:
    from apispec.lint.candidates import Chain
    from apispec.lint.scan import Source

_ROUTER_OBJECT = lazy(r"\b(?:component|element|handler|view|controller)\s*[:=]")
_MOCK_REPLY = re.compile(r"\s*\.\s*(?:reply|respond|replyWith\w*|intercept|mockResolvedValue)\b")
_REPLIES = frozenset(
    [
        "reply",
        "replywithfile",
        "replywitherror",
        "respond",
        "respondwith",
        "intercept",
        "mockresolvedvalue",
        "mockresolvedvalueonce",
        "mockimplementation",
        "thenreturn",
        "willreturn",
        "returns",
    ]
)
_CHAINED = re.compile(r"\s*\??\.\s*([A-Za-z_$][\w$]*)\s*\(")
_DECORATOR = re.compile(r"\s*@")
_DECORATOR_CALL = lazy(r"[ \t]*@[A-Za-z_][\w.]*[ \t]*")
_BLOCK = lazy(r"[ \t]*(?:\{|do\b)")
_VERBS = frozenset(("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"))
_ANNOTATION = lazy(r"@([A-Za-z_][\w.]*)\s*\(\s*\Z")
_MARKER = lazy(r"@([A-Za-z_]\w*)\b")
# Before a string that is compared: an operator (`==`, `-like`, `in`, `case`); matched
# against the few characters before it, so the pattern is tried at one place only.
_COMPARED_BEFORE = lazy(
    r"(?:===?|!==?|<>|\bis|\bnot\s+in|\bin|-(?:c|i)?(?:eq|ne|like|notlike|match|notmatch|"
    r"contains|notcontains|in|notin)|\bcase|\bwhen)\Z",
    re.I,
)
_BEFORE_REACH = 24  # characters before a string where its operator may stand
# The last character each of those operators may end with (as re.I folds it): a cheap
# test that spares the search before most strings (an argument after `(` or `-Uri`).
_OPERATOR_LAST = frozenset("=>sSnNqQeEhH\u017f")
_COMPARED_AFTER = re.compile(
    r"\s*(?:===?|!==?|<>|\bis\b|\bnot\s+in\b|\bin\b|-(?:c|i)?(?:eq|ne|like|match|contains)\b)",
    re.I,
)
# After a string in a case table: `case "/x":`, a switch arm `"/x" => ...`, `'/x' { ... }`.
_INDENT = lazy(r"[ \t]*")
_AFTER_FIRST = frozenset("=!<ainI-")  # how the operators after a string begin
_CASE_AFTER = lazy(r"\s*(?:=>(?!\s*\{?\s*$)|\{)")
_SWITCH = lazy(r"\bswitch\b|\bmatch\b|\bcase\b", re.I)
# Calls that compare, match or assert rather than request.
_MATCHERS = frozenset(
    [
        "startswith",
        "endswith",
        "hasprefix",
        "hassuffix",
        "contains",
        "includes",
        "match",
        "matches",
        "fullmatch",
        "search",
        "test",
        "compile",
        "mustcompile",
        "regex",
        "regexp",
        "ismatch",
        "like",
        "trimprefix",
        "trimsuffix",
        "removeprefix",
        "removesuffix",
        "indexof",
        "index",
        "find",
        "count",
        "split",
        "withpath",
        "withurl",
        "urlpathequalto",
        "urlequalto",
        "urlmatching",
        "urlpathmatching",
        "wildcardmatcher",
        "regexmatcher",
        "exactmatcher",
        "equal",
        "equals",
        "tobe",
        "toequal",
        "tomatch",
        "tocontain",
        "tohavebeencalledwith",
        "tohavebeencalledtimes",
        "tohaveproperty",
        "isequalto",
        "isnotequalto",
        "hasvalue",
        "should",
        "expect",
        "verify",
    ]
)
_ASSERTING = re.compile(r"(?i)^(?:assert|expect|should|verify|check_?)")
_LAST_NAME = re.compile(r"([\w$@-]+)\W*\Z")
_ROOT_NAME = lazy(r"\s*[$@_]*([A-Za-z]\w*)")
# A mock's route methods: `nock(h).get(path)`, `scope.post(path)`, chained to a reply.
_VERB_CALLS = frozenset(["get", "post", "put", "patch", "delete", "head", "options", "any", "all"])
_RESPONSE_HEADER = re.compile(
    r"""['"](?:location|content-location|link)['"]\s*\]?\s*(?::|=>|=|,)\s*"""
    # either branch of a conditional value: `"Location", (created ? "/x/" : "/y/") + id`
    r"""(?:\(?[^;\n"']*\?\s*(?:['"][^'"\n]*['"]\s*:\s*)?)?\Z"""
    # an object's `href` in data the API answers with: `{ id: "2048", href: "/api/v2/..." }`,
    # Java's Map.of("href", ...), Kotlin's "href" to ...
    r"""|(?<![\w$])['"]?href['"]?\s*(?::|=>|=|,|\bto\b)\s*\Z""",
    re.I,
)
_HEADER_LAST = frozenset(":>=,?oO")  # the characters a match of _RESPONSE_HEADER may end with


def decorated(text: str, line_start: int, start: int, opener: int = -1) -> bool:
    """A decorator's argument: `@app.route("/devices")`, `@router.get(...)`, also on a
    later line than the decorator's bracket (`opener`, the bracket around the argument)."""
    if (
        _DECORATOR.match(text, line_start, start) is not None
        and text.find("(", line_start, start) >= 0
    ):
        return True
    if opener < 0 or text[opener] != "(":
        return False
    before = text.rfind("\n", 0, opener) + 1
    return _DECORATOR_CALL.fullmatch(text, before, opener) is not None


def request_annotation(source: Source, clients: ClientTable, opener: int) -> bool:
    """An annotation that declares a client's request rather than a route.

    Retrofit's `@GET("devices")`, Feign's `@RequestLine`, Spring's `@GetExchange`
    do, unless a server's controller holds them (Micronaut's `@Get` in a
    `@Controller`); `@GetMapping` and JAX-RS `@Path` do inside a declarative
    client only. Which one holds an annotation: the nearest of the client
    (`@FeignClient`, `@RegisterRestClient`, `@Client`) and server
    (`@RestController`, `@Controller`) annotations before it.
    """
    m = _ANNOTATION.search(source.text, source.line_start(opener), opener + 1)
    if m is None:
        return False
    name = m.group(1).rsplit(".", 1)[-1].lower()
    if name not in clients.request_annotations and name not in clients.mapping_annotations:
        return False
    markers = cast("list[tuple[int, bool]] | None", source.memo.get("interface markers"))
    if markers is None:
        found = [
            (at.start(), at.group(1).lower() in clients.client_interfaces)
            for at in _MARKER.finditer(source.text, source.pos, source.endpos)
            if at.group(1).lower() in clients.client_interfaces | clients.servers
            and not source.in_comment(at.start())
        ]
        markers = source.memo["interface markers"] = found
    k = bisect_left(markers, (m.start(), False)) - 1
    if name in clients.request_annotations:
        return k < 0 or markers[k][1]
    return k >= 0 and markers[k][1]


def inside_fake(source: Source, clients: ClientTable, opener: int) -> bool:
    """Whether the bracket at `opener` is inside a fake: `Http::fake([...])`, `.to_return(body: {...})`.

    A mapping of URLs to responses, or a response body, given to a test double
    holds no request; the calls around the bracket (four at most) are asked.
    """
    text = source.text
    for _ in range(4):
        opener = source.enclosing_opener(opener, 2000)
        if opener < 0:
            return False
        if text[opener] != "(":
            continue
        m = callee_of(source, max(source.pos, opener - 160), opener)
        if m is not None and is_route(clients, m.group(1), "", ""):
            return True
    return False


def router_object(group: str) -> bool:
    """A route table entry (`{ path: '/x', component: X }`) rather than a request."""
    return _ROUTER_OBJECT.search(group) is not None


def is_route(clients: ClientTable, callee: str, args_after: str, after_call: str) -> bool:
    """Whether `callee(...)` registers a route or a fake rather than calling the API.

    `args_after` is the argument text after the path, `after_call` the text
    right after the closing bracket (a mock's `.reply(...)`).
    """
    names = _member_names(callee)
    if not names:
        return False
    name = names[-1].lower()
    receiver = names[0].lower().lstrip("$@")
    if name in clients.route_calls:
        return True
    if receiver in clients.mock_receivers or name in clients.mock_calls.get(receiver, ()):
        return True
    if len(names) == 1 and name.upper() in _VERBS and _BLOCK.match(after_call):
        return True  # a route with its handler block: Ktor's get("/x") { ... }, Sinatra
    if _MOCK_REPLY.match(after_call):
        return True
    routes = clients.router_calls.get(receiver)
    if len(names) >= 2 and routes is not None and name in routes:
        rest = args_after.lstrip()
        return rest.startswith(",") and not rest[1:].lstrip().startswith("{")
    return False


@lru_cache(maxsize=4096)
def _member_names(callee: str) -> tuple[str, ...]:
    """A callee's names (`api.client.get` -> api, client, get), kept per callee text:
    a file calls the same few names many times, and each call asks more than once."""
    return tuple(n for n in MEMBER_SPACED.split(callee) if n)


def compared(
    source: Source,
    chain: Chain,
    clients: ClientTable,
    opener: int | None = None,
    callee: str | None = None,
) -> bool:
    """Whether the path is compared, matched, asserted or a table key rather than requested.

    `opener` and `callee` are the bracket around the path and the call's name,
    when the call stage already read them.
    """
    text = source.text
    start, end = chain.start, chain.end
    if opener is None:
        opener = source.enclosing_opener(start, 300)
        callee = None
        if opener >= 0 and text[opener] == "(":
            m = callee_before(text, max(source.pos, opener - 160), opener)
            callee = m.group(1) if m is not None and m.group(1).strip() else None
    bracket = text[opener] if opener >= 0 else ""
    # A tuple or list holding the path stands for it: `("DELETE", "/x") in calls`.
    if bracket == "[" or (bracket == "(" and (callee is None or callee in ("case", "when"))):
        closer = source.matching_closer(opener, 600)
        if closer > 0 and (
            _operand(source, opener, closer + 1)
            or _table_key(source, opener, closer + 1)
            or _arm_pattern(source, opener, closer + 1)
        ):
            return True
    after = source.skip_space(end)
    if (
        after < source.endpos
        and text[after] in _AFTER_FIRST
        and _COMPARED_AFTER.match(text, end, min(source.endpos, end + 20))
    ):
        return True
    line_start = source.line_start(start)
    before = text[max(line_start, start - 48) : start].rstrip()
    header = text[max(line_start, start - 120) : start].rstrip()  # a conditional's branches too
    if (before[-1:] in _OPERATOR_LAST and _COMPARED_BEFORE.search(before[-_BEFORE_REACH:])) or (
        header[-1:] in _HEADER_LAST and _RESPONSE_HEADER.search(header)
    ):
        return True  # an operand, or a Location or Link header's value (a server's answer)
    if bracket == "{" and _table_key(source, start, end, opener):
        return True
    if not before and _case_arm(source, start, end, line_start):
        return True
    return callee is not None and _matcher(source, callee, opener, clients)


def _before(source: Source, start: int, reach: int) -> str:
    """The text before `start` on its line, at most `reach` characters, without trailing blanks."""
    lo = max(source.line_start(start), start - reach)
    return source.text[lo:start].rstrip()


def _operand(source: Source, start: int, end: int) -> bool:
    """An operand of a comparison: an operator right before or right after it."""
    if _COMPARED_BEFORE.search(_before(source, start, _BEFORE_REACH)):
        return True
    return _COMPARED_AFTER.match(source.text, end, min(source.endpos, end + 20)) is not None


def _table_key(source: Source, start: int, end: int, opener: int | None = None) -> bool:
    """A key of a mapping (`{"/x": handler}`, `{("GET", "/x"): handler}`): a route table."""
    if source.dialect.name in ("yaml", "json"):
        return False  # an OpenAPI path key is a reference of its own
    text = source.text
    after = source.skip_space(end)
    if after >= source.endpos or text[after] != ":" or text.startswith(("::", ":="), after):
        return False
    if opener is None:
        opener = source.enclosing_opener(start, 400)
    if opener < 0 or text[opener] != "{":
        return False
    k = start - 1
    while k > opener and text[k] in " \t\r\n":
        k -= 1
    return text[k] in "{,"


def _arm_pattern(source: Source, start: int, end: int) -> bool:
    """A switch arm's tuple pattern at a line's start: `("GET", "/x") => ...` (C#)."""
    return _case_arm(source, start, end, source.line_start(start))


def _case_arm(source: Source, start: int, end: int, line_start: int) -> bool:
    """An arm of a switch: `"/x" => ...` (C#), `'/x' { ... }` (PowerShell) at a line's start.

    Only the line's indentation is read, never the whole line before the literal (a
    one-line JSON file of thousands of literals would make that quadratic).
    """
    text = source.text
    indent = _INDENT.match(text, line_start)  # `[ \t]*` matches anywhere
    if (
        indent is None
        or indent.end() < start
        or not _CASE_AFTER.match(text, end, min(source.endpos, end + 8))
    ):
        return False
    return _SWITCH.search(text, max(source.pos, start - 1500), start) is not None


def _matcher(source: Source, callee: str, opener: int, clients: ClientTable) -> bool:
    """An argument of a call that compares, matches or asserts (`url.startswith(...)`)."""
    name, matches = _callee_kind(callee)
    if matches:
        return True
    mocks = mock_names(source, clients)
    if mocks and (root := _ROOT_NAME.match(callee)) and root.group(1).lower() in mocks:
        return True
    return name in _VERB_CALLS and _replied(source, opener)


@lru_cache(maxsize=4096)
def _callee_kind(callee: str) -> tuple[str, bool]:
    """A callee's last name (lower case) and whether it compares, matches or asserts.

    Kept per callee text: a file calls the same few names many times.
    """
    last = _LAST_NAME.search(callee)
    name = last.group(1).lower() if last else ""
    matches = bool(
        name in _MATCHERS or _ASSERTING.match(name) or _ASSERTING.match(callee.lstrip("$@ \t"))
    )
    return name, matches


def _replied(source: Source, opener: int) -> bool:
    """A call whose chain goes on to a mock's reply: `.get("/x").query(...).reply(200)`."""
    text = source.text
    closer = source.matching_closer(opener)
    for _ in range(6):
        if closer < 0:
            return False
        m = _CHAINED.match(text, closer + 1, min(source.endpos, closer + 200))
        if m is None:
            return False
        if m.group(1).lower() in _REPLIES:
            return True
        closer = source.matching_closer(m.end() - 1)
    return False


def mock_names(source: Source, clients: ClientTable) -> frozenset[str]:
    """Variables bound to a mock library's object (`with responses.RequestsMock() as rsps`)."""
    found = cast("frozenset[str] | None", source.memo.get("mock_names"))
    if found is None:
        names: set[str] = set()
        lower = source.text[source.pos : source.endpos].lower()
        hints = ("mock", "fake", *clients.mock_receivers)
        matches = _BOUND.finditer(source.text, source.pos, source.endpos)
        if not any(hint in lower for hint in hints):
            matches = iter(())  # no mock library named: nothing bound to one
        for m in matches:
            receiver = (m.group("recv") or m.group("recv2") or "").lower()
            name = m.group("name") or m.group("name2")
            made = (m.group("made") or m.group("made2") or "").lower()
            if receiver in clients.mock_receivers or "mock" in made or "fake" in made:
                names.add(name.lower().lstrip("$@_"))
        # `import { http, HttpResponse } from "msw"`: the module's name is in the text first
        if any(module in source.text for module in clients.mock_modules):
            for m in _IMPORTED.finditer(source.text, source.pos, source.endpos):
                if m.group("module") in clients.mock_modules:
                    for name in re.findall(
                        r"(?:\bas\s+)?([A-Za-z_$][\w$]*)\s*(?:,|$)", m.group("names")
                    ):
                        names.add(name.lower())
        found = source.memo["mock_names"] = frozenset(names)
    return found


def bound_router(source: Source, clients: ClientTable, callee: str, args_after: str) -> bool:
    """`api.get("/x", handler)` where `api` holds a router the file makes (`express.Router()`)."""
    names = _member_names(callee)
    if len(names) != 2 or clients.router_factory is None:
        return False
    routers = cast("frozenset[str] | None", source.memo.get("router_names"))
    if routers is None:
        found = set()
        for m in clients.router_factory.finditer(source.text, source.pos, source.endpos):
            bound = _ROUTER_BOUND.search(source.text, max(source.pos, m.start() - 120), m.start())
            if bound is not None:
                found.add(bound.group(1))
        routers = source.memo["router_names"] = frozenset(found)
    if names[0] not in routers or names[1].lower() not in _ROUTER_VERBS:
        return False
    rest = args_after.lstrip()
    return rest.startswith(",")


_IMPORTED = lazy(
    r"\bimport\s+(?:type\s+)?(?P<names>\{[^}]*\}|[A-Za-z_$][\w$]*(?:\s*,\s*\{[^}]*\})?)"
    r"\s*from\s*[\"'](?P<module>[^\"']+)[\"']"
)
_ROUTER_BOUND = lazy(r"([A-Za-z_$][\w$]*)\s*(?::[^=\n]*)?=\s*(?:new\s+)?\Z")
_ROUTER_VERBS = frozenset(
    ("get", "post", "put", "patch", "delete", "head", "options", "all", "use", "route")
)
# Each alternative starts at a word's start and reads the word possessively: tried at
# every position of a long run of word characters, `\w+` read the rest of the run from
# each, and a 64 KB file took minutes.
_BOUND = re.compile(
    r"(?<![\w$@])(?:(?P<recv>\w++)\s*\.\s*(?P<made>\w*+)\s*\([^()]*+(?:\([^()]*+\)[^()]*+)*+\)"
    r"\s*as\s+(?P<name>\w+)"
    r"|(?P<name2>[$@]?\w++)\s*(?::=|=)\s*(?:new\s+)?(?P<recv2>\w++)\s*\.\s*(?P<made2>\w++)\s*\()"
)
