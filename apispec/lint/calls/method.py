"""The HTTP method of a call, from what the code shows around it.

In order of trust: the callee's name (`requests.delete`, `Invoke-PostThing`,
`Net::HTTP::Delete.new`), a quoted verb among the arguments
(`http.NewRequest("PATCH", ...)`), then a client's own way of naming it
(`http.MethodPost`, `method: 'PUT'`, `-Method Delete`; rows of
languages/clients.py).
"""

from __future__ import annotations

import re

from apispec.lint.languages.clients import VERBS
from apispec.lint.patterns import lazy

VERB_SET = frozenset(VERBS)
MEMBER_SPACED = re.compile(r"\s*(?:\.|->|::|\?\.)\s*")
_WORDS = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])")
_QUOTED_WORD = re.compile(r"['\"]([A-Za-z]+)['\"]")
_QUOTED_UPPER = lazy(r"['\"]([A-Z]+)['\"]")


def from_callee(callee: str) -> str | None:
    names = [n for n in MEMBER_SPACED.split(callee) if n]
    if not names:
        return None
    name = names[-1]
    if name in ("new", "create") and len(names) >= 2:
        name = names[-2]  # Net::HTTP::Delete.new
        return name.upper() if name.upper() in VERB_SET else None
    words: list[str] = [w.upper() for w in _WORDS.findall(name.replace("-", "_"))]
    if not words:
        return None
    if name.islower() and name.upper() in VERB_SET:
        return name.upper()
    for word in words:
        if word in VERB_SET:
            return word
    return None


def leading_verb(name: str) -> str | None:
    """The verb a chained call's name starts with: `GetJsonAsync`, `.post`, `.DELETE` (not `UsingPatch`)."""
    words: list[str] = _WORDS.findall(name)
    if words and words[0].upper() in VERB_SET:
        return words[0].upper()
    return None


def quoted(args: str) -> str | None:
    """A quoted verb among the arguments: `"PATCH"`, `'delete'`."""
    for m in _QUOTED_WORD.finditer(args):
        if m.group(1).upper() in VERB_SET:
            return m.group(1).upper()
    return None


def hinted(group: str, hints: tuple[re.Pattern[str], ...], whole_literals: bool) -> str | None:
    """A method a client's own notation names in `group`; with `whole_literals`, also `"PUT"`."""
    for pattern in hints:
        m = pattern.search(group)
        if m and m.group(1).upper() in VERB_SET:
            return m.group(1).upper()
    if whole_literals:
        for m in _QUOTED_UPPER.finditer(group):
            if m.group(1) in VERB_SET:
                return m.group(1)
    return None
