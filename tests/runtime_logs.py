"""One day of traffic, written in every log format `apispec traffic` reads.

Each writer puts the same requests (`TRAFFIC`) in its format, so one table of
expected counts (`expected`) holds for all of them; the line-based formats get
one malformed line in the middle (`MALFORMED`).
"""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from typing import NamedTuple

from apispec.runtime.readers.proxy_log import record

START = 1_728_561_336  # 2024-10-10T11:55:36Z


class Request(NamedTuple):
    method: str
    target: str
    status: int
    time: int
    agent: str
    address: str
    request_id: str


def _traffic() -> list[Request]:
    shapes = [
        # (method, target, status, agent, address, times)
        ("GET", "/api/v2/sensors/{n}/overview", 200, "backup.ps1/1.0", "192.0.2.7", 3),
        ("GET", "/api/v2/sensors/{n}/overview", 200, "python-requests/2.31", "192.0.2.8", 1),
        ("GET", "/api/v2/devices?take=5", 200, "python-requests/2.31", "192.0.2.8", 2),
        ("GET", "/index.html", 200, "Mozilla/5.0 (X11; Linux)", "192.0.2.9", 2),
        ("POST", "/api/v2/experimental/sensors/{n}", 405, "backup.ps1/1.0", "192.0.2.7", 1),
        ("GET", "/api/v2/nowhere/{n}", 404, "curl/8.5.0", "192.0.2.10", 1),
        (
            "GET",
            "/api/v2/experimental/sensors?filter=status%20%3D%3D%20up",
            400,
            "curl/8.5.0",
            "192.0.2.10",
            1,
        ),
        ("GET", "/api/v2/settings/public", 200, "Mozilla/5.0 (X11; Linux)", "192.0.2.9", 2),
    ]
    found = []
    n = 0
    for method, target, status, agent, address, times in shapes:
        for _ in range(times):
            n += 1
            found.append(
                Request(
                    method,
                    target.format(n=1000 + n),
                    status,
                    START + 60 * n,
                    agent,
                    address,
                    f"rid-{n:04d}",
                )
            )
    return found


TRAFFIC = _traffic()
MALFORMED = "this line is no request of any log format"


def expected(client: str = "agent") -> dict[tuple[str, str, str], int]:
    """(method, endpoint, client) -> requests, for the API v2 requests of TRAFFIC."""
    endpoints = {
        "/api/v2/sensors/{n}/overview": "/sensors/{id}/overview",
        "/api/v2/devices?take=5": "/devices",
        "/api/v2/experimental/sensors/{n}": "/experimental/sensors/{id}",
        "/api/v2/nowhere/{n}": "/nowhere/{id}",
        "/api/v2/experimental/sensors?filter=status%20%3D%3D%20up": "/experimental/sensors",
        "/api/v2/settings/public": "/settings/public",
    }
    counts: dict[tuple[str, str, str], int] = {}
    for request in TRAFFIC:
        for written, endpoint in endpoints.items():
            if _same_shape(written, request.target):
                who = {"agent": request.agent, "address": request.address, "none": "-"}[client]
                key = (request.method, endpoint, who)
                counts[key] = counts.get(key, 0) + 1
    return counts


def _same_shape(written: str, target: str) -> bool:
    return re.fullmatch(re.escape(written).replace(r"\{n\}", r"\d+"), target) is not None


def _clf_time(seconds: int) -> str:
    return datetime.fromtimestamp(seconds, UTC).strftime("%d/%b/%Y:%H:%M:%S +0000")


