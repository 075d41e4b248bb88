"""Whether a located path is this API's: the file's evidence and what the URL itself names.

docs/linter-detection.md section 4 holds the rules. A URL that names this API (port
1616 or `prtg` before its path, in a literal or in the name of the variable that
holds the base) counts; `/api/v2/experimental/<collection>` counts; any other needs
evidence in the file (the port, `prtg`, an `/experimental/<collection>` path, or,
weakly, `Authorization: Bearer` with `/api/v2`). A URL with another literal host
than this API's, or with a host and a first segment no registry collection has, is
another product's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from apispec.lint.extract.build import Located

THIS_API = re.compile(r":1616\b|prtg", re.I)
_EXPERIMENTAL = re.compile(r"experimental/([\w-]+)")
_HOST = re.compile(r"(?:[A-Za-z][A-Za-z0-9+.-]*://)?([^\s/?#\0]*)")
_BARE_HOST = re.compile(r"[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+(?::\d+)?")
_ROOT_URL = re.compile(r"https?://([A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*(?::\d+)?)/?")


def host_of(prefix: str) -> str | None:
    """The literal host (and port) before the path; None when a hole stands in it."""
    m = _HOST.match(prefix)
    host = m.group(1).lower() if m else ""
    if not host or "\0" in prefix[: m.end() + 1 if m else 0] or "{" in host or "$" in host:
        return None
    return host


@dataclass
class FileEvidence:
    """What a whole file says about this API, read once."""

    known: frozenset[str]
    port: bool = False
    prtg: bool = False
    bearer: bool = False
    experimental: bool = False
    api_hosts: set[str] = field(default_factory=set)
    v2_hosts: set[str] = field(default_factory=set)  # literal hosts of every /api/v2 URL
    named_hosts: set[str] = field(default_factory=set)  # hosts a URL names this API with
    named: bool = False  # some URL or base of the file names this API
    source: str = ""  # the text the URLs' offsets point into (the code read)
    # the variables (hole names) before `/api/v2` of URLs that name this API or one of its
    # collections: a base of this API, whatever the path after it
    api_bases: set[tuple[str, ...]] = field(default_factory=set)

    @classmethod
    def of(cls, text: str, known: frozenset[str]) -> FileEvidence:
        evidence = cls(known)
        evidence.port = ":1616" in text
        evidence.prtg = "prtg" in text.lower()
        evidence.bearer = "Bearer" in text and "/api/v2" in text  # the weak pair
        evidence.experimental = any(m.group(1) in known for m in _EXPERIMENTAL.finditer(text))
        return evidence

    @property
    def strong(self) -> bool:
        return self.port or self.prtg or self.experimental

    def why(self) -> str:
        if self.port:
            return "port 1616 in file"
        if self.prtg:
            return "prtg named in file"
        if self.experimental:
            return "/experimental/ path in file"
        return "/api/v2 base and Authorization: Bearer in file"

    def names(self, loc: Located) -> bool:
        """Whether the URL's own text before its path names this API, or the statement
        that writes its base does (`$script:PrtgBase = "https://${Server}/api/v2"`)."""
        if THIS_API.search(loc.prefix) is not None or any(
            "prtg" in hint for hint in loc.prefix_hints
        ):
            return True
        if any(  # the base's unknown piece is written with a name for this API
            hole is not None and THIS_API.search(hole.text)
            for hole in loc.flat.holes[: len(loc.prefix)]
        ):
            return True
        return self._base_line_names(loc)

    def _base_line_names(self, loc: Located) -> bool:
        """Whether the line where the base's first literal character is written names
        this API (a variable named for it, a comment beside it)."""
        source = self.source
        first = next(
            (k for k in range(len(loc.prefix)) if loc.flat.holes[k] is None),
            None,
        )
        if not source or first is None:
            return False
        at = loc.flat.offsets[first]
        if not 0 <= at < len(source):
            return False
        start = source.rfind("\n", 0, at) + 1
        end = source.find("\n", at)
        return THIS_API.search(source, start, end if end >= 0 else len(source)) is not None

    def learn(self, loc: Located) -> None:
        """A URL that names this API tells its host apart from other services' hosts."""
        first, second = _first_two(loc)
        if not loc.via_api_v2:
            return
        literal = host_of(loc.prefix)
        if literal:
            self.v2_hosts.add(literal)
        strong = self.names(loc) or (first == "experimental" and second in self.known)
        if literal is None and loc.prefix_hints and (strong or first in self.known):
            self.api_bases.add(loc.prefix_hints)
        if strong:
            self.named = True
            host = host_of(loc.prefix)
            if host:
                self.api_hosts.add(host)
                if self.names(loc):
                    self.named_hosts.add(host)

    def literal(self, raw: str) -> None:
        """A bare host or a server's root URL naming this API (`prtg.corp.example.com`,
        `https://prtg.example.net:1616`) tells this API's host apart from others'."""
        root = _ROOT_URL.fullmatch(raw)
        host = root.group(1) if root else raw if _BARE_HOST.fullmatch(raw) else None
        if host is not None and THIS_API.search(host):
            self.named = True
            self.api_hosts.add(host.lower())
            self.named_hosts.add(host.lower())

    def accepts(
        self, loc: Located, *, wrapped: bool = False, client: bool = False, trusted: bool = False
    ) -> tuple[str, bool] | None:
        """(why, weak) when the located path is a call of this API, else None.

        `wrapped`: the path reached the URL through a wrapper of the file;
        `client`: it is the URL argument of a known client library call.
        """
        first, second = _first_two(loc)
        known = self.known
        # `experimental/{collection}/...`: a collection named by a variable may be any of them
        known_path = first in known and (
            first != "experimental" or second in known or second == "\0"
        )
        named = self.names(loc)
        if trusted:
            return "through an own API helper", False
        if loc.via_api_v2:
            host = host_of(loc.prefix)
            if host is not None and self.named_hosts and host not in self.named_hosts and not named:
                return None  # another literal host than the one the file names this API by
            if host is not None and self.named and not self.api_hosts and not named:
                # the file's calls of this API take their host from elsewhere (a setting,
                # a client of another module): a literal host it writes is another service's
                return None
            if (
                host is None
                and loc.prefix_hints
                and self.named
                and not named
                and not known_path
                and first != "session"
                and loc.prefix_hints not in self.api_bases
            ):
                # another variable's /api/v2 than this API's, with a first segment no
                # collection has (`$PAGES_HOST/api/v2/summary.json`): another product's
                return None
            if first == "experimental" and second in known:
                return "/api/v2/experimental in URL", False
            if named:
                return "/api/v2 in URL; the URL names this API", False
            host = host_of(loc.prefix)
            if host is not None and self.api_hosts:
                if host not in self.api_hosts:
                    return None  # another service's host
                return "/api/v2 in URL; the host of this API's other URLs", False
            if host is not None and len(self.v2_hosts) > 1:
                return None  # several services' /api/v2, none written as this API's: not ours
            # a literal host with a first segment no collection has (experimental/<anything>
            # is this API's prefix): another product's; a host the code reads from
            # elsewhere (`{base}/api/v2/...`) is the file's
            has_host = host is not None and bool(loc.prefix.strip("/"))
            if has_host and first not in known and first != "session":
                return None  # another product's /api/v2 (its first segment is not ours)
            if self.strong:
                return "/api/v2 in URL; " + self.why(), False
            if wrapped and known_path:
                return "/api/v2 in URL; a path of this API through an own helper", False
            if self.bearer and (known_path or first == "session"):
                return "/api/v2 in URL; Authorization: Bearer in file", True
            return None
        if first == "api":
            return None  # another version of an API (`/api/table.json`, the v1 API)
        if named and (wrapped or client):
            return "relative path; its base names this API", False
        if not known_path and not _variable_collection(loc, first, second):
            return None
        return self._relative(wrapped)

    def _relative(self, wrapped: bool) -> tuple[str, bool] | None:
        """A relative path of this API's, by what else the file shows."""
        if self.strong:
            return "relative path; " + self.why(), False
        if self.bearer:  # weak: a registry path, in a file with a /api/v2 base and Bearer
            return "relative path; /api/v2 base and Authorization: Bearer in file", True
        if wrapped:  # a weak helper's path that starts as this API's (docs: section 3a)
            return "relative path of this API through an own helper", False
        return None


def _variable_collection(loc: Located, first: str, second: str) -> bool:
    """`${base}/experimental/${kind}/${id}/move`: a collection that is itself a variable,
    after a base and with a literal segment, stands for every collection it could name."""
    if "\0" not in loc.prefix:
        return False
    parts = loc.flat.chars[loc.start : loc.end].strip("/").split("/")
    literal = any(p and "\0" not in p for p in parts)
    return literal and (first == "\0" or (first == "experimental" and second == "\0"))


def _first_two(loc: Located) -> tuple[str, str]:
    rest = loc.flat.chars[loc.start : loc.end].strip("/").split("/")
    first = rest[0] if rest else ""
    second = rest[1] if len(rest) > 1 else ""
    return first, second
