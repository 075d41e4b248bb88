"""The proxy as an ASGI application: judge, check, forward, stream back, log.

Per request:

1. the target must be a path (`/...`): an absolute-form target (`GET
   http://elsewhere/`) or `CONNECT` would make an open proxy, and is refused;
2. an API v2 request is judged as the linter judges a call (apispec.runtime.
   matching); its body is read within the spec's limit (400 `BODY_TOO_LARGE`
   past it, as the mock and the server answer), and with `--strict` an invalid
   filter is answered 400 `INVALID_FILTER` here, never forwarded;
3. the request goes to the upstream with its method, path, query, headers and
   body unchanged but for the hop-by-hop headers (proxy/headers.py); a request
   that is not API v2 streams its body through without the limit;
4. the answer comes back as it was sent: status, headers, and the body's raw
   bytes as they arrive (compressed stays compressed), plus, on API v2 answers,
   the lifecycle and finding headers;
5. the request is logged (`--log`) and counted for the summary.

Failures upstream become the spec's 502/503/504 with its error body. The
answers the proxy makes itself carry the spec's error body and an
`X-Request-Id` (apispec.mock.errors).
"""

from __future__ import annotations

import asyncio
import re
import sys
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl

import httpx
from starlette.requests import Request

from apispec.lint.rules.api006_invalid_filter import META as INVALID_FILTER_RULE
from apispec.mock.bodies import read_within
from apispec.mock.errors import ApiError, code_for_status, error_response
from apispec.mock.lifecycle import lifecycle_headers
from apispec.runtime.aggregate import Aggregator, InputStats
from apispec.runtime.matching import Judge, Note, Verdict
from apispec.runtime.proxy import upstream
from apispec.runtime.proxy.headers import added, end_to_end
from apispec.runtime.proxy.log import RequestLog
from apispec.runtime.readers import proxy_log
from apispec.runtime.readers.options import ADDRESS, AUTO, USER_AGENT
from apispec.runtime.seen import Seen, authorization_kind, client_name
from apispec.support.exceptions import UsageError, debug_traceback, internal_error_line

Scope = dict[str, Any]
MAX_BODY = "max_request_body"
# Headers whose values are credentials: never a client's name in the log.
SECRET_HEADERS = frozenset(
    {"authorization", "proxy-authorization", "cookie", "x-api-key", "api-key", "x-auth-token"}
)
_NUMBER = re.compile(r"/\d+(?=/|$)")
REQUEST_ID = b"x-request-id"


@dataclass(frozen=True)
class ProxySettings:
    upstream: str  # the server's base URL
    strict: bool = False  # answer invalid filters 400 instead of forwarding them
    insecure: bool = False  # do not verify the upstream's certificate
    timeout: float = 30.0  # seconds for the upstream's answer to start, and between bytes
    client_field: str = AUTO  # what names a client in the log and the summary

    def check(self) -> None:
        """UsageError for settings the proxy must refuse before it listens."""
        upstream.parse_upstream(self.upstream)
        if self.client_field.lower() in SECRET_HEADERS:
            raise UsageError(
                f"--client-field {self.client_field}: that header holds credentials, which the "
                "proxy never logs; name clients by user-agent, address or another header"
            )


