"""How a user names an endpoint on the command line, read the same way by every command.

People copy endpoints from wherever they meet them: `GET /devices/{id}` from a
lint report, `/experimental/devices` from a hint, `https://host:1616/api/v2/devices/42`
from a script or a log. `filter check --endpoint` and `registry show` once each
accepted one of these spellings; `parse_endpoint` accepts them all, and
`match_template` finds the registry path a concrete path stands for.

Plain strings only: `filter check` runs on the cached catalog without loading
the registry model, so this module imports nothing of it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from apispec.support.exceptions import UsageError, did_you_mean

METHODS = ("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS")
_PREFIX = "/api/v2"
EXAMPLES = "GET /devices/{id}, /devices/{id}, /api/v2/devices/42 or https://host/api/v2/devices/42"


class EndpointName(NamedTuple):
    """What the user named: a method (None: every method of the path) and a path as the
    registry writes paths, relative to /api/v2 (parameters still concrete if given so)."""

    method: str | None
    path: str


def parse_endpoint(text: str) -> EndpointName:
    """`GET /devices/{id}`, `get /devices`, `/devices`, `devices`, `/api/v2/devices/42`,
    `https://host:1616/api/v2/devices/42?limit=5`: the method, if any, and the path."""
    words = text.split()
    if len(words) == 1 and words[0].upper() in METHODS:
        raise UsageError(f"name the path too, as in {EXAMPLES} (got {words[0]!r})")
    if len(words) == 2:
        method = words[0].upper()
        if method not in METHODS:
            raise UsageError(f"unknown method {words[0]!r}{did_you_mean(method, METHODS)}")
        return EndpointName(method, _registry_path(words[1]))
    if len(words) != 1:
        raise UsageError(f"cannot read {text.strip()!r} as an endpoint: name one as {EXAMPLES}")
    return EndpointName(None, _registry_path(words[0]))


def _registry_path(written: str) -> str:
    """The path relative to /api/v2, without query, fragment or trailing slash."""
    scheme, url, _ = written.partition("://")
    if url and scheme.isalpha():  # urllib only for a URL: `filter check` starts in milliseconds
        from urllib.parse import urlsplit

        written = urlsplit(written).path
    else:
        written = written.split("?", 1)[0].split("#", 1)[0]
    if "%" in written:
        from urllib.parse import unquote

        written = unquote(written)
    path = "/" + written.strip("/")
    if path == _PREFIX or path.startswith(_PREFIX + "/"):
        path = path[len(_PREFIX) :] or "/"
    return path


def match_template(path: str, templates: Iterable[str]) -> str | None:
    """The registry path `path` names: itself, or the template whose parameters its
    segments fill (`/devices/42` -> `/devices/{id}`), literal segments winning over
    parameters (`/devices/data`, not `/devices/{id}`)."""
    known = tuple(templates)
    if path in known:
        return path
    segments = path.strip("/").split("/")
    best: tuple[int, str] | None = None
    for template in known:
        parts = template.strip("/").split("/")
        if len(parts) != len(segments):
            continue
        literal = 0
        for part, segment in zip(parts, segments, strict=True):
            if part == segment:
                literal += 1
            elif not (part.startswith("{") and part.endswith("}")):
                break
        else:
            if best is None or literal > best[0]:
                best = (literal, template)
    return None if best is None else best[1]
