"""Python: f-strings, `%` and `.format()` templates, docstrings left out."""

from __future__ import annotations

import re

from apispec.lint.languages import lexer
from apispec.lint.languages.dialect import Dialect
from apispec.lint.languages.lexer import Body, Span
from apispec.lint.scan import Lit, split_interpolations

_FSTRING = re.compile(r"\{[^{}\n]*\}")
_TEMPLATE = re.compile(r"\{[^{}\n]*\}|%\(\w+\)[sd]|%[sdif]")
_QUOTES = "'\""
# Text before a triple-quoted string that makes it a value rather than a docstring.
_VALUE_BEFORE = "=([{,+%:\\"


class PythonDialect(Dialect):
    name = "python"
    token_re = re.compile(
        r"(?P<c>\#[^\n]*)"
        r"|(?:(?<![\w])[rRbBuUfF]{1,2})?(?:(?P<t>\"\"\"|''')"
        r"|(?P<s>\"[^\"\\\n]*+(?:\\[\s\S][^\"\\\n]*+)*+\"|'[^'\\\n]*+(?:\\[\s\S][^'\\\n]*+)*+')"
        r"|(?P<x>[\"'][^\n]*))"
    )
    spans = lexer.spans(
        t=Body(
            {
                '"': re.compile(r'(?:[^"\\]++|\\[\s\S]|"(?!""))*+"""'),
                "'": re.compile(r"(?:[^'\\]++|\\[\s\S]|'(?!''))*+'''"),
            },
            3,
        ),
    )

    def literal(self, m: re.Match[str]) -> Lit | None:
        body = m.group()
        if body[0] in _QUOTES:
            # most strings: no prefix; what the general path below makes of them
            start = m.start() + 1
            parts = split_interpolations(body[1:-1], start, _TEMPLATE, "backslash")
            return Lit(m.start(), m.end(), parts)
        k = 1 if body[1] in _QUOTES else 2
        return _literal(m, body[:k].lower(), m.start() + k + 1, m.end() - 1, m.end())

    def spanned(
        self, kind: str, m: re.Match[str], start: int, end: int, stop: int, span: Span
    ) -> Lit | None:
        lit = _literal(m, m.group()[:-3].lower(), start, end, stop)
        lit.prose = _is_docstring(m.string, m.start())
        return lit


def _literal(m: re.Match[str], prefix: str, start: int, end: int, stop: int) -> Lit:
    interp = _FSTRING if "f" in prefix else _TEMPLATE
    style = "none" if "r" in prefix else "backslash"
    content = m.string[start:end]
    return Lit(m.start(), stop, split_interpolations(content, start, interp, style))


def _is_docstring(text: str, start: int) -> bool:
    """A triple-quoted string standing alone as a statement: a docstring or a comment block."""
    last = start - 1  # back over the blanks before the string, on its line and above
    while last >= 0 and text[last] != "\n" and text[last].isspace():
        last -= 1
    if last >= 0 and text[last] != "\n":
        return False  # code before it on its line
    # the last character before the string that is not blank
    while last >= 0 and text[last].isspace():
        last -= 1
    return last < 0 or text[last] not in _VALUE_BEFORE or text[last] == ":"
