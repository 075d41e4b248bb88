"""`apispec proxy --log`: one JSON object per request, written by the proxy, read by traffic.

    {"apispec_proxy": 1, "time": "2024-10-10T11:55:36Z", "client": "backup.ps1/1.0",
     "address": "192.0.2.7", "user_agent": "backup.ps1/1.0", "method": "GET",
     "path": "/api/v2/sensors/{id}/overview", "query": {"limit": "10", "api_key": null},
     "authorization": "bearer", "endpoint": "GET /sensors/{id}/overview",
     "maturity": "deprecated", "findings": [{"code": "API002", ...}], "status": 200,
     "duration_ms": 3.1, "request_id": "8c1e..."}

(one line in the file). The writer and the reader are both here, so the two
cannot drift. What is never written: the Authorization header (only whether it
has the `Bearer ` prefix, which API009 checks), any header but the User-Agent,
request and answer bodies (so no password of `POST /session` and no token it
answers), object ids (the path is written with `{id}` for each), and the
values of query parameters the registry does not list (an `api_key=` or
`token=` in a URL): their names are kept, with null.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import Any
from urllib.parse import urlencode

from apispec.runtime.readers.options import ADDRESS, AUTO, USER_AGENT, ReadOptions
from apispec.runtime.readers.source import Source, json_objects
from apispec.runtime.readers.times import iso
from apispec.runtime.seen import BEARER, NOT_BEARER, Bad, Seen, client_name, iso_time

NAME = "proxy"
DESCRIPTION = "apispec proxy log"
MARKER = "apispec_proxy"
VERSION = 1
_CLIENT_KEYS = {AUTO: "client", USER_AGENT: "user_agent", ADDRESS: "address"}


def looks_like(first: bytes) -> bool:
    return first.startswith(b'{"' + MARKER.encode() + b'":')


def record(
    *,
    time: float,
    client: str,
    address: str | None,
    user_agent: str | None,
    method: str,
    path: str,
    query: Mapping[str, str | None],
    authorization: str | None,
    endpoint: str | None,
    maturity: str | None,
    findings: list[dict[str, str | None]],
    status: int,
    duration_ms: float,
    request_id: str | None,
) -> str:
    """The log line of one request (no newline); what goes in is already free of secrets."""
    fields: dict[str, Any] = {
        MARKER: VERSION,
        "time": iso_time(time),
        "client": client,
        "address": address,
        "user_agent": user_agent,
        "method": method,
        "path": path,
        "query": dict(query),
        "authorization": authorization,
        "endpoint": endpoint,
        "maturity": maturity,
        "findings": findings,
        "status": status,
        "duration_ms": round(duration_ms, 1),
        "request_id": request_id,
    }
    return json.dumps(fields, ensure_ascii=True, separators=(",", ":"))


def read(source: Source, options: ReadOptions) -> Iterator[Seen | Bad]:
    key = _CLIENT_KEYS.get(options.client, options.client)
    for item in json_objects(source):
        if isinstance(item, Bad):
            yield item
            continue
        number, data = item
        seen = _seen(data, key)
        yield seen if seen is not None else Bad(number, "not a line of apispec proxy's log")


def _seen(data: dict[str, Any], client_key: str) -> Seen | None:
    method, path, status = data.get("method"), data.get("path"), data.get("status")
    if not isinstance(method, str) or not isinstance(path, str):
        return None
    query = data.get("query")
    target = path
    if isinstance(query, dict) and query:
        pairs = [(str(k), v if isinstance(v, str) else "") for k, v in query.items()]
        target += "?" + urlencode(pairs)
    time = data.get("time")
    client = data.get(client_key)
    authorization = data.get("authorization")
    request_id = data.get("request_id")
    return Seen(
        method.upper(),
        target,
        status if isinstance(status, int) and not isinstance(status, bool) else None,
        iso(time) if isinstance(time, str) else None,
        client_name(client if isinstance(client, str) else None),
        request_id if isinstance(request_id, str) else None,
        authorization if authorization in (BEARER, NOT_BEARER) else None,
    )
