"""Paths that are not calls: routes of the file's own web app, and fakes of a mock library.

A server defines `/devices` with a decorator or a router method, a test fakes
it with `responses.add(...)` or `nock(...).get(...)`: the path is right there,
but nothing calls the API. The names come from languages/clients.py.
"""

from __future__ import annotations

import re
from bisect import bisect_left

from apispec.lint.calls.method import MEMBER_SPACED
from apispec.lint.languages.clients import ClientTable
from apispec.lint.scan import Source

_ROUTER_OBJECT = re.compile(r"\b(?:component|element|handler|view|controller)\s*[:=]")
_MOCK_REPLY = re.compile(r"\s*\.\s*(?:reply|respond|replyWith\w*|intercept|mockResolvedValue)\b")
_DECORATOR = re.compile(r"\s*@")
_BLOCK = re.compile(r"[ \t]*(?:\{|do\b)")
_VERBS = frozenset(("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"))
_ANNOTATION = re.compile(r"@([A-Za-z_][\w.]*)\s*\(\s*\Z")
_MARKER = re.compile(r"@([A-Za-z_]\w*)\b")


def decorated(text: str, line_start: int, start: int) -> bool:
    """A decorator's argument: `@app.route("/devices")`, `@router.get(...)`."""
    return (
        _DECORATOR.match(text, line_start, start) is not None
        and text.find("(", line_start, start) >= 0
    )


def request_annotation(source: Source, clients: ClientTable, opener: int) -> bool:
    """An annotation that declares a client's request rather than a route.

    Retrofit's `@GET("devices")`, Feign's `@RequestLine`, Spring's `@GetExchange`
    always do; `@GetMapping` and JAX-RS `@Path` do inside a declarative client
    (the nearest of `@FeignClient`/`@RegisterRestClient` and `@RestController`/
    `@Controller` before it is a client's).
    """
    m = _ANNOTATION.search(source.text, source.line_start(opener), opener + 1)
    if m is None:
        return False
    name = m.group(1).rsplit(".", 1)[-1].lower()
    if name in clients.request_annotations:
        return True
    if name not in clients.mapping_annotations:
        return False
    markers = source.memo.get("interface markers")
    if markers is None:
        found = [
            (at.start(), at.group(1).lower() in clients.client_interfaces)
            for at in _MARKER.finditer(source.text, source.pos, source.endpos)
            if at.group(1).lower() in clients.client_interfaces | clients.servers
            and not source.in_comment(at.start())
        ]
        markers = source.memo["interface markers"] = found
    k = bisect_left(markers, (m.start(), False)) - 1  # type: ignore[arg-type]
    return k >= 0 and markers[k][1]  # type: ignore[index]


def inside_fake(source: Source, clients: ClientTable, opener: int, callee_of) -> bool:
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
    names = [n for n in MEMBER_SPACED.split(callee) if n]
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
