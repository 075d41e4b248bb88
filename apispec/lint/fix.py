"""Fixes: rewrite a deprecated path to its successor, keeping the code around it.

The rewrite works on the path's segments as extraction found them in the file,
so interpolations (`{dev_id}`, `$id`, `" + id + "`) and quoting stay exactly as
written: only literal segments are inserted, removed or replaced.
"""

from __future__ import annotations

import difflib
from functools import cache

from apispec.lint.finding import Applicability, Edit, Finding, Fix
from apispec.lint.patterns import lazy
from apispec.lint.reference import Reference
from apispec.registry.model import Endpoint, Maturity

_CONCAT = lazy(r"\s*(?:\+|\.)\s*\Z")  # `+` or PHP's `.` before an emptied literal


def _keys(template: str) -> tuple[str, ...]:
    return tuple("{}" if part.startswith("{") else part for part in template.strip("/").split("/"))


@cache
def _plan(
    old_path: str, new_path: str
) -> tuple[tuple[str, ...], tuple[str, ...], tuple[tuple[str, int, int, int, int], ...]]:
    """Segment keys of both paths and the opcodes between them: the same for every
    reference to an endpoint, and difflib is the costly part of a fix."""
    old, new = _keys(old_path), _keys(new_path)
    opcodes = difflib.SequenceMatcher(a=old, b=new, autojunk=False).get_opcodes()
    return old, new, tuple(opcodes)


def build_fix(
    text: str, reference: Reference, endpoint: Endpoint, successor: Endpoint
) -> Fix | None:
    """The edits that turn `endpoint`'s path into `successor`'s in this reference, or None.

    None when the successor changes a path parameter, or the reference's
    segments cannot be located literally in the file (for example a URL-encoded
    path): better no fix than a wrong one. A successor with another method gets
    a display-only fix: the path rewrite is shown, but the method is the
    caller's to change, so `--fix` never writes it.
    """
    old, new, opcodes = _plan(endpoint.path, successor.path)
    segments = reference.segments
    if len(segments) != len(old):
        return None
    for key, segment in zip(old, segments, strict=True):
        if segment.span is None or (key == "{}") != segment.is_param:
            return None
        if key != "{}" and text[segment.span.start : segment.span.end] != key:
            return None
    edits: list[Edit] = []
    for op, i1, i2, j1, j2 in opcodes:
        if op == "equal":
            continue
        if "{}" in old[i1:i2] or "{}" in new[j1:j2]:
            return None  # a parameter would move or vanish: not a mechanical rewrite
        for i in range(i1, i2):
            span = segments[i].span
            assert span is not None
            if op == "replace" and i - i1 < j2 - j1:
                edits.append(Edit(span.start, span.end, new[j1 + i - i1]))
                continue
            edits.append(_deletion(text, span.start, span.end))
        inserted = new[j1 + (i2 - i1) : j2] if op == "replace" else new[j1:j2]
        if inserted:
            if i2 < len(segments):
                at = segments[i2].span
                assert at is not None
                edits.append(Edit(at.start, at.start, "".join(f"{s}/" for s in inserted)))
            else:
                at = segments[-1].span
                assert at is not None
                edits.append(Edit(at.end, at.end, "".join(f"/{s}" for s in inserted)))
    if not edits:
        return None
    message = f"replace with {successor}"
    if successor.method != endpoint.method:
        applicability = Applicability.DISPLAY_ONLY
        message += f" (change the method from {endpoint.method} to {successor.method} too)"
    elif successor.maturity == Maturity.STABLE:
        applicability = Applicability.SAFE
    else:
        applicability = Applicability.UNSAFE
    return Fix(message, applicability, tuple(edits))


def _deletion(text: str, start: int, end: int) -> Edit:
    """Remove a segment with its slash; drop the `+ "/overview"` it may leave empty."""
    if start > 0 and text[start - 1] == "/":
        start -= 1
    quote = text[start - 1] if start > 0 else ""
    if quote in ("'", '"', "`") and text[end : end + 1] == quote:
        joined = _CONCAT.search(text, 0, start - 1)
        if joined is not None:
            return Edit(joined.start(), end + 1, "")
    return Edit(start, end, "")


def apply_fixes(text: str, findings: list[Finding], unsafe: bool) -> tuple[str, int]:
    """The text with every applicable fix applied, and how many findings were fixed.

    Overlapping edits of different fixes are not combined: the later one waits
    for the next run, as ruff does.
    """
    chosen: list[Fix] = []
    seen: set[tuple[Edit, ...]] = set()
    for finding in findings:
        fix = finding.fix
        if fix is None or not fix.applies(unsafe) or fix.edits in seen:
            continue
        seen.add(fix.edits)
        chosen.append(fix)
    taken: list[Edit] = []
    applied = 0
    for fix in chosen:
        if any(_overlaps(edit, other) for edit in fix.edits for other in taken):
            continue
        taken.extend(fix.edits)
        applied += 1
    for edit in sorted(taken, key=lambda e: (e.start, e.end), reverse=True):
        text = text[: edit.start] + edit.content + text[edit.end :]
    return text, applied


def _overlaps(a: Edit, b: Edit) -> bool:
    return a.start == b.start or (a.start < b.end and b.start < a.end)
