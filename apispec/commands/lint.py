"""`apispec lint [PATH...]`: find API v2 calls in client code and flag what breaks."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from apispec.commands import (
    add_format_option,
    add_output_option,
    add_registry_option,
    release_list,
)
from apispec.lint.finding import DEFAULT_FAIL_ON, FAIL_LEVELS
from apispec.lint.report import FORMATS

if TYPE_CHECKING:
    from apispec.lint.replay import Output
    from apispec.lint.run import Outcome


def _codes(value: str) -> list[str]:
    return [c for c in value.split(",") if c.strip()]


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "lint",
        help="find API v2 calls in client code and report what breaks",
        description="Find API v2 calls in client code and report removed, deprecated, "
        "experimental, unknown and not-yet-available endpoints, bad filters and more "
        "(see docs/linter.md; `apispec rule --all` lists the rules).",
    )
    p.add_argument(
        "paths", nargs="*", metavar="PATH", help="files or directories (default: .); - reads stdin"
    )
    p.add_argument(
        "--target",
        action="append",
        type=release_list,
        metavar="RELEASE",
        help="release the server runs (repeatable, or a comma list; default: the newest "
        "concrete release)",
    )
    p.add_argument(
        "--upgrade-from",
        metavar="RELEASE",
        help="report only what changes when the server moves from RELEASE to the target",
    )
    add_registry_option(p, help="lint against the registry in DIR")
    p.add_argument("--config", type=Path, metavar="FILE", help="configuration file to use")
    add_format_option(
        p, FORMATS, help="output format (default: full, or the configuration's output-format)"
    )
    add_output_option(p, help="write the report to FILE (default: standard output)")
    p.add_argument("--statistics", action="store_true", help="print counts per rule and endpoint")
    p.add_argument(
        "--quiet",
        "-q",
        action="store_true",
        help="print the findings only: no summary, no progress",
    )
    p.add_argument(
        "--show-skipped",
        action="store_true",
        help="list binary files and ignored paths (by default only counted)",
    )
    p.add_argument(
        "--show-calls",
        action="store_true",
        help="list every API v2 call found instead of the findings (text or json)",
    )
    p.add_argument(
        "--select", type=_codes, metavar="CODES", help="only these rules (comma list, prefixes)"
    )
    p.add_argument("--ignore", type=_codes, metavar="CODES", help="skip these rules as well")
    p.add_argument(
        "--exclude",
        action="append",
        default=[],
        metavar="GLOB",
        help="skip paths matching GLOB (repeatable)",
    )
    p.add_argument("--no-gitignore", action="store_true", help="do not honour .gitignore files")
    p.add_argument(
        "--follow-links",
        action="store_true",
        help="also follow symlinks that lead outside the given paths",
    )
    p.add_argument("--max-file-size", metavar="SIZE", help="skip larger files (default 5MB)")
    p.add_argument(
        "--file-timeout",
        metavar="SECONDS",
        help="skip a file that takes more CPU seconds to lint (default 10; 0: no limit)",
    )
    p.add_argument("--stdin-filename", metavar="NAME", help="lint standard input as file NAME")
    p.add_argument(
        "--since", metavar="GIT_REF", help="only findings on lines changed since GIT_REF"
    )
    p.add_argument(
        "--fail-on",
        choices=FAIL_LEVELS,
        help=f"lowest severity that exits 1 (default: {DEFAULT_FAIL_ON}: errors and warnings "
        "such as deprecated calls, an unknown query parameter or a limit over the maximum "
        "fail; experimental calls are info and pass)",
    )
    p.add_argument("--baseline", type=Path, metavar="FILE", help="report only findings not in FILE")
    p.add_argument(
        "--write-baseline", type=Path, metavar="FILE", help="write all findings to FILE and exit 0"
    )
    p.add_argument(
        "--fix",
        action="store_true",
        help="apply the safe fixes: deprecated paths rewritten to their successors and filter "
        "strings repaired (API006); then report what is left",
    )
    p.add_argument("--diff", action="store_true", help="show the fixes as a diff, change nothing")
    p.add_argument("--unsafe-fixes", action="store_true", help="also apply unsafe fixes")
    p.add_argument(
        "--add-suppressions",
        action="store_true",
        help="write an `apispec: ignore[CODE]` comment on the line of each finding",
    )
    p.add_argument(
        "--jobs", "-j", type=int, metavar="N", help="worker processes (default: all cores)"
    )
    p.add_argument(
        "--no-cache",
        action="store_true",
        help="lint every file, neither reading nor writing the cache",
    )
    p.add_argument(
        "--cache-dir",
        type=Path,
        metavar="DIR",
        help="keep the lint cache in DIR (default: APISPEC_CACHE_DIR, else the user cache directory)",
    )
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    import sys
    import time

    from apispec.lint.replay import Manifest, Output, replayable
    from apispec.support.terminal import interactive

    started_ns = time.time_ns()  # before anything is read: what a replay may trust
    started = time.perf_counter()
    to_terminal = args.output is None and interactive(sys.stdout)
    manifest = Manifest(args, started_ns) if replayable(args, to_terminal) else None
    if manifest is not None:
        stored = manifest.replay()
        if stored is not None:  # nothing the report depends on changed: the linter stays unloaded
            return _replay(args, stored)
    outcome, stdout, report_file, code = _lint(args, started, to_terminal)
    errors = _problems(outcome)
    if report_file is not None:
        from apispec.support.outputs import write_atomic

        write_atomic(args.output, report_file)
    sys.stdout.write(stdout)
    # a file not linted (time budget, internal error) is tried again next time, never replayed
    retry = any(s.reason.startswith("not linted:") for s in outcome.result.skipped)
    if manifest is not None and outcome.walked is not None and outcome.direct is None and not retry:
        manifest.save(outcome.walked, Output(stdout, errors, report_file, code))
    return code


def _lint(
    args: argparse.Namespace, started: float, to_terminal: bool
) -> tuple[Outcome, str, str | None, int]:
    """Lint as the options say: (outcome, standard output, `--output` text, exit code)."""
    import sys
    import time

    from apispec.lint.pool import fewer_collections
    from apispec.lint.run import LintRequest, execute
    from apispec.support.terminal import Progress, color_for, interactive

    reads_stdin = args.stdin_filename is not None or "-" in args.paths
    progress = (
        Progress(sys.stderr)
        if interactive(sys.stderr) and not args.quiet and not reads_stdin
        else None
    )
    request = LintRequest(
        paths=[Path(p) for p in args.paths],
        targets=[t for group in args.target or [] for t in group],
        upgrade_from=args.upgrade_from,
        add_suppressions=args.add_suppressions,
        progress=progress,
        registry=args.registry,
        overlays=args.overlay,
        config=args.config,
        select=args.select,
        ignore=args.ignore or [],
        exclude=args.exclude,
        respect_gitignore=not args.no_gitignore,
        follow_links=args.follow_links,
        max_file_size=args.max_file_size,
        file_timeout=args.file_timeout,
        stdin_filename=args.stdin_filename,
        since=args.since,
        fail_on=args.fail_on,
        baseline=args.baseline,
        write_baseline=args.write_baseline,
        fix=args.fix,
        diff=args.diff,
        unsafe_fixes=args.unsafe_fixes,
        jobs=args.jobs,
        cache=not args.no_cache,
        cache_dir=args.cache_dir,
        show_calls=args.show_calls,
    )
    if args.show_calls and args.format not in (None, "json", *_TEXT):
        from apispec.support.exceptions import UsageError

        raise UsageError(f"--show-calls lists calls as text or json, not {args.format}")
    try:
        with fewer_collections():
            outcome = execute(request, stdin=sys.stdin)
    finally:
        if progress is not None:
            progress.clear()
    if outcome.result.files == 0 and outcome.errors and not outcome.result.findings:
        # nothing was checked (`apispec lint nope/`): the error line says why, and a report
        # would only add "No findings" about files nobody read
        return outcome, "", None, outcome.exit_code
    if outcome.direct is not None:  # --diff, --fix on stdin, --write-baseline, --add-suppressions
        return outcome, outcome.direct, None, outcome.exit_code
    from apispec.lint.report import render
    from apispec.lint.report.text import statistics
    from apispec.lint.report.view import View

    fmt = args.format or outcome.output_format or "full"
    view = View(
        color=args.output is None and color_for(sys.stdout),
        unsafe_fixes=args.unsafe_fixes,
        show_skipped=args.show_skipped,
        # a report in a pipe or file is the same for the same tree: no clock in it
        elapsed=time.perf_counter() - started if to_terminal else None,
        quiet=args.quiet,
    )
    if args.show_calls:
        from apispec.lint.inventory import render as inventory

        report = inventory("json" if fmt == "json" else "text", outcome.result)
    elif args.statistics and fmt in _TEXT:
        report = statistics(outcome.result)
    else:
        report = render(fmt, outcome.result, view)
    code = outcome.exit_code
    if args.show_calls and code == 1:
        code = 0  # an inventory, not a verdict: findings do not fail it
    if args.output:
        extra = statistics(outcome.result) if args.statistics and fmt not in _TEXT else ""
        return outcome, extra, report, code
    return outcome, report, None, code


def _replay(args: argparse.Namespace, stored: Output) -> int:
    """Print (and write) what the manifest's run did, as it did."""
    import sys

    for line in stored.stderr:
        print(line, file=sys.stderr)
    if stored.report_file is not None:
        from apispec.support.outputs import write_atomic

        write_atomic(args.output, stored.report_file)
    sys.stdout.write(stored.stdout)
    return stored.exit_code


_TEXT = ("full", "concise", "text")


def _problems(outcome: Outcome) -> list[str]:
    """Warnings, files not fixed, and files apispec crashed on: one line each on stderr.

    The lines are returned as printed, for a replay to print them again.
    """
    import sys

    from apispec.support.printable import printable

    lines = [f"apispec: warning: {printable(m)}" for m in outcome.warnings]
    lines += [f"apispec: error: {printable(m)}" for m in outcome.errors]
    for skipped in outcome.result.skipped:
        if skipped.over_budget:
            lines.append(f"apispec: error: {printable(f'{skipped.path}: {skipped.reason}')}")
        if skipped.internal:
            line = f"{skipped.path}: {skipped.reason} (set APISPEC_DEBUG=1 for the traceback)"
            lines.append(f"apispec: internal error: {printable(line)}")
    for line in lines:
        print(line, file=sys.stderr)
    return lines
