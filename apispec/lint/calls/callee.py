"""The name a call is made through: `requests.get`, `self._get`, `apiGet<T>`, `Invoke-X`.

Every later step asks who is called with a string (a client, a helper, a
route registration, a matcher); the regex that reads it back from the bracket,
with the skip over a generic call's type arguments, lives in receivers.py
(stage 2 needs it too). This is its form for a text without a dialect.
"""

from __future__ import annotations

import re

from apispec.lint.receivers import callee_in


def callee_before(text: str, lo: int, opener: int) -> re.Match[str] | None:
    """The callee before the bracket at `opener`, type arguments `<...>` skipped."""
    return callee_in(text, lo, opener, "<>")
