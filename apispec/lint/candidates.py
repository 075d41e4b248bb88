"""Stage 2 of extraction: which literals are the path of an API v2 call.

Per literal (the loop that sees every string of the file), the expression it
starts is followed through concatenations (`base + "/x/" + id`), flattened to
one string with a placeholder per interpolation, and searched for an API path;
the file's evidence (docs/linter-detection.md) decides whether a path counts.
Only the survivors, a small share of the literals, reach call assembly.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import NamedTuple

from apispec.lint.bases import (
    Base,
    ClientObject,
    base_at,
    client_of_call,
    clients_of,
    segment_arguments,
    url_join_base,
)
from apispec.lint.budget import check
from apispec.lint.evidence import (
    THIS_API,
    Context,
    Evidence,
    serves_api,
    slash_bases,
    variable_name,
)
from apispec.lint.languages.client_bases import Join
from apispec.lint.languages.clients import table
from apispec.lint.patterns import lazy
from apispec.lint.receivers import call_site, callee_of
from apispec.lint.scan import PARAM, Part, Source

_LEADING = re.compile(r"(?<![\w.$>:])(\$?[A-Za-z_](?:[\w.]|->|::)*)\s*(\+|\.)\s*\Z")
# What may stand before `/api/v2`: a host (or a variable holding one), or a full
# URL whose path has a prefix (a server behind a reverse proxy: https://h/prtg/api/v2).
_URL_PREFIX = re.compile(r"(?:[A-Za-z][A-Za-z0-9+.-]*://[^\s/?#]*(?:/[^\s?#]*)?|[^\s/?#]*)\Z")
_VERB_LINE = re.compile(r"(?:GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS) +(?=/)")
_ANNOTATION = lazy(r"@(?:[\w.]*\.)?([A-Za-z_]\w*)\s*\(\s*\Z")
# A one-word path without a slash (`"sensor-status-summary"`), as an own helper's argument.
_WORD = re.compile(r"[a-z][a-z0-9]*(?:[-_][a-z0-9]+)*")
_WORD_FIRST = frozenset("abcdefghijklmnopqrstuvwxyz")  # spares the regex most literals
# A pattern, not a path: regular expression or wildcard syntax, route parameters (`:id`).
_PATTERN = re.compile(r"[*^\\()|\[\]+]|\$(?=\Z|[)|/])|/:[A-Za-z_]")
_PATTERN_CHARS = frozenset("*^\\()|[]+$")  # a match holds one of these, or is `/:`


def _pattern_like(text: str) -> bool:
    """`_PATTERN.search(text)`, the regex spared for the many paths without any of its characters."""
    if _PATTERN_CHARS.isdisjoint(text) and "/:" not in text:
        return False
    return _PATTERN.search(text) is not None


@dataclass(slots=True)
class Chain:
    """Literals and variables joined into one expression (`base + "/x/" + id`)."""

    start: int
    end: int
    parts: list[Part]
    lit_indexes: list[int] = field(default_factory=list)


def chain_from(source: Source, index: int) -> Chain:
    """The expression starting at literal `index`, following concatenations."""
    lit = source.lits[index]
    chain = Chain(lit.start, lit.end, list(lit.parts), [index])
    dialect = source.dialect
    concat = dialect.concat_re
    operand = dialect.operand_re
    text = source.text
    pos = lit.end
    while concat is not None:
        m = concat.match(text, pos, source.endpos)
        if m is None or m.end() == pos:
            break
        nxt = m.end()
        j = source.lit_starting(nxt)
        if j is not None:
            lit = source.lits[j]
            chain.parts.extend(lit.parts)
            chain.lit_indexes.append(j)
            chain.end = pos = lit.end
            continue
        om = operand.match(text, nxt, source.endpos)
        if om is None or om.end() == nxt:
            break
        chain.parts.append(Part(om.group(), True, om.start(), om.end()))
        chain.end = pos = om.end()
    return chain


def verb_line(source: Source, index: int, annotations: frozenset[str]) -> Chain | None:
    """The path of a request line (Feign's `@RequestLine("GET /devices/{id}")`), its verb cut off."""
    lit = source.lits[index]
    first = lit.parts[0]
    verb = _VERB_LINE.match(first.text) if not first.is_param else None
    if verb is None:
        return None
    m = _ANNOTATION.search(source.text, max(source.pos, lit.start - 60), lit.start)
    if m is None or m.group(1).lower() not in annotations:
        return None
    cut = verb.end()
    offs = first.offs[cut:] if first.offs is not None else None
    rest = Part(first.text[cut:], False, first.offset(cut), first.end, offs)
    return Chain(rest.start, lit.end, [rest, *lit.parts[1:]], [index])


def leading_operand(source: Source, chain: Chain) -> Chain:
    """Prefix `base + ` to a chain, as one interpolation."""
    concat = source.dialect.concat_re
    if concat is None:
        return chain
    text = source.text
    lo = max(source.pos, chain.start - 160)
    before = text[lo : chain.start]
    if not before.rstrip().endswith(("+", ".")):
        return chain  # as _LEADING ends, tried at each of 160 offsets: most literals stop here
    m = _LEADING.search(before)
    if m is None or not concat.fullmatch(before[m.end(1) :]):
        return chain
    start = lo + m.start(1)
    if source.token_at(start) is not None:
        return chain
    param = Part(m.group(1), True, start, lo + m.end(1))
    return Chain(start, chain.end, [param, *chain.parts], chain.lit_indexes)


def flatten(parts: list[Part]) -> tuple[str, list[int], list[int]]:
    """The expression as one string (interpolations as PARAM), with offsets and part index."""
    chars: list[str] = []
    offs: list[int] = []
    owner: list[int] = []
    for k, part in enumerate(parts):
        if part.is_param:
            chars.append(PARAM)
            offs.append(part.start)
            owner.append(k)
        else:
            chars.append(part.text)
            if part.offs is not None:
                offs.extend(part.offs)
            else:
                offs.extend(range(part.start, part.start + len(part.text)))
            owner.extend([k] * len(part.text))
    return "".join(chars), offs, owner


@dataclass
class PathHit:
    start: int  # index into the flattened expression where the path starts
    end: int  # exclusive; the query (if any) starts at end + 1
    via_api_v2: bool
    query_end: int


def find_path(flat: str, known: frozenset[str], allow_relative: bool) -> PathHit | None:
    """Where in the flattened expression the API path stands, if anywhere."""
    i = flat.find("/api/v2")
    if i >= 0:
        after = i + 7
        if after < len(flat) and flat[after] not in "/?#" + PARAM:
            return None
        if not _URL_PREFIX.match(flat, 0, i) and not _URL_PREFIX.match(flat[:i]):
            return None
        start, via = after, True
    elif not allow_relative:
        return None
    else:
        start, via = 0, False
        if flat.startswith(PARAM + "/"):
            start = 1
        elif flat.startswith(PARAM):
            return None
        elif not flat.startswith("/"):
            head = flat.split("/", 1)[0]
            if head not in known:
                return None
    end = start
    n = len(flat)
    while end < n and flat[end] not in "?# \t\r\n":
        end += 1
    if end < n and flat[end] in " \t\r\n":
        rest = flat[end:].strip()
        if rest:
            return None  # the path is followed by prose
    query_end = n
    if end < n and flat[end] == "#":
        query_end = end
    elif end < n and flat[end] == "?":
        hash_at = flat.find("#", end)
        query_end = hash_at if hash_at >= 0 else n
    return PathHit(start, end, via, query_end)


def _after_plus(source: Source, start: int) -> bool:
    """Whether a `+` stands right before `start` (blanks between)."""
    text = source.text
    k = start - 1
    while k > source.pos and text[k] in " \t":
        k -= 1
    return k >= source.pos and text[k] == "+"


class Candidate(NamedTuple):
    """An expression whose flattened text holds an API path the file's evidence accepts."""

    chain: Chain
    flat: str
    offs: list[int]  # file offset of each character of `flat`
    owner: list[int]  # index into chain.parts of each character of `flat`
    hit: PathHit
    bare: bool  # a relative path written without its leading slash ('devices')
    evidence: str
    one_word: bool  # a bare path of one segment: a call only as an HTTP helper's argument
    weak: bool = False  # accepted on weak evidence only (Authorization: Bearer and /api/v2)
    # a call only as the argument of one of the file's own API helpers (`_get("/health")`)
    needs_helper: bool = False


def candidates(
    source: Source,
    known: frozenset[str],
    evidence: Evidence | None = None,
    context: Context | None = None,
) -> Iterator[Candidate]:
    """Every expression of the source that names an API v2 path, in file order."""
    if context is None:
        context = Context(source, evidence or Evidence(source.text, known))
    full_only = source.dialect.full_urls_only
    clients = table(source.dialect.name)
    in_markup = source.dialect.in_markup
    sites = None if full_only else _Sites(source, context, known)
    consumed: set[int] = set()
    for index, lit in enumerate(source.lits):
        if not index & 1023:
            check()  # the time budget, where no alarm can interrupt (docs in budget.py)
        if index in consumed or lit.prose:
            continue
        raw = lit.raw
        lone = "/" not in raw and PARAM not in raw and (raw not in known or full_only)
        helper_word = lone and bool(context.helpers) and _WORD.fullmatch(raw) is not None
        # a lone word is a path only as the argument of a client with a base URL or a helper
        if lone and not helper_word and (sites is None or not sites.may_take(lit.start, raw)):
            continue
        chain = (
            raw[:1].isupper() and verb_line(source, index, clients.request_annotations)
        ) or chain_from(source, index)
        consumed.update(chain.lit_indexes)
        if chain.parts and not chain.parts[0].is_param and chain.parts[0].text.startswith("/"):
            chain = leading_operand(source, chain)
        elif (
            context.bases
            and not full_only
            and chain.parts
            and not chain.parts[0].is_param
            and _after_plus(source, chain.start)
        ):
            # `BASE + "devices"` where BASE ends in `/api/v2/`: the base brings the slash
            joined = leading_operand(source, chain)
            if joined is not chain and variable_name(joined.parts[0].text) in slash_bases(source):
                slash = Part("/", False, chain.start, chain.start, (chain.start,))
                chain = Chain(
                    joined.start,
                    chain.end,
                    [joined.parts[0], slash, *chain.parts],
                    chain.lit_indexes,
                )
        candidate = sites.candidate(chain, consumed) if sites is not None else None
        if candidate is None and (not lone or helper_word):
            candidate = _candidate(source, chain, known, context, full_only)
        elif candidate is _NOT_A_CALL:
            continue
        if isinstance(candidate, Candidate) and not in_markup(source, chain.start):
            yield candidate


def _candidate(
    source: Source, chain: Chain, known: frozenset[str], context: Context, full_only: bool
) -> Candidate | None:
    # The string alone decides most chains; the offsets are built only for a path.
    flat = "".join([PARAM if part.is_param else part.text for part in chain.parts])
    hit = find_path(flat, known, not full_only)
    if hit is None:
        if context.helpers and not full_only and _WORD.fullmatch(flat):
            hit = PathHit(0, len(flat), False, len(flat))  # a helper's one-word path
        else:
            return None
    flat, offs, owner = flatten(chain.parts)
    path_flat = flat[hit.start : hit.end].rstrip("/")
    bare = not hit.via_api_v2 and not path_flat.startswith("/")
    if bare:
        path_flat = "/" + path_flat
    raw_segments = path_flat.split("/")[1:]
    if not raw_segments or not raw_segments[0] or _pattern_like(path_flat):
        return None
    first = raw_segments[0]
    second = raw_segments[1] if len(raw_segments) > 1 else ""
    base = None
    if not hit.via_api_v2 and hit.start == 1 and context.bases:
        name = variable_name(chain.parts[0].text)
        if name in context.bases:
            base = name
            hit.via_api_v2 = True  # relative to a variable holding the .../api/v2 base
    prefix = flat[: hit.start - 7] if hit.via_api_v2 and base is None else None
    if prefix is not None and _pattern_like(prefix.replace("$", "")):
        return None  # `*/api/v2/...`, `^/api/v2/...`: a pattern a fake matches
    if (context.named or context.api_hosts) and context.foreign(
        context.host(prefix) if prefix is not None else None, base
    ):
        return None  # another service's URL in a file that also calls this API
    if (
        prefix  # a host before /api/v2 (literal or a variable); a bare /api/v2/x path is ours
        and first != PARAM
        and first not in known
        and not context.names_this_api(prefix, None)
        and not THIS_API.search(source.text, chain.start, offs[hit.start - 7])
    ):
        # `https://status.example.com/api/v2/summary.json`: another product's API v2 (the
        # text as written: `"$PRTG/api/v2/health"` names this API by its variable)
        return None
    if base is not None and first not in known and first != PARAM:
        written = context.bases[base]
        if written.host is not None and not written.strong and not serves_api(source, base, known):
            return None  # `STATUS_API="https://status.example.com/api/v2"`, then `$STATUS_API/x`
    one_word = bare and len(raw_segments) == 1
    if first == PARAM and not (hit.via_api_v2 and any(s != PARAM for s in raw_segments)):
        return None  # a variable collection counts after a base, with a literal segment
    if not hit.via_api_v2 and first not in known:
        if not context.helpers or first == PARAM:
            return None
        return Candidate(chain, flat, offs, owner, hit, bare, "own API helper", False, False, True)
    accepted = context.accepts(hit.via_api_v2, first, second, prefix, base)
    if accepted is None:
        if not context.helpers:
            return None
        return Candidate(chain, flat, offs, owner, hit, bare, "own API helper", False, False, True)
    evidence, weak = accepted
    if base is not None and not weak:
        evidence = "base URL variable ends /api/v2"
    return Candidate(chain, flat, offs, owner, hit, bare, evidence, one_word, weak)


_PATH_LIKE = lazy(r"/?[\w.~\x00{}:-]+(?:/[\w.~\x00{}:-]*)*\Z")
_SENDS = frozenset(
    ("get", "post", "put", "patch", "delete", "head", "options", "request", "send", "fetch")
)
_NAME_WORDS = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])")


