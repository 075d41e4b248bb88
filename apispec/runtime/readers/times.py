"""Times as logs write them, to seconds since the epoch (UTC); None when unreadable.

A log writes the same second on many lines in a row, so the last text read and
its value are kept: most lines cost one comparison, not a parse.
"""

from __future__ import annotations

import calendar
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

_MONTHS = {
    m: i
    for i, m in enumerate(
        ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"), 1
    )
}


class LastTime:
    """One parser with the last (text, value) kept."""

    def __init__(self, parse: Callable[[Any], float | None]) -> None:
        self._parse = parse
        self._text: object = None
        self._value: float | None = None

    def __call__(self, text: object) -> float | None:
        if text != self._text:
            self._text = text
            self._value = self._parse(text)
        return self._value


def common_log(text: str) -> float | None:
    """`10/Oct/2000:13:55:36 -0700` (the access log's `[...]` field)."""
    midnight = _midnight(text[:11], text[21:26])
    if midnight is None:
        return None
    try:
        return midnight + int(text[12:14]) * 3600 + int(text[15:17]) * 60 + int(text[18:20])
    except ValueError:
        return None


class CommonLogClock:
    """`common_log` for a stream of lines: the day's midnight is worked out once per day."""

    def __init__(self) -> None:
        self._days: dict[bytes, float | None] = {}

    def __call__(self, raw: bytes) -> float | None:
        key = raw[:11] + raw[20:]
        midnight = self._days.get(key, -1.0)
        if midnight == -1.0:
            if len(self._days) > 1000:  # a log spans few days and zones; a hostile one, many
                self._days.clear()
            text = raw.decode("latin-1")
            midnight = self._days[key] = _midnight(text[:11], text[21:26])
        if midnight is None:
            return None
        try:
            return midnight + int(raw[12:14]) * 3600 + int(raw[15:17]) * 60 + int(raw[18:20])
        except ValueError:
            return None


def _midnight(date: str, zone: str) -> float | None:
    """The epoch seconds of `10/Oct/2000` at 00:00 in zone `-0700`."""
    try:
        day, month, year = int(date[0:2]), _MONTHS[date[3:6]], int(date[7:11])
        offset = (int(zone[1:3]) * 60 + int(zone[3:5])) * 60 if zone else 0
        if zone.startswith("-"):
            offset = -offset
        return calendar.timegm((year, month, day, 0, 0, 0)) - offset
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
