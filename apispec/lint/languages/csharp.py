"""C#: interpolated, verbatim and raw strings, HttpClient and RestSharp calls."""

from __future__ import annotations

import re

from apispec.lint.functions import Definitions
from apispec.lint.languages import lexer
from apispec.lint.languages.dialect import Dialect
from apispec.lint.languages.lexer import Body, Closer
from apispec.lint.scan import Interpolated, Lit, parts_with_holes, split_interpolations

_HOLES = re.compile(r"\{[^{}\n]*\}")
_HOLE_CODE = Interpolated("{", "}", "\\", '"', doubled=True)
_HOLE_WITH_STRING = re.compile(r"\{[^{}\"]*\"")


class CSharpDialect(Dialect):
    name = "csharp"
    type_brackets = "<>"
    code_groups = frozenset({"s"})
    code_opener = "{"
    definitions = Definitions(
        (
            re.compile(
                r"(?m)^[ \t]*(?:\[[^\]\n]*\][ \t]*)*"
                r"(?:(?:public|private|protected|internal|static|async|override|virtual|sealed|"
                r"abstract|extern|unsafe|new|partial|readonly)[ \t]+)+"
                r"(?:[\w.]+(?:<[^;{}()\n]*>)?[?\[\]]*[ \t]+)?"
                r"(?P<name>[A-Za-z_]\w*)[ \t]*(?:<[^>()\n]*>)?[ \t]*\("
            ),
        ),
        "csharp",
        "braces",
    )
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

    def holds_code(self, m: re.Match[str]) -> bool:
        return (
            m.lastgroup == "s"
            and m.group().startswith('$"')
            and bool(_HOLE_WITH_STRING.search(m.group()))
        )

    def with_code(self, text: str, m: re.Match[str], endpos: int) -> Lit | None:
        """`$"{(await prtg.GetAsync<T>($"devices/{id}"))?.Name}"`: strings inside a hole."""
        quote = m.start() + 1
        end, holes = _HOLE_CODE.walk(text, quote, endpos)
        if end < 0 or not holes:
            return None
        parts = parts_with_holes(text, quote + 1, end - 1, holes, "backslash", 1)
        return Lit(m.start(), end, parts, holes=tuple(holes))

    def literal(self, m: re.Match[str]) -> Lit | None:
        body = m.group()
        quote = body.index('"')
        start = m.start() + quote + 1
        content = body[quote + 1 : -1]
        return Lit(m.start(), m.end(), split_interpolations(content, start, _HOLES, "backslash"))
