"""JavaScript and TypeScript: template literals, fetch/axios options, URLSearchParams."""

from __future__ import annotations

import re

from apispec.lint.functions import Definitions
from apispec.lint.languages.dialect import Dialect
from apispec.lint.scan import Interpolated, Lit, Source, parts_with_holes, split_interpolations

_TEMPLATE = re.compile(r"\$\{(?:[^}\n$]|\$(?!\{))*\}")
_PLAIN = re.compile(r"\{[^{}\n]*\}")
# `<Route path="/devices" ...`: a JSX element's attribute.
_JSX_ATTRIBUTE = re.compile(r"<[A-Za-z][\w.]*(?:\s[^<>]*)?\s[\w:-]+=\Z")
_MARKUP_REACH = 500  # characters before a string where its element may open
_TEMPLATE_CODE = Interpolated("${", "}", "\\", "`'\"", doubled=False)


class JavaScriptDialect(Dialect):
    name = "javascript"
    type_brackets = "<>"
    shorthand_keys = True
    definitions = Definitions(
        (
            re.compile(
                r"\bfunction\b[ \t]*\*?[ \t]*(?P<name>[A-Za-z_$][\w$]*)[ \t]*(?:<[^>()\n]*>)?[ \t]*\("
            ),
            re.compile(
                r"\b(?:const|let|var)[ \t]+(?P<name>[A-Za-z_$][\w$]*)[ \t]*(?::[^=\n]+)?=[ \t]*"
                r"(?:async[ \t]*)?(?:function\b[^(\n]*)?(?:<[^>()\n]*>)?\("
            ),
            re.compile(
                r"(?m)^[ \t]*(?:(?:public|private|protected|static|async|override|readonly)[ \t]+)*"
                r"(?P<name>[A-Za-z_$][\w$]*)[ \t]*(?:<[^>()\n]*>)?[ \t]*\("
            ),
        ),
        "js",
        "braces",
    )
    token_re = re.compile(
        r"(?P<c>//[^\n]*|/\*[\s\S]*?\*/)"
        r"|(?P<t>`(?:[^`\\]|\\[\s\S])*`)"
        r"|(?P<s>\"(?:[^\"\\\n]|\\.)*\"|'(?:[^'\\\n]|\\.)*')"
    )

    def literal(self, m: re.Match[str]) -> Lit | None:
        body = m.group()
        if m.lastgroup == "t" and "${" in body and self.holds_code(m):
            with_code = self.with_code(m.string, m, m.endpos)
            if with_code is not None:
                return with_code
        interp = _TEMPLATE if m.lastgroup == "t" else _PLAIN
        start = m.start() + 1
        return Lit(m.start(), m.end(), split_interpolations(body[1:-1], start, interp, "backslash"))

    def holds_code(self, m: re.Match[str]) -> bool:
        """A hole holding a quote, or left open where the token ended at a nested backtick."""
        body = m.group()
        rest = body[body.find("${") :]
        return "'" in rest or '"' in rest or rest.count("{") > rest.count("}")

    def with_code(self, text: str, m: re.Match[str], endpos: int) -> Lit | None:
        end, holes = _TEMPLATE_CODE.walk(text, m.start(), endpos)
        if end < 0 or not any(ch in text[a:b] for a, b in holes for ch in "`'\""):
            return None  # no string inside: the usual reading is the same
        parts = parts_with_holes(text, m.start() + 1, end - 1, holes, "backslash", 2)
        return Lit(m.start(), end, parts, holes=tuple(holes))

    def in_markup(self, source: Source, start: int) -> bool:
        lo = max(source.line_start(start), start - _MARKUP_REACH)
        return _JSX_ATTRIBUTE.search(source.text, lo, start) is not None
