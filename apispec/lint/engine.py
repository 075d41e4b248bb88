"""The linter's engine: references in, findings out, per target release.

Extraction (apispec.lint.extract) says where a file calls the API; matching
(apispec.lint.match) says which registry endpoint that is; this module decides
what is wrong with the call for each target release, applies configuration and
suppressions, and scans many files in parallel.
"""

from __future__ import annotations

import gc
import os
from bisect import bisect_right
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from hashlib import sha256
from heapq import heapreplace
from pathlib import Path

from apispec.exceptions import did_you_mean
from apispec.lint import suppress
from apispec.lint.config import Config
from apispec.lint.discover import Candidate, display_path, read_text
from apispec.lint.extract import extract_references
from apispec.lint.finding import Edit, Finding, Fix, Severity, Skipped
from apispec.lint.fix import build_fix
from apispec.lint.match import match
from apispec.lint.prefilter import might_reference, worth_decoding
from apispec.lint.reference import QueryValue, Reference, Span
from apispec.lint.rules import BY_CODE
from apispec.lint.secrets import find_secrets
from apispec.model import NONE_PLANNED, Endpoint, Maturity, Registry, load_registry
from apispec.releases import Release

# Below this many files a process pool costs more than it saves.
PARALLEL_MIN_FILES = 200

# Query parameter names other APIs and the v1 API use, mapped to what the
# registry's list endpoints take; only used when the mapped name is a registry
# parameter, so a registry without it simply gets no suggestion.
QUERY_ALIASES = {
    "take": "limit",
    "count": "limit",
    "top": "limit",
    "skip": "offset",
    "sort": "sort_by",
    "sortby": "sort_by",
    "orderby": "sort_by",
    "order_by": "sort_by",
    "includes": "include",
    "filter_objid": "filter",
    "columns": "include",
}


@dataclass(frozen=True)
class Options:
    """Everything a worker needs to lint a file; picklable."""

    config: Config
    targets: tuple[str, ...]
    registry_dir: Path | None = None


@dataclass
class FileResult:
    path: str
    findings: list[Finding] = field(default_factory=list)
    skipped: Skipped | None = None


@dataclass
class LintResult:
    findings: list[Finding]
    skipped: list[Skipped]
    files: int
    targets: tuple[str, ...]
    fixed: int = 0  # findings --fix repaired in this run


