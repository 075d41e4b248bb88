"""JavaScript and TypeScript: template literals, fetch/axios options, URLSearchParams."""

from __future__ import annotations

import re

from apispec.lint.languages import lexer
from apispec.lint.languages.dialect import Dialect
from apispec.lint.languages.lexer import Body, Closer
from apispec.lint.scan import Lit, Source, split_interpolations

_TEMPLATE = re.compile(r"\$\{(?:[^}\n$]|\$(?!\{))*\}")
_PLAIN = re.compile(r"\{[^{}\n]*\}")
# `<Route path="/devices" ...`: a JSX element's attribute.
_JSX_ATTRIBUTE = re.compile(r"<[A-Za-z][\w.]*(?:\s[^<>]*)?\s[\w:-]+=\Z")
_MARKUP_REACH = 500  # characters before a string where its element may open
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

    def in_markup(self, source: Source, start: int) -> bool:
        lo = max(source.line_start(start), start - _MARKUP_REACH)
        return _JSX_ATTRIBUTE.search(source.text, lo, start) is not None
