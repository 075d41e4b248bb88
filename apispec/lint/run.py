"""One lint run from start to exit code: what `apispec lint` does, callable from Python.

Order matters and is documented: configuration, registry and targets are
settled first (any mistake there is exit 2 before a file is read); then files
are linted; then `--since`, the baseline and the fail level narrow the result.
"""

from __future__ import annotations

import difflib
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from apispec.exceptions import EXIT_FINDINGS, EXIT_INTERNAL, EXIT_OK, EXIT_USAGE, UsageError
from apispec.inputs import InputError
from apispec.lint.config import Config, ConfigError, load_config, parse_seconds, parse_size
from apispec.lint.discover import discover, display_path, pattern_error
from apispec.lint.engine import LintResult, Options, lint_files, lint_one, lint_text
from apispec.lint.finding import Finding, Severity
from apispec.lint.fix import apply_fixes
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
    overlays: list[Path] = field(default_factory=list)
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
    show_calls: bool = False  # record every call found (LintResult.calls)


@dataclass
class Outcome:
    result: LintResult
    exit_code: int
    direct: str | None = None  # output that replaces the report (--diff, --write-baseline)
    # one-line messages for standard error: files not fixed or written (exit 2), warnings
    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def _settle(request: LintRequest, warnings: list[str]) -> tuple[Config, Options]:
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
    directory = request.registry or config.registry
    if directory is not None and not directory.is_dir():
        raise UsageError(f"--registry: not a directory: {directory}")
    # the configuration's overlays first, so the command line's win
    overlays = (*config.overlays, *(o.resolve() for o in request.overlays))
    registry = load_registry(directory.resolve() if directory else None, overlays)
    if request.targets:
        targets = tuple(dict.fromkeys(registry.release(t).text for t in request.targets))
    elif config.target:
        try:
            targets = tuple(dict.fromkeys(registry.release(t).text for t in config.target))
        except UsageError as exc:
            raise ConfigError(f"{config.source}: target: {exc}") from None
    else:  # the server an overlay describes, else the newest release
        described = [o.release for o in registry.overlays if o.release is not None]
        targets = ((described[-1] if described else registry.newest_release).text,)
    options = Options(
        config,
        targets,
        directory.resolve() if directory else None,
        overlays,
        show_calls=request.show_calls,
    )
    return config, options


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
    level = fail_on or "error"
    if level == "never":
        return EXIT_OK
    threshold = _FAIL_RANK[level]
    return EXIT_FINDINGS if any(f.severity.rank >= threshold for f in findings) else EXIT_OK


def execute(request: LintRequest, stdin: TextIO | None = None) -> Outcome:
    errors: list[str] = []
    warnings: list[str] = []
    config, options = _settle(request, warnings)
    if request.stdin_filename is not None:
        if request.paths:
            raise UsageError("--stdin-filename reads standard input: give no PATH (or `-`)")
        if stdin is None:
            raise UsageError("--stdin-filename: no standard input")
        text = stdin.read()
        one = lint_one(text, request.stdin_filename, options)
        skipped = [one.skipped] if one.skipped else []
        result = LintResult(one.findings, skipped, 1 - len(skipped), options.targets, 0, one.calls)
        if request.fix or request.diff:
            outcome = _fix_stdin(text, request, result, config)
            outcome.warnings = warnings
            return outcome
    else:
        paths = request.paths or [Path(".")]
        candidates, skipped = discover(
            paths,
            excludes=config.exclude,
            respect_gitignore=config.respect_gitignore,
            max_size=config.max_file_size,
            warnings=warnings,
        )
        result = lint_files(candidates, options, request.jobs)
        result.skipped = sorted(skipped + result.skipped, key=lambda s: s.path)
        if request.fix or request.diff:
            fixer = _Fixer(result, request, options, paths)
            diff = fixer.run()
            errors += fixer.errors
            warnings += fixer.warnings
            if request.diff:
                code = EXIT_FINDINGS if diff else EXIT_OK
                return Outcome(result, _worst(code, result, errors), diff, errors, warnings)
    if request.since:
        from apispec.lint.since import only_changed

        result.findings = only_changed(result.findings, request.since)
    if request.write_baseline is not None:
        from apispec.lint.baseline import write_baseline

        write_baseline(request.write_baseline, result.findings)
        shown = display_path(request.write_baseline.resolve())
        message = f"Wrote {len(result.findings)} findings to {shown}.\n"
        return Outcome(result, _worst(EXIT_OK, result, errors), message, errors, warnings)
    if request.baseline is not None:
        from apispec.lint.baseline import new_findings, read_baseline

        result.findings = new_findings(result.findings, read_baseline(request.baseline))
    code = exit_code(result.findings, config.fail_on)
    return Outcome(result, _worst(code, result, errors), None, errors, warnings)


