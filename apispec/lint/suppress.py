"""Inline suppressions: `apispec: ignore`, `apispec: ignore[API003,API002]`, `apispec: ignore-file`.

The marker is recognised in any comment syntax (`#`, `//`, `--`, `<!-- -->`,
`REM`, ...) because it is searched in the line's text, not parsed from a
comment: client code comes in too many languages to parse them all. A
suppression that suppresses nothing is reported as API012, like ruff's RUF100
(apispec/lint/rules/api012_unused_suppression.py).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from apispec.lint.finding import Finding
from apispec.lint.patterns import lazy

_MARKER = lazy(r"apispec:\s*ignore(?P<file>-file)?(?:\[(?P<codes>[^\]\n]*)\])?")


@dataclass(frozen=True)
class Suppression:
    line: int
    column: int
    end_column: int
    codes: frozenset[str] | None  # None: every code


@dataclass(frozen=True)
class Suppressions:
    lines: dict[int, Suppression]
    file_codes: frozenset[str] | None  # codes ignored in the whole file; None: no ignore-file
    whole_file: bool  # `apispec: ignore-file` without codes


def _codes(text: str | None) -> frozenset[str] | None:
    if text is None:
        return None
    return frozenset(c.strip().upper() for c in text.split(",") if c.strip())


def parse(text: str) -> Suppressions:
    lines: dict[int, Suppression] = {}
    file_codes: set[str] = set()
    whole_file = False
    has_file_marker = False
    if "apispec:" not in text:
        return Suppressions({}, None, False)
    line_starts = [0]
    line_starts.extend(i + 1 for i, ch in enumerate(text) if ch == "\n")
    for match in _MARKER.finditer(text):
        codes = _codes(match.group("codes"))
        if match.group("file"):
            has_file_marker = True
            if codes is None:
                whole_file = True
            else:
                file_codes |= codes
            continue
        line = _line_of(line_starts, match.start())
        start = line_starts[line - 1]
        lines[line] = Suppression(line, match.start() - start + 1, match.end() - start + 1, codes)
    return Suppressions(lines, frozenset(file_codes) if has_file_marker else None, whole_file)


def _line_of(line_starts: list[int], offset: int) -> int:
    from bisect import bisect_right

    return bisect_right(line_starts, offset)


def apply(
    findings: list[Finding],
    suppressions: Suppressions,
    anchor: Callable[[int], int | None] | None = None,
) -> tuple[list[Finding], dict[int, set[str]]]:
    """The findings no suppression covers, and the codes each suppression line used.

    A finding is covered by a suppression on its own line, or on the line `anchor`
    gives for it: where its statement goes on past the multi-line string or mapping
    the line ends in (apispec.lint.comment_lines), the only place a comment for it can
    be written. What was used decides which suppressions are idle (rule API012, run
    after this).
    """
    if suppressions.whole_file:
        return [], {}
    kept: list[Finding] = []
    used: dict[int, set[str]] = {}
    for finding in findings:
        if suppressions.file_codes and finding.code in suppressions.file_codes:
            continue
        line = finding.line
        suppression = suppressions.lines.get(line)
        if not _covers(suppression, finding.code) and anchor is not None:
            at = anchor(line)
            if at is not None and at != line:
                line, suppression = at, suppressions.lines.get(at)
        if _covers(suppression, finding.code):
            used.setdefault(line, set()).add(finding.code)
            continue
        kept.append(finding)
    return kept, used


def _covers(suppression: Suppression | None, code: str) -> bool:
    return suppression is not None and (suppression.codes is None or code in suppression.codes)
