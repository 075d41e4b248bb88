"""A request on the wire, judged as the linter judges a call in code.

The request becomes the linter's `Reference` (method, path segments, query
values, the Authorization header's form) and goes through
`apispec.lint.call_check.CallChecker`: the same matching (`/api/v2` prefix,
numeric ids for `{id}`, literal segments first), the same rules in the same
order, the same codes and messages. Nothing about paths or codes is written
twice.

The verdict depends on the request's shape, not its ids: `GET
/sensors/2048/overview` and `GET /sensors/1001/overview` are one shape, so a
log of millions of requests costs a few thousand rule runs (an LRU cache of
shapes), and the cache bounds its own memory.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import NamedTuple
from urllib.parse import parse_qsl, unquote

from apispec.lint.call_check import CallChecker, maturity_in
from apispec.lint.finding import Finding, Severity
from apispec.lint.lines import Lines
from apispec.lint.match import is_parameter, match
from apispec.lint.reference import QueryValue, Reference, Segment, Span
from apispec.lint.rules import BY_CODE, CODES, Hook
from apispec.lint.rules.context import FileContext, RunContext
from apispec.registry.model import Endpoint, Registry
from apispec.registry.releases import Release
from apispec.runtime.seen import BEARER

API_PREFIX = "/api/v2"
_API = re.compile(r"/api/v2(?=/|$)")
_NUMBER = re.compile(r"/\d+(?=/|$)")
CACHE_SIZE = 8192
MAX_QUERY_VALUES = 1000  # a URL's query values judged; the rest are ignored
# Requests that are not calls of the API even on its paths: a browser's CORS preflight.
NOT_CALLS = frozenset({"OPTIONS"})
# Codes whose finding is the same for every request of an endpoint (per target): the
# rules of the call and endpoint hooks. Query and header findings are per request.
ENDPOINT_CODES = frozenset(row.code for row in CODES if row.hook in (Hook.CALL, Hook.ENDPOINT))
UNKNOWN = "unknown"
METHOD_NOT_LISTED = "method not listed"


class Note(NamedTuple):
    """A finding about a request: a rule's code, severity and message, and its target."""

    code: str
    severity: str
    message: str
    target: str | None

    @property
    def rank(self) -> int:
        return Severity(self.severity).rank


class Verdict(NamedTuple):
    """What the registry and the rules say about one request shape."""

    key: tuple[str, str]  # (method, template), or (method, path with {id}) when unknown
    endpoint: Endpoint | None
    maturity: str  # in the first target: stable, deprecated, removed in R, unknown, ...
    notes: tuple[Note, ...]  # the endpoint's findings (same for every request of it)
    request_notes: tuple[Note, ...]  # this request's query and header findings
    rank: int  # the highest severity rank of all the notes; -1 for none


class Judge:
    """Judges requests against a registry at one or more target releases."""

    def __init__(self, registry: Registry, targets: tuple[Release, ...]) -> None:
        self.registry = registry
        self.targets = targets
        self.run = RunContext(registry, targets, frozenset(BY_CODE))
        self.checker = CallChecker(self.run, lambda code: True)
        self.shape = lru_cache(maxsize=CACHE_SIZE)(self._shape)

    def judge(self, method: str, target: str, authorization: str | None = None) -> Verdict | None:
        """The verdict on one request; None when it is not an API v2 call."""
        path, _, query = target.partition("?")
        if "://" in path[:12]:  # an absolute URL (HAR): its path
            slash = path.find("/", path.find("://") + 3)
            path = path[slash:] if slash >= 0 else "/"
        path = path.partition("#")[0]
        query = query.partition("#")[0]
        found = _API.search(path)
        if found is None or method in NOT_CALLS:
            return None
        rest = path[found.end() :]
        verdict: Verdict = self.shape(method, _NUMBER.sub("/{}", rest), query, authorization)
        return verdict

    def params(self, verdict: Verdict, target: str) -> dict[str, str]:
        """The path parameters of a request of a matched endpoint (decoded), by name."""
        endpoint = verdict.endpoint
        if endpoint is None:
            return {}
        path = target.partition("?")[0].partition("#")[0]
        found = _API.search(path)
        rest = path[found.end() :] if found else path
        values = [unquote(s) for s in rest.split("/") if s]
        names = endpoint.path.strip("/").split("/")
        return {
            name[1:-1]: value
            for name, value in zip(names, values, strict=False)
            if name.startswith("{") and name.endswith("}")
        }

    def _shape(self, method: str, rest: str, query: str, authorization: str | None) -> Verdict:
        texts = [unquote(s) for s in rest.split("/") if s]
        segments = tuple(Segment(text, is_parameter(text)) for text in texts)
        pairs = parse_qsl(query, keep_blank_values=True)[:MAX_QUERY_VALUES] if query else []
        headers: tuple[tuple[str, str, Span | None], ...] = ()
        if authorization is not None:  # only its form reaches the rules, never a credential
            headers = (("Authorization", "Bearer x" if authorization == BEARER else "x", None),)
        reference = Reference(
            "/" + "/".join("{}" if s.is_param else s.text for s in segments),
            segments,
            Span(0, 0),
            1,
            1,
            1,
            1,
            method="GET" if method == "HEAD" else method,  # a server answers HEAD as GET
            query=tuple(QueryValue(name, value) for name, value in pairs),
            headers=headers,
            language="http",
            evidence="request",
        )
        # A new file context per shape: the rules keep per-file caches in it.
        file = FileContext(self.run, "", "<request>", Lines(""))
        findings = self.checker.check(file, reference)
        notes = tuple(dict.fromkeys(_note(f) for f in findings if f.code in ENDPOINT_CODES))
        request_notes = tuple(
            dict.fromkeys(_note(f) for f in findings if f.code not in ENDPOINT_CODES)
        )
        endpoint, template, maturity = self._endpoint(reference)
        shown = template or "/" + "/".join("{id}" if s.is_param else s.text for s in segments)
        rank = max((n.rank for n in notes + request_notes), default=-1)
        return Verdict(
            (reference.method or method, shown), endpoint, maturity, notes, request_notes, rank
        )

    def _endpoint(self, reference: Reference) -> tuple[Endpoint | None, str | None, str]:
        found = match(self.registry, reference)
        if found.template is None:
            return None, None, UNKNOWN
        if found.endpoint is None:
            return None, found.template, METHOD_NOT_LISTED
        return (
            found.endpoint,
            found.template,
            maturity_in(self.registry, found.endpoint, self.targets[0]),
        )


def _note(finding: Finding) -> Note:
    return Note(finding.code, str(finding.severity), finding.message, finding.target)
