"""The file's evidence that it calls this API, and the base URLs it names.

Stage 2's second half (candidates.py is the first): a path counts as an API v2
call only on evidence (docs/linter-detection.md, "Evidence"): the port 1616,
`prtg` named, an `/experimental/<collection>` path, a base URL ending in
`/api/v2` with an `Authorization: Bearer` header; and the host a URL names
decides whether it is this API's or another service's. Computed once per file
(Evidence) and per scanned source (Context), asked per candidate.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from typing import NamedTuple, cast

from apispec.lint.patterns import lazy
from apispec.lint.scan import PARAM, Source

_API_V2 = re.compile(r"/api/v2(?!\.?\w)")  # not /api/v2.0, /api/v2x
_PORT = re.compile(r":1616\b")
_EXPERIMENTAL = re.compile(r"experimental/([\w-]+)")
_BASE_ASSIGN = re.compile(
    r"(?:^|[\s,{(;\]])(\$?(?:script:|global:|env:)?[A-Za-z_][\w.]*)['\"]?\s*(?::=|=|:)\s*[^=;\n]*(?:\n[^=;\n]*)?\Z",
    re.M,
)
_ASSIGN_REACH = 300  # characters before a base URL where `NAME =` may stand
_PARAM_NAME = re.compile(r"[\w.$:]*?([A-Za-z_]\w*)\W*\Z")
_HOST = re.compile(r"(?:[A-Za-z][A-Za-z0-9+.-]*://)?([^\s/?#]*)")
THIS_API = re.compile(r":1616\b|prtg", re.I)
_BARE_HOST = lazy(r"[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+(?::\d+)?")
_ROOT_URL = lazy(r"https?://([A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*(?::\d+)?)/?")


class Base(NamedTuple):
    """What the file says about one URL ending in /api/v2 (a base variable or a full URL)."""

    host: str | None  # literal host and port, lower case; None when not written literally
    strong: bool  # the URL or the statement assigning it names this API (port 1616, prtg)


def host_of(prefix: str) -> str | None:
    """The literal host (and port) of the URL text before `/api/v2`; None when interpolated."""
    m = _HOST.match(prefix)
    host = m.group(1).lower() if m else ""
    if not host or PARAM in host or "$" in host or "{" in host:
        return None
    return host


def base_variables(source: Source) -> dict[str, Base]:
    """Variables assigned a URL that ends in /api/v2 (`BASE = f"https://h:1616/api/v2"`).

    A name assigned several such URLs keeps the host only when they agree, and is
    strong when any of them is.
    """
    found: dict[str, Base] = {}
    text = source.text
    for lit in source.lits:
        raw = lit.raw.rstrip("/")
        if not raw.endswith("/api/v2"):
            continue
        line_start = source.line_start(lit.start)
        # `NAME =` may end the line before (only the reach is read: a long line is one file)
        if "=" not in text[max(line_start, lit.start - _ASSIGN_REACH) : lit.start]:
            line_start = (
                source.line_start(line_start - 1) if line_start > source.pos else line_start
            )
        lo = max(line_start, lit.start - _ASSIGN_REACH)
        m = _BASE_ASSIGN.search(text, lo, lit.start)
        if m is None:
            continue
        name = variable_name(m.group(1))
        statement = text[m.start(1) : lit.end]
        base = Base(host_of(raw[: -len("/api/v2")]), THIS_API.search(statement) is not None)
        known = found.get(name)
        if known is not None:
            host = known.host if known.host == base.host else None
            base = Base(host, known.strong or base.strong)
        found[name] = base
    return found


def serves_api(source: Source, base: str, known: frozenset[str]) -> bool:
    """Whether the file joins a registry path onto the base variable `base` somewhere
    (`{BASE}/experimental/devices`): then it is this API's base, whatever its host says."""
    memo = cast("dict[str, bool]", source.memo.setdefault("bases serving", {}))
    found = memo.get(base)
    if found is None:
        pattern = re.compile(re.escape(base) + r"\W{0,2}/([\w-]+)(?:/([\w-]+))?", re.I)
        found = any(
            m.group(1) in known and (m.group(1) != "experimental" or m.group(2) in known)
            for m in pattern.finditer(source.text)
        )
        memo[base] = found
    return found


