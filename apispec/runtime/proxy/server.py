"""Running the proxy: until Ctrl-C or SIGTERM, or around one command (`--run`).

Either way the proxy counts what passed (apispec.runtime.aggregate), so when it
stops it can print the same report `apispec traffic` prints for its log. With
`--run`, the server listens first, the command runs with APISPEC_PROXY_URL set
to the proxy's base URL (an end-to-end suite points its clients there), and
the server stops when the command ends, requests in flight given
GRACE seconds.
"""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from typing import TYPE_CHECKING, TextIO

from apispec.registry.model import Registry
from apispec.registry.releases import Release
from apispec.runtime.aggregate import Aggregator, Tally
from apispec.runtime.matching import Judge
from apispec.runtime.proxy.app import ProxyApp, ProxySettings
from apispec.runtime.proxy.log import RequestLog
from apispec.support.serving import base_url, bind, run_in_thread, run_until_stopped

if TYPE_CHECKING:
    import uvicorn

URL_VARIABLE = "APISPEC_PROXY_URL"
GRACE = 3  # seconds requests in flight get when the proxy stops


def _server(app: ProxyApp) -> uvicorn.Server:
    import uvicorn

    config = uvicorn.Config(
        app,
        http="h11",
        ws="none",
        lifespan="off",
        log_level="critical",  # every request is answered and logged by the proxy itself
        access_log=False,
        server_header=False,  # the upstream's own `Server` and `Date` pass through
        date_header=False,
        proxy_headers=False,  # the client's address is the connection's, not a header's claim
        timeout_graceful_shutdown=GRACE,
    )
    return uvicorn.Server(config)


def banner(
    settings: ProxySettings, url: str, targets: tuple[Release, ...], log: str | None
) -> list[str]:
    lines = [
        f"apispec proxy: {url} -> {settings.upstream} (release {', '.join(map(str, targets))})",
        f"  log: {'standard output' if log == '-' else log}" if log else "  log: none (--log FILE)",
    ]
    if settings.strict:
        lines.append("  --strict: invalid filters are answered 400 here, not forwarded")
    if settings.insecure:
        lines.append("  warning: the upstream's TLS certificate is not verified (--insecure)")
    return lines


@contextlib.contextmanager
def _listening(
    settings: ProxySettings,
    registry: Registry,
    targets: tuple[Release, ...],
    host: str,
    port: int,
    log: str | None,
) -> Iterator[tuple[socket.socket, uvicorn.Server, Tally]]:
    """The bound socket, the uvicorn server of the proxy and its tally; all closed after."""
    settings.check()  # a wrong URL is a usage error before anything listens
    sock = bind(host, port)
    writer = RequestLog(log) if log else None
    try:
        aggregator = Aggregator(Judge(registry, targets))
        app = ProxyApp(settings, aggregator.judge, aggregator, writer)
        yield sock, _server(app), aggregator.tally
    finally:
        sock.close()
        if writer is not None:
            writer.close()


def serve(
    settings: ProxySettings,
    registry: Registry,
    targets: tuple[Release, ...],
    host: str,
    port: int,
    log: str | None,
    out: TextIO = sys.stderr,
) -> Tally:
    """Serve until Ctrl-C or SIGTERM; what passed, counted."""
    with _listening(settings, registry, targets, host, port, log) as (sock, server, tally):
        for line in [*banner(settings, base_url(sock), targets, log), "  press Ctrl-C to stop"]:
            print(line, file=out, flush=True)
        run_until_stopped(lambda: server.run(sockets=[sock]))
    print("apispec proxy: stopped", file=out, flush=True)
    return tally


def run_around(
    settings: ProxySettings,
    registry: Registry,
    targets: tuple[Release, ...],
    host: str,
    port: int,
    log: str | None,
    command: str,
    out: TextIO = sys.stderr,
) -> tuple[Tally, int]:
    """Start the proxy, run `command` (a shell command line) against it, stop; (tally, status)."""
    with _listening(settings, registry, targets, host, port, log) as (sock, server, tally):
        thread = run_in_thread(server, sock, "proxy")
        url = base_url(sock)
        for line in banner(settings, url, targets, log):
            print(line, file=out, flush=True)
        print(f"apispec proxy: running {command!r} with {URL_VARIABLE}={url}", file=out, flush=True)
        try:
            status = _run(command, {**os.environ, URL_VARIABLE: url})
        finally:
            server.should_exit = True
            thread.join(timeout=GRACE + 5)
    print("apispec proxy: stopped", file=out, flush=True)
    return tally, status


def _run(command: str, env: dict[str, str]) -> int:
    """The command's exit status (as the shell reports it); Ctrl-C ends it too."""
    process = subprocess.Popen(command, shell=True, env=env)  # the user's own command line
    try:
        return process.wait()
    except BaseException:
        process.terminate()
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            process.kill()
        raise
