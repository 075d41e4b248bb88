"""`apispec mock`: serve the API v2 mock (Starlette on uvicorn) for testing scripts offline."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path

from apispec.commands import add_registry_option, registry_from

MAX_LATENCY_MS = 600_000.0  # ten minutes: longer than any client's timeout worth testing
MAX_WAIT_FOR_S = 86_400.0  # a day


def _port(text: str) -> int:
    value = int(text)
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"port must be between 0 and 65535, not {value}")
    return value


def _rate(text: str) -> float:
    value = float(text)
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(f"must be between 0 and 1, not {text}")
    return value


def _duration(most: float, unit: str) -> Callable[[str], float]:
    """A type for a delay from 0 to `most`: `nan` and `inf` are floats too, and `1e308`
    seconds would overflow the event loop's clock on the first request, not at start."""

    def parse(text: str) -> float:
        value = float(text)
        if value < 0:
            raise argparse.ArgumentTypeError(f"must not be negative, not {text}")
        if not value <= most:  # also nan
            raise argparse.ArgumentTypeError(f"must be at most {most:,.0f} {unit}, not {text}")
        return value

    parse.__name__ = "duration"  # argparse's `invalid duration value: 'x'`
    return parse


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser(
        "mock",
        help="serve a mock of the API v2 for testing scripts",
        description="Serve the API v2 as the spec describes it, from the registry, with seeded data. "
        "See docs/mock.md.",
    )
    parser.add_argument(
        "--host", default="127.0.0.1", help="address to listen on (default: loopback)"
    )
    parser.add_argument(
        "--port", type=_port, default=8080, help="port (0: any free port; default 8080)"
    )
    parser.add_argument(
        "--release", metavar="R", help="release to emulate (default: the newest concrete one)"
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the generated data and faults")
    parser.add_argument(
        "--objects",
        type=int,
        default=5000,
        metavar="N",
        help="tree size, 6 to 100000 (default 5000)",
    )
    parser.add_argument("--data", type=Path, metavar="FILE", help="serve this JSON tree instead")
    parser.add_argument(
        "--users", type=Path, metavar="FILE", help="JSON list of users replacing the defaults"
    )
    parser.add_argument(
        "--fault-rate",
        type=_rate,
        default=0.0,
        metavar="P",
        help="share of requests failing with 502/503/504",
    )
    parser.add_argument(
        "--latency",
        type=_duration(MAX_LATENCY_MS, "ms"),
        default=0.0,
        metavar="MS",
        help="delay added to every request",
    )
    parser.add_argument(
        "--wait-for",
        type=_duration(MAX_WAIT_FOR_S, "seconds"),
        default=2.0,
        metavar="SECONDS",
        help="how long a created object stays 'not yet fully available' (default 2)",
    )
    parser.add_argument(
        "--enable", action="append", default=[], metavar="FEATURE", help="enable a feature: mcp"
    )
    parser.add_argument(
        "--cors",
        action="store_true",
        help="send CORS headers so pages in a browser may call the mock (the docs' try-it panel)",
    )
    parser.add_argument(
        "--log",
        action="store_true",
        help="print one line per request: method, path, status, ms, error and filter codes",
    )
    add_registry_option(parser, help="serve the registry in DIR instead of the bundled one")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from apispec.mock.context import MockConfig
    from apispec.mock.server import serve

    config = MockConfig(
        release=args.release,
        seed=args.seed,
        objects=args.objects,
        fault_rate=args.fault_rate,
        latency_ms=args.latency,
        data=args.data,
        users=args.users,
        wait_for=args.wait_for,
        enable=tuple(args.enable),
        cors=args.cors,
        log=args.log,
    )
    return serve(config, args.host, args.port, registry=registry_from(args))
