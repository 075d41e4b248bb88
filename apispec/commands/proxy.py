"""`apispec proxy --upstream URL`: a checking reverse proxy in front of the real server."""

from __future__ import annotations

import argparse

from apispec.commands import add_registry_option, output_path, write_output
from apispec.lint.finding import FAIL_LEVELS
from apispec.runtime.report import FORMATS

DEFAULT_PORT = 8081  # beside the mock's 8080


def _port(text: str) -> int:
    value = int(text)
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"port must be between 0 and 65535, not {value}")
    return value


def _seconds(text: str) -> float:
    value = float(text)
    if not 0 < value <= 3600:
        raise argparse.ArgumentTypeError(f"must be between 0 and 3600 seconds, not {text}")
    return value


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "proxy",
        help="a reverse proxy that reports the deprecated and invalid calls passing through it",
        description="Forward every request to the server at --upstream unchanged, add "
        "Deprecation, Link and Apispec-Finding headers to API v2 answers, log one JSON line "
        "per request that `apispec traffic` reads, and print what passed when it stops "
        "(see docs/runtime.md).",
    )
    p.add_argument(
        "--upstream",
        required=True,
        metavar="URL",
        help="the server's base URL (https://host:port, without /api/v2)",
    )
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default: loopback)")
    p.add_argument(
        "--port", type=_port, help="port (0: any free port; default 8081, or 0 with --run)"
    )
    p.add_argument(
        "--target",
        metavar="RELEASE",
        help="release the server runs (default: the newest concrete release)",
    )
    add_registry_option(p, help="judge requests against the registry in DIR")
    p.add_argument(
        "--log", metavar="FILE", help="append one JSON line per request to FILE (-: stdout)"
    )
    p.add_argument(
        "--strict",
        action="store_true",
        help="answer 400 INVALID_FILTER for an invalid filter instead of forwarding it",
    )
    p.add_argument(
        "--insecure",
        action="store_true",
        help="do not verify the upstream's TLS certificate (self-signed servers)",
    )
    p.add_argument(
        "--timeout",
        type=_seconds,
        default=30.0,
        metavar="SECONDS",
        help="how long the upstream may take to answer, and between two bytes (default 30)",
    )
    p.add_argument(
        "--client-field",
        default="auto",
        metavar="FIELD",
        help="what names a client: user-agent, address, or a request header (default: the "
        "User-Agent, else the address)",
    )
    p.add_argument(
        "--run",
        metavar="COMMAND",
        help="start, run COMMAND (APISPEC_PROXY_URL is the proxy's URL), stop, print the summary",
    )
    p.add_argument(
        "--format", choices=FORMATS, default="full", help="format of the summary (default: full)"
    )
    p.add_argument(
        "--output",
        "-o",
        type=output_path,
        metavar="FILE",
        help="write the summary to FILE (-: stdout)",
    )
    p.add_argument(
        "--fail-on",
        choices=FAIL_LEVELS,
        default="error",
        help="lowest severity that fails (default: error)",
    )
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    import sys

    from apispec.commands import registry_from
    from apispec.runtime.proxy.app import ProxySettings
    from apispec.runtime.proxy.server import run_around, serve
    from apispec.runtime.report import render
    from apispec.runtime.report.model import Report
    from apispec.runtime.run import chosen_targets, fails
    from apispec.support.exceptions import EXIT_FINDINGS, EXIT_OK

    registry = registry_from(args)
    targets, why = chosen_targets(registry, [args.target] if args.target else [])
    settings = ProxySettings(
        upstream=args.upstream,
        strict=args.strict,
        insecure=args.insecure,
        timeout=args.timeout,
        client_field=args.client_field,
    )
    status = 0
    if args.run is not None:
        port = 0 if args.port is None else args.port
        tally, status = run_around(settings, registry, targets, args.host, port, args.log, args.run)
    else:
        port = DEFAULT_PORT if args.port is None else args.port
        tally = serve(settings, registry, targets, args.host, port, args.log)
    shown = tuple(map(str, targets))
    report = render(args.format, Report(tally, registry, shown, None, why, "apispec proxy"))
    if args.log == "-" and args.output is None:
        sys.stderr.write(report)  # standard output is the log: keep it lines traffic reads
    else:
        write_output(args.output, report)
    if status != 0:
        print(f"apispec: error: the command exited with status {status}", file=sys.stderr)
        return EXIT_FINDINGS
    return EXIT_FINDINGS if fails(tally.worst, args.fail_on) else EXIT_OK
