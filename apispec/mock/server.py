"""Serving the mock with uvicorn: from the command line, or in a thread for tests.

The socket is bound before uvicorn starts (apispec.support.serving), so
`--port 0` works (the kernel picks a free port) and the printed URL is the
real one.
"""

from __future__ import annotations

import socket
import sys
import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING, TextIO

from apispec.mock.app import create_app
from apispec.mock.context import MockConfig, MockState
from apispec.mock.data import API_PREFIX
from apispec.registry.model import Registry
from apispec.support.serving import LOOPBACK, base_url, bind, run_in_thread, run_until_stopped

if TYPE_CHECKING:
    import uvicorn


def _server(state: MockState, quiet: bool = True) -> uvicorn.Server:
    import uvicorn

    class Server(uvicorn.Server):
        async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
            # Before uvicorn waits for requests in flight: a long filter evaluation
            # gives up at once (503) instead of holding the shutdown for seconds.
            state.close()
            await super().shutdown(sockets)

    from apispec.mock.http import MockHttp

    config = uvicorn.Config(
        create_app(state=state),
        http=MockHttp,  # the spec's error body for unparsable requests, a header deadline
        log_level="warning" if quiet else "info",
        access_log=False,
        lifespan="off",
    )
    return Server(config)


def banner(state: MockState, url: str) -> list[str]:
    """What `apispec mock` prints at start-up: where it listens, what it holds, who may log in."""
    tree = state.tree
    lines = [
        f"apispec mock: API v2 release {state.release}"
        + ("" if state.config.release else f" (default: {state.registry.default_release[1]})")
        + f" at {url}{API_PREFIX}",
        f"  data: {len(tree.records)} objects"
        + (f" from {state.config.data}" if state.config.data else f" (seed {state.config.seed})"),
        f"  OpenAPI document: {url}{API_PREFIX}/oas/",
    ]
    if state.mcp_enabled:
        lines.append(f"  MCP (Streamable HTTP, stateless): {url}{API_PREFIX}/mcp")
    if state.config.users is None:
        for user in state.accounts.users.values():
            lines.append(f"  user {user.username} / password {user.password} ({user.role})")
    else:
        for user in state.accounts.users.values():
            lines.append(f"  user {user.username} ({user.role}, from {state.config.users})")
    if state.config.cors:
        lines.append("  CORS: pages from any origin may call it (--cors)")
    lines.append("  press Ctrl-C to stop")
    return lines


def serve(
    config: MockConfig,
    host: str = LOOPBACK,
    port: int = 8080,
    out: TextIO = sys.stdout,
    registry: Registry | None = None,
) -> int:
    """Run until Ctrl-C or SIGTERM; the exit status of `apispec mock` (0 on either signal)."""
    sock = bind(host, port)  # before the data: a taken port is reported at once
    try:
        state = MockState(config, registry)
        server = _server(state)
        for line in banner(state, base_url(sock)):
            print(line, file=out, flush=True)
        run_until_stopped(lambda: server.run(sockets=[sock]))
    finally:
        sock.close()
    print("apispec mock: stopped", file=out, flush=True)
    return 0


@dataclass
class RunningMock:
    """A mock serving in a background thread (see the pytest recipe in docs/mock.md)."""

    url: str
    state: MockState
    _server: uvicorn.Server
    _thread: threading.Thread

    @property
    def api(self) -> str:
        return self.url + API_PREFIX

    def stop(self) -> None:
        self._server.should_exit = True
        self._thread.join(timeout=10)


def start_in_thread(
    config: MockConfig | None = None, host: str = LOOPBACK, registry: Registry | None = None
) -> RunningMock:
    """Start the real server (uvicorn) on a free port of `host`; returns once it accepts requests.

    `registry` serves an edited registry instead of the bundled one (tests of registry changes).
    """
    state = MockState(config or MockConfig(), registry)
    server = _server(state)
    sock = bind(host, 0)
    thread = run_in_thread(server, sock, "mock")
    return RunningMock(base_url(sock), state, server, thread)