class _Lines:
    """Offsets to 1-based (line, column), and line texts, for one file."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.starts = [0]
        find = text.find
        at = find("\n")
        while at >= 0:
            self.starts.append(at + 1)
            at = find("\n", at + 1)

    def position(self, offset: int) -> tuple[int, int]:
        line = bisect_right(self.starts, offset)
        return line, offset - self.starts[line - 1] + 1

    def line_text(self, line: int) -> str:
        start = self.starts[line - 1]
        end = self.starts[line] - 1 if line < len(self.starts) else len(self.text)
        return self.text[start:end]


class Checker:
    """Applies the rules to one file's references; one per process."""

    def __init__(self, registry: Registry, options: Options) -> None:
        self.registry = registry
        self.options = options
        self.config = options.config
        self.targets: tuple[Release, ...] = tuple(registry.release(t) for t in options.targets)
        self.max_limit = registry.limit("max_objects_per_response")
        self.query_names = tuple(q.name for q in registry.query_parameters)
        self._fixes: dict[tuple[int, tuple[str, str]], Fix | None] = {}
        self._notes: dict[tuple[tuple[str, str], str], str] = {}  # (endpoint, target): note

    # -- one file -------------------------------------------------------------

    def lint_text(self, text: str, path: str) -> list[Finding]:
        has_marker = "apispec:" in text
        if not might_reference(text) and not has_marker:
            return []
        lines = _Lines(text)
        findings: list[Finding] = []
        self._fixes.clear()  # keyed by id(): a freed reference's id may come back in this file
        references = extract_references(text, path, self.registry)
        for reference in references:
            findings.extend(self.check_reference(reference, text, path, lines))
        if references:
            findings.extend(self.check_secrets(text, path, lines))
        findings = self._configure(findings, path)
        if has_marker:
            findings = suppress.apply(
                findings, suppress.parse(text), path, self.config.enabled(suppress.UNUSED)
            )
        return _finish(_unique(findings), lines)

    def _configure(self, findings: list[Finding], path: str) -> list[Finding]:
        off: set[str] = set()
        if self.config.per_file_ignores:
            off = self.config.ignored_in(_relative_to(path, self.config.root))
        kept = []
        for finding in findings:
            if not self.config.enabled(finding.code) or finding.code in off:
                continue
            override = self.config.severity.get(finding.code)
            if override is not None and override != finding.severity:
                finding = finding.with_(severity=override)
            kept.append(finding)
        return kept

    # -- one reference ----------------------------------------------------------

    def check_reference(self, ref: Reference, text: str, path: str, lines: _Lines) -> list[Finding]:
        site = _Site(path, ref, lines)
        findings: list[Finding] = []
        found = match(self.registry, ref)
        chosen: list[Endpoint] = []
        if found.template is None:
            shown = f"{ref.method} {ref.path}" if ref.method else ref.path
            hint = f" (did you mean {found.suggestions[0]}?)" if found.suggestions else ""
            if found.likely_typo:
                findings.append(site.at("API004", f"{shown} is not in the registry{hint}"))
            else:
                message = f"{shown} is not in the registry{hint}; your server may still answer it"
                findings.append(site.at("API004", message, severity=Severity.INFO))
        elif ref.method and found.endpoint is None:
            defined = ", ".join(e.method for e in found.endpoints)
            message = f"{ref.method} is not defined for {found.template} (defined: {defined})"
            findings.append(site.at("API007", message, endpoint=(ref.method, found.template)))
        elif found.endpoint is not None:
            chosen = [found.endpoint]
        else:  # the code does not show the method: GET if the path has it, else all
            chosen = [e for e in found.endpoints if e.method == "GET"] or list(found.endpoints)
        for target in self.targets:
            for endpoint in chosen:
                finding = self._release_finding(endpoint, target, ref, text, site)
                if finding is not None:
                    findings.append(finding)
        findings.extend(self._query_findings(ref, chosen, site))
        findings.extend(self._header_findings(ref, site))
        return findings

    def _release_finding(
        self, ep: Endpoint, target: Release, ref: Reference, text: str, site: _Site
    ) -> Finding | None:
        """What the endpoint's maturity means in one target release (one finding at most)."""
        if ep.removed_in is not None and ep.removed_in <= target:
            message = f"{ep} was removed in {ep.removed_in}{self._successor_note(ep, target)}"
            return site.at("API001", message, endpoint=ep.key, target=target.text)
        if ep.since is not None and target < ep.since:
            message = f"{ep} is not available in {target}: it appears in {ep.since}"
            return site.at("API005", message, endpoint=ep.key, target=target.text)
        if ep.maturity == Maturity.DEPRECATED and (
            ep.deprecated_in is None or ep.deprecated_in <= target
        ):
            removal = f"removed in {ep.removed_in}" if ep.removed_in else "no removal release named"
            since = f" since {ep.deprecated_in}" if ep.deprecated_in else ""
            message = f"{ep} is deprecated{since} ({removal}){self._successor_note(ep, target)}"
            fix = self._fix(ep, ref, text)
            return site.at("API002", message, endpoint=ep.key, target=target.text, fix=fix)
        if ep.is_experimental_path or ep.maturity == Maturity.EXPERIMENTAL:
            message = f"{ep} is experimental and may change incompatibly in any release"
            return site.at("API003", message, endpoint=ep.key, target=target.text)
        return None

    def _fix(self, ep: Endpoint, ref: Reference, text: str) -> Fix | None:
        """The path rewrite to the successor, when it exists in every target."""
        successor = self.registry.successor_of(ep)
        if successor is None or not all(
            self.registry.available_in(successor, t) for t in self.targets
        ):
            return None
        key = (id(ref), ep.key)  # the same fix for every target: build it once
        if key not in self._fixes:
            self._fixes.clear()
            self._fixes[key] = build_fix(text, ref, ep, successor)
        return self._fixes[key]

    def _successor_note(self, ep: Endpoint, target: Release) -> str:
        key = (ep.key, target.text)
        note = self._notes.get(key)
        if note is None:
            note = self._notes[key] = self._note(ep, target)
        return note

    def _note(self, ep: Endpoint, target: Release) -> str:
        succ = ep.successor
        if succ is None:
            return ""
        if not succ.is_endpoint:
            return "; no successor planned" if succ.text == NONE_PLANNED else f"; successor: {succ}"
        successor = self.registry.successor_of(ep)
        if successor is not None and not self.registry.available_in(successor, target):
            when = f" (it appears in {successor.since})" if successor.since else ""
            return f"; its successor {succ} is not yet available in {target}{when}"
        return f"; use {succ}"

    def _query_findings(
        self, ref: Reference, chosen: list[Endpoint], site: _Site
    ) -> Iterator[Finding]:
        is_list = any(e.is_list for e in chosen)
        endpoint = chosen[0] if chosen else None
        key = endpoint.key if endpoint else None
        for query in ref.query:
            name, value = query.name, query.value
            if name == "filter" and value is not None:
                yield from self._filter_findings(query, value, endpoint, site)
            elif name == "limit" and value is not None and value.strip().isdigit():
                if int(value) > self.max_limit:
                    message = (
                        f"limit={value.strip()} is above the maximum of {self.max_limit} "
                        "objects per response; page with offset"
                    )
                    yield site.at("API008", message, span=query.span, endpoint=key)
            elif is_list and name not in self.query_names:
                alias = QUERY_ALIASES.get(name.lower())
                hint = (
                    f" (did you mean {alias}?)"
                    if alias in self.query_names
                    else did_you_mean(name, self.query_names)
                )
                message = f"unknown query parameter {name!r} for {endpoint}{hint}"
                yield site.at("API011", message, span=query.span, endpoint=key)

    def _filter_findings(
        self, query: QueryValue, value: str, endpoint: Endpoint | None, site: _Site
    ) -> Iterator[Finding]:
        from apispec.filters.check import check

        diagnostics = check(
            value,
            endpoint=endpoint,
            registry=self.registry,
            placeholder_spans=query.placeholder_spans,
        )
        where = endpoint or site.ref.path
        for diagnostic in diagnostics:
            start = _file_offset(query, diagnostic.start)
            last = _file_offset(query, max(diagnostic.end - 1, diagnostic.start))
            span = Span(start, last + 1) if start is not None and last is not None else None
            hint = f" ({diagnostic.hint})" if diagnostic.hint else ""
            yield site.at(
                "API006",
                f"invalid filter for {where}: {diagnostic.code} {diagnostic.message}{hint}",
                severity=None if diagnostic.severity == "error" else Severity.WARNING,
                span=span,
                endpoint=endpoint.key if endpoint else None,
            )

    def _header_findings(self, ref: Reference, site: _Site) -> Iterator[Finding]:
        for name, value, span in ref.headers:
            if name.lower() != "authorization" or value is None:
                continue
            if value.strip()[:7].lower() != "bearer ":
                message = "Authorization header without the required 'Bearer ' prefix: send 'Bearer <token>'"
                yield site.at("API009", message, span=span)

    def check_secrets(self, text: str, path: str, lines: _Lines) -> Iterator[Finding]:
        for secret in find_secrets(text, path):
            line, column = lines.position(secret.span.start)
            end_line, end_column = lines.position(secret.span.end)
            yield Finding(
                path,
                line,
                column,
                end_line,
                end_column,
                "API010",
                BY_CODE["API010"].severity,
                f"{secret.kind} written literally in the source; "
                "read it from the environment or a secret store",
            )


