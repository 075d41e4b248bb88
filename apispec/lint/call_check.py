"""The rules of one call: per call, per endpoint and target, per query value, per header.

The engine runs this on every call extraction finds in a file; `apispec traffic`
and `apispec proxy` run it on every request a log or a client shows them
(apispec.runtime.matching), so a call in code and the same request on the wire
get the same codes and messages from one place.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from apispec.lint.finding import Finding
from apispec.lint.match import COLLECTION, match
from apispec.lint.reference import QueryValue, Reference, Span
from apispec.lint.rules import Hook, in_hook
from apispec.lint.rules.context import Call, FileContext, RunContext
from apispec.registry.model import Endpoint, Registry
from apispec.registry.releases import Release

EndpointApplies = Callable[[Endpoint, Release], bool]
EndpointCheck = Callable[[Call, Endpoint, Release], Finding | None]


class CallChecker:
    """The enabled rules of the call, endpoint, query and header hooks, in table order."""

    def __init__(self, run: RunContext, enabled: Callable[[str], bool]) -> None:
        self.run = run
        self._call = [row.module.check for row in in_hook(Hook.CALL) if enabled(row.code)]
        # Rules that own what they apply to: tried in order even when disabled, so
        # that switching one off never lets the next one report in its place.
        self._endpoint: list[tuple[EndpointApplies, EndpointCheck | None]] = [
            (row.module.applies, row.module.check if enabled(row.code) else None)
            for row in in_hook(Hook.ENDPOINT)
        ]
        self._query = [
            (row.module.applies, row.module.check if enabled(row.code) else None)
            for row in in_hook(Hook.QUERY)
        ]
        self._header = [row.module.check for row in in_hook(Hook.HEADER) if enabled(row.code)]

    def check(self, file: FileContext, ref: Reference) -> list[Finding]:
        """The findings of one call: per call, per endpoint and target, per query, per header."""
        call = self.call(file, ref)
        findings = self.endpoint_findings(call)
        for query in ref.query:
            findings.extend(self.query_findings(call, query))
        for header in ref.headers:
            findings.extend(self.header_findings(call, header))
        return findings

    def call(self, file: FileContext, ref: Reference) -> Call:
        """The call as the rules see it: the reference, its match, the endpoints it may mean."""
        found = match(self.run.registry, ref)
        return Call(file, ref, found, list(found.named))

    def endpoint_findings(self, call: Call) -> list[Finding]:
        """The findings about the call's path and method: per call, per endpoint and target."""
        findings: list[Finding] = []
        for check_call in self._call:
            finding = check_call(call)
            if finding is not None:
                findings.append(finding)
        for target in self.run.targets:
            if call.found.alternatives:
                shared = self._shared(call, target)
                if shared is not None:
                    findings.append(shared)
                continue
            for endpoint in call.chosen:
                for applies, check in self._endpoint:
                    if applies(endpoint, target):
                        if check is not None:
                            _add(findings, check(call, endpoint, target))
                        break
        return findings

    def query_findings(self, call: Call, query: QueryValue) -> list[Finding]:
        """The findings about one query value of the call (the first rule that applies owns it)."""
        findings: list[Finding] = []
        for applies, check in self._query:
            if applies(query):
                if check is not None:
                    _add(findings, check(call, query))
                break
        return findings

    def header_findings(self, call: Call, header: tuple[str, str, Span | None]) -> list[Finding]:
        """The findings about one header the call sends."""
        found = (check_header(call, header) for check_header in self._header)
        return [finding for finding in found if finding is not None]

    def _shared(self, call: Call, target: Release) -> Finding | None:
        """What every endpoint a variable collection may name has in common, for one target.

        `f"{base}/experimental/{kind}/{oid}/move"` is experimental whichever of
        devices, groups, probes or sensors `kind` holds: one finding says so. When the
        candidates disagree (one deprecated, one experimental) nothing is reported.
        """
        owners = []
        for endpoint in call.chosen:
            owner = next(
                (
                    (k, check)
                    for k, (applies, check) in enumerate(self._endpoint)
                    if applies(endpoint, target)
                ),
                None,
            )
            owners.append(owner)
        if (
            not owners
            or owners[0] is None
            or any(o is None or o[0] != owners[0][0] for o in owners)
        ):
            return None
        check = owners[0][1]
        if check is None:  # the owning rule is switched off
            return None
        shown = call.found.template  # with alternatives: the path shown with `{collection}`
        if shown is None:
            return None
        found = [check(call, endpoint, target) for endpoint in call.chosen]
        each = [f for f in found if f is not None]
        if len(each) < len(found):  # the rule leaves a candidate alone (API003: a successor)
            return None
        messages = [
            f.message.replace(str(endpoint), f"{endpoint.method} {shown}")
            for f, endpoint in zip(each, call.chosen, strict=True)
        ]
        message = messages[0]
        if any(m != message for m in messages):
            message = message.split("; ", 1)[0]  # the successors differ: name none
        names = sorted({_collection_of(shown, e.path) for e in call.chosen})
        message += f" (for every collection it may name: {', '.join(names)})"
        return each[0].with_(message=message, endpoint=None, fix=None)


def maturity_in(registry: Registry, endpoint: Endpoint, target: Release) -> str:
    """What an endpoint is in a release: `removed in R`, `not yet available (since R)`, or its
    maturity (stable, deprecated, experimental)."""
    if endpoint.removed_in is not None and endpoint.removed_in <= target:
        return f"removed in {endpoint.removed_in}"
    if not registry.available_in(endpoint, target):
        return f"not yet available (since {endpoint.since})"
    return str(endpoint.maturity)


def _collection_of(display: str, template: str) -> str:
    """The collection a candidate template puts where the display shows `{collection}`."""
    for shown, actual in zip(display.split("/"), template.split("/"), strict=False):
        if shown == COLLECTION:
            return actual
    return template


def _add(findings: list[Finding], found: Finding | Iterable[Finding] | None) -> None:
    """A rule returns one finding, None, or several (a filter with several mistakes)."""
    if isinstance(found, Finding):
        findings.append(found)
    elif found is not None:
        findings.extend(found)