def _sends(name: str) -> bool:
    """A call name that sends a request: `get`, `GetFromJsonAsync`, `build_request`, `Post`."""
    return any(word.lower() in _SENDS for word in _NAME_WORDS.findall(name))


class _Sites:
    """The calls around path literals where the call decides (docs/linter-detection.md, 3):
    a client object created with a base URL, a URL join with a base argument, a
    chain of path-segment calls. The file's clients are found on first need."""

    def __init__(self, source: Source, context: Context, known: frozenset[str]) -> None:
        self.source = source
        self.context = context
        self.known = known
        self.table = table(source.dialect.name)
        self._clients: dict[str, ClientObject] | None = None
        self._builders: bool | None = None

    @property
    def clients(self) -> dict[str, ClientObject]:
        if self._clients is None:
            self._clients = clients_of(self.source, self.table, self.context.base_variables)
        return self._clients

    def may_take(self, start: int, raw: str) -> bool:
        """Whether a literal without a slash may still be a path: a lower-case word argument."""
        if (
            raw[:1] not in _WORD_FIRST
            or not _WORD.fullmatch(raw)
            or not (self.clients or self._any_builder())
        ):
            return False
        text = self.source.text
        k = start - 1
        while k > self.source.pos and text[k] in " \t\r\n":
            k -= 1
        return (
            k >= self.source.pos
            and text[k] in "(,"
            and (bool(self.clients) or self._builder_argument(k))
        )

    def candidate(self, chain: Chain, consumed: set[int]) -> Candidate | object | None:
        """The candidate the call around `chain` makes; _NOT_A_CALL where it says no; None: no say."""
        source = self.source
        first = chain.parts[0] if chain.parts else None
        if first is None or first.is_param or "/api/v2" in first.text or "://" in first.text:
            return None
        text = source.text
        k = chain.start - 1
        while k > source.pos and text[k] in " \t\r\n":
            k -= 1
        if k < source.pos or text[k] not in "(,":
            return None  # not an argument
        if not self.clients and not self._builder_argument(k):
            return None
        site = call_site(source, chain.start)
        if site is None:
            return None
        segments = segment_arguments(source, site, self.table)
        if segments:
            return self._segments(chain, segments, consumed)
        joined = url_join_base(source, site, self.table)
        if joined is not None:
            base = base_at(source, joined[0], self.context.base_variables)
            if base is None:
                return None
            return self._joined(chain, base, joined[1], "URL joined to a base ending /api/v2")
        if not self.clients:
            return None
        client = client_of_call(source, site, self.clients, self.table)
        if client is None:
            return None
        itself = not site.chain.root and site.chain.at == 0  # `api("/health")`
        sent = (
            _sends(site.link.name)
            or any(  # WebClient: `web.get().uri(path)`
                _sends(k.name) for k in site.chain.links[: site.chain.at]
            )
        )
        if not (site.constructor or itself or sent):
            return None
        evidence = f"{client.row.client} client `{client.name}` with a base URL ending /api/v2"
        return self._joined(chain, client.base, client.row.join, evidence)

    def _any_builder(self) -> bool:
        if self._builders is None:  # most files call none: one search says so
            text = self.source.text
            words = self.table.builder_words
            if words and text.isascii():  # the same test, as plain substring searches
                lower = text.lower()
                self._builders = any(word in lower for word in words)
            else:
                self._builders = self.table.builder_names.search(text) is not None
        return self._builders

    def _builder_argument(self, at: int) -> bool:
        """Whether the bracket or comma at `at` belongs to a URL join or a path-segment call."""
        source = self.source
        if not self._any_builder():
            return False
        opener = at if source.text[at] == "(" else source.enclosing_opener(at, 400)
        if opener < 0 or source.text[opener] != "(":
            return False
        m = callee_of(source, max(source.pos, opener - 80), opener)
        if m is None:
            return False
        name = re.split(r"\?\.|\.|->|::", m.group(1))[-1].lower()
        return (
            name in self.table.url_joins
            or "new " + name in self.table.url_joins
            or self.table.chain_roles.get(name) == "segments"
        )

    def _joined(
        self, chain: Chain, base: Base, rule: Join, evidence: str
    ) -> Candidate | object | None:
        if base.api is False:
            return _NOT_A_CALL  # a client or base of another service
        if base.api is None:
            return None
        flat, offs, owner = flatten(chain.parts)
        end = 0
        while end < len(flat) and flat[end] not in "?#":
            end += 1
        path = flat[:end]
        if not path or not _PATH_LIKE.match(path):
            return None
        if base.join(path, rule) is None:
            return _NOT_A_CALL  # the joined URL leaves /api/v2 (docs/linter-detection.md)
        segments = path.strip("/").split("/")
        if not segments[0] or segments[0] == PARAM:
            return None
        second = segments[1] if len(segments) > 1 else ""
        accepted = self.context.accepts(True, segments[0], second, named=base.named)
        if accepted is None:
            return None
        query_end = len(flat)
        if end < len(flat) and flat[end] == "?":
            hash_at = flat.find("#", end)
            query_end = hash_at if hash_at >= 0 else len(flat)
        elif end < len(flat):
            query_end = end
        hit = PathHit(0, end, True, query_end)
        bare = not path.startswith("/")
        return Candidate(chain, flat, offs, owner, hit, bare, evidence, False, accepted[1])

    def _segments(
        self, chain: Chain, spans: list[tuple[int, int]], consumed: set[int]
    ) -> Candidate | None:
        """A path made of segment arguments: `.AppendPathSegments("experimental", "sensors")`."""
        source = self.source
        parts: list[Part] = []
        indexes: list[int] = []
        for lo, hi in spans:
            if parts:  # the `/` the builder puts between two segments
                parts.append(Part("/", False, lo, lo, (lo,)))
            k = source.lit_starting(source.skip_space(lo))
            if k is not None and not source.text[source.lits[k].end : hi].strip():
                parts.extend(source.lits[k].parts)
                indexes.append(k)
            else:
                expression = source.text[lo:hi].strip()
                start = source.skip_space(lo)
                parts.append(Part(expression, True, start, start + len(expression)))
        consumed.update(indexes)
        joined = Chain(chain.start, spans[-1][1], parts, indexes)
        candidate = _candidate(source, joined, self.known, self.context, False)
        if candidate is None:
            return None
        return candidate._replace(one_word=False)


_NOT_A_CALL = object()
