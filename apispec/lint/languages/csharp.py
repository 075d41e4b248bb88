"""C#: interpolated, verbatim and raw strings, HttpClient and RestSharp calls."""

from __future__ import annotations

import re

from apispec.lint.languages import lexer
from apispec.lint.languages.dialect import Dialect
from apispec.lint.languages.lexer import Body, Closer
from apispec.lint.scan import Lit, split_interpolations

_HOLES = re.compile(r"\{[^{}\n]*\}")


class CSharpDialect(Dialect):
    name = "csharp"
    type_brackets = "<>"
    token_re = re.compile(
        r"/(?:(?P<c>/[^\n]*)|(?P<comment>\*))"
        r"|(?P<raw>\$*\"\"\"+)"
        r"|(?P<verbatim>(?:\$@|@\$|@)\")"
        r"|\$?\"(?:(?P<s>[^\"\\\n]*+(?:\\.[^\"\\\n]*+)*+\")|(?P<xd>[^\n]*))"
        r"|(?P<x>'(?:[^'\\\n]*+(?:\\.[^'\\\n]*+)*+'|[^\n]*))"
    )
    spans = lexer.spans(
        comment=Closer("*/", comment=True),
        # a raw string ends with as many quotes as it began with
        raw=Closer(interp=_HOLES, prefix="$"),
        verbatim=Body(re.compile(r"(?:[^\"]++|\"\")*+\""), 1, '"', _HOLES, 'double"'),
    )

    def literal(self, m: re.Match[str]) -> Lit | None:
        body = m.group()
        quote = body.index('"')
        start = m.start() + quote + 1
        content = body[quote + 1 : -1]
        return Lit(m.start(), m.end(), split_interpolations(content, start, _HOLES, "backslash"))
