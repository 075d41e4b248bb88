"""Code actions for the findings in a range: fixes, suppressions, documentation, fix-all.

Plain data out (`Action`, edits in file offsets); the server makes LSP of it.
Safe fixes are the preferred quick fix; unsafe ones are offered, not
preferred, as ruff's server does; `source.fixAll.apispec` applies every safe
fix that does not overlap another.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from apispec.lsp import adapter

QUICKFIX = "quickfix"
FIX_ALL = "source.fixAll.apispec"
SHOW_DOCUMENTATION = "apispec.showDocumentation"

Edit = tuple[int, int, str]


@dataclass(frozen=True)
class Action:
    title: str
    kind: str
    edits: tuple[Edit, ...] = ()
    command: tuple[str, tuple[str, ...]] | None = None  # (command id, arguments)
    preferred: bool = False
    finding: adapter.Finding | None = None


@dataclass(frozen=True)
class Located:
    """A finding with its offsets in the document text."""

    finding: adapter.Finding
    start: int
    end: int


def wants(only: list[str] | None, kind: str) -> bool:
    """Whether a request limited to `only` kinds asks for `kind` (a kind covers its sub-kinds)."""
    if only is None:
        return True
    return any(kind == k or kind.startswith(k + ".") for k in only)


def code_actions(
    text: str,
    lint_name: str,
    located: list[Located],
    span: tuple[int, int],
    only: list[str] | None,
) -> list[Action]:
    actions: list[Action] = []
    if wants(only, QUICKFIX):
        inside = [x for x in located if x.start <= span[1] and span[0] <= x.end]
        actions.extend(_quick_fixes(text, lint_name, inside))
    if wants(only, FIX_ALL):
        fix_all = fix_all_action(located)
        if fix_all is not None:
            actions.append(fix_all)
    return actions


def _quick_fixes(text: str, lint_name: str, inside: list[Located]) -> Iterator[Action]:
    suppressed: set[tuple[str, int]] = set()
    documented: set[str] = set()
    for item in inside:
        finding = item.finding
        plan = adapter.fix_plan(finding)
        if plan is None or plan.applicability == "display-only":
            continue
        safe = plan.applicability == "safe"
        title = f"{_sentence(plan.title)} ({finding.code}{'' if safe else ', unsafe'})"
        yield Action(title, QUICKFIX, plan.edits, preferred=safe, finding=finding)
    for item in inside:
        finding = item.finding
        key = (finding.code, finding.line)
        if key not in suppressed:
            suppressed.add(key)
            edit = adapter.suppression(text, finding.line, finding.code, lint_name)
            if edit is not None:
                offset, content = edit
                title = f"Suppress {finding.code} on this line"
                yield Action(title, QUICKFIX, ((offset, offset, content),), finding=finding)
        if finding.code not in documented and adapter.rule_url(finding.code):
            documented.add(finding.code)
            title = f"Show documentation for {finding.code}"
            command = (SHOW_DOCUMENTATION, (finding.code,))
            yield Action(title, QUICKFIX, command=command, finding=finding)


def fix_all_action(located: list[Located]) -> Action | None:
    """Every safe fix of the document at once; overlapping ones wait for the next run."""
    taken: list[Edit] = []
    count = 0
    for item in located:
        plan = adapter.fix_plan(item.finding)
        if (
            plan is None
            or plan.applicability != "safe"
            or any(_overlaps(edit, other) for edit in plan.edits for other in taken)
        ):
            continue
        taken.extend(plan.edits)
        count += 1
    if not count:
        return None
    title = f"Fix all safe apispec problems ({count})"
    return Action(title, FIX_ALL, tuple(sorted(taken)))


def _overlaps(a: Edit, b: Edit) -> bool:
    return a[0] == b[0] or (a[0] < b[1] and b[0] < a[1])


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:] if text else text
