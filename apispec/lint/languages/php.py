"""PHP: `.` concatenation, "$var" interpolation, heredocs, curl_setopt and Guzzle.

Text outside `<?php ... ?>` is the page a script prints, not code: it is read as
a comment, so an apostrophe in it opens no string.
"""

from __future__ import annotations

import re

from apispec.lint.calls.assemble import CallInfo
from apispec.lint.details.positional import mapping_after_path
from apispec.lint.languages import lexer
from apispec.lint.languages.dialect import Dialect
from apispec.lint.languages.lexer import Body, Closer, Heredoc, Span
from apispec.lint.reference import QueryValue
from apispec.lint.scan import Lit, Source, split_interpolations

_DOUBLE = re.compile(r"\{\$(?:[^}\n{]|\{(?!\$))*\}|\$[A-Za-z_]\w*(?:->\w+|\[[^\[\]\n]*\])*|%[sd]")
_SINGLE = re.compile(r"%[sd]")
# A "{$a['k']}" field may hold strings of its own; one line, bounded.
_FIELD = r"\{\$(?:[^{}\"'\n]|\"(?:[^\"\\\n]|\\.)*\"|'(?:[^'\\\n]|\\.)*'){0,200}\}"
# curl_setopt($ch, OPT, v) and curl_setopt_array($ch, [OPT => v]); a request body
# (CURLOPT_POSTFIELDS) makes libcurl POST unless a custom request names another verb.
_CURL_METHOD = re.compile(
    r"CURLOPT_CUSTOMREQUEST\s*(?:,|=>)\s*['\"](\w+)['\"]"
    r"|CURLOPT_(POST|PUT)\s*(?:,|=>)\s*(?:true|1)\b|CURLOPT_(POSTFIELDS)\b|CURLOPT_HTTPGET"
)


class PhpDialect(Dialect):
    name = "php"
    token_re = re.compile(
        r"(?P<c>//[^\n]*|\#(?!\[)[^\n]*)"
        r"|(?P<comment>/\*)"
        r"|(?P<html>\?>)"
        r"|(?P<heredoc><<<[ \t]*(?P<hq>[\"']?)(?P<word>[A-Za-z_]\w*)(?P=hq)[ \t]*\r?$)"
        # most strings: on one line, fields without quotes (the spans below take the others)
        r"|\"(?:(?P<dql>[^\"\\\n{]*+(?:(?:\\.|\{(?!\$)|\{\$[^{}\"'\n]*\})[^\"\\\n{]*+)*+\")|(?P<dq>))"
        r"|'(?:(?P<sql>[^'\\\n]*+(?:\\.[^'\\\n]*+)*+')|(?P<sq>))",
        re.M,
    )
    spans = lexer.spans(
        comment=Closer("*/", comment=True),
        html=Closer("<?", comment=True),  # up to the next <?php or <?=
        heredoc=Heredoc(_DOUBLE, "backslash"),
        dq=Body(
            re.compile(r"(?:[^\"\\{]++|\\[\s\S]|" + _FIELD + r"|\{)*+\""),
            1,
            '"',
            _DOUBLE,
            "backslash",
        ),
        sq=Body(re.compile(r"(?:[^'\\]++|\\[\s\S])*+'"), 1, "'", _SINGLE, "backslash"),
    )
    concat_re = re.compile(r"\s*\.(?![.\d=])\s*")

    def scan(self, text: str, pos: int, endpos: int) -> tuple[list[Lit], list[tuple[int, int]]]:
        """A whole file is HTML up to its first `<?php` (a snippet without one is all code)."""
        start = pos
        if pos == 0 and not text.startswith("<?"):
            opener = text.find("<?", 0, endpos)
            if opener > 0:
                start = opener
        lits, comments = super().scan(text, start, endpos)
        if start > pos:
            comments.insert(0, (pos, start))
        return lits, comments

    def literal(self, m: re.Match[str]) -> Lit | None:
        interp = _DOUBLE if m.lastgroup == "dql" else _SINGLE
        start = m.start() + 1
        return Lit(
            m.start(), m.end(), split_interpolations(m.group()[1:-1], start, interp, "backslash")
        )

    def spanned(
        self, kind: str, m: re.Match[str], start: int, end: int, stop: int, span: Span
    ) -> Lit | None:
        interp = None if kind == "heredoc" and m.group("hq") == "'" else span.interp
        content = m.string[start:end]
        return Lit(m.start(), stop, split_interpolations(content, start, interp, "backslash"))

    def call_query(self, source: Source, info: CallInfo) -> list[QueryValue]:
        """Laravel Http: the array after the path of a GET is its query (`get($url, [...])`)."""
        if info.callee and info.method in (None, "GET", "DELETE", "HEAD") and info.query_args:
            return mapping_after_path(source, *info.query_args)
        return []

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
        found = list(_CURL_METHOD.finditer(text, closer, end))
        if not found:
            return None
        for group in (1, 2, 3):
            for m in found:
                if m.group(group):
                    return "POST" if group == 3 else m.group(group).upper()
        return "GET"
