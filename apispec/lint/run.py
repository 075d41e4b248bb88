"""One lint run from start to exit code: what `apispec lint` does, callable from Python.

Order matters and is documented: configuration, registry and targets are
settled first (any mistake there is exit 2 before a file is read); then files
are linted; then `--since`, the baseline and the fail level narrow the result.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import NamedTuple, TextIO

from apispec.lint.cache import open_store
from apispec.lint.config import Config, ConfigError, load_config, parse_seconds, parse_size
from apispec.lint.discover import discover, display_path, pattern_error
from apispec.lint.engine import LintResult, Options, lint_one
from apispec.lint.extract import STDIN, language_of
from apispec.lint.finding import DEFAULT_FAIL_ON, Finding, Severity, Skipped
from apispec.lint.pool import lint_files
from apispec.lint.replay import Walked
from apispec.lint.report import FORMATS
from apispec.lint.rules import expand_codes
from apispec.registry.load import load_registry
from apispec.registry.model import Registry
from apispec.support.exceptions import (
    EXIT_FINDINGS,
    EXIT_INTERNAL,
    EXIT_OK,
    EXIT_USAGE,
    UsageError,
    did_you_mean,
)
from apispec.support.inputs import is_directory, real_path

_FAIL_RANK = {
    "info": Severity.INFO.rank,
    "warning": Severity.WARNING.rank,
    "error": Severity.ERROR.rank,
}


@dataclass
class LintRequest:
    paths: list[Path] = field(default_factory=list)
    targets: list[str] = field(default_factory=list)
    registry: Path | None = None
    overlays: list[Path] = field(default_factory=list)
    config: Path | None = None
    select: list[str] | None = None
    ignore: list[str] = field(default_factory=list)
    exclude: list[str] = field(default_factory=list)
    respect_gitignore: bool = True
    follow_links: bool = False  # follow symlinks that lead outside the named paths too
    max_file_size: str | None = None
    file_timeout: str | None = None
    stdin_filename: str | None = None
    since: str | None = None
    fail_on: str | None = None
    baseline: Path | None = None
    write_baseline: Path | None = None
    fix: bool = False
    diff: bool = False
    unsafe_fixes: bool = False
    jobs: int | None = None
    upgrade_from: str | None = None  # report only what changes from this release to the target
    add_suppressions: bool = False  # write `apispec: ignore[CODE]` on each finding's line
    # called with (files done, files in all) while linting: a terminal's progress line
    progress: Callable[[int, int], None] | None = None
    cache: bool = True  # replay unchanged files' results (apispec.lint.cache)
    cache_dir: Path | None = None  # default: APISPEC_CACHE_DIR, else the user's cache directory
    show_calls: bool = False  # record every call found (LintResult.calls)


@dataclass
class Outcome:
    result: LintResult
    exit_code: int
    direct: str | None = None  # output that replaces the report (--diff, --write-baseline)
    # one-line messages for standard error: files not fixed or written (exit 2), warnings
    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    output_format: str | None = None  # the configuration's `output-format`, if it names one
    walked: Walked | None = None  # the walk and the files read besides: a replay's manifest


class _Settled(NamedTuple):
    config: Config
    options: Options
    registry: Registry
    target_default: str | None  # why the target was chosen, when nobody named one
    upgrade_from: str | None


def _settle(request: LintRequest, warnings: list[str]) -> _Settled:
    config = load_config(request.config)
    if request.select is not None:
        config.select = expand_codes(request.select, "--select")
    config.ignore |= expand_codes(request.ignore, "--ignore")
    config.exclude = [*config.exclude, *_valid_excludes(request.exclude, warnings)]
    if not request.respect_gitignore:
        config.respect_gitignore = False
    if request.max_file_size is not None:
        config.max_file_size = parse_size(request.max_file_size, "--max-file-size")
    if request.file_timeout is not None:
        config.file_timeout = parse_seconds(request.file_timeout, "--file-timeout")
    if request.fail_on is not None:
        config.fail_on = request.fail_on
    if config.output_format is not None and config.output_format not in FORMATS:
        hint = did_you_mean(config.output_format, FORMATS)
        raise ConfigError(
            f"{config.source}: output-format: unknown format {config.output_format!r}{hint}; "
            f"use one of {', '.join(FORMATS)}"
        )
    directory = request.registry or config.registry
    if directory is not None and not is_directory(directory):
        raise UsageError(f"--registry: not a directory: {directory}")
    # the configuration's overlays first, so the command line's win
    overlays = (*config.overlays, *(real_path(o) for o in request.overlays))
    registry = load_registry(real_path(directory) if directory else None, overlays)
    target_default = None
    if request.targets:
        targets = tuple(dict.fromkeys(registry.release(t).text for t in request.targets))
    elif config.target:
        try:
            targets = tuple(dict.fromkeys(registry.release(t).text for t in config.target))
        except UsageError as exc:
            raise ConfigError(f"{config.source}: target: {exc}") from None
    else:  # the server an overlay describes, else the newest concrete release
        release, target_default = registry.default_release
        targets = (release.text,)
    upgrade_from = None
    if request.upgrade_from is not None:
        if len(targets) != 1:
            raise UsageError("--upgrade-from compares two releases: give one target, not several")
        try:
            before = registry.release(request.upgrade_from)
        except UsageError as exc:
            raise UsageError(f"--upgrade-from: {exc}") from None
        after = registry.release(targets[0])
        if not before < after:
            raise UsageError(
                f"--upgrade-from {before} must be a release older than the target {after}"
            )
        upgrade_from = before.text
        targets = (before.text, after.text)
    options = Options(
        config,
        targets,
        real_path(directory) if directory else None,
        overlays,
        show_calls=request.show_calls,
    )
    return _Settled(config, options, registry, target_default, upgrade_from)


def _valid_excludes(patterns: list[str], warnings: list[str]) -> list[str]:
    """--exclude patterns that are valid globs; each other one is a warning and skipped."""
    valid = []
    for pattern in patterns:
        problem = pattern_error(pattern)
        if problem is None:
            valid.append(pattern)
        else:
            warnings.append(f"--exclude {pattern!r}: invalid pattern skipped ({problem})")
    return valid


def exit_code(findings: list[Finding], fail_on: str | None) -> int:
    level = fail_on or DEFAULT_FAIL_ON
    if level == "never":
        return EXIT_OK
    threshold = _FAIL_RANK[level]
    return EXIT_FINDINGS if any(f.severity.rank >= threshold for f in findings) else EXIT_OK


def execute(request: LintRequest, stdin: TextIO | None = None) -> Outcome:
    """One lint run: settle configuration and targets, lint, narrow, decide the exit code."""
    walks: list[Walked] = []
    outcome, config = _execute(request, stdin, walks)
    outcome.output_format = config.output_format
    outcome.walked = walks[0] if walks else None
    return outcome


def _execute(
    request: LintRequest, stdin: TextIO | None, walks: list[Walked]
) -> tuple[Outcome, Config]:
    errors: list[str] = []
    warnings: list[str] = []
    settled = _settle(request, warnings)
    config, options = settled.config, settled.options
    stdin_filename = request.stdin_filename
    if Path("-") in request.paths:  # `apispec lint -`: standard input
        if len(request.paths) > 1:
            raise UsageError("`-` reads standard input: give no other PATH with it")
        stdin_filename = stdin_filename or STDIN
    elif stdin_filename is not None and request.paths:
        raise UsageError("--stdin-filename reads standard input: give no PATH (or `-`)")
    if request.add_suppressions and (request.fix or request.diff or request.write_baseline):
        raise UsageError(
            "--add-suppressions writes comments, not fixes or a baseline: give it alone"
        )
    paths = request.paths or [Path(".")]
    text = None  # standard input's text
    if stdin_filename is not None:
        if stdin is None:
            raise UsageError("--stdin-filename: no standard input")
        text = stdin.read()
        if stdin_filename == STDIN and language_of(STDIN, text) == "generic":
            raise UsageError(
                "standard input: unknown language (no --stdin-filename, no shebang, and its "
                "text does not show one language); name it, e.g. `--stdin-filename script.py`"
            )
        one = lint_one(text, stdin_filename, options)
        skipped = [one.skipped] if one.skipped else []
        result = LintResult(
            one.findings, skipped, 1 - len(skipped), options.targets, calls=one.calls
        )
        if request.fix or request.diff:
            outcome = _fix_stdin(text, request, result, stdin_filename)
            outcome.warnings = warnings
            return outcome, config
    else:
        ignored: list[str] = []
        walk_warnings: list[str] = []
        candidates, skipped = discover(
            paths,
            excludes=config.exclude,
            respect_gitignore=config.respect_gitignore,
            max_size=config.max_file_size,
            warnings=walk_warnings,
            ignored=ignored,
            follow_links=request.follow_links,
        )
        warnings += walk_warnings
        inputs = [p for p in (config.source, options.registry_dir, request.baseline) if p]
        walks.append(
            Walked(
                [str(p) for p in paths],
                list(config.exclude),
                config.respect_gitignore,
                config.max_file_size,
                request.follow_links,
                candidates,
                list(skipped),
                list(ignored),
                walk_warnings,
                [*inputs, *options.overlays],
            )
        )
        store = open_store(options, request.cache_dir) if request.cache else None
        result = lint_files(candidates, options, request.jobs, store, request.progress)
        if store is not None and store.problem and store.named:
            warnings.append(store.problem)
        result.skipped = sorted(skipped + result.skipped, key=lambda s: s.path)
        result.ignored = ignored
        named_skipped = _check_named(request.paths, result)
        errors += [f"{s.path}: skipped: {s.reason}" for s in named_skipped]
        if not candidates and not named_skipped:
            _nothing_to_lint(request.paths, paths, result, errors, warnings)
        if request.fix or request.diff:
            from apispec.lint.rewrite import Fixer  # only runs that write import the writers

            fixer = Fixer(result, options, paths, request.unsafe_fixes, request.diff)
            diff = fixer.run()
            result.fixed = fixer.changed
            errors += fixer.errors
            warnings += fixer.warnings
            if request.diff:
                code = EXIT_FINDINGS if diff else EXIT_OK
                return Outcome(result, _worst(code, result, errors), diff, errors, warnings), config
    result.target_default = settled.target_default
    if settled.upgrade_from is not None:
        from apispec.lint.upgrade import changes

        after = options.targets[-1]
        result.findings = changes(result.findings, settled.upgrade_from, after, settled.registry)
        result.targets = (after,)
        result.upgrade_from = settled.upgrade_from
    if request.since:
        from apispec.lint.since import only_changed

        result.findings = only_changed(result.findings, request.since)
    if request.write_baseline is not None:
        from apispec.lint.baseline import write_baseline

        write_baseline(request.write_baseline, result.findings)
        shown = display_path(request.write_baseline.resolve())
        count = len(result.findings)
        message = f"Wrote {count} finding{'' if count == 1 else 's'} to {shown}.\n"
        return Outcome(result, _worst(EXIT_OK, result, errors), message, errors, warnings), config
    if request.baseline is not None:
        from apispec.lint.baseline import new_findings, read_baseline

        result.findings = new_findings(result.findings, read_baseline(request.baseline))
    if request.add_suppressions:
        outcome = _suppress(result, options, paths, text, stdin_filename, errors, warnings)
        return outcome, config
    result.endpoints = endpoint_facts(settled.registry, result.findings)
    code = exit_code(result.findings, config.fail_on)
    return Outcome(result, _worst(code, result, errors), None, errors, warnings), config


# A named file skipped for one of these reasons was not read at all: the run cannot vouch
# for it. Over the time budget and internal errors are the linter's limits, reported apart.
_NOT_READ = ("not linted:",)


def _check_named(named: list[Path], result: LintResult) -> list[Skipped]:
    """The files named on the command line that were skipped, marked `named`: each is an
    error (exit 2), not a pass, because CI that names a file expects it checked."""
    files = {display_path(os.path.abspath(p)) for p in named if not os.path.isdir(p)}
    marked = [
        replace(s, named=True) if s.path in files and not s.reason.startswith(_NOT_READ) else s
        for s in result.skipped
    ]
    result.skipped = marked
    return [s for s in marked if s.named]


def _nothing_to_lint(
    named: list[Path], paths: list[Path], result: LintResult, errors: list[str], warnings: list[str]
) -> None:
    """Say that a run linted no file at all: exit 2 when paths were named, else a warning."""
    where = ", ".join(str(p) for p in paths)
    why = []
    if result.ignored:
        n = len(result.ignored)
        why.append(f"{n} path{'s' if n != 1 else ''} ignored by .gitignore or --exclude")
    if result.skipped:
        n = len(result.skipped)
        why.append(f"{n} file{'s' if n != 1 else ''} skipped")
    message = f"no file to lint in {where}" + (f" ({'; '.join(why)})" if why else "")
    (errors if named else warnings).append(message)


def endpoint_facts(
    registry: Registry, findings: list[Finding]
) -> dict[tuple[str, str], dict[str, str | None]]:
    """The lifecycle of each endpoint the findings name, as the JSON and SARIF reports give it."""
    facts: dict[tuple[str, str], dict[str, str | None]] = {}
    for finding in findings:
        key = finding.endpoint
        if key is None or key in facts:
            continue
        endpoint = registry.find(*key)
        facts[key] = {
            "method": key[0],
            "path": key[1],
            "maturity": None if endpoint is None else str(endpoint.maturity),
            "since": _text(endpoint and endpoint.since),
            "deprecated_in": _text(endpoint and endpoint.deprecated_in),
            "removed_in": _text(endpoint and endpoint.removed_in),
            "successor": _text(endpoint and endpoint.successor),
        }
    return facts


def _text(value: object) -> str | None:
    return None if value is None else str(value)


def _worst(code: int, result: LintResult, errors: list[str]) -> int:
    """A file the linter crashed on is exit 3; a file over its time budget, or not fixed
    or written, exit 2; over findings, and over `--fail-on never`.

    A file nobody checked must never pass as findings nor as a clean run (docs/cli.md).
    """
    if any(s.internal for s in result.skipped):
        return EXIT_INTERNAL
    if errors or any(s.over_budget for s in result.skipped):
        return EXIT_USAGE
    return code


def _fix_stdin(text: str, request: LintRequest, result: LintResult, name: str) -> Outcome:
    from apispec.lint.fix import apply_fixes
    from apispec.lint.rewrite import unified

    fixed, _count = apply_fixes(text, result.findings, request.unsafe_fixes)
    if request.diff:
        diff = unified(text, fixed, name)
        return Outcome(result, EXIT_FINDINGS if diff else EXIT_OK, diff)
    return Outcome(result, EXIT_OK, fixed)


def _suppress(
    result: LintResult,
    options: Options,
    paths: list[Path],
    text: str | None,
    name: str | None,
    errors: list[str],
    warnings: list[str],
) -> Outcome:
    """`--add-suppressions`: a comment on each finding's line, as ruff's `--add-noqa`.

    Files are rewritten as `--fix` rewrites them; standard input comes back on
    standard output with the comments. The message says how many were added; a
    finding no comment can be written for (JSON, a continued line, a file not in
    UTF-8) is a warning naming it, so nobody believes it is quiet.
    """
    from apispec.lint.rewrite import Suppressor, add_suppressions

    if text is not None and name is not None:
        changed, added, refused = add_suppressions(text, result.findings, name)
        warnings += [_refused(f) for f in refused]
        return Outcome(result, _worst(EXIT_OK, result, errors), changed, errors, warnings)
    suppressor = Suppressor(result, options, paths)
    suppressor.run()
    errors += suppressor.errors
    warnings += suppressor.warnings + [_refused(f) for f in suppressor.refused]
    warnings += [
        f"{shown}: no suppressions added: not a UTF-8 file" for shown in suppressor.other_encoding
    ]
    added, files = suppressor.changed, suppressor.files
    message = (
        f"Added {added} suppression{'' if added == 1 else 's'} to "
        f"{files} file{'' if files == 1 else 's'}.\n"
    )
    return Outcome(result, _worst(EXIT_OK, result, errors), message, errors, warnings)


def _refused(f: Finding) -> str:
    return f"{f.path}:{f.line}: {f.code} not suppressed: no comment can be written on this line"
