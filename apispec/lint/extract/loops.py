"""The passes of the loop around a call: `for path, method in [(...), (...)]: send(...)`
sends one request per pass, each with its variables bound together.

Apart from clients.py because finding the innermost loop (loops nest like blocks, found
by position) and binding its variables is its own concern, not a question of rows or
wrappers; the functions take the file's `Requests` as `q` for its model and resolver.
"""

from __future__ import annotations

from bisect import bisect_right
from typing import TYPE_CHECKING

from apispec.lint.extract.context import (
    Ctx,
    element,
    pairs,
)
from apispec.lint.extract.ir import (
    CallE,
    Function,
    Value,
)

if TYPE_CHECKING:
    from apispec.lint.extract.clients import Requests
    from apispec.lint.extract.lower.model import Loop


def _names_word(name: str, text: str) -> bool:
    """Whether `name` is written in `text` as a whole word (in any case: PowerShell's
    names ignore it, and a loop variable is lowered in lower case)."""
    name, text = name.lower(), text.lower()
    at = text.find(name)
    while at >= 0:
        before = text[at - 1] if at else " "
        after = text[at + len(name)] if at + len(name) < len(text) else " "
        if not (before.isalnum() or before == "_") and not (after.isalnum() or after == "_"):
            return True
        at = text.find(name, at + 1)
    return False


def iterations(
    q: Requests, call: CallE, function: Function | None
) -> list[tuple[tuple[str, Value], ...]]:
    """The loop variables of each pass of the innermost loop around a call.

    `for path, method in [("/a", "GET"), ("/b", "POST")]: send(method, path)` makes
    two requests, each with its own pair: the variables are bound together.
    """
    group = _innermost_loop(q, call)
    if not group:
        return [()]
    written = q.model.parsed.text[call.start : call.end]
    if not any(_names_word(loop.key, written) for loop in group):
        return [()]  # the call names none of the loop's variables
    q.resolver.fresh()
    iterable = q.resolver.value(group[0].iterable, Ctx(group[0].start, function))
    items = q.resolver.elements(
        iterable,
        Ctx(group[0].start, function),
        0,
        group[0].pairs,
        any(pairs(loop.unpack) for loop in group),
    )
    if not items or len(items) > 12:
        return [()]
    return [
        tuple(
            (loop.key, element(item, loop.unpack) if loop.unpack != -1 else item) for loop in group
        )
        for item in items
    ]


def _innermost_loop(q: Requests, call: CallE) -> list[Loop]:
    """The loop variables of the innermost loop around a call (one `for` may bind several).

    Loops nest like the code's blocks, so the innermost one around a position is found
    from the last loop starting before it by climbing to the loops around that one.
    """
    if q._loops is None:
        by_start: dict[int, list[Loop]] = {}
        for loops in q.model.loops.values():
            for loop in loops:
                by_start.setdefault(loop.start, []).append(loop)
        q._loops = sorted(by_start.values(), key=lambda group: group[0].start)
        q._loop_starts = [group[0].start for group in q._loops]
        stack: list[int] = []
        q._loop_parent = []
        for k, group in enumerate(q._loops):
            while stack and not group[0].start < q._loops[stack[-1]][0].end:
                stack.pop()
            q._loop_parent.append(stack[-1] if stack else -1)
            stack.append(k)
    k = bisect_right(q._loop_starts, call.start) - 1
    while k >= 0 and not call.start < q._loops[k][0].end:
        k = q._loop_parent[k]
    return q._loops[k] if k >= 0 else []
