"""A request on the wire, judged as the linter judges a call in code.

The request becomes the linter's `Reference` (method, path segments, query
values, the Authorization header's form) and goes through
`apispec.lint.call_check.CallChecker`: the same matching (`/api/v2` prefix,
numeric ids for `{id}`, literal segments first), the same rules in the same
order, the same codes and messages. Nothing about paths or codes is written
twice.

The verdict depends on the request's shape, not its ids: `GET
/sensors/2048/overview` and `GET /sensors/1001/overview` are one shape, so a
log of millions of requests costs a few thousand rule runs (`Judge`'s caches,
each bounded), not millions.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import NamedTuple
from urllib.parse import parse_qsl, unquote

from apispec.lint.call_check import CallChecker, maturity_in
from apispec.lint.finding import Finding, Severity
from apispec.lint.lines import Lines
from apispec.lint.match import is_parameter
from apispec.lint.reference import QueryValue, Reference, Segment, Span
from apispec.lint.rules import BY_CODE
from apispec.lint.rules.context import Call, FileContext, RunContext
from apispec.registry.model import Endpoint, Registry
from apispec.registry.releases import Release
from apispec.runtime.seen import BEARER

_API = re.compile(r"/api/v2(?=/|$)")
_NUMBER = re.compile(r"/\d+(?=/|$)")
CACHE_SIZE = 8192
MAX_QUERY_VALUES = 1000  # a URL's query values judged; the rest are ignored
# Requests that are not calls of the API even on its paths: a browser's CORS preflight.
NOT_CALLS = frozenset({"OPTIONS"})
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


class _Path(NamedTuple):
    """What a request's method and path shape say, whatever its query: computed once per shape."""

    call: Call
    key: tuple[str, str]
    endpoint: Endpoint | None
    maturity: str
    notes: tuple[Note, ...]


class Judge:
    """Judges requests against a registry at one or more target releases.

    Three caches, each an LRU of bounded size: whole requests by (method, path
    shape, query, Authorization form); path shapes by method; and single query
    values by path shape, so that a log whose every line has another `offset=`
    costs one query rule per line, not the whole rule table.
    """

    def __init__(self, registry: Registry, targets: tuple[Release, ...]) -> None:
        self.registry = registry
        self.targets = targets
        self.run = RunContext(registry, targets, frozenset(BY_CODE))
        self.checker = CallChecker(self.run, lambda code: True)
        self._request = lru_cache(maxsize=CACHE_SIZE)(self._judge_request)
        self._path = lru_cache(maxsize=CACHE_SIZE)(self._judge_path)
        self._query = lru_cache(maxsize=CACHE_SIZE)(self._judge_query)

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
        verdict: Verdict = self._request(method, _NUMBER.sub("/{}", rest), query, authorization)
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

    def _judge_request(
        self, method: str, rest: str, query: str, authorization: str | None
    ) -> Verdict:
        path = self._path(method, rest)
        found: list[Note] = []
        if query:
            for name, value in parse_qsl(query, keep_blank_values=True)[:MAX_QUERY_VALUES]:
                found.extend(self._query(method, rest, name, value))
        if authorization is not None:  # only its form reaches the rules, never a credential
            value = "Bearer x" if authorization == BEARER else "x"
            header = ("Authorization", value, None)
            found.extend(_notes(self.checker.header_findings(path.call, header)))
        request_notes = tuple(dict.fromkeys(found))
        rank = max((n.rank for n in path.notes + request_notes), default=-1)
        return Verdict(path.key, path.endpoint, path.maturity, path.notes, request_notes, rank)

    def _judge_path(self, method: str, rest: str) -> _Path:
        texts = [unquote(s) for s in rest.split("/") if s]
        segments = tuple(Segment(text, is_parameter(text)) for text in texts)
        reference = Reference(
            "/" + "/".join("{}" if s.is_param else s.text for s in segments),
            segments,
            Span(0, 0),
            1,
            1,
            1,
            1,
            method="GET" if method == "HEAD" else method,  # a server answers HEAD as GET
            language="http",
            evidence="request",
        )
        # A new file context per shape: the rules keep per-file caches in it.
        call = self.checker.call(FileContext(self.run, "", "<request>", Lines("")), reference)
        notes = _notes(self.checker.endpoint_findings(call))
        found = call.found
        if found.template is None:
            endpoint, maturity = None, UNKNOWN
        elif found.endpoint is None:
            endpoint, maturity = None, METHOD_NOT_LISTED
        else:
            endpoint = found.endpoint
            maturity = maturity_in(self.registry, endpoint, self.targets[0])
        shown = found.template or "/" + "/".join("{id}" if s.is_param else s.text for s in segments)
        return _Path(call, (reference.method or method, shown), endpoint, maturity, notes)

    def _judge_query(self, method: str, rest: str, name: str, value: str) -> tuple[Note, ...]:
        call = self._path(method, rest).call
        return _notes(self.checker.query_findings(call, QueryValue(name, value)))


def _notes(findings: list[Finding]) -> tuple[Note, ...]:
    return tuple(
        dict.fromkeys(Note(f.code, str(f.severity), f.message, f.target) for f in findings)
    )
