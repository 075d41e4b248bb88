"""Java, Kotlin and Groovy: String.format, text blocks, HttpRequest builders."""

from __future__ import annotations

import re

from apispec.lint.languages.dialect import Dialect
from apispec.lint.scan import Lit, split_interpolations

_HOLES = re.compile(r"\$\{(?:[^}\n$]|\$(?!\{))*\}|\$[A-Za-z_]\w*|%[sd]|\{\d+\}")


class JavaDialect(Dialect):
    name = "java"
    builder_calls = True
    token_re = re.compile(
        r"(?P<c>//[^\n]*|/\*[\s\S]*?\*/)"
        r"|(?P<block>\"\"\"[\s\S]*?\"\"\")"
        r"|(?P<s>\"(?:[^\"\\\n]|\\.)*\")"
        r"|(?P<ch>'(?:[^'\\\n]|\\.)*')"
    )

    def literal(self, m: re.Match[str]) -> Lit | None:
        if m.lastgroup == "ch":
            return None
        body = m.group()
        width = 3 if m.lastgroup == "block" else 1
        start = m.start() + width
        content = body[width : len(body) - width]
        return Lit(m.start(), m.end(), split_interpolations(content, start, _HOLES, "backslash"))