def slash_bases(source: Source) -> frozenset[str]:
    """Base variables assigned a URL that ends in `/api/v2/`, with its slash (once per source)."""
    found = cast("frozenset[str] | None", source.memo.get("slash bases"))
    if found is None:
        names = set()
        for lit in source.lits:
            if lit.raw.endswith("/api/v2/"):
                lo = max(source.line_start(lit.start), lit.start - _ASSIGN_REACH)
                m = _BASE_ASSIGN.search(source.text, lo, lit.start)
                if m is not None:
                    names.add(variable_name(m.group(1)))
        found = source.memo["slash bases"] = frozenset(names)
    return found


def variable_name(expression: str) -> str:
    """`${base}`, `{BASE}`, `$BaseUrl`, `self.base_url`, `c.baseURL` -> the last identifier, lower case."""
    m = _PARAM_NAME.search(expression)
    return m.group(1).lower() if m else expression.lower()


def _has_api_v2(text: str) -> bool:
    """`/api/v2` as a path prefix somewhere (not `/api/v2.0`, `/api/v2x`): `find` first, as it is
    run on every file."""
    at = text.find("/api/v2")
    while at >= 0:
        if _API_V2.match(text, at):
            return True
        at = text.find("/api/v2", at + 7)
    return False


class Evidence:
    """What a whole text says about this API, read once for all its regions (Markdown fences).

    `helpers` are the names of the own HTTP helpers the text may call (learnt from
    this file and, in a repository pass, from the other files of the tree): a
    relative path given to one is a call whatever its first segment.
    """

    def __init__(
        self, text: str, known: frozenset[str], helpers: frozenset[str] = frozenset()
    ) -> None:
        self.known = known
        self.port = _PORT.search(text) is not None
        # "prtg" in any case; lower() is seven times faster than a re.I search, and no
        # other character folds to p, r, t or g
        self.prtg = "prtg" in text.lower()
        self.bearer = "Bearer" in text
        self.api_v2 = _has_api_v2(text)
        # `/experimental/<collection>` mentions; one outside a comment is evidence.
        self.experimental_at = [
            m.start() for m in _EXPERIMENTAL.finditer(text) if m.group(1) in known
        ]
        self.helpers = helpers


