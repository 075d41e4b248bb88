"""What a registry path says about the objects it handles: its stable form and created kind.

Both the route table (routes.py) and the record views (reads.py) read paths this
way; keeping it here lets neither import the other.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from apispec.mock.data import EXPERIMENTAL_PREFIX

if TYPE_CHECKING:
    from apispec.mock.context import MockState


class UnknownEndpointShape(RuntimeError):
    """A registry endpoint the mock has no behaviour for."""


def strip_experimental(path: str) -> str:
    return (
        path.removeprefix(EXPERIMENTAL_PREFIX)
        if path.startswith(EXPERIMENTAL_PREFIX + "/")
        else path
    )


def created_kind(state: MockState, word: str) -> str:
    """The object kind a creating path's last word names (`devices`, `group`, `autodiscoveryjob`)."""
    for kind in state.registry.object_kinds:
        squashed = re.sub(r"[^a-z]", "", kind.name.lower())
        if word in (kind.collection, kind.name, squashed):
            return kind.name
    raise UnknownEndpointShape(f"no object kind is named {word!r}")
