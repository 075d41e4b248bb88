"""The scanning machinery every language shares.

A language contributes only what differs: how its comments and string
literals look, what interpolation looks like inside them, and its
concatenation operator. Everything else - joining literals and variables into
one expression, finding the API path in it, deciding from the file's context
whether it is an API v2 call, reading the method, query and headers around the
call - happens here, on regular expressions over the text rather than a parse
tree, because the linter must keep up with ripgrep on large trees.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field
from urllib.parse import unquote_plus

from apispec.lint.reference import QueryValue, Reference, Segment, Span

VERBS = ("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS")
_VERB_SET = frozenset(VERBS)
PARAM = "\x00"  # stands for one interpolation in the flattened expression

# Receivers whose get/post/... calls register a route of the file's own web
# app (Flask, FastAPI, Express, chi, echo, gin, ...) rather than call an API.
ROUTER_RECEIVERS = frozenset(
    {
        "app",
        "router",
        "server",
        "bp",
        "blueprint",
        "routes",
        "route",
        "r",
        "e",
        "g",
        "mux",
        "engine",
        "fastify",
        "srv",
        "application",
        "api_router",
        "apirouter",
        "subrouter",
        "rg",
        "v1",
        "group",
    }
)
# Calls that only ever register a route or a handler.
ROUTE_CALLS = frozenset(
    {
        "route",
        "add_url_rule",
        "add_api_route",
        "add_route",
        "handlefunc",
        "handle",
        "mount",
        "add_websocket_route",
        "api_route",
        "websocket",
        "map",
        "mapget",
        "mappost",
        "mapput",
        "mapdelete",
        "mapmethods",
    }
)
# Mock libraries: a path given to them describes a fake, not a call.
MOCK_RECEIVERS = frozenset(
    {
        "responses",
        "respx",
        "requests_mock",
        "httpretty",
        "aioresponses",
        "mocker",
        "nock",
        "msw",
        "rest",
        "httpmock",
        "wiremock",
    }
)

_CALLEE = re.compile(r"((?:[\w$@]+(?:\(\))?\s*(?:\.|->|::|\?\.)\s*)*[\w$@-]*[\w$])\s*$")
# Every character _CALLEE can match (besides non-ASCII word characters).
_CALLEE_CHARS = frozenset(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_$@-.>:?() \t\r\n\f\v"
)
_ASSIGN = re.compile(
    r"(?:^|[;{(\s])(?:(?:const|let|var|my|local|final|String|string|val|auto)\s+)?"
    r"(\$?(?:script:|global:|env:)?[A-Za-z_][\w.]*)\s*(?::=|=)\s*$",
    re.M,
)
_WORDS = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])")
_METHOD_HINTS = (
    re.compile(r"\bhttp\.Method(Get|Post|Put|Patch|Delete|Head|Options)\b"),
    re.compile(r"\bHttpMethod\.(Get|Post|Put|Patch|Delete|Head|Options)\b", re.I),
    re.compile(r"\bnew\s+HttpMethod\(\s*\"(\w+)\"\s*\)"),
    re.compile(r"\bMethod\.(Get|Post|Put|Patch|Delete|Head|Options)\b", re.I),
    re.compile(r"['\"]?\bmethod['\"]?\s*(?::|=>|=)\s*['\":]?([A-Za-z]+)\b", re.I),
    re.compile(r"-Method\s+['\"]?([A-Za-z]+)", re.I),
    re.compile(r"\bCURLOPT_CUSTOMREQUEST\s*,\s*['\"](\w+)['\"]"),
)
_JAVA_BUILDER = re.compile(
    r"\.(GET|POST|PUT|PATCH|DELETE|HEAD|get|post|put|patch|delete|head)\s*\(|\.method\(\s*\"(\w+)\""
)
_QUERY_CONTAINER = re.compile(
    r"(?:\b(?:params|query|qs|query_params|queryParams|searchParams|query_string)|\$(?:query|params|q))"
    r"\b['\"]?\s*(?:=|:|=>)\s*(@\{|\{|dict\(|\[)"
)
_QUERY_REF = re.compile(r"\b(?:params|query|qs)\s*[=:]\s*(\$?[A-Za-z_]\w*)\b(?!\s*[({\[.])")
_SEARCH_PARAMS = re.compile(
    r"\bURLSearchParams\(\s*\{|\burlencode\(\s*\{|\bhttp_build_query\(\s*(\[|array\()"
)
_SETTER = re.compile(
    r"\.(?:Set|Add|set|append|add|AddQueryParameter|addQueryParameter|queryParam)\(\s*"
)
_RECEIVER = re.compile(r"(\$?[A-Za-z_]\w*)\s*\Z")
_VARIABLE = re.compile(r"\$?\{?\$?([A-Za-z_]\w*)(?:\.(?:Encode|toString|String)\(\))?\}?\Z")
_QUERY_NAME = re.compile(r"[a-z][a-z0-9_]*\Z")
_MAP_KEY = re.compile(r"\s*(?:(['\"])([\w.-]+)\1|([A-Za-z_]\w*))\s*(?:=>|:|=)(?!=)\s*")
_NUMBER = re.compile(r"-?\d+(?:\.\d+)?\b")
# After an "Authorization" key: `: `, ` => `, `, ` (Go's Header.Set, Postman's "value": ...)
_HEADER_SEPARATOR = re.compile(r"\]?\s*(?::|=>|,\s*[\"']value[\"']\s*:|,|=)\s*")
_AUTH_IDENT = re.compile(r"\bAuthorization\s*(?::|=)(?!=)\s*")
_AUTH_SCHEME = re.compile(r"AuthenticationHeaderValue\(\s*\"(\w+)\"\s*,")
_LEADING = re.compile(r"(?<![\w.$>:])(\$?[A-Za-z_](?:[\w.]|->|::)*)\s*(\+|\.)\s*\Z")
# Calls that only build the URL: the call that matters is the one around them.
_URL_BUILDERS = frozenset(
    {
        "urljoin",
        "join",
        "format",
        "sprintf",
        "str",
        "quote",
        "uri",
        "create",
        "parse",
        "resolve",
        "url",
        "encodeuri",
        "tostring",
        "string",
        "concat",
        "combine",
        "path",
    }
)
# Patterns the extractor uses at every reference, compiled once.
_PORT = re.compile(r":1616\b")
_PRTG = re.compile(r"prtg", re.I)
_EXPERIMENTAL = re.compile(r"experimental/([\w-]+)")
_MEMBER = re.compile(r"\.|->|::")
_MEMBER_SPACED = re.compile(r"\s*(?:\.|->|::|\?\.)\s*")
_ROUTER_OBJECT = re.compile(r"\b(?:component|element|handler|view|controller)\s*[:=]")
_MOCK_REPLY = re.compile(r"\s*\.\s*(?:reply|respond|replyWith\w*|intercept|mockResolvedValue)\b")
_QUOTED_WORD = re.compile(r"['\"]([A-Za-z]+)['\"]")
_QUOTED_UPPER = re.compile(r"['\"]([A-Z]+)['\"]")
_BRACES = re.compile(r"^\$?\{|\}$")
_PLAIN_VARIABLE = re.compile(r"\$?[A-Za-z_]\w*")
_OPENERS = {"(": ")", "[": "]", "{": "}"}
_CLOSERS = {")": "(", "]": "[", "}": "{"}
_BRACKET = re.compile(r"[()\[\]{}]")


@dataclass(slots=True)
class Part:
    """A piece of an expression: literal text (unescaped) or one interpolation."""

    text: str
    is_param: bool
    start: int
    end: int
    offs: tuple[int, ...] | None = None  # file offset of each char of a literal's text

    def offset(self, i: int) -> int:
        if self.is_param:
            return self.start
        return self.offs[i] if self.offs is not None else self.start + i


@dataclass(slots=True)
class Lit:
    """One string literal: its whole token span and its content as parts."""

    start: int
    end: int
    parts: list[Part]
    prose: bool = False  # a docstring or other text that is never a call argument
    _raw: str | None = field(default=None, repr=False, compare=False)

    @property
    def raw(self) -> str:
        """The content with PARAM for each interpolation; kept, as it is asked for often."""
        if self._raw is None:
            self._raw = "".join(PARAM if p.is_param else p.text for p in self.parts)
        return self._raw


@dataclass(slots=True)
class Chain:
    """Literals and variables joined into one expression (`base + "/x/" + id`)."""

    start: int
    end: int
    parts: list[Part]
    lit_indexes: list[int] = field(default_factory=list)


def callee_before(text: str, lo: int, opener: int) -> re.Match[str] | None:
    """`_CALLEE.search(text, lo, opener)`, without trying the positions that cannot start it.

    A match holds only callee characters, so it starts after the last other
    character before `opener`; the regex's nested repetitions cost a lot at
    each position it is tried from.
    """
    start = opener
    while start > lo and (text[start - 1] in _CALLEE_CHARS or not text[start - 1].isascii()):
        start -= 1
    return _CALLEE.search(text, start, opener)


def unescape(raw: str, start: int, style: str) -> tuple[str, tuple[int, ...] | None]:
    """Decode escapes of a literal's content; offsets map each char back to the file."""
    if style == "backslash":
        marker = "\\"
    elif style == "backtick":
        marker = "`"
    else:
        marker = ""
    double = style.startswith("double")
    quote = style[-1] if double else ""
    if (not marker or marker not in raw) and not (double and quote * 2 in raw):
        return raw, None
    out: list[str] = []
    offs: list[int] = []
    i = 0
    n = len(raw)
    simple = {"n": "\n", "t": "\t", "r": "\r", "0": "\0"}
    while i < n:
        ch = raw[i]
        if marker and ch == marker and i + 1 < n:
            nxt = raw[i + 1]
            out.append(simple.get(nxt, nxt))
            offs.append(start + i)
            i += 2
            continue
        if double and ch == quote and i + 1 < n and raw[i + 1] == quote:
            out.append(quote)
            offs.append(start + i)
            i += 2
            continue
        out.append(ch)
        offs.append(start + i)
        i += 1
    return "".join(out), tuple(offs)


