"""PHP: `.` concatenation, "$var" interpolation, curl_setopt and Guzzle."""

from __future__ import annotations

import re

from apispec.lint.languages.dialect import Dialect
from apispec.lint.scan import Lit, Source, split_interpolations

_DOUBLE = re.compile(r"\{\$(?:[^}\n{]|\{(?!\$))*\}|\$[A-Za-z_]\w*(?:->\w+|\[[^\[\]\n]*\])*|%[sd]")
_SINGLE = re.compile(r"%[sd]")
_CURL_METHOD = re.compile(
    r"CURLOPT_CUSTOMREQUEST\s*,\s*['\"](\w+)['\"]|CURLOPT_(POST|PUT)\s*,\s*(?:true|1)\b|CURLOPT_HTTPGET"
)


class PhpDialect(Dialect):
    name = "php"
    token_re = re.compile(
        r"(?P<c>//[^\n]*|\#(?!\[)[^\n]*|/\*[\s\S]*?\*/)"
        r"|(?P<dq>\"(?:[^\"\\]|\\[\s\S])*\")"
        r"|(?P<sq>'(?:[^'\\]|\\[\s\S])*')"
    )
    concat_re = re.compile(r"\s*\.(?![.\d=])\s*")

    def literal(self, m: re.Match[str]) -> Lit | None:
        body = m.group()
        interp = _DOUBLE if m.lastgroup == "dq" else _SINGLE
        start = m.start() + 1
        return Lit(m.start(), m.end(), split_interpolations(body[1:-1], start, interp, "backslash"))

    def method_nearby(self, source: Source, closer: int) -> str | None:
        """curl_setopt($ch, CURLOPT_CUSTOMREQUEST, 'DELETE') in the lines after curl_init."""
        text = source.text
        end = closer
        for _ in range(12):
            nl = text.find("\n", end + 1, source.endpos)
            if nl < 0:
                end = source.endpos
                break
            end = nl
            if "curl_exec" in text[closer:end]:
                break
        m = _CURL_METHOD.search(text, closer, end)
        if m is None:
            return None
        if m.group(1):
            return m.group(1).upper()
        return m.group(2) or "GET"
