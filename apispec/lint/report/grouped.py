"""One finding per place, rule and message, with every target release it concerns.

With `--target 24.3.100 --target 25.x.122` the engine finds a removed endpoint
once per target; a person wants to read it once, tagged `[24.3.100, 25.x.122]`.
Findings whose message differs between targets (a successor that exists in one
release only) stay apart, each with its own targets.
"""

from __future__ import annotations

from typing import NamedTuple

from apispec.lint.engine import LintResult
from apispec.lint.finding import Finding


class Grouped(NamedTuple):
    finding: Finding  # the first of the group, in report order
    targets: tuple[str, ...]  # in the order the run names its targets; () when release-independent


def grouped(result: LintResult) -> list[Grouped]:
    order = {t: i for i, t in enumerate(result.targets)}
    groups: dict[tuple[object, ...], tuple[Finding, list[str]]] = {}
    for f in result.findings:
        key = (f.path, f.line, f.column, f.end_line, f.end_column, f.code, f.severity, f.message)
        known = groups.get(key)
        if known is None:
            groups[key] = (f, [f.target] if f.target else [])
        elif f.target and f.target not in known[1]:
            known[1].append(f.target)
    return [
        Grouped(f, tuple(sorted(targets, key=lambda t: order.get(t, len(order)))))
        for f, targets in groups.values()
    ]


def targets_suffix(result: LintResult, targets: tuple[str, ...]) -> str:
    """` [24.3.100, 25.x.122]` when the run has several targets; the summary names a lone one."""
    if not targets or len(result.targets) < 2:
        return ""
    return f" [{', '.join(targets)}]"
