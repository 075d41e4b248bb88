"""One request as a log tells it, whatever the log's format.

Every reader yields `Seen` records (or `Bad` for a line it cannot read), so
matching, aggregation and the reports never know which format a request came
from. The records are tuples: a log of millions of lines makes millions of them.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import NamedTuple

# What a client is called when its log line does not say (no User-Agent, no field).
UNKNOWN_CLIENT = "-"
# Longest client name kept: a hostile User-Agent of a megabyte must not be kept per pair.
MAX_CLIENT = 200

# How `Seen.authorization` records the Authorization header: only whether it has the
# `Bearer ` prefix (what API009 checks), never the credential itself.
BEARER = "bearer"
NOT_BEARER = "other"


class Seen(NamedTuple):
    """One request: what every reader can tell about it."""

    method: str  # upper case
    target: str  # the path and query as sent (percent-encoded), or an absolute URL
    status: int | None  # the answer's status, when the log has it
    time: float | None  # seconds since the epoch (UTC), when the log has it
    client: str  # as chosen by --client-field
    request_id: str | None = None
    authorization: str | None = None  # BEARER, NOT_BEARER, or None: no header or not known


class Bad(NamedTuple):
    """A line (or HAR entry) that is not a request of the format: counted and reported."""

    where: int  # line number, or entry number for HAR
    reason: str


def client_name(text: str | None) -> str:
    """A client as kept: the unknown marker for nothing, cut to MAX_CLIENT characters."""
    if not text or text == "-":
        return UNKNOWN_CLIENT
    return text if len(text) <= MAX_CLIENT else text[: MAX_CLIENT - 1] + "…"


def authorization_kind(value: str | None) -> str | None:
    """BEARER or NOT_BEARER for an Authorization header's value (None: no header)."""
    if value is None:
        return None
    return BEARER if value.strip()[:7].lower() == "bearer " else NOT_BEARER


def iso_time(seconds: float | None) -> str | None:
    """`2024-05-01T12:00:00Z`: a time as the reports show it (UTC, whole seconds)."""
    if seconds is None:
        return None
    try:
        return datetime.fromtimestamp(int(seconds), UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    except (OverflowError, OSError, ValueError):  # a year past 9999 in a hostile log
        return None