def _iso(seconds: int) -> str:
    return datetime.fromtimestamp(seconds, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def combined() -> str:
    lines = [
        f'{r.address} - - [{_clf_time(r.time)}] "{r.method} {r.target} HTTP/1.1" {r.status} 512 '
        f'"-" "{r.agent}"'
        for r in TRAFFIC
    ]
    lines.insert(4, MALFORMED)
    return "\n".join(lines) + "\n"


def common() -> str:
    lines = [
        f'{r.address} - - [{_clf_time(r.time)}] "{r.method} {r.target} HTTP/1.1" {r.status} 512'
        for r in TRAFFIC
    ]
    lines.insert(4, MALFORMED)
    return "\n".join(lines) + "\n"


def iis() -> str:
    lines = [
        "#Software: Microsoft Internet Information Services 10.0",
        "#Version: 1.0",
        "#Date: 2024-10-10 11:55:00",
        "#Fields: date time s-ip cs-method cs-uri-stem cs-uri-query s-port cs-username c-ip "
        "cs(User-Agent) cs(Referer) sc-status sc-substatus sc-win32-status time-taken",
    ]
    for r in TRAFFIC:
        stem, _, query = r.target.partition("?")
        moment = datetime.fromtimestamp(r.time, UTC)
        lines.append(
            f"{moment:%Y-%m-%d} {moment:%H:%M:%S} 10.0.0.5 {r.method} {stem} {query or '-'} 443 - "
            f"{r.address} {r.agent.replace(' ', '+')} - {r.status} 0 0 12"
        )
    lines.insert(8, MALFORMED)
    return "\r\n".join(lines) + "\r\n"


def kong() -> str:
    lines = [
        json.dumps(
            {
                "request": {
                    "method": r.method,
                    "uri": r.target,
                    "headers": {"user-agent": r.agent, "host": "prtg:1616"},
                    "id": r.request_id,
                },
                "response": {"status": r.status, "size": 512},
                "client_ip": r.address,
                "started_at": r.time * 1000,
            }
        )
        for r in TRAFFIC
    ]
    lines.insert(4, "{not json")
    return "\n".join(lines) + "\n"


def traefik() -> str:
    lines = [
        json.dumps(
            {
                "ClientHost": r.address,
                "DownstreamStatus": r.status,
                "RequestMethod": r.method,
                "RequestPath": r.target,
                "StartUTC": _iso(r.time),
                "request_User-Agent": r.agent,
                "request_X-Request-Id": r.request_id,
            }
        )
        for r in TRAFFIC
    ]
    lines.insert(4, json.dumps({"level": "info", "msg": "Configuration loaded"}))
    return "\n".join(lines) + "\n"


def own_fields() -> str:
    """A load balancer's export under names of its own: needs --field and --client-field."""
    lines = [
        json.dumps({"verb": r.method, "where": r.target, "code": str(r.status), "who": r.agent})
        for r in TRAFFIC
    ]
    lines.insert(4, "[1, 2, 3]")
    return "\n".join(lines) + "\n"


def har(indent: int | None = 2) -> str:
    entries = [
        {
            "startedDateTime": _iso(r.time).replace("Z", ".123+00:00"),
            "time": 12.5,
            "request": {
                "method": r.method,
                "url": f"https://prtg.example:1616{r.target}",
                "httpVersion": "HTTP/1.1",
                "headers": [
                    {"name": "User-Agent", "value": r.agent},
                    {"name": "Authorization", "value": "Bearer s3cret-token"},
                ],
                "queryString": [],
                "cookies": [],
                "headersSize": -1,
                "bodySize": 0,
            },
            "response": {
                "status": r.status,
                "statusText": "",
                "httpVersion": "HTTP/1.1",
                "headers": [{"name": "X-Request-Id", "value": r.request_id}],
                "cookies": [],
                # an answer body with brackets and escaped quotes: the scanner must skip it
                "content": {
                    "size": 30,
                    "mimeType": "application/json",
                    "text": '{"a": ["]}\\"{"]}',
                },
                "redirectURL": "",
                "headersSize": -1,
                "bodySize": 30,
            },
            "cache": {},
            "timings": {"send": 0, "wait": 10, "receive": 2},
        }
        for r in TRAFFIC
    ]
    document = {
        "log": {
            "version": "1.2",
            "creator": {"name": "Firefox", "version": "120"},
            "pages": [{"id": "page_1", "title": "entries [ ] { }"}],
            "entries": entries,
        }
    }
    return json.dumps(document, indent=indent) + "\n"


def mock_log() -> str:
    lines = [
        "apispec mock: API v2 release 25.x.122 at http://127.0.0.1:8080/api/v2",
        "  data: 5000 objects",
    ]
    for r in TRAFFIC:
        lines.append(
            f"{r.method} {r.target} {r.status} 1.3 ms" + (" NOT_FOUND" if r.status == 404 else "")
        )
    lines.insert(6, MALFORMED)
    lines.append("apispec mock: stopped")
    return "\n".join(lines) + "\n"


def proxy_log() -> str:
    lines = []
    for r in TRAFFIC:
        path, _, query = r.target.partition("?")
        pairs = dict(p.split("=", 1) for p in query.split("&")) if query else {}
        shown = "/".join("{id}" if part.isdigit() else part for part in path.split("/"))
        lines.append(
            record(
                time=r.time,
                client=r.agent,
                address=r.address,
                user_agent=r.agent,
                method=r.method,
                path=shown,
                query={
                    k: (None if k == "take" else v.replace("%20", " ").replace("%3D", "="))
                    for k, v in pairs.items()
                },
                authorization="bearer",
                endpoint=None,
                maturity=None,
                findings=[],
                status=r.status,
                duration_ms=3.0,
                request_id=r.request_id,
            )
        )
    lines.insert(4, MALFORMED)
    return "\n".join(lines) + "\n"