class ProxyApp:
    """The ASGI application of `apispec proxy`."""

    def __init__(
        self,
        settings: ProxySettings,
        judge: Judge,
        aggregator: Aggregator,
        log: RequestLog | None = None,
    ) -> None:
        self.settings = settings
        self.base = upstream.parse_upstream(settings.upstream)
        self.judge = judge
        self.registry = judge.registry
        self.release = judge.targets[0]
        self.several = len(judge.targets) > 1
        self.max_body = self.registry.limit(MAX_BODY)
        self.query_names = frozenset(judge.run.query_names)
        self.aggregator = aggregator
        self.stats: InputStats = aggregator.start(settings.upstream, "forwarded by apispec proxy")
        self.log = log
        self._client: httpx.AsyncClient | None = None

    @property
    def client(self) -> httpx.AsyncClient:
        if self._client is None:  # made on the server's event loop, at the first request
            self._client = upstream.client(self.settings.timeout, self.settings.insecure)
        return self._client

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return
        started = time.time()
        clock = time.perf_counter()
        request = Request(scope, receive)
        raw_path: bytes = scope.get("raw_path") or scope["path"].encode("utf-8")
        query: bytes = scope.get("query_string") or b""
        method: str = scope["method"]
        target = raw_path.decode("latin-1") + ("?" + query.decode("latin-1") if query else "")
        authorization = authorization_kind(request.headers.get("authorization"))
        verdict = None
        if raw_path.startswith(b"/") and method != "CONNECT":
            verdict = self.judge.judge(method, target, authorization)
        started_answer = False

        async def sending(message: dict[str, Any]) -> None:
            nonlocal started_answer
            started_answer = True
            await send(message)

        try:
            status, request_id = await self._answer(request, sending, raw_path, query, verdict)
        except Exception as exc:  # a bug of the proxy: one line, the client gets the spec's 500
            debug_traceback()
            print(internal_error_line(exc), file=sys.stderr, flush=True)
            status, request_id = 500, None
            if not started_answer:
                failed = ApiError("INTERNAL_ERROR", "apispec proxy failed; see its error output")
                answer = error_response(request, failed)
                await answer(scope, receive, send)
                request_id = answer.headers.get("x-request-id")
        self._record(request, started, clock, target, authorization, verdict, status, request_id)

    async def _answer(
        self,
        request: Request,
        send: Any,
        raw_path: bytes,
        query: bytes,
        verdict: Verdict | None,
    ) -> tuple[int, str | None]:
        """Answers the request; (status sent, request id of the answer)."""
        try:
            if not raw_path.startswith(b"/") or request.method == "CONNECT":
                raise ApiError(
                    "BAD_REQUEST",
                    "apispec proxy forwards requests for paths of its upstream server only, "
                    "not to other hosts",
                )
            body: bytes | AsyncIterator[bytes] | None = None
            if verdict is not None:
                body = await read_within(request, self.max_body)
                self._check(verdict)
            elif _has_body(request):
                body = request.stream()
            return await self._forward(request, send, raw_path, query, body, verdict)
        except ApiError as error:
            answer = error_response(request, error)
            await answer(request.scope, request.receive, send)
            return error.status, answer.headers.get("x-request-id")

    def _check(self, verdict: Verdict) -> None:
        """`--strict`: an invalid filter is answered here, as the server would answer it."""
        if not self.settings.strict:
            return
        for note in verdict.request_notes:
            if note.code == INVALID_FILTER_RULE.code and note.severity == "error":
                raise ApiError("INVALID_FILTER", note.message)

    async def _forward(
        self,
        request: Request,
        send: Any,
        raw_path: bytes,
        query: bytes,
        body: bytes | AsyncIterator[bytes] | None,
        verdict: Verdict | None,
    ) -> tuple[int, str | None]:
        headers = end_to_end(list(request.scope["headers"]), request=True)
        content = body
        if isinstance(body, bytes):  # read whole: its length is known, whatever was declared
            headers = [(n, v) for n, v in headers if n.lower() != b"content-length"]
            if not body and not _has_body(request):
                content = None  # no body was sent: none is forwarded (not even an empty one)
        try:
            outgoing = self.client.build_request(
                request.method,
                upstream.target(self.base, raw_path, query),
                headers=headers,
                content=content,
            )
        except httpx.InvalidURL as exc:  # a target h11 took but httpx will not send
            raise ApiError(
                "BAD_REQUEST", f"apispec proxy cannot forward this target: {exc}"
            ) from None
        timeout = self.settings.timeout
        try:
            async with asyncio.timeout(timeout):  # the whole head, however slowly it drips
                answer = await self.client.send(outgoing, stream=True)
        except (httpx.HTTPError, TimeoutError, OSError) as exc:
            failed = upstream.failure(exc, timeout)
            raise ApiError(code_for_status(self.registry, failed.status), failed.message) from None
        try:
            sent = end_to_end(list(answer.headers.raw), request=False)
            if verdict is not None:
                sent += added(
                    sent, self._lifecycle(request, verdict), self._notes(verdict), self.several
                )
            await send(
                {"type": "http.response.start", "status": answer.status_code, "headers": sent}
            )
            try:
                async for chunk in answer.aiter_raw():
                    await send({"type": "http.response.body", "body": chunk, "more_body": True})
            except httpx.HTTPError:  # the upstream broke off: so does the answer
                return answer.status_code, _request_id(sent)
            await send({"type": "http.response.body", "body": b"", "more_body": False})
            return answer.status_code, _request_id(sent)
        finally:
            await answer.aclose()

    def _lifecycle(self, request: Request, verdict: Verdict) -> list[tuple[str, str]]:
        endpoint = verdict.endpoint
        if endpoint is None:
            return []
        path = request.scope.get("raw_path") or b""
        prefix = path.decode("latin-1").partition(upstream.API_SUFFIX)[0]
        base = str(request.base_url).rstrip("/") + prefix
        params = self.judge.params(verdict, path.decode("latin-1"))
        return lifecycle_headers(self.registry, self.release, endpoint, params, base)

    def _notes(self, verdict: Verdict) -> tuple[Note, ...]:
        return verdict.notes + verdict.request_notes

    def _record(
        self,
        request: Request,
        started: float,
        clock: float,
        target: str,
        authorization: str | None,
        verdict: Verdict | None,
        status: int,
        request_id: str | None,
    ) -> None:
        address = request.client.host if request.client else None
        agent = request.headers.get("user-agent")
        field = self.settings.client_field
        if field == AUTO:
            client = agent or address
        elif field == USER_AGENT:
            client = agent
        elif field == ADDRESS:
            client = address
        else:
            client = request.headers.get(field)
        client = client_name(client)
        seen = Seen(request.method, target, status, started, client, request_id, authorization)
        self.aggregator.add_judged(self.stats, seen, verdict)
        if self.log is None:
            return
        path, _, query = target.partition("?")
        shown = _NUMBER.sub("/{id}", path)  # a path outside the API: its numbers may be ids
        if verdict is not None:
            prefix = path.partition(upstream.API_SUFFIX)[0]
            shown = prefix + upstream.API_SUFFIX + verdict.key[1]
        self.log.write(
            proxy_log.record(
                time=started,
                client=client,
                address=address,
                user_agent=agent,
                method=request.method,
                path=shown,
                query={
                    name: (value if name in self.query_names else None)
                    for name, value in parse_qsl(query, keep_blank_values=True)
                },
                authorization=authorization,
                endpoint=str(verdict.endpoint) if verdict and verdict.endpoint else None,
                maturity=verdict.maturity if verdict else None,
                findings=[
                    {
                        "code": n.code,
                        "severity": n.severity,
                        "message": n.message,
                        "target": n.target,
                    }
                    for n in (self._notes(verdict) if verdict else ())
                ],
                status=status,
                duration_ms=(time.perf_counter() - clock) * 1000,
                request_id=request_id,
            )
        )


def _has_body(request: Request) -> bool:
    """Whether the client sends a body: a length above 0, or a chunked one."""
    length = request.headers.get("content-length", "")
    return (length.isdigit() and int(length) > 0) or "transfer-encoding" in request.headers


def _request_id(headers: list[tuple[bytes, bytes]]) -> str | None:
    for name, value in headers:
        if name.lower() == REQUEST_ID:
            return value.decode("latin-1")
    return None
