"""One file's findings as plain tuples: what worker processes send back and the cache keeps.

A Finding pickled as an object costs its class lookup and a constructor call
on the way back, and the dense benchmark corpus sends tens of thousands of
them; tuples of strings and numbers pickle (and marshal, for the cache) several
times faster, and the parent builds each Finding once, from the tuple, without
reading any file again. The path is left out where it is the file's own (every
finding of a file, in practice), so a shard of the cache does not repeat it.

The layout is private to this module: `pack` and `unpack` change together, and
the cache's format number (apispec.lint.cache.FORMAT) changes with them.
"""

from __future__ import annotations

from sys import intern
from typing import Any

from apispec.lint.finding import Applicability, CallRecord, Edit, Finding, Fix, Severity, Skipped
from apispec.lint.helpers import Helper

# An Edit's fields; a Fix as (message, applicability, edits).
PackedEdit = tuple[int, int, str, int, int, int, int]
PackedFix = tuple[str, str, tuple[PackedEdit, ...]]
# A Finding's fields, the path None where it is the file's own, the enums as their values.
PackedFinding = tuple[
    str | None,
    int,
    int,
    int,
    int,
    str,
    str,
    str,
    tuple[str, str] | None,
    str | None,
    PackedFix | None,
    str,
    str,
]
PackedSkipped = tuple[str, bool, bool]  # reason, internal, over_budget
# A Helper's fields, and a CallRecord's (the path None where it is the file's own), in order.
PackedHelper = tuple[Any, ...]
PackedCall = tuple[Any, ...]
Packed = tuple[
    tuple[PackedFinding, ...],
    PackedSkipped | None,
    tuple[PackedHelper, ...],
    tuple[PackedCall, ...],
]

_SEVERITY = {s.value: s for s in Severity}
_APPLICABILITY = {a.value: a for a in Applicability}


def pack_result(
    path: str,
    findings: list[Finding],
    skipped: Skipped | None,
    helpers: list[Helper],
    calls: list[CallRecord],
) -> Packed:
    """One file's whole result: findings, why it was skipped, helpers it defines, its calls."""
    return (
        pack_findings(findings, path),
        pack_skipped(skipped),
        tuple(tuple(h) for h in helpers),
        tuple((None if c.path == path else c.path, *c[1:]) for c in calls),
    )


def unpack_result(
    packed: Packed, path: str
) -> tuple[list[Finding], Skipped | None, list[Helper], list[CallRecord]]:
    """What `pack_result` packed; ValueError, TypeError, KeyError or IndexError when damaged."""
    findings, skipped, helpers, calls = packed
    return (
        unpack_findings(findings, path),
        unpack_skipped(skipped, path),
        [Helper(*h) for h in helpers],
        [CallRecord(path if c[0] is None else c[0], *c[1:]) for c in calls],
    )


def pack_findings(findings: list[Finding], path: str) -> tuple[PackedFinding, ...]:
    """The findings of the file shown as `path`, as tuples of plain values.

    Texts that repeat across findings (messages, codes, endpoints, targets) are
    interned: pickle and marshal then write each once and refer to it after,
    which halves the cache of a call-dense tree.
    """
    return tuple(
        (
            None if f.path == path else f.path,
            f.line,
            f.column,
            f.end_line,
            f.end_column,
            intern(f.code),
            f.severity.value,
            intern(f.message),
            None if f.endpoint is None else (intern(f.endpoint[0]), intern(f.endpoint[1])),
            None if f.target is None else intern(f.target),
            None if f.fix is None else _pack_fix(f.fix),
            f.line_text,
            f.fingerprint,
        )
        for f in findings
    )


def _pack_fix(fix: Fix) -> PackedFix:
    edits = tuple(
        (e.start, e.end, intern(e.content), e.line, e.column, e.end_line, e.end_column)
        for e in fix.edits
    )
    return (intern(fix.message), fix.applicability.value, edits)


def unpack_findings(packed: tuple[PackedFinding, ...], path: str) -> list[Finding]:
    """The Findings `pack_findings` packed; ValueError, TypeError or KeyError when damaged."""
    severity = _SEVERITY
    return [
        Finding(
            path if own is None else own,
            line,
            column,
            end_line,
            end_column,
            code,
            severity[level],
            message,
            endpoint,
            target,
            None if fix is None else _unpack_fix(fix),
            line_text,
            fingerprint,
        )
        for (
            own,
            line,
            column,
            end_line,
            end_column,
            code,
            level,
            message,
            endpoint,
            target,
            fix,
            line_text,
            fingerprint,
        ) in packed
    ]


def _unpack_fix(packed: PackedFix) -> Fix:
    message, applicability, edits = packed
    return Fix(message, _APPLICABILITY[applicability], tuple(Edit(*edit) for edit in edits))


def pack_skipped(skipped: Skipped | None) -> PackedSkipped | None:
    return None if skipped is None else (skipped.reason, skipped.internal, skipped.over_budget)


def unpack_skipped(packed: PackedSkipped | None, path: str) -> Skipped | None:
    if packed is None:
        return None
    reason, internal, over_budget = packed
    if not isinstance(reason, str):
        raise TypeError("a skip reason is text")
    return Skipped(path, reason, bool(internal), over_budget=bool(over_budget))
