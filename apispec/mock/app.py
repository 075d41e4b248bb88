"""The mock's ASGI application: one dispatcher over routes derived from the registry.

Every request under /api/v2 goes through `Dispatcher`: it finds the registry
endpoint (404 `NOT_FOUND` for unknown paths and for endpoints the chosen
release does not have, 405 for a method the path does not define), applies
the injected latency and faults, authenticates, reads the body within the
15 KB limit, runs the handler within the 25 s execution limit, and adds the
`X-Request-Id`, `Deprecation` and successor `Link` headers.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
from collections import defaultdict
from typing import Any
from urllib.parse import unquote

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from apispec.mock.bodies import read_within
from apispec.mock.context import Call, MockConfig, MockState
from apispec.mock.data import API_PREFIX
from apispec.mock.errors import (
    REQUEST_ID_HEADER,
    ApiError,
    code_for_status,
    error_response,
    execution_timeout,
    request_id,
)
from apispec.mock.lifecycle import lifecycle_headers
from apispec.mock.log import RequestLog
from apispec.mock.routes import Route as ApiRoute
from apispec.mock.routes import build_routes
from apispec.registry.model import Endpoint

log = logging.getLogger("apispec.mock")

BODY_METHODS = ("POST", "PUT", "PATCH")
MAX_BODY = "max_request_body"
MAX_TIME = "max_execution_time"
OPENAPI_PATH = f"{API_PREFIX}/oas"


class Dispatcher:
    def __init__(self, state: MockState) -> None:
        self.state = state
        self.routes = build_routes(state)
        self._by_length: dict[int, list[ApiRoute]] = defaultdict(list)
        for route in self.routes:
            self._by_length[len(route.segments)].append(route)
        registry = state.registry
        self.max_body = registry.limit(MAX_BODY)
        self.max_time = float(registry.limit(MAX_TIME))

    # -- routing ----------------------------------------------------------------

    def resolve(self, method: str, path: str) -> tuple[ApiRoute, dict[str, str]]:
        """The route for (method, path relative to /api/v2); ApiError 404 or 405 otherwise.

        `path` is still percent-encoded: it is split at its real slashes first and
        each segment decoded after, so an id holding `%2F` stays one segment.
        """
        parts = [unquote(p) for p in path.strip("/").split("/")] if path.strip("/") else []
        found = [
            (route, params)
            for route in self._by_length.get(len(parts), ())
            if (params := route.match(parts)) is not None
        ]
        if not found:
            raise ApiError("NOT_FOUND", f"no endpoint {method} {API_PREFIX}/{path.strip('/')}")
        # The most literal path template wins, whatever the method (OpenAPI's rule:
        # `/autodiscoveryjobs/history` is that path, not job "history"), so `Allow`
        # lists the methods of the path in the document.
        best = max(route.literal_count for route, _ in found)
        found = [(route, params) for route, params in found if route.literal_count == best]
        wanted = "GET" if method == "HEAD" else method
        same = [(route, params) for route, params in found if route.endpoint.method == wanted]
        if same:
            route, params = same[0]
            self._check_available(route.endpoint)
            return route, params
        available = [
            r for r, _ in found if self.state.registry.available_in(r.endpoint, self.state.release)
        ]
        if not available:
            self._check_available(found[0][0].endpoint)  # 404: the path is not in this release
        allowed = sorted({r.endpoint.method for r in available})
        raise ApiError(
            "METHOD_NOT_IMPLEMENTED",
            f"{method} is not defined for {API_PREFIX}/{path.strip('/')} "
            f"(defined: {', '.join(allowed)})",
            {"Allow": ", ".join(allowed)},
            status=405,
        )

    def _check_available(self, endpoint: Endpoint) -> None:
        registry, release = self.state.registry, self.state.release
        if registry.available_in(endpoint, release):
            return
        if endpoint.removed_in is not None and endpoint.removed_in <= release:
            why = f"it was removed in {endpoint.removed_in}"
            if endpoint.successor is not None:
                why += f" (successor: {endpoint.successor})"
        else:
            why = f"it is available from release {endpoint.since}"
        raise ApiError("NOT_FOUND", f"{endpoint} is not available in release {release}: {why}")

    # -- the request ------------------------------------------------------------

    async def __call__(self, request: Request) -> Response:
        rid = request_id(request)
        extra: list[tuple[str, str]] = []
        try:
            response = await self._handle(request, extra)
        except ApiError as error:
            response = error_response(request, error)
        except Exception:
            log.exception("mock handler failed")
            response = error_response(
                request, ApiError("INTERNAL_ERROR", "the mock failed; see its log output")
            )
        for name, value in extra:
            response.headers.append(name, value)
        response.headers[REQUEST_ID_HEADER] = rid
        return response

    async def _handle(self, request: Request, extra: list[tuple[str, str]]) -> Response:
        state = self.state
        state.settle()
        # The raw path, not Starlette's decoded `{path:path}` parameter: its pattern
        # drops a trailing newline (an id "%0A" vanished) and `%2F` would split an id.
        raw = request.scope.get("raw_path") or request.scope["path"].encode()
        path = raw.decode("utf-8", "replace").removeprefix(API_PREFIX)
        route, params = self.resolve(request.method, path)
        endpoint = route.endpoint
        extra.extend(
            lifecycle_headers(
                state.registry, state.release, endpoint, params, str(request.base_url)
            )
        )
        call = Call(request, state, endpoint, params, headers=extra, time_limit=self.max_time)

        async def run() -> Response:
            await state.faults.apply()
            if endpoint.auth:
                call.user = state.accounts.authenticate(request.headers.get("authorization"))
            if request.method in BODY_METHODS:
                call.body = await self.read_body(request)
                call.json_object()  # every body of the API is a JSON object (or absent)
            answer = route.handler(call)
            return await answer if inspect.isawaitable(answer) else answer

        try:
            return await asyncio.wait_for(run(), timeout=self.max_time)
        except TimeoutError:
            raise execution_timeout(self.max_time) from None
        finally:
            if endpoint.method != "GET" or endpoint.creates:
                state.changed()

    async def read_body(self, request: Request) -> bytes:
        """The body, read chunk by chunk and abandoned as soon as it passes the limit."""
        return await read_within(request, self.max_body)


def _openapi(state: MockState) -> Any:
    cache: dict[str, Any] = {}

    async def serve(request: Request) -> Response:
        if "doc" not in cache:
            from apispec.generate.openapi import build_document

            cache["doc"] = build_document(state.registry, state.release)
        return JSONResponse(cache["doc"], headers={REQUEST_ID_HEADER: request_id(request)})

    return serve


async def _http_error(request: Request, exc: Exception) -> Response:
    """Starlette's own errors (paths outside /api/v2) in the spec's error body."""
    assert isinstance(exc, HTTPException)
    from apispec.registry.load import load_registry

    try:
        code = code_for_status(load_registry(), exc.status_code)
    except ValueError:
        code = "UNKNOWN"
    error = ApiError(code, str(exc.detail), dict(exc.headers or {}), status=exc.status_code)
    return error_response(request, error)


def create_app(config: MockConfig | None = None, state: MockState | None = None) -> Starlette:
    """The mock as an ASGI app, for uvicorn or any ASGI test client."""
    from apispec.mock.mcp_endpoint import McpEndpoint

    state = state or MockState(config or MockConfig())
    dispatcher = Dispatcher(state)
    mcp = McpEndpoint(state, dispatcher)
    methods = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]
    app = Starlette(
        routes=[
            Route(OPENAPI_PATH, _openapi(state), methods=["GET"]),
            Route(OPENAPI_PATH + "/", _openapi(state), methods=["GET"]),
            Route(f"{API_PREFIX}/mcp", mcp.handle, methods=methods),  # 405 but for POST
            Route(API_PREFIX + "/{path:path}", dispatcher.__call__, methods=methods),
        ],
        exception_handlers={HTTPException: _http_error},
        middleware=[Middleware(RequestLog)] if state.config.log else [],
    )
    if state.config.cors:
        _allow_any_origin(app)
    app.state.mock = state
    return app


# What a page's script may read of an answer besides the safelisted headers.
EXPOSED_HEADERS = (
    "Location", "Wait-For", "Link", "X-Total-Count", "X-Result-Count", "X-Request-Id",
    "Deprecation", "WWW-Authenticate", "Allow",
)  # fmt: skip


def _allow_any_origin(app: Starlette) -> None:
    """`--cors`: CORS headers for any origin (also `null`, a page opened from file://).

    No credentials mode: the token travels in the Authorization header, so a
    wildcard origin is enough and no cookie is ever involved.
    """
    from starlette.middleware.cors import CORSMiddleware

    app.add_middleware(
        CORSMiddleware,
        allow_origins=["*"],
        allow_methods=["*"],
        allow_headers=["*"],
        expose_headers=list(EXPOSED_HEADERS),
        max_age=600,
    )
