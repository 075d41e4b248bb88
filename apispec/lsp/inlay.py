"""Inlay hints: after each API v2 path that is not stable, what it is in the target release.

`experimental`, `deprecated → /sensors/{id}`, `removed`, `not yet available`:
the words of the linter's rules, at the call, without opening a problem list.
Off by default (setting `inlayHints`), as pyright's are.
"""

from __future__ import annotations

from dataclasses import dataclass

from apispec.lsp import adapter
from apispec.lsp.maturity import status
from apispec.registry.model import Registry
from apispec.registry.releases import Release


@dataclass(frozen=True)
class Hint:
    offset: int  # where the hint stands: just after the path
    label: str
    tooltip: str


def hints(
    text: str, lint_name: str, registry: Registry, target: Release, span: tuple[int, int]
) -> list[Hint]:
    found = []
    for site in adapter.call_sites(text, lint_name, registry):
        if not span[0] <= site.end <= span[1]:
            continue
        states = [status(e, registry, target) for e in site.endpoints]
        shown = [s for s in states if s.word != "stable"]
        if not shown or len(shown) < len(states):
            continue  # stable (for at least one method the call may use): nothing to say
        labels = list(dict.fromkeys(s.hint for s in shown))
        tooltip = "\n".join(
            f"{e.method} {e.path}: {s.detail}" for e, s in zip(site.endpoints, states, strict=True)
        )
        found.append(Hint(site.end, " | ".join(labels), tooltip))
    return found
