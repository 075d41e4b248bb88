"""What the servers apispec runs (the mock, the proxy) share: the socket and the stop signal.

The socket is bound before the server starts, so `--port 0` works (the kernel
picks a free port), the printed URL is the real one, and a port already taken
is a one-line usage error at once. SIGTERM (service managers, CI runners)
becomes an exception in the main thread, so a server stops as on Ctrl-C: its
last lines printed, exit 0.
"""

from __future__ import annotations

import signal
import socket
import threading
import time
from collections.abc import Callable
from types import FrameType
from typing import Any

from apispec.support.exceptions import UsageError

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


class Stop(Exception):
    """SIGTERM, turned into an exception so that a server ends as it does on Ctrl-C."""


def raise_stop(signum: int, frame: object) -> None:
    raise Stop


# What signal.signal takes and gives back.
Handler = Callable[[int, FrameType | None], Any] | int | signal.Handlers | None


def on_sigterm(handler: Handler) -> Handler:
    """Install a SIGTERM handler (main thread only; elsewhere nothing); the previous one."""
    if threading.current_thread() is not threading.main_thread() or handler is None:
        return None
    return signal.signal(signal.SIGTERM, handler)


def run_until_stopped(run: Callable[[], object]) -> None:
    """Run a server in the main thread until Ctrl-C or SIGTERM, both ending it quietly.

    uvicorn shuts down gracefully on SIGINT/SIGTERM, then re-raises the signal to the
    handler in place before it started: KeyboardInterrupt for SIGINT, and for SIGTERM
    (the default handler would end the process with status 143, skipping the last
    line) `raise_stop`.
    """
    previous = on_sigterm(raise_stop)
    try:
        run()
    except (KeyboardInterrupt, Stop):
        pass
    finally:
        on_sigterm(previous)


def run_in_thread(server: Any, sock: socket.socket, what: str) -> threading.Thread:
    """Run a uvicorn server on `sock` in a daemon thread; returns once it accepts requests."""
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError(f"the {what} server did not start")
        time.sleep(0.01)
    return thread
