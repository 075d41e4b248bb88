"""Method chains: request and URL builders that name the method and the query link by link.

A Java or Kotlin client builds one request as a chain of calls, and the link
that holds the path is rarely the one that names the method:

- before it: `web.get().uri("/sensors/{id}", id).retrieve()`,
  `web.method(HttpMethod.POST).uri(...)` (Spring WebClient);
- after it: `HttpRequest.newBuilder(uri).DELETE().build()` (java.net.http),
  `new Request.Builder().url(url).post(body).build()` (OkHttp),
  `.method("PATCH", body)`;
- around it: a lambda that builds the URI (`.uri { it.path("/x").build() }`) or
  a Ktor request block (`client.get { url { ... } }`): the chain that holds
  the block names the method.

Query links (`.queryParam("filter", f)`, `.addQueryParameter(...)`) and Ktor's
`parameter(...)` calls in a request's block are `ChainCall` rows of
languages/clients.py; the details stage reads their values from the links
kept here, as it does for every chain (lint/receivers.py).
"""

from __future__ import annotations

from typing import NamedTuple

from apispec.lint.languages.clients import VERBS, ClientTable
from apispec.lint.patterns import lazy
from apispec.lint.receivers import Link
from apispec.lint.scan import Source

_NAME_BEFORE = lazy(r"([A-Za-z_]\w*)\s*\Z")
_DOT_BEFORE = lazy(r"(?:\.|\?\.)\s*\Z")
_LINK_AFTER = lazy(r"\s*(?:\.|\?\.)\s*([A-Za-z_]\w*)\s*(?=[({])")
_ARGUMENT_VERB = lazy(r"\s*(?:[\"'](\w+)[\"']|(?:[\w.]*\.)?HttpMethod\.(\w+))")
_QUERY_CALL = lazy(r"(?<![\w.])([A-Za-z_]\w*)\s*\(")
_RECEIVER = lazy(r"(?:new\s+)?[A-Za-z_][\w.]*(?:\(\))?\s*\Z")
_VERB_SET = frozenset(VERBS)
_LIMIT = 24  # links read each way: a chain is a handful of calls
_REACH = 80  # characters between a link's name and its bracket, or a dot and a name


class Request(NamedTuple):
    """What a chain says about the request whose path one of its links holds."""

    method: str | None
    links: tuple[Link, ...]  # the chain's links, and the calls of request blocks in it
    start: int  # where the chain's first link (or its receiver) starts
    end: int  # after its last link


def links(source: Source, opener: int) -> tuple[list[Link], int]:
    """The links of the chain one of whose links opens its arguments at `opener`, and its index."""
    text = source.text
    closer = source.matching_closer(opener)
    name = _NAME_BEFORE.search(text, max(source.pos, opener - _REACH), opener)
    if name is None or closer < 0:
        return [], -1
    before: list[Link] = []
    start = name.start()
    for _ in range(_LIMIT):
        dot = _DOT_BEFORE.search(text, max(source.pos, start - _REACH), start)
        if dot is None:
            break
        k = dot.start() - 1
        while k >= source.pos and text[k] in " \t\r\n":
            k -= 1
        if k < source.pos or text[k] not in ")}":
            break
        link_opener = source.brackets.opener(k)
        previous = _NAME_BEFORE.search(text, max(source.pos, link_opener - _REACH), link_opener)
        if link_opener < 0 or previous is None:
            break
        before.append(Link(previous.group(1), previous.start(), link_opener, k))
        start = previous.start()
    before.reverse()
    after: list[Link] = []
    end = _after_block(source, closer)
    for _ in range(_LIMIT):
        nxt = _LINK_AFTER.match(text, end + 1, source.endpos)
        if nxt is None:
            break
        link_opener = source.skip_space(nxt.end(1))
        link_closer = source.matching_closer(link_opener)
        if link_closer < 0:
            break
        after.append(Link(nxt.group(1), nxt.start(1), link_opener, link_closer))
        end = _after_block(source, link_closer)
    return [*before, Link(name.group(1), name.start(), opener, closer), *after], len(before)


def request(source: Source, opener: int, clients: ClientTable, depth: int = 0) -> Request | None:
    """The method and query a chain gives the path whose link opens at `opener`."""
    chain, here = links(source, opener)
    if not chain:
        return None
    text = source.text
    method = None
    for k, link in enumerate(chain):
        if k == here and depth == 0:
            continue  # the path's own link: its name is read as the call's callee
        verb = _verb(text, link)
        if verb is not None:
            method = verb
            break
    found = list(chain)
    for link in chain:
        block = link.opener if text[link.opener] == "{" else _trailing_block(source, link.closer)
        if block >= 0:  # a request block: Ktor's parameter(...) calls
            found.extend(_block_calls(source, block, clients))
    head = _head_start(source, chain[0].start)
    end = _after_block(source, chain[-1].closer) + 1
    if method is None and depth < 3:
        # a lambda or block that builds the URI: the chain that holds it names the method
        outer = source.enclosing_opener(head, 400)
        if outer >= 0 and text[outer] in "({":
            around = request(source, outer, clients, depth + 1)
            if around is not None and around.method is not None:
                method = around.method  # the request is the chain around: its extent too
                found.extend(k for k in around.links if k not in found)
                head, end = min(head, around.start), max(end, around.end)
    return Request(method, tuple(found), head, end)


def _verb(text: str, link: Link) -> str | None:
    name = link.name
    if name.upper() in _VERB_SET and (name.isupper() or name.islower()):
        return name.upper()
    if name == "method":
        m = _ARGUMENT_VERB.match(text, link.opener + 1, link.closer)
        if m is not None:
            verb = (m.group(1) or m.group(2)).upper()
            return verb if verb in _VERB_SET else None
    return None


def _trailing_block(source: Source, closer: int) -> int:
    """The opener of a lambda right after a call's closer (Kotlin: `get(url) { ... }`), or -1."""
    text = source.text
    at = closer + 1
    while at < source.endpos and text[at] in " \t":
        at += 1
    return at if at < source.endpos and text[at] == "{" else -1


def _after_block(source: Source, closer: int) -> int:
    """The end of a call, its trailing lambda included."""
    block = _trailing_block(source, closer)
    if block < 0:
        return closer
    end = source.matching_closer(block)
    return end if end >= 0 else closer


def _block_calls(source: Source, opener: int, clients: ClientTable) -> list[Link]:
    """Query calls in a request's block, as links: `client.get(url) { parameter("limit", 50) }`."""
    found: list[Link] = []
    closer = source.matching_closer(opener)
    for m in _QUERY_CALL.finditer(source.text, opener + 1, closer if closer >= 0 else opener):
        role = clients.chain_roles.get(m.group(1).lower())
        if role in ("query", "query-map") and source.token_at(m.start()) is None:
            call = source.text.index("(", m.end(1))
            found.append(Link(m.group(1), m.start(1), call, source.matching_closer(call)))
    return found


def _head_start(source: Source, start: int) -> int:
    """Where the receiver of a chain's first link starts (`web` of `web.get()`, `new X.Builder()`)."""
    dot = _DOT_BEFORE.search(source.text, max(source.pos, start - _REACH), start)
    if dot is None:
        return start
    m = _RECEIVER.search(source.text, max(source.pos, dot.start() - _REACH), dot.start())
    return start if m is None else m.start()
