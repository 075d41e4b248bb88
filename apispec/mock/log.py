"""`apispec mock --log`: one line per request, for people watching what their script sends.

    GET /api/v2/experimental/sensors?filter=status%20%3D%20%22up%22 400 1.3 ms INVALID_FILTER FLT004

Method, request target as sent (percent-encoded, so a line is always one
line and splits at its spaces), status, milliseconds until the answer was
sent, then for an error the spec's error code and, for a filter the checker
refused, the checker's code (docs/filters.md). The handlers leave the codes
in the request's scope state (errors.error_response).
"""

from __future__ import annotations

import re
import sys
import time
from typing import Any

Scope = dict[str, Any]
_UNPRINTABLE = re.compile(r"[\x00-\x20\x7f]")


class RequestLog:
    """ASGI middleware printing one line per HTTP request to standard output."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status = 500  # what the server answers if the application fails before answering

        async def sending(message: dict[str, Any]) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, sending)
        finally:
            elapsed = (time.perf_counter() - started) * 1000
            print(line(scope, status, elapsed), flush=True, file=sys.stdout)


def line(scope: Scope, status: int, elapsed_ms: float) -> str:
    """The log line of one request (see the module docstring)."""
    target = _shown(scope.get("raw_path") or scope["path"].encode("utf-8", "surrogateescape"))
    query = scope.get("query_string") or b""
    if query:
        target += "?" + _shown(query)
    words = [scope["method"], target, str(status), f"{elapsed_ms:.1f} ms"]
    state = scope.get("state") or {}
    if status >= 400 and state.get("error_code"):
        words.append(state["error_code"])
        if state.get("diagnostic"):
            words.append(state["diagnostic"])
    return " ".join(words)


def _shown(raw: bytes) -> str:
    text = raw.decode("ascii", "backslashreplace")
    return _UNPRINTABLE.sub(lambda m: f"\\x{ord(m[0]):02x}", text)
