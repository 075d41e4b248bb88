"""Client objects created with a base URL, and the base a path is joined to.

A client object created with a base URL (`axios.create({ baseURL })`,
`HttpClient.BaseAddress`, `httpx.Client(base_url=...)`, resty's `SetBaseURL`;
rows `BaseClient` of languages/clients.py) makes the relative paths passed to
its calls requests under that base, joined by the client's own rule (`Join`);
a URL join (`urljoin(base, path)`, `new URL(path, base)`) does the same with a
base given beside the path. The objects of a file are found once, by one
regular expression per row, and only files that create such an object pay for
the look-ups per literal.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from typing import NamedTuple, cast

from apispec.lint.languages.client_bases import BaseClient, Join
from apispec.lint.languages.clients import ClientTable, table
from apispec.lint.patterns import lazy
from apispec.lint.receivers import CallSite, argument_end
from apispec.lint.scan import PARAM, Lit, Source

_API_V2_END = lazy(r"/api/v2(/?)\Z")
_VERB_LITERAL = lazy(
    r"\s*['\"](?:GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS|get|post|put|patch|delete)['\"]\s*,\s*\Z"
)
_HOST = lazy(r"[A-Za-z][\w+.-]*://([^/\s?#]*)")
_ASSIGNED_TO = lazy(
    r"([A-Za-z_$][\w$.]*)[ \t]*(?::[ \t]*[\w$.<>\[\], |?]{1,80})?[ \t]*:?=[ \t]*(?:await[ \t]+)?\Z"
)
_AS_NAME = lazy(r"\s*as\s+([A-Za-z_]\w*)")
_OPTION_VALUE = r"\s*(?::|=>|=(?!=))\s*"
_SHORTHAND = lazy(r"\s*[,}]")
_LATER_REACH = 20_000  # characters around a factory where its base may be set later
_OWNER = lazy(r"([\w$.]+)\s*\Z")
# The base URL attribute of an object (`prtg.base_url`, `this.prtgClient.baseUrl`), whatever
# module made the object: the object's name says whose API it is.
_OWNED_BASE = lazy(
    r"([\w$.]*?[\w$]+)\s*(?:\?\.|\.|->)\s*"
    r"(?:base_?url|base_?uri|baseaddress|base_?address|prefix_?url|api_?url|api_?base)",
    re.IGNORECASE,
)


class Base(NamedTuple):
    """What the code shows of a base URL."""

    api: bool | None  # True: this API's /api/v2; False: another service; None: not known
    slash: bool | None  # whether it ends in `/` (None: not known)
    text: str  # as written, for messages
    named: bool = False  # the base itself names this API (port 1616, `prtg` in its URL)

    def join(self, path: str, rule: Join) -> str | None:
        """The path under /api/v2 a relative `path` reaches, None where the join leaves /api/v2.

        `path` is the flattened reference as written (PARAM for interpolations).
        """
        lead = path.startswith("/")
        if rule is Join.PREFIX:
            return "/" + path.lstrip("/")
        if rule is Join.PREFIX_STRICT:
            return None if lead else "/" + path
        if rule is Join.CONCAT:
            return path if lead else (None if self.slash is False else "/" + path)
        if lead or path.startswith(".."):
            return None
        if rule is Join.URL and self.slash is False:
            return None  # RFC 3986: the base's last segment (`v2`) is replaced
        return "/" + path


class ClientObject(NamedTuple):
    """A client object of the file with its base: the paths of its calls join the base."""

    name: str  # the receiver's last name (`api`, `_http`, `self`)
    base: Base
    row: BaseClient


def clients_of(
    source: Source, table: ClientTable, base_names: frozenset[str]
) -> dict[str, ClientObject]:
    """The client objects created with a base URL in the source, by receiver name (once per source)."""
    key = "base clients"
    found = cast("dict[str, ClientObject] | None", source.memo.get(key))
    if found is None:
        found = source.memo[key] = _find_clients(source, table, base_names)
    return found


def _find_clients(
    source: Source, table: ClientTable, base_names: frozenset[str]
) -> dict[str, ClientObject]:
    text, pos, endpos = source.text, source.pos, source.endpos
    if (
        table.base_finder is None
        or not any(hint.search(text, pos, endpos) for hint in table.base_hints)
        or table.base_finder.search(text, pos, endpos) is None
    ):
        return {}  # most files create no such client: a few literal searches say so
    clients: dict[str, ClientObject] = {}
    for row, factory, setters in table.base_factories:
        sources = row.base.split("|")
        options = [s for s in sources if s[0] not in "#.="]
        for m in factory.finditer(text, pos, endpos) if factory is not None else ():
            if source.token_at(m.start()) is not None:
                continue
            name, span = _factory_object(source, m, options, sources)
            if name is None:
                continue
            base = _base_at(source, span, base_names) if span else None
            for source_kind in sources:
                if base is None and source_kind[0] in ".=~":
                    span = _later_base(source, name, source_kind, m.end())
                    base = _base_at(source, span, base_names) if span else None
            if base is not None:
                clients[_last_name(name)] = ClientObject(_last_name(name), base, row)
                if (
                    "cls" in m.re.groupindex
                ):  # a class-level client: also `Api.get`, `self.class.get`
                    for alias in (m.group("cls"), "class"):
                        clients.setdefault(alias, ClientObject(m.group("cls"), base, row))
        for setter in setters:  # `http.BaseAddress = ...` on an object made elsewhere
            for pm in setter.finditer(text, pos, endpos):
                if source.token_at(pm.start()) is not None:
                    continue
                owner = _OWNER.search(text, max(pos, pm.start() - 120), pm.start())
                if owner is None or _last_name(owner.group(1)) in clients:
                    continue
                name = _last_name(owner.group(1))
                base = _base_at(source, (pm.end(), _statement_end(source, pm.end())), base_names)
                if base is not None:
                    clients[name] = ClientObject(name, base, row)
    return clients


def factory_name(source: Source, opener: int) -> str | None:
    """The name of the client object a factory call opening at `opener` makes (its options
    hold headers for every call on it: `httpx.Client(headers={...}) as client`)."""
    rows = table(source.dialect.name).base_factories
    text = source.text
    for row, factory, _ in rows:
        if factory is None:
            continue
        m = factory.search(text, max(source.pos, opener - 80), opener + 1)
        if m is not None and source.skip_space(m.end()) == opener:
            options = [s for s in row.base.split("|") if s[0] not in "#.="]
            name, _ = _factory_object(source, m, options, row.base.split("|"))
            return _last_name(name) if name else None
    return None


def _last_name(expression: str) -> str:
    return re.split(r"\?\.|\.|->|::", expression)[-1]


def _factory_object(
    source: Source, m: re.Match[str], options: list[str], sources: list[str]
) -> tuple[str | None, tuple[int, int] | None]:
    """The name the object is held in, and the span of the base's value among its arguments."""
    text = source.text
    if m.group().lstrip().startswith("class"):
        return "self", None
    line_start = source.line_start(m.start())
    before = _ASSIGNED_TO.search(text, max(line_start, m.start() - 200), m.start())
    groups = _argument_groups(source, m.end())
    name = before.group(1) if before else None
    if name is None and groups:
        after = _AS_NAME.match(text, groups[-1][1] + 1)
        if after:
            name = after.group(1)
    if name is None:
        return None, None
    for opener, closer in groups:
        for option in options:
            span = _option_value(source, opener, closer, option)
            if span is not None:
                return name, span
    if "#0" in sources and groups and text[groups[0][0]] == "(":
        opener, closer = groups[0]
        return name, (opener + 1, argument_end(source, opener + 1, closer))
    return name, None