@dataclass(frozen=True)
class _Site:
    """Where a reference's findings go: the reference itself, or a span inside it."""

    path: str
    ref: Reference
    lines: _Lines

    def at(
        self,
        code: str,
        message: str,
        *,
        severity: Severity | None = None,
        span: Span | None = None,
        endpoint: tuple[str, str] | None = None,
        target: str | None = None,
        fix: Fix | None = None,
    ) -> Finding:
        ref = self.ref
        if span is None:
            line, column, end_line, end_column = ref.line, ref.column, ref.end_line, ref.end_column
        else:
            line, column = self.lines.position(span.start)
            end_line, end_column = self.lines.position(span.end)
        return Finding(
            self.path,
            line,
            column,
            end_line,
            end_column,
            code,
            severity or BY_CODE[code].severity,
            message,
            endpoint,
            target,
            fix,
        )


def _file_offset(query: QueryValue, index: int) -> int | None:
    """Where character `index` of a query value stands in the file (None: unknown)."""
    if query.offset_map is not None:
        if 0 <= index < len(query.offset_map):
            return query.offset_map[index]
        if query.offset_map and index == len(query.offset_map):
            return query.offset_map[-1] + 1
        return None
    if query.span is None:
        return None
    return query.span.start + index


def _relative_to(path: str, root: Path) -> str:
    absolute = Path(path) if os.path.isabs(path) else Path.cwd() / path
    try:
        return absolute.resolve().relative_to(root).as_posix()
    except ValueError:
        return path


def _unique(findings: Iterable[Finding]) -> list[Finding]:
    seen: set[tuple[object, ...]] = set()
    unique = []
    for f in findings:
        key = (f.code, f.line, f.column, f.target, f.message)
        if key not in seen:
            seen.add(key)
            unique.append(f)
    return unique


def normalized(line: str) -> str:
    return " ".join(line.split())


def fingerprint(code: str, path: str, line_text: str, target: str | None, occurrence: int) -> str:
    """Stable across unrelated edits: no line number, only what the line says."""
    data = "\0".join((code, path, normalized(line_text), target or "", str(occurrence)))
    return sha256(data.encode()).hexdigest()[:32]


