"""The language server's only door into the linter, the filter checker and the registry.

Every other module of `apispec.lsp` talks LSP and calls these functions, so
that a change inside `apispec.lint` (its stages, its fix records) is a change
to this file alone. Nothing here knows about LSP: offsets are 0-based
character offsets into the document text, lines and columns as the linter
reports them (1-based, code points).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from apispec.exceptions import ApispecError
from apispec.filters import check as check_filter
from apispec.filters import complete as complete_filter
from apispec.filters.parse import tokenize as filter_tokens
from apispec.inputs import load_toml, read_input_text
from apispec.lint.config import Config, find_config, load_config, parse_severity, parse_size
from apispec.lint.discover import discover, read_text
from apispec.lint.engine import Checker, Options, lint_in_budget
from apispec.lint.extract import extract_references, language_of
from apispec.lint.finding import Finding, Severity
from apispec.lint.match import match
from apispec.lint.prefilter import worth_decoding
from apispec.lint.reference import QueryValue
from apispec.lint.rules import BY_CODE, expand_codes
from apispec.lint.suppression_comment import suppression_edit
from apispec.model import Endpoint, Registry, load_registry

__all__ = [
    "ApispecError",
    "CallSite",
    "Checker",
    "Config",
    "Finding",
    "FixPlan",
    "Severity",
    "call_sites",
    "complete_filter",
    "config_keys",
    "expand_codes",
    "filter_fixes",
    "filter_tokens",
    "find_config",
    "fix_plans",
    "language_of",
    "lint_document",
    "load_config",
    "load_registry",
    "make_checker",
    "parse_severity",
    "parse_size",
    "read_document",
    "registry_for",
    "rule_url",
    "suppression",
    "workspace_files",
]

DEPRECATED_CODES = frozenset({"API001", "API002"})  # findings about endpoints going away
FILTER_CODE = "API006"


# -- rules ---------------------------------------------------------------------


def rule_url(code: str) -> str | None:
    """Where the rule's documentation lives (what `apispec rule CODE` prints)."""
    rule = BY_CODE.get(code)
    return rule.help_uri if rule else None


# -- configuration and linting -------------------------------------------------


def config_keys(path: Path) -> frozenset[str]:
    """The keys a configuration file sets, so that client settings fill only the rest.

    Called after `load_config` read the same file without error.
    """
    document = load_toml(read_input_text(path), str(path))
    table = (
        document.get("tool", {}).get("apispec", {}) if path.name == "pyproject.toml" else document
    )
    return frozenset(table)


def make_checker(
    config: Config,
    targets: tuple[str, ...],
    registry_dir: Path | None,
    overlays: tuple[Path, ...] = (),
) -> Checker:
    """A linter for one configuration, as `apispec lint` would build it (registry loaded once)."""
    registry = load_registry(registry_dir, overlays)
    return Checker(registry, Options(config, targets, registry_dir, overlays))


def registry_for(
    registry_dir: Path | None, overlays: tuple[Path, ...]
) -> tuple[Registry, Path | None, tuple[Path, ...], str | None]:
    """The registry with its overlays, as loaded, and None; when that fails, the bundled
    registry and why (an editor keeps linting with the spec's facts, and says so)."""
    try:
        return load_registry(registry_dir, overlays), registry_dir, overlays, None
    except (ApispecError, OSError) as exc:  # the message names the file or directory
        return load_registry(None), None, (), f"{exc}; using the bundled registry"


def lint_document(checker: Checker, text: str, name: str) -> tuple[list[Finding], str | None]:
    """(findings, None), or ((), why it was not linted): over the time budget
    (`file-timeout`, CPU time of the lint thread) or an internal error, as `apispec lint`
    reports such a file."""
    result = lint_in_budget(checker, text, name)
    if result.skipped is not None:
        return [], result.skipped.reason.removeprefix("not linted: ")
    return result.findings, None


def read_document(path: str, max_size: int) -> tuple[str | None, str | None]:
    """(text, None); (None, reason) when the CLI would skip it; (None, None): nothing to lint."""
    return read_text(path, max_size, worth_decoding)


def workspace_files(folder: Path, config: Config) -> list[str]:
    """The files `apispec lint FOLDER` would lint (honouring .gitignore and excludes)."""
    candidates, _skipped = discover(
        [folder],
        excludes=config.exclude,
        respect_gitignore=config.respect_gitignore,
        max_size=config.max_file_size,
    )
    return [c.path for c in candidates]


@dataclass(frozen=True)
class FixPlan:
    """A repair in file offsets: what an editor offers as a quick fix."""

    title: str
    applicability: str  # safe | unsafe | display-only
    edits: tuple[tuple[int, int, str], ...]  # (start, end, content), file offsets


def fix_plans(finding: Finding, start: int, filter_fixes: list[FilterFix]) -> list[FixPlan]:
    """The repairs of one finding that starts at file offset `start`: the linter's own
    (API002's successor rewrite), or the fixes of the filter diagnostic it reports."""
    fix = finding.fix
    if fix is not None:
        edits = tuple((e.start, e.end, e.content) for e in fix.edits)
        return [FixPlan(fix.message, str(fix.applicability), edits)]
    if finding.code != FILTER_CODE:
        return []
    # The engine's API006 message names the filter code: "invalid filter for X: FLT004 ...".
    return [f.plan for f in filter_fixes if f.start == start and f" {f.code} " in finding.message]


# -- filter fixes inside client code -------------------------------------------