def _argument_groups(source: Source, pos: int) -> list[tuple[int, int]]:
    """The bracket groups right after a factory: `(...)`, then an initializer `{...}`."""
    text = source.text
    groups = []
    for _ in range(2):
        pos = source.skip_space(pos)
        if pos >= source.endpos or text[pos] not in "({":
            break
        closer = source.matching_closer(pos)
        if closer < 0:
            break
        groups.append((pos, closer))
        pos = closer + 1
    return groups


def _option_value(source: Source, opener: int, closer: int, option: str) -> tuple[int, int] | None:
    """Where option `option` (`baseURL: x`, `base_url=x`, `BaseAddress = x`) has its value."""
    text = source.text
    pattern = re.compile(r"(?<![\w$.])['\"]?" + re.escape(option) + r"['\"]?(?![\w$])")
    for m in pattern.finditer(text, opener + 1, closer):
        if source.token_at(m.start()) is not None and text[m.start()] not in "'\"":
            continue
        inner = source.enclosing_opener(m.start())
        if inner != opener and source.enclosing_opener(inner) != opener:
            continue  # an option of the factory's arguments, or of the options object among them
        value = re.compile(_OPTION_VALUE).match(text, m.end(), closer)
        if value is not None:
            return value.end(), argument_end(source, value.end(), closer)
        if _SHORTHAND.match(text, m.end()):  # `{ baseUrl, headers }`: the variable of that name
            return m.start(), m.end()
    return None