def split_interpolations(
    raw: str, start: int, interp: re.Pattern[str] | None, style: str
) -> list[Part]:
    """Cut a literal's raw content into literal parts and interpolation parts."""
    if interp is None or interp.search(raw) is None:  # most literals: one part
        text, offs = unescape(raw, start, style)
        return [Part(text, False, start, start + len(raw), offs)]
    parts: list[Part] = []
    pos = 0
    if interp is not None:
        for m in interp.finditer(raw):
            if m.start() == m.end():
                continue
            if m.start() > pos:
                text, offs = unescape(raw[pos : m.start()], start + pos, style)
                parts.append(Part(text, False, start + pos, start + m.start(), offs))
            parts.append(Part(m.group(), True, start + m.start(), start + m.end()))
            pos = m.end()
    if pos < len(raw) or not parts:
        text, offs = unescape(raw[pos:], start + pos, style)
        parts.append(Part(text, False, start + pos, start + len(raw), offs))
    return parts


class Dialect:
    """How one language writes comments, strings and concatenation.

    Subclasses set `token_re` (named group `c` for a comment; any other match
    is a string literal handled by `literal`) and may override the hooks.
    """

    name = "generic"
    token_re: re.Pattern[str] = re.compile(
        r"(?P<dq>\"(?:[^\"\\\n]|\\.)*\")|(?P<sq>'(?:[^'\\\n]|\\.)*')"
    )
    interp_re: re.Pattern[str] | None = re.compile(r"\$\{[^}\n]*\}|\{\{[^}\n]*\}\}|\{[^{}\n]*\}")
    concat_re: re.Pattern[str] | None = re.compile(r"\s*\+\s*")
    escape_style = "backslash"
    operand_re = re.compile(
        r"\$?[A-Za-z_][\w]*(?:(?:\.|->|::|\?\.)[A-Za-z_]\w*|\[[^\]\n]{0,60}\]|\([^()\n]{0,60}\))*"
    )
    full_urls_only = False  # a generic scanner reports only full /api/v2 URLs
    builder_calls = False  # request builders chain the method after the URL (Java, OkHttp)

    def literal(self, m: re.Match[str]) -> Lit | None:
        body = m.group()
        if len(body) < 2:
            return None
        start = m.start() + 1
        return Lit(
            m.start(),
            m.end(),
            split_interpolations(body[1:-1], start, self.interp_re, self.escape_style),
        )

    def scan(self, text: str, pos: int, endpos: int) -> tuple[list[Lit], list[tuple[int, int]]]:
        lits: list[Lit] = []
        comments: list[tuple[int, int]] = []
        for m in self.token_re.finditer(text, pos, endpos):
            if m.lastgroup == "c":
                comments.append((m.start(), m.end()))
                continue
            lit = self.literal(m)
            if lit is not None:
                lits.append(lit)
        return lits, comments

    # -- hooks ---------------------------------------------------------------

    def use_pattern(self, var: str) -> str:
        """A regex for a later use of variable `var` (assigned an API path)."""
        return r"(?<![\w$])" + re.escape(var) + r"(?![\w])(?!\s*(?:=[^=]|:=))"

    def command_context(self, source: Source, chain: Chain) -> CallInfo | None:
        """Languages built of commands rather than calls (PowerShell) override this."""
        return None

    def extractor(self, source: Source, known: frozenset[str], language: str) -> Extractor:
        return Extractor(source, known, language)

    def in_markup(self, source: Source, start: int) -> bool:
        """True where a string is markup, not code (a JSX attribute): never a call."""
        return False


