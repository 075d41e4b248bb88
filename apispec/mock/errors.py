"""Error answers of the mock: the spec's error body, with statuses taken from the registry.

Handlers raise `ApiError(code, message)`; the status comes from the registry's
error-code table, so the mock can never pair a code with a status the
registry does not state, and the body always carries the request id that the
`X-Request-Id` header repeats.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping

from starlette.requests import Request
from starlette.responses import JSONResponse

from apispec.registry.load import load_registry
from apispec.registry.model import Registry

REQUEST_ID_HEADER = "X-Request-Id"


class ApiError(Exception):
    """An answer with the spec's error body; `code` must be a registry error code."""

    def __init__(
        self,
        code: str,
        message: str,
        headers: Mapping[str, str] | None = None,
        status: int | None = None,
        diagnostic: str | None = None,
    ) -> None:
        super().__init__(message)
        entry = load_registry().error_code(code)
        if entry is None:  # a programming error, caught by the tests
            raise ValueError(f"{code!r} is not an error code of the registry")
        self.code = code
        self.message = message
        self.status = status if status is not None else entry.status
        self.headers = dict(headers or {})
        self.diagnostic = diagnostic  # the filter checker's code (FLT001...), for `--log`


def execution_timeout(seconds: float) -> ApiError:
    """408 `EXECUTION_TIMEOUT`, for a request that ran past the registry's execution limit."""
    return ApiError("EXECUTION_TIMEOUT", f"the request ran longer than {seconds:g} seconds")


def request_id(request: Request) -> str:
    """The request's id, made once per request and kept in its scope state."""
    state = request.scope.setdefault("state", {})
    rid: str | None = state.get("request_id")
    if rid is None:
        rid = uuid.uuid4().hex
        state["request_id"] = rid
    return rid


def error_response(request: Request, error: ApiError) -> JSONResponse:
    rid = request_id(request)
    state = request.scope.setdefault("state", {})  # what `--log` shows beside the status
    state["error_code"] = error.code
    state["diagnostic"] = error.diagnostic
    body = {"code": error.code, "message": error.message, "request_id": rid}
    headers = {**error.headers, REQUEST_ID_HEADER: rid}
    return JSONResponse(body, status_code=error.status, headers=headers)


def gateway_codes(registry: Registry) -> tuple[str, ...]:
    """The codes the spec reports for gateway failures (statuses 502, 503 and 504)."""
    return tuple(e.code for e in registry.error_codes if 502 <= e.status <= 504)


def code_for_status(registry: Registry, status: int) -> str:
    """The first registry code answering with `status` (for errors raised by Starlette itself)."""
    for entry in registry.error_codes:
        if entry.status == status:
            return entry.code
    raise ValueError(f"no error code of the registry has status {status}")
