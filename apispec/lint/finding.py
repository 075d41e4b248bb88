"""The linter's result records, shared by the engine, the reporters and the fixer.

They are plain picklable data so that worker processes can hand them back.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any, NamedTuple


class Severity(StrEnum):
    INFO = "info"
    WARNING = "warning"
    ERROR = "error"

    @property
    def rank(self) -> int:
        return _RANK[self]


_RANK = {Severity.INFO: 0, Severity.WARNING: 1, Severity.ERROR: 2}
# `--fail-on` / `fail-on`: the lowest severity that fails the run, or never.
FAIL_LEVELS = ("error", "warning", "info", "never")
# Warnings fail by default: a deprecated call, a `limit` over the maximum or an unknown
# query parameter is what CI exists to catch, as pluto fails on deprecations. Experimental
# calls are `info` and pass, so code that follows the linter's advice passes too.
DEFAULT_FAIL_ON = "warning"


class Applicability(StrEnum):
    """What `--fix` may do with a fix, as ruff grades them.

    Safe fixes keep the program's meaning and are applied by `--fix`; unsafe
    ones may change it (an experimental successor answers differently) and
    need `--unsafe-fixes` as well; display-only ones are shown as guidance
    and never written (the successor needs another method, which only a person
    can change).
    """

    SAFE = "safe"
    UNSAFE = "unsafe"
    DISPLAY_ONLY = "display-only"


@dataclass(frozen=True)
class Edit:
    """Replace file text [start, end) (0-based character offsets) with `content`."""

    start: int
    end: int
    content: str
    # 1-based positions of start and end, filled in by the engine for reports.
    line: int = 0
    column: int = 0
    end_line: int = 0
    end_column: int = 0


@dataclass(frozen=True)
class Fix:
    """How to repair a finding: edits to one file, and what `--fix` may do with them."""

    message: str
    applicability: Applicability
    edits: tuple[Edit, ...]

    def applies(self, unsafe: bool) -> bool:
        """Whether `--fix` writes this fix (`unsafe`: `--unsafe-fixes` was given too)."""
        if self.applicability is Applicability.SAFE:
            return True
        return unsafe and self.applicability is Applicability.UNSAFE


@dataclass(slots=True)
class Finding:
    """One thing wrong at one place; the engine completes it once, then nobody changes it."""

    path: str  # as reported: relative to the current directory where possible
    line: int  # 1-based
    column: int  # 1-based
    end_line: int
    end_column: int
    code: str
    severity: Severity
    message: str
    endpoint: tuple[str, str] | None = None  # (method, path) of the registry endpoint
    target: str | None = None  # release the finding concerns; None: independent of release
    fix: Fix | None = None
    line_text: str = field(default="", compare=False)  # the source line, for fingerprints
    fingerprint: str = field(default="", compare=False)

    def with_(self, **changes: Any) -> Finding:
        return replace(self, **changes)

    def __reduce__(self) -> tuple[type[Finding], tuple[object, ...]]:
        """Pickled as the constructor's arguments, in field order: workers send back
        tens of thousands, and the default for a slotted class sets each field apart."""
        return (Finding, tuple(getattr(self, name) for name in self.__slots__))

    @property
    def sort_key(self) -> tuple[str, int, int, str, str]:
        return (self.path, self.line, self.column, self.code, self.target or "")


@dataclass(frozen=True)
class Skipped:
    """A file the linter did not read, and why (size, binary, unreadable, loop).

    `internal`: apispec itself failed on the file (a bug); the run goes on, and
    ends with exit code 3 so the crash is neither a finding nor a pass.
    `over_budget`: linting took longer than the file's time budget; the run goes
    on, and ends with exit code 2.
    `named`: the file was named on the command line, so its skip is an error.
    """

    path: str
    reason: str
    internal: bool = False
    named: bool = False
    over_budget: bool = False

    @property
    def not_checked(self) -> bool:
        """The file was meant to be linted and was not: every report says so and the run
        fails, whatever `--fail-on` says (it concerns findings)."""
        return self.internal or self.over_budget


class CallRecord(NamedTuple):
    """One API v2 call the linter found (`apispec lint --show-calls`): where, what, and
    which registry endpoint it names with what maturity in the first target."""

    path: str
    line: int
    column: int
    method: str | None  # as the code shows it, else the findings' (Match.named_method)
    call: str  # the path as written, relative to /api/v2, parameters as `{id}`
    endpoint: str | None  # the registry template it matches; None when unknown
    maturity: str  # stable, experimental, deprecated, removed, not yet available, unknown, ...
    evidence: str  # why it is a call