@dataclass
class CallInfo:
    """What the code around an expression shows about the call it is part of."""

    callee: str = ""
    opener: int = -1
    closer: int = -1
    method: str | None = None
    route: bool = False
    query: list[QueryValue] = field(default_factory=list)
    window: tuple[int, int] = (0, 0)
    expr_start: int = -1  # where the URL expression starts when wrapped (`URI(...)`)
    methods: tuple[str, ...] = ()  # several methods on one path (an OpenAPI path key)


class Source:
    """The file text with its literals and comments, and position helpers."""

    def __init__(self, text: str, dialect: Dialect, pos: int = 0, endpos: int | None = None):
        self.text = text
        self.dialect = dialect
        self.pos = pos
        self.endpos = len(text) if endpos is None else endpos
        self.lits, self.comments = dialect.scan(text, self.pos, self.endpos)
        spans = [(lit.start, lit.end) for lit in self.lits] + self.comments
        spans.sort()
        self.token_starts = [s for s, _ in spans]
        self.token_ends = [e for _, e in spans]
        self.lit_by_start = {lit.start: i for i, lit in enumerate(self.lits)}
        self._line_starts: list[int] | None = None

    # positions ---------------------------------------------------------------

    def line_col(self, offset: int) -> tuple[int, int]:
        if self._line_starts is None:
            starts = [0]
            find = self.text.find
            i = find("\n")
            while i >= 0:
                starts.append(i + 1)
                i = find("\n", i + 1)
            self._line_starts = starts
        line = bisect.bisect_right(self._line_starts, offset)
        return line, offset - self._line_starts[line - 1] + 1

    def token_at(self, offset: int) -> tuple[int, int] | None:
        i = bisect.bisect_right(self.token_starts, offset) - 1
        if i >= 0 and offset < self.token_ends[i]:
            return self.token_starts[i], self.token_ends[i]
        return None

    def in_comment(self, offset: int) -> bool:
        token = self.token_at(offset)
        return token is not None and token[0] not in self.lit_by_start

    def lit_starting(self, offset: int) -> int | None:
        return self.lit_by_start.get(offset)

    def skip_space(self, offset: int) -> int:
        text = self.text
        while offset < self.endpos and text[offset] in " \t\r\n":
            offset += 1
        return offset

    def enclosing_opener(self, offset: int, limit: int = 1500) -> int:
        """The nearest unclosed bracket before `offset`, skipping strings and comments."""
        text = self.text
        depth = 0
        i = offset - 1
        stop = max(self.pos, offset - limit)
        while i >= stop:
            token = self.token_at(i)
            if token is not None:
                i = token[0] - 1
                continue
            ch = text[i]
            if ch in _CLOSERS:
                depth += 1
            elif ch in _OPENERS:
                if depth == 0:
                    return i
                depth -= 1
            i -= 1
        return -1

    def matching_closer(self, opener: int, limit: int = 6000) -> int:
        """The bracket that closes `opener`, skipping strings and comments (-1: none).

        Between two tokens the next bracket is found by a regex search rather
        than a look-up per character: most calls span a line or more.
        """
        text = self.text
        stop = min(self.endpos, opener + limit)
        if opener >= stop:
            return -1
        ch = text[opener]
        depth = 1 if ch in _OPENERS else -1 if ch in _CLOSERS else 0
        starts = self.token_starts
        i = opener + 1
        while i < stop:
            token = self.token_at(i)
            if token is not None:
                i = token[1]
                continue
            k = bisect.bisect_right(starts, i)
            plain_end = starts[k] if k < len(starts) and starts[k] < stop else stop
            m = _BRACKET.search(text, i, plain_end)
            if m is None:
                i = plain_end
                continue
            i = m.start()
            if text[i] in _OPENERS:
                depth += 1
            else:
                depth -= 1
                if depth == 0:
                    return i
            i += 1
        return -1

    # expressions -------------------------------------------------------------

    def chain_from(self, index: int) -> Chain:
        """The expression starting at literal `index`, following concatenations."""
        lit = self.lits[index]
        chain = Chain(lit.start, lit.end, list(lit.parts), [index])
        concat = self.dialect.concat_re
        operand = self.dialect.operand_re
        text = self.text
        pos = lit.end
        while concat is not None:
            m = concat.match(text, pos, self.endpos)
            if m is None or m.end() == pos:
                break
            nxt = m.end()
            j = self.lit_starting(nxt)
            if j is not None:
                lit = self.lits[j]
                chain.parts.extend(lit.parts)
                chain.lit_indexes.append(j)
                chain.end = pos = lit.end
                continue
            om = operand.match(text, nxt, self.endpos)
            if om is None or om.end() == nxt:
                break
            chain.parts.append(Part(om.group(), True, om.start(), om.end()))
            chain.end = pos = om.end()
        return chain

    def leading_operand(self, chain: Chain) -> Chain:
        """Prefix `base + ` to a chain, as one interpolation."""
        concat = self.dialect.concat_re
        if concat is None:
            return chain
        text = self.text
        lo = max(self.pos, chain.start - 160)
        before = text[lo : chain.start]
        m = _LEADING.search(before)
        if m is None or not concat.fullmatch(before[m.end(1) :]):
            return chain
        start = lo + m.start(1)
        if self.token_at(start) is not None:
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