@dataclass(frozen=True)
class FilterFix:
    """A filter diagnostic's fix mapped into the file, for the API006 finding at `start`."""

    start: int  # file offset where the diagnostic (and its API006 finding) starts
    code: str  # FLT code
    plan: FixPlan


# A fix, the query value it repairs, and that value once repaired.
_Candidate = tuple[FilterFix, QueryValue, str]
MAX_ALONE = 20  # past this many fixes in one batch, a failed batch is not retried one by one


def filter_fixes(
    text: str, path: str, registry: Registry, within: tuple[int, int] | None = None
) -> list[FilterFix]:
    """The fixes of the filters the linter checks in `text` (within a range of it).

    The filter's edits are mapped back through the query value's offsets; the
    result is kept only when linting the edited file finds the repaired filter
    exactly there. That one check covers every way a filter is written in code
    (escapes, URL encoding, interpolation): a fix that would need the host
    language's escaping is dropped rather than offered broken.
    """
    found: list[_Candidate] = []
    for reference in extract_references(text, path, registry):
        for query in reference.query:
            if query.name != "filter" or query.value is None or query.span is None:
                continue
            if within is not None and not (
                query.span.start <= within[1] and within[0] <= _value_end(query)
            ):
                continue
            diagnostics = check_filter(
                query.value, registry=registry, placeholder_spans=query.placeholder_spans
            )
            for d in diagnostics:
                if d.fix is None or d.fix.applicability == "display-only":
                    continue
                edits = tuple(
                    (_in_file(query, e.start), _in_file(query, e.end), e.content)
                    for e in d.fix.edits
                )
                plan = FixPlan(d.hint or f"fix {d.code}", d.fix.applicability, edits)
                expected = _applied(query.value, [(e.start, e.end, e.content) for e in d.fix.edits])
                found.append((FilterFix(_in_file(query, d.start), d.code, plan), query, expected))
    return _verified(text, path, registry, found)


def _value_end(query: QueryValue) -> int:
    assert query.span is not None
    if query.offset_map:
        return query.offset_map[-1] + 1
    return query.span.start + len(query.value or "")


def _in_file(query: QueryValue, index: int) -> int:
    """The file offset of character `index` of the query value (or of its end)."""
    assert query.span is not None and query.value is not None
    if query.offset_map is None:
        return query.span.start + index
    if index < len(query.offset_map):
        return query.offset_map[index]
    return query.offset_map[-1] + 1


def _applied(text: str, edits: Iterable[tuple[int, int, str]]) -> str:
    for start, end, content in sorted(edits, reverse=True):
        text = text[:start] + content + text[end:]
    return text


def _verified(text: str, path: str, registry: Registry, found: list[_Candidate]) -> list[FilterFix]:
    """The fixes whose edits give the repaired filter where it was, when linted again.

    Non-overlapping fixes are tried together; when that breaks some, each of
    the batch is tried alone, so that a broken neighbour does not condemn a
    good fix.
    """
    kept: list[FilterFix] = []
    pending = found
    while pending:
        batch, pending = _non_overlapping(pending)
        good = _surviving(text, path, registry, batch)
        if len(good) < len(batch) and len(batch) <= MAX_ALONE:
            good = [item for item in batch if _surviving(text, path, registry, [item])]
        kept.extend(fix for fix, _, _ in good)
    return sorted(kept, key=lambda f: (f.start, f.code))


def _surviving(
    text: str, path: str, registry: Registry, batch: list[_Candidate]
) -> list[_Candidate]:
    edits = [e for fix, _, _ in batch for e in fix.plan.edits]
    values = {
        (q.span.start, q.value)
        for r in extract_references(_applied(text, edits), path, registry)
        for q in r.query
        if q.name == "filter" and q.span is not None
    }
    survivors = []
    for item in batch:
        _, query, expected = item
        assert query.span is not None
        start = query.span.start
        shift = sum(len(c) - (e - s) for s, e, c in edits if s < start)
        if (start + shift, expected) in values:
            survivors.append(item)
    return survivors


def _non_overlapping(items: list[_Candidate]) -> tuple[list[_Candidate], list[_Candidate]]:
    taken: list[tuple[int, int]] = []
    batch, rest = [], []
    for item in items:
        spans = [(s, e) for s, e, _ in item[0].plan.edits]
        if any(s == ts or (s < te and ts < e) for s, e in spans for ts, te in taken):
            rest.append(item)
            continue
        taken.extend(spans)
        batch.append(item)
    return batch, rest


# -- calls and their endpoints (inlay hints) -----------------------------------


@dataclass(frozen=True)
class CallSite:
    """An API v2 path in the file and the registry endpoints it may call."""

    start: int
    end: int  # file offset just after the path text
    method: str | None
    endpoints: tuple[Endpoint, ...]


def call_sites(text: str, path: str, registry: Registry) -> list[CallSite]:
    sites = []
    for reference in extract_references(text, path, registry):
        found = match(registry, reference)
        if found.endpoint is not None:
            endpoints: tuple[Endpoint, ...] = (found.endpoint,)
        elif found.template is not None and reference.method is None:
            endpoints = tuple(e for e in found.endpoints if e.method == "GET") or found.endpoints
        else:
            continue
        sites.append(
            CallSite(reference.span.start, reference.span.end, reference.method, endpoints)
        )
    return sites


# -- suppressions ----------------------------------------------------------------


def suppression(text: str, line: int, code: str, path: str) -> tuple[int, str] | None:
    """(offset, text to insert) that suppresses `code` on `line` (1-based), or None."""
    edit = suppression_edit(text, line, code, path)
    return None if edit is None else (edit.offset, edit.content)