def _finish(findings: list[Finding], lines: _Lines) -> list[Finding]:
    findings.sort(key=lambda f: f.sort_key)
    counts: dict[tuple[str, str, str | None], int] = {}
    for f in findings:
        text = lines.line_text(f.line)
        key = (f.code, normalized(text), f.target)
        occurrence = counts.get(key, 0)
        counts[key] = occurrence + 1
        f.line_text = text
        f.fingerprint = fingerprint(f.code, f.path, text, f.target, occurrence)
        if f.fix is not None:
            f.fix = _positioned(f.fix, lines)
    return findings


def _positioned(fix: Fix, lines: _Lines) -> Fix:
    """The fix with line and column on each edit (built directly: replace() is slow)."""
    edits = []
    for edit in fix.edits:
        line, column = lines.position(edit.start)
        end_line, end_column = lines.position(edit.end)
        edits.append(Edit(edit.start, edit.end, edit.content, line, column, end_line, end_column))
    return Fix(fix.message, fix.applicability, tuple(edits))


# -- many files ---------------------------------------------------------------

_checker: Checker | None = None


# Extraction allocates hundreds of thousands of short-lived objects; with the
# default threshold (700) the garbage collector ran 400 times over the dense
# benchmark corpus, 5 % of the CPU, for objects reference counting frees anyway.
_YOUNG_THRESHOLD = 10_000


@contextmanager
def fewer_collections() -> Iterator[None]:
    """Run the garbage collector a tenth as often while linting, then as before."""
    before = gc.get_threshold()
    gc.set_threshold(_YOUNG_THRESHOLD, *before[1:])
    try:
        yield
    finally:
        gc.set_threshold(*before)


def _init_worker(options: Options) -> None:
    global _checker
    gc.freeze()  # modules and registry live as long as the worker: never traverse them
    gc.set_threshold(_YOUNG_THRESHOLD, *gc.get_threshold()[1:])
    _checker = Checker(load_registry(options.registry_dir), options)


def _lint_chunk(chunk: list[str]) -> list[FileResult]:
    """Results of the files with something to report (most have nothing)."""
    assert _checker is not None
    results = [_lint_file(_checker, path) for path in chunk]
    return [r for r in results if r is not None and (r.findings or r.skipped)]


def _lint_file(checker: Checker, path: str) -> FileResult | None:
    """None for a file without marker or suppression comment: nothing to report."""
    text, reason = read_text(path, checker.config.max_file_size, worth_decoding)
    if text is None and reason is None:
        return None
    shown = display_path(path)
    if text is None:
        return FileResult(shown, skipped=Skipped(shown, reason or "unreadable"))
    try:
        return FileResult(shown, checker.lint_text(text, shown))
    except Exception as exc:  # one odd file must not end the whole run
        reason = f"not linted: internal error ({type(exc).__name__}: {exc}); please report it"
        return FileResult(shown, skipped=Skipped(shown, reason))


def lint_files(
    candidates: list[Candidate], options: Options, jobs: int | None = None
) -> LintResult:
    """Lint files, in parallel on all cores when there are enough of them."""
    jobs = jobs or os.cpu_count() or 1
    results: list[FileResult] = []
    if jobs > 1 and len(candidates) >= PARALLEL_MIN_FILES:
        from concurrent.futures import ProcessPoolExecutor  # 20 ms of imports a small run skips

        chunks = _chunks(candidates, jobs * 32)
        with ProcessPoolExecutor(jobs, initializer=_init_worker, initargs=(options,)) as pool:
            for chunk_results in pool.map(_lint_chunk, chunks):
                results.extend(chunk_results)
    else:
        checker = Checker(load_registry(options.registry_dir), options)
        linted = (_lint_file(checker, c.path) for c in candidates)
        results = [r for r in linted if r is not None]
    findings = sorted((f for r in results for f in r.findings), key=lambda f: f.sort_key)
    skipped = sorted((r.skipped for r in results if r.skipped is not None), key=lambda s: s.path)
    return LintResult(findings, skipped, len(candidates) - len(skipped), options.targets)


def _chunks(candidates: list[Candidate], count: int) -> list[list[str]]:
    """About equal total size per chunk, so one big file does not hold up a worker."""
    ordered = sorted(candidates, key=lambda c: c.size, reverse=True)
    buckets: list[list[str]] = [[] for _ in range(min(count, len(ordered)))]
    lightest = [(0, i) for i in range(len(buckets))]  # (total size, bucket): a heap
    for c in ordered:
        total, i = lightest[0]
        buckets[i].append(c.path)
        heapreplace(lightest, (total + c.size, i))
    return [b for b in buckets if b]


def lint_text(text: str, path: str, options: Options) -> list[Finding]:
    return Checker(load_registry(options.registry_dir), options).lint_text(text, path)