# What may stand before `/api/v2`: a host (or a variable holding one), or a full
# URL whose path has a prefix (a server behind a reverse proxy: https://h/prtg/api/v2).
_URL_PREFIX = re.compile(r"(?:[A-Za-z][A-Za-z0-9+.-]*://[^\s/?#]*(?:/[^\s?#]*)?|[^\s/?#]*)\Z")


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


_BASE_ASSIGN = re.compile(
    r"(?:^|[\s,{(;\]])(\$?(?:script:|global:|env:)?[A-Za-z_][\w.]*)['\"]?\s*(?::=|=|:)\s*[^=;\n]*\Z",
    re.M,
)
_PARAM_NAME = re.compile(r"[\w.$:]*?([A-Za-z_]\w*)\W*\Z")


def _base_variables(source: Source) -> frozenset[str]:
    """Names of variables assigned a URL that ends in /api/v2 (`BASE = f"https://h:1616/api/v2"`)."""
    names: set[str] = set()
    text = source.text
    for lit in source.lits:
        raw = lit.raw.rstrip("/")
        if not raw.endswith("/api/v2"):
            continue
        line_start = text.rfind("\n", source.pos, lit.start) + 1
        m = _BASE_ASSIGN.search(text, line_start, lit.start)
        if m is not None:
            names.add(_variable_name(m.group(1)))
    return frozenset(names)


def _variable_name(expression: str) -> str:
    """`${base}`, `{BASE}`, `$BaseUrl`, `self.base_url`, `c.baseURL` -> the last identifier, lower case."""
    m = _PARAM_NAME.search(expression)
    return m.group(1).lower() if m else expression.lower()


class Context:
    """File-level evidence that the file talks to this API (see docs/linter-detection.md)."""

    def __init__(self, source: Source, known: frozenset[str]):
        text = source.text
        self.port = _PORT.search(text) is not None
        self.prtg = _PRTG.search(text) is not None
        self.bearer = "Bearer" in text
        self.api_v2 = "/api/v2" in text
        self.experimental = False
        for m in _EXPERIMENTAL.finditer(text):
            if m.group(1) in known and not source.in_comment(m.start()):
                self.experimental = True
                break
        self.base_variables = _base_variables(source) if self.api_v2 else frozenset()

    @property
    def strong(self) -> bool:
        return self.port or self.prtg or self.experimental

    def accepts(self, via_api_v2: bool, first: str, second: str) -> str | None:
        """The evidence text if a path with these first segments is an API v2 call."""
        if via_api_v2:
            if first == "experimental":
                return "/api/v2/experimental in URL"
            if self.strong:
                return "/api/v2 in URL; " + self.why()
            if self.bearer:
                return "/api/v2 in URL; Authorization: Bearer in file"
            return None
        if self.strong or (self.bearer and self.api_v2):
            return "relative path; " + self.why()
        return None

    def why(self) -> str:
        if self.port:
            return "port 1616 in file"
        if self.prtg:
            return "prtg named in file"
        if self.experimental:
            return "/experimental/ path in file"
        return "/api/v2 base and Authorization: Bearer in file"


