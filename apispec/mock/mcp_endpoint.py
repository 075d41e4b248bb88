"""The experimental MCP server at /api/v2/mcp: Streamable HTTP, stateless, tools from the catalog.

Stateless means no `Mcp-Session-Id`: every POST carries its own bearer token
and is answered on its own with one JSON response (the transport allows JSON
instead of an event stream). GET answers 405 (the server opens no stream of
its own) and DELETE answers 405 (there is no session to end), both as the
MCP transport specification allows. A tool call is an in-process request to
the mock's own REST endpoint with the caller's Authorization header, so
pagination, filters, authorization and error codes are exactly the REST ones.
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import quote, urlencode

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from apispec.mock.bodies import BodyError, decode_json
from apispec.mock.context import MockState
from apispec.mock.data import API_PREFIX
from apispec.mock.errors import ApiError, error_response, request_id

PROTOCOL_VERSIONS = ("2025-03-26", "2025-06-18", "2025-11-25")  # handshake-era revisions
PROTOCOL_HEADER = "mcp-protocol-version"
JSONRPC = "2.0"
PARSE_ERROR, INVALID_REQUEST, METHOD_NOT_FOUND, INVALID_PARAMS = -32700, -32600, -32601, -32602
BODY_ARGUMENT = "body"
# REST answer headers a tool result repeats, so a model can page and wait as a script does.
RESULT_HEADERS = ("link", "x-result-count", "x-total-count", "location", "wait-for", "deprecation")


class _RpcError(Exception):
    def __init__(self, code: int, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class McpEndpoint:
    def __init__(self, state: MockState, rest: Any) -> None:
        self.state = state
        self.rest = rest  # the REST dispatcher: tool calls go through it
        self._catalog: dict[str, Any] | None = None

    @property
    def catalog(self) -> dict[str, Any]:
        if self._catalog is None:
            from apispec.generate.mcp_catalog import build_catalog

            entries = build_catalog(self.state.registry, self.state.release)
            self._catalog = {entry.name: entry for entry in entries}
        return self._catalog

    async def handle(self, request: Request) -> Response:
        try:
            if not self.state.mcp_enabled:
                raise ApiError(
                    "NOT_FOUND", "the MCP server is disabled; start the mock with --enable mcp"
                )
            self.state.accounts.authenticate(request.headers.get("authorization"))
            if request.method != "POST":
                raise ApiError(
                    "METHOD_NOT_IMPLEMENTED",
                    f"{request.method} is not supported: the MCP server is stateless and answers "
                    "every POST with JSON",
                    {"Allow": "POST"},
                    status=405,
                )
            version = request.headers.get(PROTOCOL_HEADER)
            if version is not None and version not in PROTOCOL_VERSIONS:
                raise ApiError("BAD_REQUEST", f"unsupported {PROTOCOL_HEADER} {version!r}")
            body = await self.rest.read_body(request)
        except ApiError as error:
            return error_response(request, error)
        try:
            message = decode_json(body)
        except BodyError as exc:
            return _rpc_response(request, _error(None, PARSE_ERROR, f"parse error: {exc}"), 400)
        if isinstance(message, list):
            answers = [a for m in message if (a := await self._one(request, m)) is not None]
            return _rpc_response(request, answers) if answers else _accepted(request)
        malformed = _malformed(message)
        if malformed is not None:  # a lone message the server cannot even read: 400
            return _rpc_response(request, malformed, 400)
        answer = await self._one(request, message)
        return _accepted(request) if answer is None else _rpc_response(request, answer)

    async def _one(self, request: Request, message: Any) -> dict[str, Any] | None:
        """The answer to one JSON-RPC message; None for notifications and responses."""
        malformed = _malformed(message)
        if malformed is not None:
            return malformed
        if "method" not in message:
            return None  # a response to a request of ours: we send none
        if "id" not in message:
            return None  # notifications (initialized, cancelled) need no answer
        rid = message["id"]
        try:
            result = await self._dispatch(request, message["method"], message.get("params") or {})
        except _RpcError as exc:
            return _error(rid, exc.code, exc.message)
        return {"jsonrpc": JSONRPC, "id": rid, "result": result}

    async def _dispatch(self, request: Request, method: str, params: dict[str, Any]) -> Any:
        if method == "initialize":
            asked = params.get("protocolVersion")
            return {
                "protocolVersion": asked if asked in PROTOCOL_VERSIONS else PROTOCOL_VERSIONS[-1],
                "capabilities": {"tools": {"listChanged": False}},
                "serverInfo": {"name": "apispec-mock", "version": self.state.release.text},
                "instructions": "Every REST endpoint of the Monitoring Service API v2 is a tool.",
            }
        if method == "ping":
            return {}
        if method == "tools/list":
            return {"tools": [entry.tool for entry in self.catalog.values()]}
        if method == "tools/call":
            return await self._call_tool(request, params)
        raise _RpcError(METHOD_NOT_FOUND, f"method not found: {method}")

    async def _call_tool(self, request: Request, params: dict[str, Any]) -> dict[str, Any]:
        name = params.get("name")
        entry = self.catalog.get(name) if isinstance(name, str) else None
        if entry is None:
            raise _RpcError(INVALID_PARAMS, f"unknown tool: {name!r}")
        arguments = params.get("arguments") or {}
        if not isinstance(arguments, dict):
            raise _RpcError(INVALID_PARAMS, "arguments must be an object")
        endpoint = entry.endpoint
        path = endpoint.path
        for param in endpoint.path_params:
            if not isinstance(arguments.get(param), str | int):
                raise _RpcError(INVALID_PARAMS, f"{name}: argument {param!r} is required")
            path = path.replace("{" + param + "}", quote(str(arguments[param]), safe=""))
        query = {}
        for key, value in arguments.items():
            if key in endpoint.path_params or key == BODY_ARGUMENT:
                continue
            query[key] = ",".join(map(str, value)) if isinstance(value, list) else _text(value)
        body = b""
        if BODY_ARGUMENT in arguments:
            body = json.dumps(arguments[BODY_ARGUMENT]).encode()
        response = await self._rest_call(request, endpoint.method, path, urlencode(query), body)
        return _tool_result(response)

    async def _rest_call(
        self, outer: Request, method: str, path: str, query: str, body: bytes
    ) -> Response:
        """The mock's own REST endpoint, called in-process with the caller's credentials."""
        headers = [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
        ]
        auth = outer.headers.get("authorization")
        if auth is not None:
            headers.append((b"authorization", auth.encode("latin-1")))
        scope = {
            "type": "http",
            "http_version": "1.1",
            "method": method,
            "scheme": outer.url.scheme,
            "server": outer.scope.get("server"),
            "client": outer.scope.get("client"),
            "root_path": "",
            "path": f"{API_PREFIX}{path}",
            "raw_path": f"{API_PREFIX}{path}".encode(),
            "query_string": query.encode(),
            "headers": headers,
            "app": outer.scope.get("app"),
        }
        sent = False

        async def receive() -> dict[str, Any]:
            nonlocal sent
            if sent:
                return {"type": "http.disconnect"}
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}

        response: Response = await self.rest(Request(scope, receive))
        return response


def _malformed(message: Any) -> dict[str, Any] | None:
    """The error answer for a message that is not a JSON-RPC 2.0 message MCP can take, if so."""
    if not isinstance(message, dict) or message.get("jsonrpc") != JSONRPC:
        return _error(None, INVALID_REQUEST, "not a JSON-RPC 2.0 message")
    rid = message.get("id")
    if isinstance(rid, bool) or not isinstance(rid, str | int | float | None):
        return _error(None, INVALID_REQUEST, "`id` must be a string, a number or null")
    if "method" in message and not isinstance(message["method"], str):
        return _error(rid, INVALID_REQUEST, "`method` must be a string")
    params = message.get("params")
    if params is not None and not isinstance(params, dict):
        return _error(
            rid,
            INVALID_PARAMS,
            f"`params` must be an object (MCP names its parameters), not {_kind(params)}",
        )
    return None


def _kind(value: Any) -> str:
    names = {list: "an array", str: "a string", bool: "a boolean"}
    return names.get(type(value), "a number")


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _tool_result(response: Response) -> dict[str, Any]:
    """The REST answer as a tool result: status, the paging and creation headers, and the body."""
    raw = bytes(response.body) if response.body else b""
    payload: dict[str, Any] = {"status": response.status_code}
    headers: dict[str, Any] = {}
    for key, value in response.headers.items():
        if key in RESULT_HEADERS:
            headers.setdefault(key, []).append(value)
    payload["headers"] = {k: v[0] if len(v) == 1 else v for k, v in headers.items()}
    payload["body"] = json.loads(raw) if raw else None
    return {
        "content": [{"type": "text", "text": json.dumps(payload)}],
        "isError": response.status_code >= 400,
    }


def _error(rid: Any, code: int, message: str) -> dict[str, Any]:
    return {"jsonrpc": JSONRPC, "id": rid, "error": {"code": code, "message": message}}


def _rpc_response(request: Request, payload: Any, status: int = 200) -> Response:
    return JSONResponse(payload, status_code=status, headers={"X-Request-Id": request_id(request)})


def _accepted(request: Request) -> Response:
    return Response(status_code=202, headers={"X-Request-Id": request_id(request)})
