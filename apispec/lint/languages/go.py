"""Go: fmt.Sprintf verbs, raw strings, http.NewRequest and url.Values."""

from __future__ import annotations

import re

from apispec.lint.functions import Definitions
from apispec.lint.languages import lexer
from apispec.lint.languages.dialect import Dialect
from apispec.lint.languages.lexer import Body, Closer
from apispec.lint.scan import Lit, split_interpolations

# fmt verbs, and the `{name}` path parameters of URI templates (resty's SetPathParam).
_VERBS = re.compile(r"%[sdvq]|\{[A-Za-z_]\w*\}")


class GoDialect(Dialect):
    name = "go"
    type_brackets = "[]"
    definitions = Definitions(
        (
            re.compile(
                r"\bfunc[ \t]*(?:\((?P<recv>[^)]{0,200})\)[ \t]*)?(?P<name>[A-Za-z_]\w*)[ \t]*"
                r"(?:\[[^\]\n]*\])?[ \t]*\("
            ),
        ),
        "go",
        "braces",
    )
    token_re = re.compile(
        r"/(?:(?P<c>/[^\n]*)|(?P<comment>\*))"
        r"|(?P<raw>`)"
        r"|\"(?:(?P<s>[^\"\\\n]*+(?:\\.[^\"\\\n]*+)*+\")|(?P<xd>[^\n]*))"
        r"|(?P<x>'(?:[^'\\\n]*+(?:\\.[^'\\\n]*+)*+'|[^\n]*))"
    )
    spans = lexer.spans(
        comment=Closer("*/", comment=True),
        raw=Body(re.compile(r"[^`]*+`"), 1, "`", _VERBS, "none"),
    )

    def literal(self, m: re.Match[str]) -> Lit | None:
        body = m.group()
        start = m.start() + 1
        return Lit(m.start(), m.end(), split_interpolations(body[1:-1], start, _VERBS, "backslash"))
