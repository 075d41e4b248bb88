"""How the server talks: standard input and output, or one TCP connection.

pygls's `start_io` and `start_tcp` read with pygls's own framing; these do the
same with `apispec.lsp.framing`, which bounds a message's size and skips a frame
it cannot read without losing the next one. Each skip is one line in the log
and one `window/logMessage` to the client.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import sys
import threading
from collections.abc import Awaitable, Callable
from typing import Any, BinaryIO

from pygls.exceptions import JsonRpcException
from pygls.io_ import StdoutWriter
from pygls.lsp.server import LanguageServer

from apispec.lsp.framing import Framer, Skipped

log = logging.getLogger("apispec.lsp")
CHUNK = 65536  # bytes asked of the stream at a time


async def serve_stream(
    server: LanguageServer,
    read: Callable[[int], Awaitable[bytes]],
    skipped: Callable[[str], None],
) -> None:
    """Hand every message of the stream to the server's protocol until it ends or stops."""
    framer = Framer()
    protocol: Any = server.protocol
    stop = server._stop_event
    while stop is None or not stop.is_set():
        data = await read(CHUNK)
        if not data:
            return
        for item in framer.feed(data):
            if isinstance(item, Skipped):
                skipped(item.reason)
                continue
            try:
                message = json.loads(item, object_hook=protocol.structure_message)
            except (ValueError, RecursionError) as exc:
                skipped(f"a message that is not JSON ({type(exc).__name__})")
                continue
            try:
                protocol.handle_message(message)
            except Exception as exc:  # a handler's failure: logged, the next message is read
                server.report_server_error(exc, JsonRpcException)


def start_io(
    server: LanguageServer,
    skipped: Callable[[str], None],
    stdin: BinaryIO | None = None,
    stdout: BinaryIO | None = None,
) -> None:
    """Serve on standard input and output until the client says exit or closes them."""
    source = stdin or sys.stdin.buffer
    read_some = getattr(source, "read1", source.read)  # what is there, not a fixed count
    server._stop_event = threading.Event()
    server.protocol.set_writer(StdoutWriter(stdout or sys.stdout.buffer))

    async def main() -> None:
        loop = asyncio.get_running_loop()

        def read(size: int) -> Awaitable[bytes]:
            return loop.run_in_executor(server.thread_pool, read_some, size)

        await serve_stream(server, read, skipped)

    try:
        asyncio.run(main())
    except BrokenPipeError:
        log.error("the client closed the connection")
    except (KeyboardInterrupt, SystemExit):
        pass
    finally:
        server.shutdown()  # type: ignore[no-untyped-call]  # pygls leaves it unannotated


def start_tcp(server: LanguageServer, skipped: Callable[[str], None], host: str, port: int) -> None:
    """Serve one client at a time on a TCP port until it says exit."""
    server._stop_event = threading.Event()

    async def connection(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        server.protocol.set_writer(writer)
        await serve_stream(server, reader.read, skipped)
        server.shutdown()  # type: ignore[no-untyped-call]  # pygls leaves it unannotated

    async def main() -> None:
        listening = await asyncio.start_server(connection, host, port)
        server._server = listening
        async with listening:
            await listening.serve_forever()

    with contextlib.suppress(asyncio.CancelledError, KeyboardInterrupt):
        asyncio.run(main())