def _statement_end(source: Source, pos: int) -> int:
    """The end of the statement starting at `pos`: `;` or the end of the line, brackets closed."""
    text = source.text
    depth = 0
    limit = min(source.endpos, pos + 600)
    while pos < limit:
        token = source.token_at(pos)
        if token is not None:
            pos = token[1]
            continue
        ch = text[pos]
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            if depth == 0:
                return pos
            depth -= 1
        elif (ch == ";" or ch == "\n") and depth == 0:
            return pos
        pos += 1
    return pos


def _later_base(source: Source, name: str, kind: str, after: int) -> tuple[int, int] | None:
    """The base set on the object later: `.SetBaseURL(x)` chained or called on it, `name.prop = x`.

    The places where the setter or property occurs are indexed once per file;
    each object then looks at the few after it.
    """
    text = source.text
    receiver = _last_name(name)
    if kind[0] == "~":  # a class-level declaration after the factory: `base_uri API_BASE`
        m = re.compile(r"(?<![\w$.])" + re.escape(kind[1:]) + r"\b[ \t]*\(?[ \t]*").search(
            text, after, min(source.endpos, after + 2000)
        )
        if m is None or source.token_at(m.start()) is not None:
            return None
        return m.end(), _statement_end(source, m.end())
    places = _setter_places(source, kind)
    k = bisect_left(places, (after,))
    for start, value in places[k:]:
        if start > after + _LATER_REACH:
            break
        chained = kind[0] == "." and start < after + 600
        before = text[max(source.pos, start - len(receiver) - 8) : start].rstrip(" \t\r\n")
        if not chained and not before.endswith(receiver):
            continue
        if kind[0] == ".":
            closer = source.matching_closer(value - 1)
            return (value, closer) if closer > 0 else None
        return value, _statement_end(source, value)
    return None


def _setter_places(source: Source, kind: str) -> list[tuple[int, int]]:
    """(start, where the value starts) of every `.Name(` (kind `.Name`) or `.name =` (`=name`)."""
    key = "base setters " + kind
    found = cast("list[tuple[int, int]] | None", source.memo.get(key))
    if found is None:
        if kind[0] == ".":
            pattern = re.compile(r"\.\s*" + re.escape(kind[1:]) + r"\s*\(")
        else:
            pattern = re.compile(r"\.\s*" + re.escape(kind[1:]) + _OPTION_VALUE)
        found = source.memo[key] = [
            (m.start(), m.end())
            for m in pattern.finditer(source.text, source.pos, source.endpos)
            if source.token_at(m.start()) is None
        ]
    return found


def _api_hosts(source: Source) -> frozenset[str]:
    """Hosts of the file's literal URLs that show this API's evidence (port 1616, `prtg`)."""
    hosts = set()
    for lit in source.lits:
        raw = lit.raw
        if "://" not in raw:
            continue
        m = _HOST.search(raw)
        if m and (":1616" in m.group(1) or "prtg" in m.group(1).lower()):
            hosts.add(m.group(1))
    return frozenset(hosts)


def _base_of(
    source: Source, span: tuple[int, int], base_names: frozenset[str], hosts: frozenset[str]
) -> Base | None:
    """What the expression text[span] says of a base URL; None when it says nothing."""
    lo, hi = span
    text = source.text
    written = text[lo:hi].strip()
    k = source.first_lit_after(lo)
    lits = []
    while k < len(source.lits) and source.lits[k].start < hi:
        lits.append(source.lits[k])
        k += 1
    for index, lit in enumerate(lits):
        raw = lit.raw
        m = _API_V2_END.search(raw)
        if m is None:
            continue
        host = _HOST.match(raw)
        if host and hosts and host.group(1) not in hosts and PARAM not in host.group(1):
            return Base(False, None, written)  # another service beside this API's host
        slash: bool | None = bool(m.group(1))
        if not slash:
            rest = lits[index + 1 :]
            slash = bool(rest and rest[0].raw.startswith("/")) or None
            if not rest and text[lit.end : hi].strip(" \t\r\n)}]") == "":
                slash = False
        named = ":1616" in raw or "prtg" in raw.lower()
        return Base(True, slash, written, named)
    for lit in lits:
        host = _HOST.match(lit.raw)
        if host and lit.raw.rstrip("/") != host.group():
            return Base(False, None, written)  # a URL with a path of another service
    names = _outside_literals(text, lo, hi, lits)
    names += " ".join(p.text for lit in lits for p in lit.parts if p.is_param)
    for name in re.findall(r"[A-Za-z_$][\w$]*", names):
        if name.lower() in base_names:
            return Base(True, None, written)
    owned = _OWNED_BASE.fullmatch(written)
    if owned is not None and "prtg" in owned.group(1).lower():
        return Base(True, None, written, True)  # `prtg.base_url`: a client object of this API's
    return None


