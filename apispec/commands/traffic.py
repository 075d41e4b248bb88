"""`apispec traffic FILE... | -`: which endpoints clients really call, from logs and HAR files."""

from __future__ import annotations

import argparse
from pathlib import Path

from apispec.commands import add_registry_option, output_path, release_list, write_output
from apispec.lint.finding import FAIL_LEVELS
from apispec.runtime.report import FORMATS

# apispec.runtime.readers.FORMATS, kept here so that parsing the command line loads no
# reader (a test keeps the two equal).
FORMATS_IN = ("har", "proxy", "iis", "mock", "combined", "jsonl", "common")


def _field(text: str) -> tuple[str, str]:
    name, equals, key = text.partition("=")
    if not equals or not name.strip() or not key.strip():
        raise argparse.ArgumentTypeError(
            f"expected NAME=KEY (such as path=request.uri), not {text!r}"
        )
    return name.strip(), key.strip()


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "traffic",
        help="report which endpoints clients really call, from HAR files and access logs",
        description="Read HAR files, access logs (nginx/Apache combined or common, IIS W3C), "
        "JSON lines, `apispec mock --log` and `apispec proxy --log` output; match each request "
        "to the registry as the linter does and report per endpoint and client "
        "(see docs/runtime.md).",
    )
    p.add_argument(
        "inputs", nargs="*", metavar="FILE", help="log files, gzip or not (default and -: stdin)"
    )
    p.add_argument(
        "--format-in",
        choices=FORMATS_IN,
        help="the input format (default: recognised from each input's content)",
    )
    p.add_argument(
        "--client-field",
        default="auto",
        metavar="FIELD",
        help="what names a client: user-agent, address, user, or a field of the log "
        "(a JSON key, a W3C field, a HAR request header); default: the User-Agent, else "
        "the address",
    )
    p.add_argument(
        "--field",
        type=_field,
        action="append",
        default=[],
        metavar="NAME=KEY",
        help="JSON lines: read NAME (method, path, status, time, address, user-agent, user, "
        "request_id, request, authorization) from KEY, dotted for nested objects (repeatable)",
    )
    p.add_argument(
        "--target",
        action="append",
        type=release_list,
        metavar="RELEASE",
        help="release the server runs (repeatable, or a comma list; default: the newest "
        "concrete release)",
    )
    add_registry_option(p, help="match against the registry in DIR")
    p.add_argument(
        "--calls",
        type=Path,
        metavar="FILE",
        help="join with the calls in code: the output of `apispec lint --show-calls --format json`",
    )
    p.add_argument(
        "--format", choices=FORMATS, default="full", help="output format (default: full)"
    )
    p.add_argument(
        "--output",
        "-o",
        type=output_path,
        metavar="FILE",
        help="write the report to FILE (-: stdout)",
    )
    p.add_argument(
        "--fail-on",
        choices=FAIL_LEVELS,
        default="error",
        help="lowest severity that fails (default: error)",
    )
    p.add_argument("--quiet", "-q", action="store_true", help="no progress, no warnings")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    import sys

    from apispec.runtime.readers.json_lines import field_keys
    from apispec.runtime.readers.options import ReadOptions
    from apispec.runtime.report import render
    from apispec.runtime.run import TrafficRequest, execute
    from apispec.support.printable import printable
    from apispec.support.terminal import Progress, interactive

    if not args.inputs and sys.stdin.isatty():  # nothing named, nothing piped: say so, never wait
        from apispec.support.exceptions import UsageError

        raise UsageError("name a log file (or -), or pipe one to `apispec traffic`")
    fields = dict(args.field)
    field_keys(fields)  # a mistyped NAME is a usage error before anything is read
    progress = None
    if interactive(sys.stderr) and not args.quiet:
        progress = Progress(sys.stderr, what="Reading", unit="MB")
    request = TrafficRequest(
        inputs=args.inputs,
        format_in=args.format_in,
        options=ReadOptions(args.client_field, fields),
        targets=[t for group in args.target or [] for t in group],
        registry=args.registry,
        overlays=args.overlay,
        calls=args.calls,
        fail_on=args.fail_on,
        progress=(lambda done, total: progress(done >> 20, total >> 20)) if progress else None,
    )
    try:
        outcome = execute(request, sys.stdin.buffer)
    finally:
        if progress is not None:
            progress.clear()
    if not args.quiet:
        for warning in outcome.warnings:
            print(f"apispec: warning: {printable(warning)}", file=sys.stderr)
    write_output(args.output, render(args.format, outcome.report))
    for error in outcome.errors:
        print(f"apispec: error: {printable(error)}", file=sys.stderr)
    return outcome.exit_code
