"""Python: f-strings, `%` and `.format()` templates, docstrings left out."""

from __future__ import annotations

import re

from apispec.lint.functions import Definitions
from apispec.lint.languages import lexer
from apispec.lint.languages.dialect import Dialect
from apispec.lint.languages.lexer import Body, Span
from apispec.lint.scan import Interpolated, Lit, parts_with_holes, split_interpolations

_FSTRING = re.compile(r"\{[^{}\n]*\}")
_TEMPLATE = re.compile(r"\{[^{}\n]*\}|%\(\w+\)[sd]|%[sdif]")
_QUOTES = "'\""
# Text before a triple-quoted string that makes it a value rather than a docstring.
_VALUE_BEFORE = "=([{,+%:\\"
_FIELD_CODE = Interpolated("{", "}", "\\", "'\"", doubled=True)
_FIELD_WITH_CODE = re.compile(r"\{[^{}]*['\"{]")


class PythonDialect(Dialect):
    name = "python"
    code_groups = frozenset({"s"})
    code_opener = "{"
    definitions = Definitions(
        (re.compile(r"(?m)^[ \t]*(?:async[ \t]+)?def[ \t]+(?P<name>[A-Za-z_]\w*)[ \t]*\("),),
        "python",
        "indent",
    )
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

    def holds_code(self, m: re.Match[str]) -> bool:
        body = m.group()
        return (
            body[0] not in _QUOTES
            and "f" in body[:3].lower()
            and bool(_FIELD_WITH_CODE.search(body))
        )

    def with_code(self, text: str, m: re.Match[str], endpos: int) -> Lit | None:
        """An f-string whose fields hold strings or braces: `f"{client.get(f'{base}/x')}"`."""
        k = m.start()
        while text[k] not in _QUOTES:
            k += 1
        if text.startswith(('"""', "'''"), k):
            return None
        prefix = text[m.start() : k].lower()
        end, holes = _FIELD_CODE.walk(text, k, m.end())
        if end != m.end() or not holes:
            return None
        style = "none" if "r" in prefix else "backslash"
        parts = parts_with_holes(text, k + 1, end - 1, holes, style, 1)
        return Lit(m.start(), end, parts, holes=tuple(holes))

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
