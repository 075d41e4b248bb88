"""JavaScript and TypeScript: template literals, fetch/axios options, URLSearchParams."""

from __future__ import annotations

import re

from apispec.lint.languages.common import Dialect, Lit, split_interpolations

_TEMPLATE = re.compile(r"\$\{[^}\n]*\}")
_PLAIN = re.compile(r"\{[^{}\n]*\}")


class JavaScriptDialect(Dialect):
    name = "javascript"
    token_re = re.compile(
        r"(?P<c>//[^\n]*|/\*[\s\S]*?\*/)"
        r"|(?P<t>`(?:[^`\\]|\\[\s\S])*`)"
        r"|(?P<s>\"(?:[^\"\\\n]|\\.)*\"|'(?:[^'\\\n]|\\.)*')"
    )

    def literal(self, m: re.Match[str]) -> Lit | None:
        body = m.group()
        interp = _TEMPLATE if m.lastgroup == "t" else _PLAIN
        start = m.start() + 1
        return Lit(m.start(), m.end(), split_interpolations(body[1:-1], start, interp, "backslash"))
