"""Release identifiers and their ordering (DESIGN decision 1).

Releases look like `24.3.100`, `25.x.122` or `25.x.1xx`. They order by
(MAJOR, BUILD): MINOR is informational because the spec writes `x` for it, and
a placeholder build such as `1xx` (unreleased) sorts after every concrete build
of its major. Two releases with the same major and build but a different minor
(`25.1.108`, `25.x.108`) therefore order level; `Release.level_with` tells
them apart from a true tie so the registry check can warn.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from apispec.support.exceptions import UsageError
from apispec.support.printable import shortened

# Each part has at most nine digits: real ones have four, and a longer one (a fuzzer's
# 5,000) would be an integer Python refuses to convert past 4,300 digits.
_RELEASE = re.compile(
    r"(?P<major>[0-9]{1,9})\.(?P<minor>[0-9]{1,9}|x)\.(?P<build>[0-9]{1,9}|[0-9]{0,9}x{1,9})"
)


class ReleaseSyntaxError(UsageError):
    """A release text that does not have the shape MAJOR.MINOR.BUILD."""


@dataclass(frozen=True)
class Release:
    """One release as the spec writes it; compare with <, <=, >, >= by order key."""

    text: str
    major: int = field(compare=False)
    minor: int | None = field(compare=False)
    build: int | None = field(compare=False)
    placeholder: str | None = field(compare=False)

    @property
    def key(self) -> tuple[int, int, int]:
        """Order key: concrete builds first, then placeholders by their leading digits."""
        if self.placeholder is not None:
            digits = self.placeholder.rstrip("x")
            return (self.major, 1, int(digits) if digits else 0)
        assert self.build is not None
        return (self.major, 0, self.build)

    @property
    def sort_key(self) -> tuple[int, int, int, int]:
        """Total order for listing: the order key, then numeric minors before `x`."""
        return (*self.key, self.minor if self.minor is not None else 1 << 30)

    @property
    def is_placeholder(self) -> bool:
        return self.placeholder is not None

    def level_with(self, other: Release) -> bool:
        """True when both order level although they are different releases."""
        return self.key == other.key and self.text != other.text

    def __lt__(self, other: Release) -> bool:
        return self.key < other.key

    def __le__(self, other: Release) -> bool:
        return self.key <= other.key

    def __gt__(self, other: Release) -> bool:
        return self.key > other.key

    def __ge__(self, other: Release) -> bool:
        return self.key >= other.key

    def __str__(self) -> str:
        return self.text


def parse_release(text: str) -> Release:
    """Parse a release text; raise ReleaseSyntaxError naming the expected shape."""
    text = str(text)
    match = _RELEASE.fullmatch(text.strip())
    if match is None:
        raise ReleaseSyntaxError(
            f"invalid release {shortened(text)}: expected MAJOR.MINOR.BUILD such as 24.3.100, "
            "25.x.122 or 25.x.1xx (each part at most nine digits)"
        )
    minor = match["minor"]
    build = match["build"]
    placeholder = build if "x" in build else None
    return Release(
        text=match.group(0),
        major=int(match["major"]),
        minor=None if minor == "x" else int(minor),
        build=None if placeholder else int(build),
        placeholder=placeholder,
    )
