"""The linter's engine: references in, findings out, per target release.

Extraction (apispec.lint.extract) says where a file calls the API; matching
(apispec.lint.match) says which registry endpoint that is; this module decides
what is wrong with the call for each target release, applies configuration and
suppressions. Many files (the passes, the process pool, the cache) are pool.py's.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from hashlib import sha256
from pathlib import Path
from typing import Any

from apispec.lint import budget, suppress
from apispec.lint.call_check import CallChecker, maturity_in
from apispec.lint.comment_lines import CommentLines
from apispec.lint.config import Config
from apispec.lint.extract import extract
from apispec.lint.finding import CallRecord, Edit, Finding, Fix, Skipped
from apispec.lint.helpers import Helper, HelperTable
from apispec.lint.lines import LfText, Lines, lf_text
from apispec.lint.match import match
from apispec.lint.prefilter import might_reference, worth_decoding
from apispec.lint.reference import Reference
from apispec.lint.rules import BY_CODE, Hook, in_hook
from apispec.lint.rules.context import FileContext, RunContext
from apispec.registry.load import load_registry
from apispec.registry.model import Registry
from apispec.support.exceptions import debug_traceback


@dataclass(frozen=True)
class Options:
    """Everything a worker needs to lint a file; picklable."""

    config: Config
    targets: tuple[str, ...]
    registry_dir: Path | None = None
    overlays: tuple[Path, ...] = ()
    # API helpers other files define (the repository pass): their call sites are calls
    helpers: HelperTable | None = None
    show_calls: bool = False  # keep a record of every call found (--show-calls)


@dataclass
class FileResult:
    path: str
    findings: list[Finding] = field(default_factory=list)
    skipped: Skipped | None = None
    helpers: list[Helper] = field(default_factory=list)  # the API helpers the file defines
    calls: list[CallRecord] = field(default_factory=list)  # with Options.show_calls

    @property
    def worth_returning(self) -> bool:
        return bool(self.findings or self.skipped or self.helpers or self.calls)


@dataclass
class LintResult:
    findings: list[Finding]
    skipped: list[Skipped]
    files: int
    targets: tuple[str, ...]
    fixed: int = 0  # findings --fix repaired in this run
    # paths a walk left out because of .gitignore or --exclude (a directory once, with `/`)
    ignored: list[str] = field(default_factory=list)
    target_default: str | None = None  # why the target was chosen, when nobody named it
    upgrade_from: str | None = None  # --upgrade-from: only what changes from this release
    # (method, path) -> the endpoint's lifecycle facts, for the machine-readable reports
    endpoints: dict[tuple[str, str], dict[str, str | None]] = field(default_factory=dict)
    calls: list[CallRecord] = field(default_factory=list)  # with Options.show_calls


class Checker:
    """Runs the enabled rules on one file's references; one per process."""

    def __init__(self, registry: Registry, options: Options) -> None:
        self.registry = registry
        self.options = options
        self.config = options.config
        base = HelperTable(self.config.helpers)
        self.helpers = base.merged(options.helpers) if options.helpers else base
        self.defined: list[Helper] = []  # what the last file linted defines
        self.calls: list[CallRecord] = []  # the last file's calls, with Options.show_calls
        # helper names in any case (PowerShell's commands ignore case; a lowering may keep
        # a language's names in lower case), as the repository pass looks for them
        names = tuple(
            {h.name.lower().encode("utf-8", "surrogateescape") for h in self.helpers.helpers}
        )
        self.worth_decoding = (
            (lambda data: worth_decoding(data) or any(n in data.lower() for n in names))
            if names
            else worth_decoding
        )
        targets = tuple(registry.release(t) for t in options.targets)
        self.run = RunContext(registry, targets, frozenset(BY_CODE))
        enabled = self.config.enabled
        self.call_checker = CallChecker(self.run, enabled)
        self._file = [row.module.check for row in in_hook(Hook.FILE) if enabled(row.code)]
        self._suppression = [
            row.module.check for row in in_hook(Hook.SUPPRESSION) if enabled(row.code)
        ]

    # -- one file -------------------------------------------------------------

    def lint_text(self, text: str, path: str) -> list[Finding]:
        """Every finding in one file's text, configured, suppressed and positioned."""
        self.defined = []
        self.calls = []
        lf = lf_text(text)
        text = lf.text
        has_marker = "apispec:" in text
        if not might_reference(text) and not has_marker and not self.helpers:
            return []
        lines = Lines(text)
        file = FileContext(self.run, text, path, lines, self.config.root)
        findings: list[Finding] = []
        extraction = extract(text, path, self.registry, self.helpers, lines)
        file.references = extraction.references
        self.defined = extraction.helpers
        for index, reference in enumerate(file.references):
            if not index & 15:  # reading the thread's CPU clock is a system call: not per call
                budget.check()
            findings.extend(self.call_checker.check(file, reference))
        if self.options.show_calls:
            self.calls = [self._record(path, ref) for ref in file.references]
        for check_file in self._file:
            findings.extend(check_file(file))
        findings = self._configure(findings, path)
        if has_marker:
            suppressions = suppress.parse(text)
            places: list[CommentLines] = []  # scanned only if a finding's own line is quiet

            def anchor(line: int) -> int | None:
                if not places:
                    places.append(CommentLines(text, path))
                return places[0].anchor(line)

            findings, used = suppress.apply(findings, suppressions, anchor)
            for check_unused in self._suppression:  # configured too: per-file ignores, severity
                findings.extend(self._configure(list(check_unused(file, suppressions, used)), path))
        return _finish(_unique(findings), lines, lf)

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

    def _record(self, path: str, ref: Reference) -> CallRecord:
        """The inventory line of one call: what it names and how mature that is."""
        found = match(self.registry, ref)
        shown = "/" + "/".join("{id}" if s.is_param else s.text for s in ref.segments)
        if found.template is None:
            maturity = "unknown"
        elif found.alternatives:
            maturity = "variable collection"
        elif ref.method and found.endpoint is None:
            maturity = "method not listed"
        else:
            endpoint = found.endpoint or next(
                (e for e in found.endpoints if e.method == "GET"), found.endpoints[0]
            )
            maturity = maturity_in(self.registry, endpoint, self.run.targets[0])
        return CallRecord(
            path,
            ref.line,
            ref.column,
            found.named_method,
            shown,
            found.template,
            maturity,
            ref.evidence,
        )


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
    return sha256(data.encode("utf-8", "surrogateescape")).hexdigest()[:32]  # any file name


