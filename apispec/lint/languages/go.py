"""Go: fmt.Sprintf verbs, raw strings, http.NewRequest and url.Values."""

from __future__ import annotations

import re

from apispec.lint.functions import Definitions
from apispec.lint.languages.dialect import Dialect
from apispec.lint.scan import Lit, split_interpolations

# fmt verbs, and the `{name}` path parameters of URI templates (resty's SetPathParam).
_VERBS = re.compile(r"%[sdvq]|\{[A-Za-z_]\w*\}")


class GoDialect(Dialect):
    name = "go"
    type_brackets = "[]"
    definitions = Definitions(
        (
            re.compile(
                r"\bfunc[ \t]*(?:\((?P<recv>[^)\n]*)\)[ \t]*)?(?P<name>[A-Za-z_]\w*)[ \t]*"
                r"(?:\[[^\]\n]*\])?[ \t]*\("
            ),
        ),
        "go",
        "braces",
    )
    token_re = re.compile(
        r"(?P<c>//[^\n]*|/\*[\s\S]*?\*/)"
        r"|(?P<r>`[^`]*`)"
        r"|(?P<s>\"(?:[^\"\\\n]|\\.)*\")"
        r"|(?P<rune>'(?:[^'\\\n]|\\.)*')"
    )

    def literal(self, m: re.Match[str]) -> Lit | None:
        if m.lastgroup == "rune":
            return None
        body = m.group()
        style = "none" if m.lastgroup == "r" else "backslash"
        start = m.start() + 1
        return Lit(m.start(), m.end(), split_interpolations(body[1:-1], start, _VERBS, style))
