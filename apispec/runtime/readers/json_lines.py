"""JSON lines: one object per line, from Kong, Traefik, nginx's `escape=json`, a load balancer.

Each of the values a request needs is looked up under the keys those tools
use, first one present wins (`KEYS`); `--field NAME=KEY` puts a key of your own
first (a dotted key reaches into nested objects: `request.headers.user-agent`
is Kong's). A `request` value of the form `GET /path HTTP/1.1` (nginx's
`$request`) gives the method and the target when no separate ones are there.
`--client-field KEY` names a client by any key.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from apispec.runtime.readers.options import ADDRESS, AUTO, USER, USER_AGENT, ReadOptions
from apispec.runtime.readers.source import Source, json_objects
from apispec.runtime.readers.times import any_time
from apispec.runtime.seen import Bad, Seen, authorization_kind, client_name
from apispec.support.exceptions import UsageError, did_you_mean

NAME = "jsonl"
DESCRIPTION = "JSON lines"
# The keys each value is looked for under, in order (Kong, Traefik, nginx, cloud load balancers).
KEYS: dict[str, tuple[str, ...]] = {
    "method": (
        "method", "request_method", "RequestMethod", "request.method", "http.method",
        "httpRequest.requestMethod", "verb",
    ),
    "path": (
        "path", "uri", "url", "request_uri", "RequestPath", "request.uri", "request.url",
        "http.url", "httpRequest.requestUrl", "target",
    ),
    "request": ("request",),
    "status": (
        "status", "status_code", "DownstreamStatus", "response.status", "http.status_code",
        "httpRequest.status", "elb_status_code",
    ),
    "time": (
        "time", "timestamp", "@timestamp", "time_iso8601", "time_local", "StartUTC",
        "started_at", "ts",
    ),
    ADDRESS: (
        "remote_addr", "client_ip", "ClientHost", "ClientAddr", "ip", "httpRequest.remoteIp",
        "client.ip", "source_ip",
    ),
    USER_AGENT: (
        "user_agent", "http_user_agent", "userAgent", "request_User-Agent",
        "request.headers.user-agent", "httpRequest.userAgent", "agent", "ua",
    ),
    USER: ("remote_user", "user", "username", "ClientUsername", "consumer.username"),
    "request_id": (
        "request_id", "requestId", "RequestId", "request.id", "x_request_id",
        "request_X-Request-Id", "downstream_X-Request-Id",
    ),
    "authorization": ("request.headers.authorization", "request_Authorization"),
}  # fmt: skip
_PLACEHOLDER = "-"


def looks_like(first: bytes) -> bool:
    if not first.startswith(b"{"):
        return False
    try:
        return isinstance(json.loads(first), dict)
    except (ValueError, RecursionError):
        return False


def field_keys(fields: dict[str, str]) -> dict[str, tuple[str, ...]]:
    """KEYS with `--field NAME=KEY` first; a UsageError for a NAME that is not one of them."""
    keys = dict(KEYS)
    for name, key in fields.items():
        if name not in KEYS:
            raise UsageError(
                f"--field {name}={key}: no value is called {name!r}{did_you_mean(name, KEYS)}; "
                f"the names are {', '.join(KEYS)}"
            )
        keys[name] = (key, *KEYS[name])
    return keys


def _get(data: dict[str, Any], key: str) -> Any:
    """`data[key]`, or the value a dotted key reaches through nested objects."""
    if key in data:
        return data[key]
    if "." not in key:
        return None
    node: Any = data
    for part in key.split("."):
        if not isinstance(node, dict):
            return None
        node = node.get(part)
    return node


def _first(data: dict[str, Any], keys: tuple[str, ...]) -> Any:
    for key in keys:
        value = _get(data, key)
        if value is not None and value != _PLACEHOLDER:
            return value
    return None


def read(source: Source, options: ReadOptions) -> Iterator[Seen | Bad]:
    keys = field_keys(options.fields)
    client = options.client
    client_keys = keys[client] if client in (ADDRESS, USER_AGENT, USER) else (client,)
    for item in json_objects(source):
        if isinstance(item, Bad):
            yield item
            continue
        number, data = item
        seen = _seen(data, keys, client, client_keys)
        yield seen if seen is not None else Bad(number, "no method and path under known keys")


def _seen(
    data: dict[str, Any],
    keys: dict[str, tuple[str, ...]],
    client: str,
    client_keys: tuple[str, ...] | None,
) -> Seen | None:
    method, path = _first(data, keys["method"]), _first(data, keys["path"])
    if not (isinstance(method, str) and isinstance(path, str)):
        request = _first(data, keys["request"])
        if not isinstance(request, str):
            return None
        words = request.split(" ")
        if len(words) < 2:
            return Seen("-", "", None, None, "-")
        method, path = words[0], words[1]
    status = _first(data, keys["status"])
    if isinstance(status, str) and status.isdigit():
        status = int(status)
    if client == AUTO:
        name = _first(data, keys[USER_AGENT]) or _first(data, keys[ADDRESS])
    else:
        assert client_keys is not None
        name = _first(data, client_keys)
    request_id = _first(data, keys["request_id"])
    authorization = _first(data, keys["authorization"])
    return Seen(
        method.upper(),
        path,
        status if isinstance(status, int) and not isinstance(status, bool) else None,
        any_time(_first(data, keys["time"])),
        client_name(str(name) if name is not None else None),
        str(request_id) if isinstance(request_id, str | int) else None,
        authorization_kind(authorization) if isinstance(authorization, str) else None,
    )
