"""Request bodies: decoding JSON into values the mock can store and send back, and their fields.

Python's decoder accepts more than the mock can use: a lone UTF-16 surrogate
(`"\\ud800"`) decodes, is stored, and then breaks every answer that includes
it (UTF-8 cannot encode it); `NaN`, `Infinity` and `1e999` decode to floats
that strict JSON output refuses; deep nesting overflows the stack, and an
integer of 4,301 digits raises ValueError. Each becomes one BodyError naming
the place in the document, so the request is refused before anything is
kept.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from starlette.requests import Request

from apispec.mock.errors import ApiError
from apispec.support.exceptions import did_you_mean

MAX_DEPTH = 64  # no body of the API nests more than a few levels
_SURROGATE = re.compile("[\ud800-\udfff]")
_SHOWN = 60


async def read_within(request: Request, limit: int) -> bytes:
    """The body, read chunk by chunk and abandoned as soon as it passes `limit` bytes.

    400 `BODY_TOO_LARGE` (the registry's status for the spec's 15 KB limit) as soon
    as the declared length or the bytes received pass it, so a client cannot make
    the mock (or `apispec proxy`) hold more than the limit.
    """
    too_large = ApiError(
        "BODY_TOO_LARGE", f"the request body is larger than the limit of {limit} bytes"
    )
    declared = request.headers.get("content-length", "")
    if declared.isascii() and declared.isdigit():
        digits = declared.lstrip("0")
        if len(digits) > len(str(limit)) or int(digits or "0") > limit:
            raise too_large
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise too_large
        chunks.append(chunk)
    return b"".join(chunks)


class BodyError(ValueError):
    """The body is not JSON the mock can use; the message says what and where."""


def decode_json(raw: bytes | str) -> Any:
    """The JSON value of `raw`; BodyError for malformed or unusable JSON."""
    try:
        value = json.loads(raw, parse_constant=_no_constant)
    except RecursionError:
        raise BodyError(f"the JSON nests deeper than {MAX_DEPTH} levels") from None
    except json.JSONDecodeError as exc:
        raise BodyError(f"malformed JSON: {exc}") from None
    except UnicodeDecodeError as exc:
        raise BodyError(f"malformed JSON: not UTF-8 text ({exc.reason})") from None
    except ValueError as exc:  # an integer past Python's conversion limit, or a constant
        raise BodyError(str(exc) if isinstance(exc, BodyError) else _too_long(exc)) from None
    problem = _problem(value)
    if problem is not None:
        raise BodyError(problem)
    return value


def _no_constant(name: str) -> Any:
    raise BodyError(f"malformed JSON: {name} is not a JSON number")


def _too_long(exc: ValueError) -> str:
    digits = re.search(r"value has (\d+) digits", str(exc))
    count = f" ({digits[1]} digits)" if digits else ""
    return f"a number in the JSON is out of range{count}"


def _problem(value: Any) -> str | None:
    """The first place where the decoded value cannot be stored or sent back, if any."""
    stack: list[tuple[Any, str, int]] = [(value, "$", 1)]
    while stack:
        node, where, depth = stack.pop()
        if depth > MAX_DEPTH:
            return f"the JSON nests deeper than {MAX_DEPTH} levels (at {_short(where)})"
        if isinstance(node, str):
            if _SURROGATE.search(node):
                return f"{_short(where)} holds a lone UTF-16 surrogate, which is not valid Unicode"
        elif isinstance(node, float):
            if not math.isfinite(node):
                return f"{_short(where)} holds a number out of range"
        elif isinstance(node, dict):
            for key, item in node.items():
                if _SURROGATE.search(key):
                    return (
                        f"a key in {_short(where)} holds a lone UTF-16 surrogate, "
                        "which is not valid Unicode"
                    )
                stack.append((item, f"{where}.{key}", depth + 1))
        elif isinstance(node, list):
            stack.extend((item, f"{where}[{i}]", depth + 1) for i, item in enumerate(node))
    return None


def _short(where: str) -> str:
    return where if len(where) <= _SHOWN else where[: _SHOWN - 3] + "..."


def known_fields(body: dict[str, Any], known: tuple[str, ...], what: str) -> None:
    """400 `BAD_REQUEST` naming each field of `body` that `what` does not take.

    The spec shows no creation payloads, so the mock takes the fields it can
    store; a field it does not know is refused rather than dropped, so a typo
    (`"nmae"`) does not pass silently.
    """
    unknown = [key for key in body if key not in known]
    if unknown:
        first = unknown[0]
        fields = ", ".join(map(repr, unknown))
        raise ApiError(
            "BAD_REQUEST",
            f"unknown field{'s' * (len(unknown) > 1)} {fields}{did_you_mean(first, known)}; "
            f"{what} takes: {', '.join(known)}",
        )