class Extractor:
    """Finds references in one Source; languages customise it through their Dialect."""

    def __init__(self, source: Source, known: frozenset[str], language: str):
        self.source = source
        self.known = known
        self.language = language
        self.context = Context(source, known)

    # -- main loop -------------------------------------------------------------

    def run(self) -> list[Reference]:
        src = self.source
        refs: list[Reference] = []
        consumed: set[int] = set()
        for index, lit in enumerate(src.lits):
            if index in consumed or lit.prose:
                continue
            raw = lit.raw
            if (
                "/" not in raw
                and PARAM not in raw
                and (raw not in self.known or self.dialect_full_only)
            ):
                continue
            chain = src.chain_from(index)
            consumed.update(chain.lit_indexes)
            if (
                chain.parts
                and not (chain.parts[0].is_param)
                and chain.parts[0].text.startswith("/")
            ):
                chain = src.leading_operand(chain)
            ref = self.reference(chain)
            if ref is not None:
                refs.append(ref)
        self.attach_headers(refs)
        return refs

    @property
    def dialect_full_only(self) -> bool:
        return self.source.dialect.full_urls_only

    def reference(self, chain: Chain) -> Reference | None:
        # The string alone decides most chains; the offsets are built only for a path.
        flat = "".join([PARAM if part.is_param else part.text for part in chain.parts])
        hit = find_path(flat, self.known, not self.dialect_full_only)
        if hit is None:
            return None
        flat, offs, owner = flatten(chain.parts)
        path_flat = flat[hit.start : hit.end].rstrip("/")
        if not hit.via_api_v2 and not path_flat.startswith("/"):
            path_flat = "/" + path_flat
            bare = True
        else:
            bare = False
        raw_segments = path_flat.split("/")[1:]
        if not raw_segments or not raw_segments[0] or raw_segments[0] == PARAM:
            return None
        first = raw_segments[0]
        second = raw_segments[1] if len(raw_segments) > 1 else ""
        if (
            not hit.via_api_v2
            and hit.start == 1
            and self.context.base_variables
            and _variable_name(chain.parts[0].text) in self.context.base_variables
        ):
            hit.via_api_v2 = via_base = True  # relative to a variable holding the .../api/v2 base
        else:
            via_base = False
        if not hit.via_api_v2:
            if first not in self.known and first != "experimental":
                return None
            if bare and len(raw_segments) == 1 and not self.http_helper_argument(chain):
                return None
        if self.source.dialect.in_markup(self.source, chain.start):
            return None
        evidence = self.context.accepts(hit.via_api_v2, first, second)
        if evidence is None:
            return None
        if via_base:
            evidence = "base URL variable ends /api/v2"
        info = self.call_info(chain)
        if info.route:
            return None
        return self.build(chain, flat, offs, owner, hit, bare, info, evidence)

    def http_helper_argument(self, chain: Chain) -> bool:
        """A one-word path without a slash ('devices') counts only as an HTTP helper's argument."""
        src = self.source
        opener = src.enclosing_opener(chain.start, 200)
        if opener < 0 or src.text[opener] != "(":
            return False
        if src.text[opener + 1 : chain.start].strip():
            return False
        m = callee_before(src.text, max(0, opener - 120), opener)
        if m is None:
            return False
        callee = m.group(1).lower()
        name = _MEMBER.split(callee)[-1]
        receiver = _MEMBER.split(callee)[0]
        if any(w in name for w in ("api", "rest", "request", "fetch", "http", "call", "invoke")):
            return True
        return name in {"get", "post", "put", "patch", "delete"} and any(
            w in receiver for w in ("client", "session", "api", "http", "prtg", "conn", "rest")
        )

    # -- building the Reference ---------------------------------------------------

    def build(
        self,
        chain: Chain,
        flat: str,
        offs: list[int],
        owner: list[int],
        hit: PathHit,
        bare: bool,
        info: CallInfo,
        evidence: str,
    ) -> Reference:
        src = self.source
        parts = chain.parts
        segments: list[Segment] = []
        i = hit.start
        end = hit.end
        while end > hit.start and flat[end - 1] == "/":
            end -= 1
        if i < end and flat[i] == "/":
            i += 1
        path_chars: list[str] = []
        while i <= end:
            j = flat.find("/", i, end)
            if j < 0:
                j = end
            seg_flat = flat[i:j]
            if seg_flat:
                seg_start = offs[i]
                last = j - 1
                last_part = parts[owner[last]]
                seg_end = last_part.end if last_part.is_param else offs[last] + 1
                if PARAM in seg_flat:
                    source_text = src.text[seg_start:seg_end]
                    segments.append(Segment(source_text, True, Span(seg_start, seg_end)))
                    path_chars.append("{}")
                elif seg_flat.isdigit():
                    segments.append(Segment(seg_flat, True, Span(seg_start, seg_end)))
                    path_chars.append("{}")
                else:
                    segments.append(Segment(seg_flat, False, Span(seg_start, seg_end)))
                    path_chars.append(seg_flat)
            i = j + 1
        path = "/" + "/".join(path_chars)
        span_start = offs[hit.start] if hit.start < len(offs) else chain.start
        if segments:
            span_end = segments[-1].span.end if segments[-1].span else chain.end
            span_start = min(span_start, segments[0].span.start if segments[0].span else span_start)
        else:
            span_end = span_start
        line, column = src.line_col(span_start)
        end_line, end_column = src.line_col(span_end)
        query = self.url_query(flat, offs, owner, parts, hit)
        seen = {(q.name, q.span) for q in query}
        query += [q for q in info.query if (q.name, q.span) not in seen]
        return Reference(
            path=path,
            segments=tuple(segments),
            span=Span(span_start, span_end),
            line=line,
            column=column,
            end_line=end_line,
            end_column=end_column,
            method=info.method,
            query=tuple(query),
            language=self.language,
            evidence=evidence,
            extra={"call_window": info.window, "callee": info.callee, "methods": info.methods},
        )

    def url_query(
        self, flat: str, offs: list[int], owner: list[int], parts: list[Part], hit: PathHit
    ) -> list[QueryValue]:
        if hit.end >= len(flat) or flat[hit.end] != "?":
            return []
        found = parse_query_string(
            self.source.text, flat, offs, owner, parts, hit.end + 1, hit.query_end
        )
        for k, query in enumerate(found):
            if query.value is None and query.span is not None:
                expression = self.source.text[query.span.start : query.span.end]
                resolved = self.value_of_variable(query.name, expression, query.span.start)
                if resolved is not None:
                    found[k] = resolved
        rest = flat[hit.end + 1 : hit.query_end]
        if rest == PARAM:  # `?${params}`, "?" + q.Encode(): the query built apart
            param = parts[owner[hit.end + 1]]
            m = _VARIABLE.search(param.text)
            if m:
                found.extend(self.mapping_of_variable(m.group(1), param.start))
                if not found:
                    found.extend(self.setter_query(param.start, param.start, var=m.group(1)))
        return found

    # -- the call around the expression --------------------------------------------

    def call_info(self, chain: Chain) -> CallInfo:
        src = self.source
        info = src.dialect.command_context(src, chain)
        if info is None:
            info = self.call_at(chain.start, chain.end)
        if info.route or info.method or info.methods or (info.callee and info.expr_start < 0):
            return info
        var = self.assigned_variable(info.expr_start if info.expr_start >= 0 else chain.start)
        if var:
            use = self.use_of(var, chain.end)
            if use is not None:
                used = src.dialect.command_context(src, use) or self.call_at(use.start, use.end)
                if used.callee or used.route or used.method:
                    used.query = used.query or info.query
                    return used
        return info

    def assigned_variable(self, start: int) -> str | None:
        text = self.source.text
        line_start = text.rfind("\n", self.source.pos, start) + 1
        m = _ASSIGN.search(text, line_start, start)
        if m is None:
            return None
        return m.group(1)

    def use_of(self, var: str, after: int) -> Chain | None:
        """The next place (within ~40 lines) where `var` is passed on."""
        src = self.source
        text = src.text
        limit = after
        for _ in range(40):
            nl = text.find("\n", limit + 1, src.endpos)
            if nl < 0:
                limit = src.endpos
                break
            limit = nl
        pattern = re.compile(src.dialect.use_pattern(var))
        for m in pattern.finditer(text, after, limit):
            if src.in_comment(m.start()):
                continue
            return Chain(m.start(), m.end(), [Part(m.group(), True, m.start(), m.end())])
        return None

    def call_at(self, start: int, end: int, depth: int = 0) -> CallInfo:
        src = self.source
        text = src.text
        info = CallInfo()
        opener = src.enclosing_opener(start)
        line_start = text.rfind("\n", src.pos, start) + 1
        if text[line_start:start].lstrip().startswith("@") and "(" in text[line_start:start]:
            info.route = True  # a decorator: @app.route("/devices"), @router.get(...)
            return info
        if opener < 0:
            info.window = (start, end)
            return info
        closer = src.matching_closer(opener)
        if closer < 0:
            closer = min(src.endpos, end + 400)
        info.opener, info.closer = opener, closer
        info.window = (opener, closer + 1)
        bracket = text[opener]
        args_before = text[opener + 1 : start]
        args_after = text[end:closer]
        if bracket == "(":
            m = callee_before(text, max(src.pos, opener - 160), opener)
            info.callee = m.group(1) if m else ""
            last = _MEMBER_SPACED.split(info.callee)[-1].lower().lstrip("$@")
            if m and last in _URL_BUILDERS and depth < 3:
                outer = self.call_at(m.start(1), closer + 1, depth + 1)
                if outer.callee or outer.route:
                    return outer
                # the builder stands alone (`uri = URI(...)`, `.uri(URI.create(...))`)
                info.expr_start = outer.expr_start if outer.expr_start >= 0 else m.start(1)
        if bracket != "(" or not info.callee:
            # an element of a tuple, list or mapping: (path, method, label), @{Path=..; Method=..}
            info.method = self.method_in(text[opener:closer], whole_literals=True)
            info.route = self.router_object(text[opener:closer])
            return info
        if self.is_route(info.callee, args_after, closer):
            info.route = True
            return info
        if text[opener + 1 : start].strip() and self.is_route(info.callee, "", closer):
            info.route = True
            return info
        info.method = (
            self.method_from_callee(info.callee)
            or self.method_literal(args_before)
            or self.method_in(args_before + " " + args_after, whole_literals=False)
        )
        if src.dialect.builder_calls:
            semicolon = text.find(";", closer, src.endpos)
            stmt_end = min(semicolon if semicolon >= 0 else src.endpos, closer + 600)
            info.window = (opener, stmt_end)
            bm = _JAVA_BUILDER.search(text, closer, stmt_end)
            if bm and info.method is None:
                info.method = (bm.group(1) or bm.group(2)).upper()
        if info.method is None:
            info.method = self.method_nearby(closer)
        info.query = self.mapping_query(opener, closer)
        return info

    def method_nearby(self, closer: int) -> str | None:
        """Hook for statement-level method settings (PHP curl_setopt)."""
        return None

    def router_object(self, group: str) -> bool:
        return _ROUTER_OBJECT.search(group) is not None

    def is_route(self, callee: str, args_after: str, closer: int) -> bool:
        names = [n for n in _MEMBER_SPACED.split(callee) if n]
        if not names:
            return False
        name = names[-1].lower()
        receiver = names[0].lower().lstrip("$@")
        if name in ROUTE_CALLS:
            return True
        if receiver in MOCK_RECEIVERS:
            return True
        after = self.source.text[closer + 1 : closer + 40]
        if _MOCK_REPLY.match(after):
            return True
        if (
            len(names) >= 2
            and receiver in ROUTER_RECEIVERS
            and (name.upper() in _VERB_SET or name in ("all", "use", "any"))
        ):
            rest = args_after.lstrip()
            return rest.startswith(",") and not rest[1:].lstrip().startswith("{")
        return False

    def method_from_callee(self, callee: str) -> str | None:
        names = [n for n in _MEMBER_SPACED.split(callee) if n]
        if not names:
            return None
        name = names[-1]
        if name in ("new", "create") and len(names) >= 2:
            name = names[-2]  # Net::HTTP::Delete.new
            return name.upper() if name.upper() in _VERB_SET else None
        words = [w.upper() for w in _WORDS.findall(name.replace("-", "_"))]
        if not words:
            return None
        if name.islower() and name.upper() in _VERB_SET:
            return name.upper()
        for word in words:
            if word in _VERB_SET:
                return word
        return None

    def method_literal(self, args: str) -> str | None:
        for m in _QUOTED_WORD.finditer(args):
            if m.group(1).upper() in _VERB_SET:
                return m.group(1).upper()
        return None

    def method_in(self, group: str, whole_literals: bool) -> str | None:
        for pattern in _METHOD_HINTS:
            m = pattern.search(group)
            if m and m.group(1).upper() in _VERB_SET:
                return m.group(1).upper()
        if whole_literals:
            for m in _QUOTED_UPPER.finditer(group):
                if m.group(1) in _VERB_SET:
                    return m.group(1)
        return None

    # -- query mappings --------------------------------------------------------------

    def mapping_query(self, opener: int, closer: int) -> list[QueryValue]:
        src = self.source
        text = src.text
        found: list[QueryValue] = []
        for m in _QUERY_CONTAINER.finditer(text, opener, closer):
            if src.token_at(m.start(1)) is None:
                found.extend(self.parse_mapping(m.start(1) + len(m.group(1)) - 1))
        for m in _SEARCH_PARAMS.finditer(text, opener, closer):
            found.extend(self.parse_mapping(m.end() - 1))
        if not found:
            m = _QUERY_REF.search(text, opener, closer)
            if m:
                found.extend(self.mapping_of_variable(m.group(1), opener))
        if not found:
            found.extend(self.setter_query(opener, closer))
        return found

    def mapping_of_variable(self, var: str, before: int) -> list[QueryValue]:
        src = self.source
        text = src.text
        lo = max(src.pos, before - 4000)
        pattern = re.compile(
            r"(?<![\w$])"
            + re.escape(var)
            + r"\s*(?::=|=)\s*(?:new\s+URLSearchParams\(\s*)?(@\{|\{|dict\(|\[|url\.Values\{)"
        )
        last = None
        for m in pattern.finditer(text, lo, before):
            if src.token_at(m.start()) is None:
                last = m
        if last is None:
            return []
        values = self.parse_mapping(last.end() - 1)
        closer = src.matching_closer(last.end() - 1)
        return values + self.setter_query(last.start(), before, var=var) if closer > 0 else values

    def setter_query(self, lo: int, hi: int, var: str | None = None) -> list[QueryValue]:
        """`q.Set("filter", ...)`, `params.append('limit', 100)` shortly before the call."""
        src = self.source
        text = src.text
        start = lo
        for _ in range(12):
            prev = text.rfind("\n", src.pos, start - 1)
            if prev < 0:
                start = src.pos
                break
            start = prev
        found: list[QueryValue] = []
        used = text[lo:hi]
        for m in _SETTER.finditer(text, start, hi):
            receiver = _RECEIVER.search(text, max(src.pos, m.start() - 80), m.start())
            if receiver is None:
                continue
            if var is not None and receiver.group(1) != var:
                continue
            if var is None and not re.search(
                r"(?<![\w.])" + re.escape(receiver.group(1)) + r"\b", used
            ):
                continue
            if src.token_at(m.start()) is not None:
                continue
            j = src.lit_starting(m.end())
            if j is None:
                continue
            name = src.lits[j].raw
            if not _QUERY_NAME.match(name):
                continue
            comma = re.compile(r"\s*,\s*").match(text, src.lits[j].end)
            if comma is None:
                continue
            found.append(self.value_at(name, comma.end()))
        return found

    def parse_mapping(self, opener: int) -> list[QueryValue]:
        """Entries `key: value` / `key = value` / `'key' => value` of one mapping literal."""
        src = self.source
        text = src.text
        if text[opener] not in "({[":
            return []
        closer = src.matching_closer(opener)
        if closer < 0:
            return []
        found: list[QueryValue] = []
        pos = opener + 1
        while pos < closer:
            pos = src.skip_space(pos)
            if pos >= closer:
                break
            m = _MAP_KEY.match(text, pos, closer)
            if m is not None:
                name = m.group(2) or m.group(3)
                found.append(self.value_at(name, m.end()))
                pos = m.end()
            # skip to the next entry separator at depth 0
            depth = 0
            while pos < closer:
                token = src.token_at(pos)
                if token is not None and pos >= token[0]:
                    pos = token[1]
                    continue
                ch = text[pos]
                if ch in _OPENERS:
                    depth += 1
                elif ch in _CLOSERS:
                    depth -= 1
                elif depth == 0 and ch in ",;\n":
                    pos += 1
                    break
                pos += 1
        return found

    def value_at(self, name: str, pos: int) -> QueryValue:
        src = self.source
        j = src.lit_starting(pos)
        if j is None:
            m = _NUMBER.match(src.text, pos)
            if m:
                return QueryValue(name, m.group(), Span(m.start(), m.end()))
            om = src.dialect.operand_re.match(src.text, pos)
            if om is not None and om.end() > pos:
                resolved = self.value_of_variable(name, om.group(), pos)
                if resolved is not None:
                    return resolved
            return QueryValue(name, None, None)
        chain = src.chain_from(j)
        return value_from_parts(name, chain.parts, chain.start, chain.end, decode=False)

    def value_of_variable(self, name: str, expression: str, before: int) -> QueryValue | None:
        """The literal a plain variable was last assigned before `before` (`flt = '...'`)."""
        var = _BRACES.sub("", expression.strip())
        if not _PLAIN_VARIABLE.fullmatch(var):
            return None
        src = self.source
        text = src.text
        pattern = re.compile(r"(?<![\w$.])" + re.escape(var) + r"\s*(?::=|=)(?!=)\s*")
        last = None
        for m in pattern.finditer(text, max(src.pos, before - 3000), before):
            if src.token_at(m.start()) is None:
                last = m
        if last is None:
            return None
        j = src.lit_starting(last.end())
        if j is None:
            return None
        chain = src.chain_from(j)
        return value_from_parts(name, chain.parts, chain.start, chain.end, decode=False)

    # -- headers ---------------------------------------------------------------------

    def authorization_headers(self) -> list[tuple[str, str, Span | None]]:
        src = self.source
        text = src.text
        found: list[tuple[int, tuple[str, str, Span | None]]] = []
        for lit in src.lits:
            low = lit.raw.lower()
            if low == "authorization":
                m = _HEADER_SEPARATOR.match(text, lit.end)
                if m is None:
                    continue
                value = self.header_value(m.end())
                if value is not None:
                    found.append((lit.start, ("Authorization", value[0], value[1])))
            elif low.startswith("authorization:"):
                chain = src.chain_from(src.lit_by_start[lit.start])
                parts = chain.parts
                flat, offs, _ = flatten(parts)
                k = len("authorization:")
                while k < len(flat) and flat[k] == " ":
                    k += 1
                value_text = flat[k:].replace(PARAM, "{}")
                if k < len(offs):
                    span = Span(offs[k], parts[-1].end)
                    found.append((lit.start, ("Authorization", value_text, span)))
        for m in _AUTH_IDENT.finditer(text, src.pos, src.endpos):
            if src.token_at(m.start()) is not None:
                continue
            value = self.header_value(m.end())
            if value is not None:
                found.append((m.start(), ("Authorization", value[0], value[1])))
        for m in _AUTH_SCHEME.finditer(text, src.pos, src.endpos):
            if src.token_at(m.start()) is None:
                found.append(
                    (m.start(), ("Authorization", m.group(1) + " {}", Span(m.start(1), m.end(1))))
                )
        found.sort(key=lambda item: item[0])
        return [(pos, header) for pos, header in found]  # type: ignore[misc]

    def header_value(self, pos: int) -> tuple[str, Span] | None:
        src = self.source
        j = src.lit_starting(pos)
        if j is not None:
            chain = src.chain_from(j)
            value = "".join("{}" if p.is_param else p.text for p in chain.parts)
            return value, Span(chain.start, chain.end)
        m = src.dialect.operand_re.match(src.text, pos)
        if m is None or m.end() == pos:
            return None
        if m.group().startswith("new"):
            return None
        return "{}", Span(m.start(), m.end())

    def attach_headers(self, refs: list[Reference]) -> None:
        """Give each Authorization header to exactly one reference.

        A header inside a call's window belongs to that call; one set up
        elsewhere goes to the reference a few lines above it (a header set on
        the request object just built), else to the first reference after it
        (a session or a headers constant), so a rule reports it once.
        """
        if not refs:
            return
        headers = self.authorization_headers()
        if not headers:
            return
        assigned: dict[int, list[tuple[str, str, Span | None]]] = {}
        for pos, header in headers:  # type: ignore[misc]
            target = None
            for k, ref in enumerate(refs):
                lo, hi = ref.extra.get("call_window", (0, 0))  # type: ignore[misc]
                if lo <= pos < hi:
                    target = k
                    break
            if target is None:
                line = self.source.line_col(pos)[0]
                before = [k for k, ref in enumerate(refs) if ref.span.start < pos]
                if before and refs[before[-1]].line >= line - 6:
                    target = before[-1]
                else:
                    after = [k for k, ref in enumerate(refs) if ref.span.start >= pos]
                    target = after[0] if after else len(refs) - 1
            assigned.setdefault(target, []).append(header)
        for k, headers_of in assigned.items():
            ref = refs[k]
            refs[k] = _replace(ref, headers=tuple(headers_of))


