"""JavaScript and TypeScript: template literals, fetch/axios options, URLSearchParams."""

from __future__ import annotations

import re

from apispec.lint.functions import Definitions
from apispec.lint.languages import lexer
from apispec.lint.languages.dialect import Dialect
from apispec.lint.languages.lexer import Body, Closer, Span
from apispec.lint.scan import Interpolated, Lit, Source, parts_with_holes, split_interpolations

_TEMPLATE = re.compile(r"\$\{(?:[^}\n$]|\$(?!\{))*\}")
_PLAIN = re.compile(r"\{[^{}\n]*\}")
# `<Route path="/devices" ...`: a JSX element's attribute.
_JSX_ATTRIBUTE = re.compile(r"<[A-Za-z][\w.]*(?:\s[^<>]*)?\s[\w:-]+=\Z")
_MARKUP_REACH = 500  # characters before a string where its element may open
_TEMPLATE_CODE = Interpolated("${", "}", "\\", "`'\"", doubled=False)
# A template literal's body: `${...}` may hold strings and templates of its own (two
# levels deep, each field on one line and bounded, so that a run of `${` costs little).
_FIELD_TEXT = r"[^{}`'\"\n]|'[^'\\\n]*+(?:\\.[^'\\\n]*+)*+'|\"[^\"\\\n]*+(?:\\.[^\"\\\n]*+)*+\"|\{[^{}`\n]{0,200}\}"
_INNER = r"`(?:[^`\\$]++|\\[\s\S]|\$(?!\{)|\$\{(?:" + _FIELD_TEXT + r"){0,200}\}|\$)*+`"
_TEMPLATE_BODY = re.compile(
    r"(?:[^`\\$]++|\\[\s\S]|\$(?!\{)|\$\{(?:" + _FIELD_TEXT + "|" + _INNER + r"){0,200}\}|\$)*+`"
)


class JavaScriptDialect(Dialect):
    name = "javascript"
    type_brackets = "<>"
    shorthand_keys = True
    # one-line templates (`tl`) have fields without quotes; a template whose fields hold
    # strings is a span, read by `spanned`
    code_groups: frozenset[str] = frozenset()
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
    # Alternatives grouped by their first character (the pattern runs over every line).
    token_re = re.compile(
        r"/(?:(?P<c>/[^\n]*)|(?P<comment>\*)"
        # a regular expression literal after an operator or `return`: its quotes are text
        r"|(?P<xr>(?:(?<=[=(,:;!&|?{}\[]/)|(?<=[=(,:;!&|?{}\[] /)|(?<=\breturn /))"
        r"(?![*/])(?:[^/\\\n\[]|\\.|\[(?:[^\]\\\n]|\\.)*\])+/))"
        # most templates: one line, fields without quotes; others go to the span
        r"|`(?:(?P<tl>[^`\\$\n]*+(?:(?:\\.|\$(?!\{)|\$\{[^{}`'\"\n]*\})[^`\\$\n]*+)*+`)|(?P<t>))"
        r"|\"(?:(?P<dq>[^\"\\\n]*+(?:\\.[^\"\\\n]*+)*+\")|(?P<xd>[^\n]*))"
        r"|'(?:(?P<sq>[^'\\\n]*+(?:\\.[^'\\\n]*+)*+')|(?P<xs>[^\n]*))"
    )
    spans = lexer.spans(
        comment=Closer("*/", comment=True),
        t=Body(_TEMPLATE_BODY, 1, "`", _TEMPLATE, "backslash"),
    )

    def literal(self, m: re.Match[str]) -> Lit | None:
        body = m.group()
        start = m.start() + 1
        interp = _TEMPLATE if m.lastgroup == "tl" else _PLAIN
        return Lit(m.start(), m.end(), split_interpolations(body[1:-1], start, interp, "backslash"))

    def spanned(
        self, kind: str, m: re.Match[str], start: int, end: int, stop: int, span: Span
    ) -> Lit | None:
        """A template whose fields hold strings (`${fetch(`${base}/x`)}`): its code is scanned."""
        text = m.string
        walked, holes = _TEMPLATE_CODE.walk(text, m.start(), stop)
        if walked != stop or not any(ch in text[a:b] for a, b in holes for ch in "`'\""):
            return super().spanned(kind, m, start, end, stop, span)
        parts = parts_with_holes(text, start, end, holes, "backslash", 2)
        return Lit(m.start(), stop, parts, holes=tuple(holes))

    def in_markup(self, source: Source, start: int) -> bool:
        lo = max(source.line_start(start), start - _MARKUP_REACH)
        return _JSX_ATTRIBUTE.search(source.text, lo, start) is not None
