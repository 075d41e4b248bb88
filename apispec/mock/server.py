"""Serving the mock with uvicorn: from the command line, or in a thread for tests.

The socket is bound before uvicorn starts, so `--port 0` works (the kernel
picks a free port) and the printed URL is the real one.
"""

from __future__ import annotations

import signal
import socket
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from types import FrameType
from typing import TYPE_CHECKING, Any, TextIO

from apispec.mock.app import create_app
from apispec.mock.context import MockConfig, MockState
from apispec.mock.data import API_PREFIX
from apispec.registry.model import Registry
from apispec.support.exceptions import UsageError

if TYPE_CHECKING:
    import uvicorn

# What signal.signal takes and gives back.
_Handler = Callable[[int, FrameType | None], Any] | int | signal.Handlers | None

LOOPBACK = "127.0.0.1"


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on host:port; a UsageError naming the address when that fails."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        # accepted connections inherit it: no 40 ms Nagle/delayed-ACK stall per answer
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        sock.bind((host, port))
        sock.listen(128)
    except OSError as exc:
        sock.close()
        raise UsageError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    return sock


def base_url(sock: socket.socket) -> str:
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}"


def _server(state: MockState, quiet: bool = True) -> uvicorn.Server:
    import uvicorn

    class Server(uvicorn.Server):
        async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
            # Before uvicorn waits for requests in flight: a long filter evaluation
            # gives up at once (503) instead of holding the shutdown for seconds.
            state.close()
            await super().shutdown(sockets)

    config = uvicorn.Config(
        create_app(state=state),
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


class _Stop(Exception):
    """SIGTERM, turned into an exception so that `serve` ends as it does on Ctrl-C."""


def _raise_stop(signum: int, frame: FrameType | None) -> None:
    raise _Stop


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
        # uvicorn shuts down gracefully on SIGINT/SIGTERM, then re-raises the signal
        # to the handler in place before it started: KeyboardInterrupt for SIGINT,
        # and for SIGTERM (the default handler would end the process with status
        # 143, skipping the last line) this one.
        previous = _on_sigterm(_raise_stop)
        try:
            server.run(sockets=[sock])
        except (KeyboardInterrupt, _Stop):
            pass
        finally:
            _on_sigterm(previous)
    finally:
        sock.close()
    print("apispec mock: stopped", file=out, flush=True)
    return 0


def _on_sigterm(handler: _Handler) -> _Handler:
    """Install a SIGTERM handler (main thread only; elsewhere nothing); the previous one."""
    if threading.current_thread() is not threading.main_thread() or handler is None:
        return None
    return signal.signal(signal.SIGTERM, handler)


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
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the mock server did not start")
        time.sleep(0.01)
    return RunningMock(base_url(sock), state, server, thread)