def _worst(code: int, result: LintResult, errors: list[str]) -> int:
    """A file the linter crashed on is exit 3, a file not fixed or written exit 2, over findings.

    A crash must never pass as findings nor as a clean run (docs/cli.md).
    """
    if any(s.internal for s in result.skipped):
        return EXIT_INTERNAL
    if errors:
        return EXIT_USAGE
    return code


def _fix_stdin(text: str, request: LintRequest, result: LintResult, config: Config) -> Outcome:
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


def _utf8(data: bytes) -> tuple[bytes, str] | None:
    """(BOM, text) of a UTF-8 file's bytes; None for any other encoding."""
    bom = data[:3] if data.startswith(b"\xef\xbb\xbf") else b""
    try:
        return bom, data[len(bom) :].decode("utf-8")
    except UnicodeDecodeError:
        return None


def _below(real: str, roots: list[str]) -> bool:
    return any(real == root or real.startswith(root.rstrip(os.sep) + os.sep) for root in roots)


class _Fixer:
    """`--fix` and `--diff` over linted files: each file once, never a stale or partial write.

    A file reached under several names (a symlink and its target, hard links)
    is one file: its names are grouped by (device, inode) and it is fixed once.
    A symlink is written through only when its target lies below a path given
    to the run. The text is read once here, linted again so that the fixes
    match exactly these bytes, and written with `write_atomic`, which refuses
    when the file changed since it was read.
    """

    def __init__(
        self, result: LintResult, request: LintRequest, options: Options, paths: list[Path]
    ) -> None:
        self.result = result
        self.request = request
        self.options = options
        self.roots = [os.path.realpath(p) for p in paths]
        self.errors: list[str] = []
        self.warnings: list[str] = []

    def _files(self) -> list[tuple[str, list[str]]]:
        """(real path, display names) of each file with a fix, once per (device, inode)."""
        names = sorted({f.path for f in self.result.findings if f.fix is not None})
        groups: dict[tuple[int, int], list[str]] = {}
        for shown in names:
            try:
                info = os.stat(shown)
            except OSError as exc:
                self.errors.append(f"{shown}: cannot fix: {exc.strerror or exc}")
                continue
            groups.setdefault((info.st_dev, info.st_ino), []).append(shown)
        files = []
        for shown_names in groups.values():
            reals = sorted({os.path.realpath(n) for n in shown_names})
            inside = [r for r in reals if _below(r, self.roots)]
            if not inside:
                self.warnings.append(
                    f"{shown_names[0]}: not fixed: a symlink to {reals[0]}, "
                    "outside the paths given to apispec"
                )
                continue
            links = os.stat(inside[0]).st_nlink
            if links > len(inside):
                self.warnings.append(
                    f"{shown_names[0]}: not fixed: the file has {links} hard links and only "
                    f"{len(inside)} of them are below the paths given to apispec"
                )
                continue
            files.append((inside[0], shown_names))
        return files

    def run(self) -> str:
        """Apply (or with --diff show) the fixes; the report is re-linted where files changed."""
        from apispec.outputs import WriteError, link_atomic, read_for_update, write_atomic

        diffs = []
        refreshed: dict[str, list[Finding]] = {}
        for real, names in self._files():
            shown = next((n for n in names if os.path.realpath(n) == os.path.abspath(n)), names[0])
            try:
                data, state = read_for_update(real, self.options.config.max_file_size)
            except (OSError, InputError) as exc:
                self.errors.append(f"{shown}: cannot fix: {getattr(exc, 'reason', exc)}")
                continue
            original = _utf8(data)
            if original is None:
                continue  # only UTF-8 files are rewritten: never change a file's encoding
            bom, text = original
            findings = lint_text(text, shown, self.options)  # for exactly these bytes
            fixed, count = apply_fixes(text, findings, self.request.unsafe_fixes)
            if not count:
                continue
            if self.request.diff:
                diffs.append(_unified(text, fixed, shown))
                continue
            try:
                write_atomic(real, bom + fixed.encode("utf-8"), expected=state, name=shown)
                for other in {os.path.realpath(n) for n in names} - {real}:
                    if _below(other, self.roots):
                        link_atomic(real, other)  # hard links stay one file
            except WriteError as exc:
                self.errors.append(str(exc))
                continue
            self.result.fixed += count
            for name in names:
                refreshed[name] = lint_text(fixed, name, self.options)
        if refreshed:
            kept = [f for f in self.result.findings if f.path not in refreshed]
            kept.extend(f for found in refreshed.values() for f in found)
            self.result.findings = sorted(kept, key=lambda f: f.sort_key)
        return "".join(diffs)
