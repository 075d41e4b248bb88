"""What extraction hands to the rules: one API v2 call found in a file.

Extraction (per language) and the rules meet only here, so either side can
change without the other. Offsets are 0-based character offsets into the
decoded file text; lines and columns are 1-based, as editors count them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TypedDict


@dataclass(frozen=True)
class Span:
    start: int  # 0-based character offset, inclusive
    end: int  # exclusive


@dataclass(frozen=True)
class Segment:
    """One path segment as written: literal text, or a parameter.

    `is_param` is true for an interpolation or concatenated variable
    (`{dev_id}`, `$id`, `" + id + "`, `%s`) and for a numeric literal (`2048`);
    `source` is the exact text of the segment in the file, kept so a fix can
    rewrite the literal parts around it without touching the interpolation.
    """

    text: str  # literal text, or the parameter's source text
    is_param: bool
    span: Span | None = None  # where the segment stands in the file, when contiguous


@dataclass(frozen=True)
class QueryValue:
    """A query parameter the code sends with the call (URL or params mapping)."""

    name: str
    value: str | None  # decoded value; None when it is not a literal
    span: Span | None = None  # of the value text in the file (for filter diagnostics)
    placeholder_spans: tuple[tuple[int, int], ...] = ()  # unknown parts, offsets inside `value`
    # Offsets of each character of `value` back into the file, when the value was
    # URL-decoded or unescaped (None: value[i] stands at span.start + i).
    offset_map: tuple[int, ...] | None = None


class Extra(TypedDict, total=False):
    """What extraction notes on a reference for its later passes (headers, methods)."""

    call_window: tuple[int, int]  # the whole call's text, where its headers may stand
    methods: tuple[str, ...]  # every method of the path (an OpenAPI path key lists several)
    weak: bool  # only weak evidence that it is an API v2 call (one word, no helper)


@dataclass(frozen=True)
class Reference:
    """An API v2 path the code calls, with what the code shows about the call."""

    path: str  # relative to /api/v2, parameters written `{}`: "/experimental/devices/{}/move"
    segments: tuple[Segment, ...]
    span: Span  # the path text in the file (after any base URL / "/api/v2" prefix)
    line: int
    column: int
    end_line: int
    end_column: int
    method: str | None = None  # upper case; None when the code does not show it
    query: tuple[QueryValue, ...] = ()
    headers: tuple[tuple[str, str, Span | None], ...] = ()  # (name, value, span) the call sends
    language: str = ""
    evidence: str = ""  # why this is an API v2 call: "/api/v2 in URL", "base URL ends /api/v2", ...
    extra: Extra = field(default_factory=Extra, compare=False, hash=False)
