"""Ruby: `#{}` interpolation, Net::HTTP request classes, Faraday and HTTParty."""

from __future__ import annotations

import re

from apispec.lint.languages.dialect import Dialect
from apispec.lint.scan import Lit, split_interpolations

_HOLES = re.compile(r"#\{(?:[^}\n#]|#(?!\{))*\}|%[sd]")


class RubyDialect(Dialect):
    name = "ruby"
    token_re = re.compile(
        r"(?P<c>(?<![\w\"'$])\#(?!\{)[^\n]*|^=begin[\s\S]*?^=end)"
        r"|(?P<dq>\"(?:[^\"\\]|\\[\s\S])*\")"
        r"|(?P<sq>'(?:[^'\\]|\\[\s\S])*')",
        re.M,
    )

    def literal(self, m: re.Match[str]) -> Lit | None:
        body = m.group()
        interp = _HOLES if m.lastgroup == "dq" else None
        start = m.start() + 1
        return Lit(m.start(), m.end(), split_interpolations(body[1:-1], start, interp, "backslash"))