def _finish(findings: list[Finding], lines: Lines, lf: LfText) -> list[Finding]:
    """Sort, then give each finding its line's text, its fingerprint, and its fix's edits
    their positions (offsets into the text as read: `lf` took the CRs of CRLFs out).

    Each line is cut, normalised and hashed once however many findings it
    holds (a URL with thousands of query parameters is one line): the
    fingerprint continues a copy of the line's hash, equal to `fingerprint()`.
    """
    findings.sort(key=lambda f: f.sort_key)
    counts: dict[tuple[str, str, str | None], int] = {}
    texts: dict[int, tuple[str, str]] = {}  # line: (text, normalized text)
    hashes: dict[tuple[str, int], Any] = {}  # (code, line): sha256 of code, path, line
    for f in findings:
        known = texts.get(f.line)
        if known is None:
            line_text = lines.line_text(f.line)
            known = texts[f.line] = (line_text, normalized(line_text))
        text, norm = known
        key = (f.code, norm, f.target)
        occurrence = counts.get(key, 0)
        counts[key] = occurrence + 1
        f.line_text = text
        start = hashes.get((f.code, f.line))
        if start is None:
            start = hashes[(f.code, f.line)] = sha256(
                f"{f.code}\0{f.path}\0{norm}".encode("utf-8", "surrogateescape")
            )
        digest = start.copy()
        digest.update(f"\0{f.target or ''}\0{occurrence}".encode())
        f.fingerprint = digest.hexdigest()[:32]
        if f.fix is not None:
            f.fix = _positioned(f.fix, lines, lf)
    return findings


def _positioned(fix: Fix, lines: Lines, lf: LfText) -> Fix:
    """The fix with line and column on each edit (built directly: replace() is slow)."""
    edits = []
    for edit in fix.edits:
        line, column = lines.position(edit.start)
        end_line, end_column = lines.position(edit.end)
        start, end = lf.original(edit.start), lf.original(edit.end)
        edits.append(Edit(start, end, edit.content, line, column, end_line, end_column))
    return Fix(fix.message, fix.applicability, tuple(edits))


def lint_in_budget(checker: Checker, text: str, shown: str) -> FileResult:
    """One file's findings, or why it was skipped: over its time budget, or a crash."""
    seconds = checker.config.file_timeout
    try:
        with budget.deadline(seconds):
            findings = checker.lint_text(text, shown)
            return FileResult(shown, findings, None, checker.defined, checker.calls)
    except budget.TimeBudgetExceeded:
        reason = f"not linted: took longer than the time budget of {seconds:g} s (--file-timeout)"
        return FileResult(shown, skipped=Skipped(shown, reason, over_budget=True))
    except Exception as exc:  # one odd file must not end the run; it ends with exit 3
        debug_traceback()
        reason = f"not linted: internal error ({type(exc).__name__}: {exc}); please report it"
        return FileResult(shown, skipped=Skipped(shown, reason, internal=True))


def lint_text(text: str, path: str, options: Options) -> list[Finding]:
    """The findings of one text linted as file `path`, without a time budget.

    A stable entry point for other consumers (the language server keeps a
    Checker and calls `Checker.lint_text`, the same thing without reloading
    the registry); wrap it in `budget.deadline(seconds)` for a limit.
    """
    return Checker(load_registry(options.registry_dir, options.overlays), options).lint_text(
        text, path
    )


def lint_one(text: str, path: str, options: Options) -> FileResult:
    """One text as `lint_files` lints a file: within the time budget, a crash reported as a skip."""
    return lint_in_budget(
        Checker(load_registry(options.registry_dir, options.overlays), options), text, path
    )
