"""Times as logs write them, to seconds since the epoch (UTC); None when unreadable.

A log writes the same second on many lines in a row, so the last text read and
its value are kept: most lines cost one comparison, not a parse.
"""

from __future__ import annotations

import calendar
from datetime import UTC, datetime

_MONTHS = {
    m: i
    for i, m in enumerate(
        ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"), 1
    )
}


class LastTime:
    """One parser with the last (text, value) kept."""

    def __init__(self, parse: object) -> None:
        self._parse = parse
        self._text: object = None
        self._value: float | None = None

    def __call__(self, text: object) -> float | None:
        if text != self._text:
            self._text = text
            self._value = self._parse(text)  # type: ignore[operator]
        return self._value


def common_log(text: str) -> float | None:
    """`10/Oct/2000:13:55:36 -0700` (the access log's `[...]` field)."""
    try:
        day, month, year = int(text[0:2]), _MONTHS[text[3:6]], int(text[7:11])
        hour, minute, second = int(text[12:14]), int(text[15:17]), int(text[18:20])
        zone = text[21:26]
        offset = (int(zone[1:3]) * 60 + int(zone[3:5])) * 60 if zone else 0
        if zone.startswith("-"):
            offset = -offset
        return calendar.timegm((year, month, day, hour, minute, second)) - offset
    except (KeyError, ValueError, IndexError, OverflowError):
        return None


def iso(text: str) -> float | None:
    """ISO 8601 (`2024-05-01T12:00:00.123Z`, `+02:00`, or a space for the `T`); no zone: UTC."""
    try:
        moment = datetime.fromisoformat(text.strip())
    except (ValueError, TypeError):
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    try:
        return moment.timestamp()
    except (OverflowError, OSError, ValueError):
        return None


def epoch(value: float) -> float | None:
    """A number of seconds, or of milliseconds (Kong's `started_at`) when it is that large."""
    if value != value or value in (float("inf"), float("-inf")):  # NaN or infinite
        return None
    return value / 1000.0 if abs(value) > 1e11 else float(value)


def any_time(value: object) -> float | None:
    """A JSON log's time: a number (epoch seconds or milliseconds) or a text (ISO or CLF)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return epoch(float(value))
    if isinstance(value, str):
        if value[:1].isdigit() and "/" in value[:6]:
            return common_log(value)
        return iso(value)
    return None
