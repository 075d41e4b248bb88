"""`--format prometheus`: the text exposition format, for a scrape job or a textfile collector.

Labels are bounded by the registry, never by the traffic: `method`, `endpoint`
(a registry template; every unknown path is `endpoint="unknown"`), `maturity`,
`rule` (a rule code) and `target` (a release named on the command line).
Clients and paths with ids never become labels, so a log of any size makes the
same few series. As Kubernetes' `apiserver_requested_deprecated_apis` does, a
gauge names each deprecated or removed endpoint requested, with its removal
release.
"""

from __future__ import annotations

from collections import Counter

from apispec.runtime.matching import UNKNOWN
from apispec.runtime.report.model import Report, groups

PREFIX = "apispec_traffic"
UNKNOWN_ENDPOINT = "unknown"


def _label(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


def _series(name: str, labels: dict[str, str], value: int) -> str:
    inner = ",".join(f'{key}="{_label(text)}"' for key, text in labels.items())
    return f"{name}{{{inner}}} {value}" if inner else f"{name} {value}"


def _metric(name: str, kind: str, help_text: str, series: list[str]) -> list[str]:
    return [f"# HELP {name} {help_text}", f"# TYPE {name} {kind}", *series]


def render(report: Report) -> str:
    tally = report.tally
    requests: Counter[tuple[str, str, str]] = Counter()
    findings: Counter[tuple[str, str, str, str]] = Counter()
    deprecated: dict[tuple[str, str], str] = {}
    for group in groups(report):
        for endpoint in group.endpoints:
            verdict = endpoint.verdict
            method = _bounded_method(verdict.key[0])
            path = verdict.key[1] if verdict.maturity != UNKNOWN else UNKNOWN_ENDPOINT
            count = endpoint.requests
            requests[(method, path, _maturity(verdict.maturity))] += count
            for note in verdict.notes:
                findings[(method, path, note.code, note.target or "")] += count
            for pair in endpoint.pairs.values():
                for note, n in pair.notes.items():
                    findings[(method, path, note.code, note.target or "")] += n
            found = verdict.endpoint
            if found is not None and (found.deprecated_in is not None or found.removed_in):
                deprecated[(method, path)] = str(found.removed_in or "")
    lines = _metric(
        f"{PREFIX}_requests_total",
        "counter",
        "API v2 requests seen, per registry endpoint and its maturity in the first target.",
        [
            _series(f"{PREFIX}_requests_total", {"method": m, "endpoint": e, "maturity": t}, n)
            for (m, e, t), n in sorted(requests.items())
        ],
    )
    lines += _metric(
        f"{PREFIX}_findings_total",
        "counter",
        "Requests with a finding of an apispec rule (the linter's codes), per target release.",
        [
            _series(
                f"{PREFIX}_findings_total",
                {"method": m, "endpoint": e, "rule": r, "target": t},
                n,
            )
            for (m, e, r, t), n in sorted(findings.items())
        ],
    )
    lines += _metric(
        f"{PREFIX}_requested_deprecated_endpoints",
        "gauge",
        "1 for each deprecated or removed endpoint requested; removed_release is empty when "
        "no removal is planned.",
        [
            _series(
                f"{PREFIX}_requested_deprecated_endpoints",
                {"method": m, "endpoint": e, "removed_release": r},
                1,
            )
            for (m, e), r in sorted(deprecated.items())
        ],
    )
    lines += _metric(
        f"{PREFIX}_not_api_requests_total",
        "counter",
        "Requests read that were not API v2 calls.",
        [_series(f"{PREFIX}_not_api_requests_total", {}, tally.not_api)],
    )
    lines += _metric(
        f"{PREFIX}_malformed_lines_total",
        "counter",
        "Log lines that were not requests of their format.",
        [_series(f"{PREFIX}_malformed_lines_total", {}, tally.malformed)],
    )
    return "\n".join(lines) + "\n"


_METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})


def _bounded_method(method: str) -> str:
    """A method label for an unknown path: one of HTTP's, else `other` (a log may hold any)."""
    return method if method in _METHODS else "other"


def _maturity(maturity: str) -> str:
    """`removed in 25.x.120` as `removed`, `not yet available (since R)` as `not yet available`."""
    for kind in ("removed", "not yet available"):
        if maturity.startswith(kind):
            return kind
    return maturity