class Context:
    """File-level evidence that the file talks to this API (see docs/linter-detection.md).

    Besides the file's evidence it knows the hosts of this API's URLs: where a
    file names one (port 1616 or `prtg` in the URL or in the statement assigning
    it, or a `/api/v2/experimental/<collection>` URL), a URL or base variable
    with another host, or a base variable that does not name this API while
    another one does, belongs to another service of the same file.
    """

    def __init__(self, source: Source, evidence: Evidence):
        self.known = evidence.known
        self.port = evidence.port
        self.prtg = evidence.prtg
        self.bearer = evidence.bearer
        self.api_v2 = evidence.api_v2
        self.helpers = evidence.helpers
        self.experimental = any(not source.in_comment(at) for at in evidence.experimental_at)
        self._hosts_of: dict[str, str | None] = {}
        self.bases = base_variables(source) if evidence.api_v2 else {}
        self.base_variables = frozenset(self.bases)
        self.api_hosts, self.named = (
            self._hosts(source) if evidence.api_v2 else (frozenset(), False)
        )

    def _hosts(self, source: Source) -> tuple[frozenset[str], bool]:
        """Hosts of URLs that name this API, and whether any URL or base names it."""
        hosts = {b.host for b in self.bases.values() if b.strong and b.host}
        named = any(b.strong for b in self.bases.values())
        text = source.text
        starts = source.lit_starts
        weak_bases = any(not b.strong and b.host for b in self.bases.values())
        for m in THIS_API.finditer(text, source.pos, source.endpos) if weak_bases else ():
            # `--prtg prtg.corp.example.com`, `Client("https://prtg.corp:1616")`: a bare
            # host or a server's root URL naming this API tells a literal base apart
            k = bisect_right(starts, m.start()) - 1
            if k >= 0 and m.start() < source.lits[k].end:
                raw = source.lits[k].raw
                root = _ROOT_URL.fullmatch(raw)
                if _BARE_HOST.fullmatch(raw) or (root and THIS_API.search(root.group(1))):
                    named = True
                    hosts.add((root.group(1) if root else raw).lower())
        seen: set[int] = set()
        at_text = text.find("/api/v2", source.pos, source.endpos)
        while at_text >= 0:  # the literals holding /api/v2, found from the text, not per literal
            k = bisect_right(starts, at_text) - 1
            inside = k >= 0 and k not in seen and at_text < source.lits[k].end
            at_text = text.find("/api/v2", at_text + 7, source.endpos)
            if not inside:
                continue
            seen.add(k)
            raw = source.lits[k].raw
            at = raw.find("/api/v2")
            if at < 0 or (named and (at == 0 or raw[0] == PARAM)):
                continue  # no literal host, and this API is named already
            prefix = raw[:at]
            rest = raw[at + 7 :]
            strong = THIS_API.search(prefix) is not None
            if not strong:
                segment = _EXPERIMENTAL.match(rest, 1)
                strong = (
                    rest.startswith("/experimental/")
                    and segment is not None
                    and segment.group(1) in self.known
                )
            if strong:
                named = True
                host = host_of(prefix)
                if host:
                    hosts.add(host)
        return frozenset(hosts), named

    @property
    def strong(self) -> bool:
        return self.port or self.prtg or self.experimental

    def host(self, prefix: str) -> str | None:
        """host_of(prefix), remembered: a file writes the same few prefixes many times."""
        try:
            return self._hosts_of[prefix]
        except KeyError:  # a new prefix: rare after the first few
            found = self._hosts_of[prefix] = host_of(prefix)
            return found

    def foreign(self, host: str | None, base: str | None = None) -> bool:
        """Whether a URL with this literal host (or via this base variable) is another service's."""
        if base is not None:
            info = self.bases.get(base)
            if info is not None:
                if info.strong:
                    return False
                if self.named and (info.host is None or info.host not in self.api_hosts):
                    return True
                host = info.host
        return host is not None and bool(self.api_hosts) and host not in self.api_hosts

    def names_this_api(self, host_prefix: str | None, base: str | None) -> bool:
        """Whether the URL itself (its text before /api/v2, or its base variable) names this API."""
        if base is not None and base in self.bases:
            return self.bases[base].strong
        return host_prefix is not None and THIS_API.search(host_prefix) is not None

    def accepts(
        self,
        via_api_v2: bool,
        first: str,
        second: str,
        prefix: str | None = None,
        base: str | None = None,
        named: bool = False,
    ) -> tuple[str, bool] | None:
        """(evidence text, weak) if a path with these first segments is an API v2 call.

        `prefix` (the URL's text before /api/v2) or `base` (the base variable it
        follows) may name this API themselves; `named`: a client's base URL does. Weak evidence (only `Authorization:
        Bearer` with `/api/v2`, which many products share) accepts only paths that
        start as this API's do: a registry collection, `session`, or
        `experimental/<collection>`.
        """
        known = self.known
        known_path = first in known and (first != "experimental" or second in known)
        if via_api_v2:
            if first == "experimental" and second in known:
                return "/api/v2/experimental in URL", False
            if named or self.names_this_api(prefix, base):
                return "/api/v2 in URL; the URL names this API", False
            if self.strong:
                return "/api/v2 in URL; " + self.why(), False
            if self.bearer and known_path:
                return "/api/v2 in URL; Authorization: Bearer in file", True
            return None
        if self.strong:
            return "relative path; " + self.why(), False
        if self.bearer and self.api_v2 and known_path:
            return "relative path; " + self.why(), True
        return None

    def why(self) -> str:
        if self.port:
            return "port 1616 in file"
        if self.prtg:
            return "prtg named in file"
        if self.experimental:
            return "/experimental/ path in file"
        return "/api/v2 base and Authorization: Bearer in file"
