"""POST /session (credentials for a bearer token) and POST /users/{id}/api-keys."""

from __future__ import annotations

from starlette.responses import JSONResponse, Response

from apispec.mock.bodies import known_fields
from apispec.mock.context import Call
from apispec.mock.errors import ApiError


def create_session(call: Call) -> Response:
    """The spec's known payload: `username` and `password` in, `token` out."""
    body = call.json_object()
    fields = call.endpoint.request_fields
    for name in fields:
        if not isinstance(body.get(name), str):
            raise ApiError(
                "BAD_REQUEST", f"the body needs {', '.join(fields)} as strings; {name!r} is missing"
            )
    username, password = (body[name] for name in fields)
    token = call.state.accounts.login(username, password)
    if token is None:
        raise ApiError("LOGIN_FAILED", "login failed: user name or password is wrong")
    (answer,) = call.endpoint.response_fields
    return JSONResponse({answer: token})


def create_api_key(call: Call) -> Response:
    """An API key for user {id}: administrators for anyone, everyone else for themselves."""
    assert call.user is not None
    accounts = call.state.accounts
    uid = call.params[call.endpoint.path_params[0]]
    user = accounts.users.get(uid)
    if user is None:
        raise ApiError("NOT_FOUND", f"no user with id {uid!r}")
    if not call.user.is_admin and call.user.id != uid:
        raise ApiError(
            "FORBIDDEN", f"user {call.user.username!r} may create API keys only for themselves"
        )
    body = call.json_object()
    known_fields(body, ("name",), "a new API key")
    name = body.get("name", "api key")
    if not isinstance(name, str):
        raise ApiError("BAD_REQUEST", "field 'name' must be a string")
    return JSONResponse({"name": name, "userid": uid, "key": accounts.create_api_key(user)})