def _outside_literals(text: str, lo: int, hi: int, lits: list[Lit]) -> str:
    pieces = []
    at = lo
    for lit in lits:
        pieces.append(text[at : lit.start])
        at = lit.end
    pieces.append(text[at:hi])
    return " ".join(pieces)


_SENDING_WORDS = frozenset(
    ("get", "post", "put", "patch", "delete", "head", "options", "request", "send", "fetch")
)
_NAME_WORDS = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])")


def _sending(name: str) -> bool:
    words = _NAME_WORDS.findall(name)
    return bool(words) and words[0].lower() in _SENDING_WORDS


def client_of_call(
    source: Source, site: CallSite, clients: dict[str, ClientObject], table: ClientTable
) -> ClientObject | None:
    """The client object whose request takes the literal at `site` as its path."""
    link = site.link
    if site.constructor:
        row = table.request_objects.get(link.name)
        if row is None or site.argument != row.path_argument:
            return None
        bases = {c.base for c in clients.values() if c.row.client == row.client}
        if len(bases) != 1:
            return None
        return next(c for c in clients.values() if c.row.client == row.client)
    if site.argument > 1:
        return None
    if site.argument == 1:  # `build_request("PATCH", path)`, `request('GET', path)`
        text = source.text
        if (
            _VERB_LITERAL.match(
                text, site.opener + 1, argument_end(source, site.opener + 1, site.link.closer) + 1
            )
            is None
        ):
            return None
    chain = site.chain
    if site.chain.at == 0 and not chain.root and link.name in clients:
        return clients[link.name]  # the object called itself: `api("/health")`, `got(path)`
    if site.chain.at > 0 and any(
        _sending(k.name) and k.closer > k.opener + 1 for k in chain.links[: site.chain.at]
    ):  # a call on the response: `client.get(path).json().get("days_left")`; but
        return None  # WebClient's `web.get().uri(path)` names the method before the path
    # `api.get(path)`, or a later call of a chain on it: `client.R().SetQueryParams(q).Get(path)`
    return clients.get(chain.receiver)


def url_join_base(
    source: Source, site: CallSite, table: ClientTable
) -> tuple[tuple[int, int], Join] | None:
    """The span of the base argument where the literal is the path of a URL join (`urljoin`)."""
    link = site.link
    name = ("new " if site.constructor else "") + link.name.lower()
    row = table.url_joins.get(name)
    if row is None or site.argument != row.path_argument:
        return None
    pos = site.opener + 1
    closer = link.closer
    for _ in range(row.base_argument):
        pos = argument_end(source, pos, closer) + 1
        if pos >= closer:
            return None
    return (pos, argument_end(source, pos, closer)), row.join


def base_at(source: Source, span: tuple[int, int], base_names: frozenset[str]) -> Base | None:
    """What the expression at `span` says of a base URL (a URL join's base argument)."""
    return _base_at(source, span, base_names)


def _base_at(source: Source, span: tuple[int, int], base_names: frozenset[str]) -> Base | None:
    hosts = cast("frozenset[str] | None", source.memo.get("api hosts"))
    if hosts is None:
        hosts = source.memo["api hosts"] = _api_hosts(source)
    return _base_of(source, span, base_names, hosts)


def segment_arguments(
    source: Source, site: CallSite, table: ClientTable
) -> list[tuple[int, int]] | None:
    """The argument spans of the chain's path-segment calls, where the literal is the first one.

    `.AppendPathSegments("experimental", "sensors")`, `base.JoinPath("sensors", id)`,
    `.AppendPathSegment("experimental/sensors").AppendPathSegment(id)`: every
    segment argument of the chain, in order, from the call holding the literal.
    """
    roles = table.chain_roles
    links = site.chain.links
    if roles.get(site.link.name.lower()) != "segments" or site.argument != 0:
        return None
    if any(roles.get(k.name.lower()) == "segments" for k in links[: site.chain.at]):
        return None  # not the chain's first segment call: its first literal starts the path
    spans: list[tuple[int, int]] = []
    for link in links[site.chain.at :]:
        if roles.get(link.name.lower()) != "segments" or link.opener < 0:
            continue
        pos = link.opener + 1
        while pos < link.closer:
            end = argument_end(source, pos, link.closer)
            if source.text[pos:end].strip():
                spans.append((pos, end))
            pos = end + 1
    return spans
