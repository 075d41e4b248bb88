"""One lint run from start to exit code: what `apispec lint` does, callable from Python.

Order matters and is documented: configuration, registry and targets are
settled first (any mistake there is exit 2 before a file is read); then files
are linted; then `--since`, the baseline and the fail level narrow the result.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from apispec.exceptions import EXIT_FINDINGS, EXIT_OK, UsageError
from apispec.lint.config import Config, ConfigError, load_config, parse_seconds, parse_size
from apispec.lint.discover import discover, display_path
from apispec.lint.engine import LintResult, Options, lint_files, lint_one, lint_text
from apispec.lint.finding import Finding, Severity
from apispec.lint.rules import expand_codes
from apispec.model import load_registry

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
    config: Path | None = None
    select: list[str] | None = None
    ignore: list[str] = field(default_factory=list)
    exclude: list[str] = field(default_factory=list)
    respect_gitignore: bool = True
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


@dataclass
class Outcome:
    result: LintResult
    exit_code: int
    direct: str | None = None  # output that replaces the report (--diff, --write-baseline)


def _settle(request: LintRequest) -> tuple[Config, Options]:
    config = load_config(request.config)
    if request.select is not None:
        config.select = expand_codes(request.select, "--select")
    config.ignore |= expand_codes(request.ignore, "--ignore")
    config.exclude = [*config.exclude, *request.exclude]
    if not request.respect_gitignore:
        config.respect_gitignore = False
    if request.max_file_size is not None:
        config.max_file_size = parse_size(request.max_file_size, "--max-file-size")
    if request.file_timeout is not None:
        config.file_timeout = parse_seconds(request.file_timeout, "--file-timeout")
    if request.fail_on is not None:
        config.fail_on = request.fail_on
    directory = request.registry or config.registry
    if directory is not None and not directory.is_dir():
        raise UsageError(f"--registry: not a directory: {directory}")
    registry = load_registry(directory.resolve() if directory else None)
    if request.targets:
        targets = tuple(dict.fromkeys(registry.release(t).text for t in request.targets))
    elif config.target:
        try:
            targets = tuple(dict.fromkeys(registry.release(t).text for t in config.target))
        except UsageError as exc:
            raise ConfigError(f"{config.source}: target: {exc}") from None
    else:
        targets = (registry.newest_release.text,)
    options = Options(config, targets, directory.resolve() if directory else None)
    return config, options


def exit_code(findings: list[Finding], fail_on: str | None) -> int:
    level = fail_on or "error"
    if level == "never":
        return EXIT_OK
    threshold = _FAIL_RANK[level]
    return EXIT_FINDINGS if any(f.severity.rank >= threshold for f in findings) else EXIT_OK


def execute(request: LintRequest, stdin: TextIO | None = None) -> Outcome:
    config, options = _settle(request)
    if request.stdin_filename is not None:
        if request.paths:
            raise UsageError("--stdin-filename reads standard input: give no PATH (or `-`)")
        if stdin is None:
            raise UsageError("--stdin-filename: no standard input")
        text = stdin.read()
        one = lint_one(text, request.stdin_filename, options)
        skipped = [one.skipped] if one.skipped else []
        result = LintResult(one.findings, skipped, 1 - len(skipped), options.targets)
        if request.fix or request.diff:
            return _fix_stdin(text, request, result, config)
    else:
        candidates, skipped = discover(
            request.paths or [Path(".")],
            excludes=config.exclude,
            respect_gitignore=config.respect_gitignore,
            max_size=config.max_file_size,
        )
        result = lint_files(candidates, options, request.jobs)
        result.skipped = sorted(skipped + result.skipped, key=lambda s: s.path)
        if request.fix or request.diff:
            diff = _fix_files(result, request, options)
            if request.diff:
                return Outcome(result, EXIT_FINDINGS if diff else EXIT_OK, diff)
    if request.since:
        from apispec.lint.since import only_changed

        result.findings = only_changed(result.findings, request.since)
    if request.write_baseline is not None:
        from apispec.lint.baseline import write_baseline

        write_baseline(request.write_baseline, result.findings)
        shown = display_path(request.write_baseline.resolve())
        return Outcome(result, EXIT_OK, f"Wrote {len(result.findings)} findings to {shown}.\n")
    if request.baseline is not None:
        from apispec.lint.baseline import new_findings, read_baseline

        result.findings = new_findings(result.findings, read_baseline(request.baseline))
    return Outcome(result, exit_code(result.findings, config.fail_on))


def _fix_stdin(text: str, request: LintRequest, result: LintResult, config: Config) -> Outcome:
    from apispec.lint.fix import apply_fixes

    fixed, _count = apply_fixes(text, result.findings, request.unsafe_fixes)
    if request.diff:
        diff = _unified(text, fixed, request.stdin_filename or "-")
        return Outcome(result, EXIT_FINDINGS if diff else EXIT_OK, diff)
    return Outcome(result, EXIT_OK, fixed)


def _unified(before: str, after: str, name: str) -> str:
    return "".join(
        difflib.unified_diff(
            before.splitlines(keepends=True),
            after.splitlines(keepends=True),
            f"a/{name}",
            f"b/{name}",
        )
    )


def _utf8(path: Path) -> tuple[bytes, str] | None:
    """(BOM, text) of a UTF-8 file; None for any other encoding or an unreadable file."""
    try:
        data = path.read_bytes()
    except OSError:
        return None
    bom = data[:3] if data.startswith(b"\xef\xbb\xbf") else b""
    try:
        return bom, data[len(bom) :].decode("utf-8")
    except UnicodeDecodeError:
        return None


def _fix_files(result: LintResult, request: LintRequest, options: Options) -> str:
    """Apply (or, with --diff, show) fixes; re-lint fixed files so the report is current."""
    from apispec.lint.fix import apply_fixes

    by_path: dict[str, list[Finding]] = {}
    for f in result.findings:
        if f.fix is not None:
            by_path.setdefault(f.path, []).append(f)
    diffs = []
    refreshed: dict[str, list[Finding]] = {}
    for shown, findings in by_path.items():
        path = Path(shown)
        original = _utf8(path)
        if original is None:
            continue  # only UTF-8 files are rewritten: never change a file's encoding
        bom, text = original
        fixed, count = apply_fixes(text, findings, request.unsafe_fixes)
        if not count:
            continue
        if request.diff:
            diffs.append(_unified(text, fixed, shown))
            continue
        path.write_bytes(bom + fixed.encode("utf-8"))
        result.fixed += count
        refreshed[shown] = lint_text(fixed, shown, options)
    if refreshed:
        kept = [f for f in result.findings if f.path not in refreshed]
        kept.extend(f for found in refreshed.values() for f in found)
        result.findings = sorted(kept, key=lambda f: f.sort_key)
    return "".join(diffs)
