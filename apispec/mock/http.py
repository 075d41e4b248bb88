"""HTTP/1.1 for the mock: uvicorn's h11 protocol, with the spec's errors and a header deadline.

uvicorn answers a request it cannot parse (invalid UTF-8 in the request line, a
negative `Content-Length`, a header line without a colon) with the plain text
`Invalid HTTP request received.`, where a client of the API expects every error
as the spec's JSON body with the `X-Request-Id` it repeats. And it waits for
ever for the rest of a request's headers: a client that sends half a header
holds its connection for ever. Here the headers of a request must arrive within
`HEADER_TIMEOUT` seconds of its first byte (however slowly the bytes come), else
the answer is 408 `EXECUTION_TIMEOUT` and the connection is closed; a connection
on which nothing at all arrives is closed quietly after as long.
"""

from __future__ import annotations

import asyncio
import json
import uuid
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from apispec.mock.errors import REQUEST_ID_HEADER, ApiError

HEADER_TIMEOUT = 10.0  # seconds from a request's first byte to the end of its headers
_REASONS = {400: "Bad Request", 408: "Request Timeout"}


class MockHttp(H11Protocol):
    """uvicorn's HTTP/1.1 protocol with the spec's error answers and the header deadline."""

    _deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: Any) -> None:
        super().connection_made(transport)
        self._arm()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self.transport.is_closing():
            return
        if self.conn.their_state is h11.IDLE:  # a request's headers are still to come
            if self._deadline is None:
                self._arm()
        else:
            self._disarm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def on_response_complete(self) -> None:
        super().on_response_complete()  # uvicorn's keep-alive timer covers the idle wait
        self._disarm()

    def send_400_response(self, msg: str) -> None:
        self._disarm()
        self._answer(ApiError("BAD_REQUEST", "the request is not valid HTTP/1.1"))

    def _arm(self) -> None:
        self._deadline = self.loop.call_later(HEADER_TIMEOUT, self._headers_late)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _headers_late(self) -> None:
        self._deadline = None
        if self.transport.is_closing() or self.conn.their_state is not h11.IDLE:
            return
        if self.conn.trailing_data[0]:  # part of a request arrived: say why it ends
            message = f"the request's headers did not arrive within {HEADER_TIMEOUT:g} seconds"
            self._answer(ApiError("EXECUTION_TIMEOUT", message))
        else:
            self.transport.close()

    def _answer(self, error: ApiError) -> None:
        """The spec's error body, written as raw bytes (h11 refuses to answer a request it
        has not parsed), and the connection closed."""
        rid = uuid.uuid4().hex
        body = json.dumps({"code": error.code, "message": error.message, "request_id": rid})
        head = (
            f"HTTP/1.1 {error.status} {_REASONS.get(error.status, 'Error')}\r\n"
            "content-type: application/json\r\n"
            f"content-length: {len(body)}\r\n"
            f"{REQUEST_ID_HEADER.lower()}: {rid}\r\n"
            "connection: close\r\n\r\n"
        )
        self.transport.write(head.encode("ascii") + body.encode("ascii"))
        self.transport.close()