def _replace(ref: Reference, **changes: object) -> Reference:
    from dataclasses import replace

    return replace(ref, **changes)


def value_from_parts(
    name: str, parts: list[Part], start: int, end: int, decode: bool
) -> QueryValue:
    """A QueryValue from an expression's parts; interpolations become placeholders."""
    if all(p.is_param for p in parts):
        return QueryValue(name, None, Span(start, end))
    chars: list[str] = []
    offs: list[int] = []
    holes: list[tuple[int, int]] = []
    for part in parts:
        if part.is_param:
            holes.append((len(chars), len(chars) + len(part.text)))
            chars.extend(part.text)
            offs.extend(range(part.start, part.end))
        else:
            text = part.text
            for i, ch in enumerate(text):
                chars.append(ch)
                offs.append(part.offset(i))
    value = "".join(chars)
    if decode:
        value, offs, holes = url_decode(value, offs, holes)
    if not offs:
        return QueryValue(name, value, Span(start, start))
    span = Span(offs[0], offs[-1] + 1)
    contiguous = all(offs[i] == offs[0] + i for i in range(len(offs)))
    return QueryValue(
        name,
        value,
        span,
        tuple(holes),
        None if contiguous else tuple(offs),
    )


def url_decode(
    value: str, offs: list[int], holes: list[tuple[int, int]]
) -> tuple[str, list[int], list[tuple[int, int]]]:
    if "%" not in value and "+" not in value:
        return value, offs, holes
    out: list[str] = []
    new_offs: list[int] = []
    hole_starts = {a: b for a, b in holes}
    new_holes: list[tuple[int, int]] = []
    i = 0
    n = len(value)
    while i < n:
        if i in hole_starts:
            b = hole_starts[i]
            new_holes.append((len(out), len(out) + b - i))
            out.extend(value[i:b])
            new_offs.extend(offs[i:b])
            i = b
            continue
        ch = value[i]
        if ch == "%" and i + 2 < n + 0 and re.fullmatch(r"[0-9A-Fa-f]{2}", value[i + 1 : i + 3]):
            out.append(unquote_plus(value[i : i + 3]))
            new_offs.append(offs[i])
            i += 3
            continue
        out.append(" " if ch == "+" else ch)
        new_offs.append(offs[i])
        i += 1
    return "".join(out), new_offs, new_holes


