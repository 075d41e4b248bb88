"""C#: interpolated and verbatim strings, HttpClient and RestSharp calls."""

from __future__ import annotations

import re

from apispec.lint.functions import Definitions
from apispec.lint.languages.dialect import Dialect
from apispec.lint.scan import Interpolated, Lit, parts_with_holes, split_interpolations

_HOLES = re.compile(r"\{[^{}\n]*\}")
_HOLE_CODE = Interpolated("{", "}", "\\", '"', doubled=True)
_HOLE_WITH_STRING = re.compile(r"\{[^{}\"]*\"")


class CSharpDialect(Dialect):
    name = "csharp"
    type_brackets = "<>"
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
        r"(?P<c>//[^\n]*|/\*[\s\S]*?\*/)"
        r"|(?P<raw>\$*\"\"\"[\s\S]*?\"\"\")"
        r"|(?P<verbatim>(?:\$@|@\$|@)\"(?:[^\"]|\"\")*\")"
        r"|(?P<s>\$?\"(?:[^\"\\\n]|\\.)*\")"
        r"|(?P<ch>'(?:[^'\\\n]|\\.)*')"
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
        kind = m.lastgroup
        if kind == "ch":
            return None
        body = m.group()
        if kind == "s" and body.startswith('$"') and _HOLE_WITH_STRING.search(body):
            with_code = self.with_code(m.string, m, m.endpos)
            if with_code is not None:
                return with_code
        quote = body.index('"')
        width = 3 if kind == "raw" else 1
        start = m.start() + quote + width
        content = body[quote + width : len(body) - width]
        style = {"raw": "none", "verbatim": 'double"'}.get(kind or "", "backslash")
        return Lit(m.start(), m.end(), split_interpolations(content, start, _HOLES, style))