def parse_query_string(
    text: str,
    flat: str,
    offs: list[int],
    owner: list[int],
    parts: list[Part],
    start: int,
    end: int,
) -> list[QueryValue]:
    """`name=value&...` of a URL, URL-decoded, interpolations as placeholders."""
    found: list[QueryValue] = []
    pos = start
    while pos < end:
        amp = flat.find("&", pos, end)
        if amp < 0:
            amp = end
        item = flat[pos:amp]
        if item:
            name, eq, _ = item.partition("=")
            if PARAM in name or not name:
                pos = amp + 1
                continue
            if not eq:
                found.append(QueryValue(unquote_plus(name), "", None))
                pos = amp + 1
                continue
            vstart = pos + len(name) + 1
            vparts: list[Part] = []
            k = vstart
            while k < amp:
                if flat[k] == PARAM:
                    part = parts[owner[k]]
                    vparts.append(Part(part.text, True, part.start, part.end))
                    k += 1
                    continue
                j = k
                while j < amp and flat[j] != PARAM:
                    j += 1
                piece = flat[k:j]
                vparts.append(Part(piece, False, offs[k], offs[j - 1] + 1, tuple(offs[k:j])))
                k = j
            if not vparts:
                found.append(QueryValue(unquote_plus(name), "", Span(offs[pos], offs[pos])))
            else:
                s = vparts[0].start
                e = vparts[-1].end
                found.append(value_from_parts(unquote_plus(name), vparts, s, e, decode=True))
        pos = amp + 1
    del text
    return found
