"""Ruby: `#{}` interpolation, %-literals, heredocs, Net::HTTP, Faraday and HTTParty.

Ruby has more ways to write a string than any other language the linter reads:
`"..."` and `'...'` (both may span lines), `%(...)`, `%Q{...}`, `%q[...]`, `%w`,
`%i`, `%r` with any delimiter (brackets nest), heredocs (`<<~EOS`, `<<-'EOS'`),
and look-alikes that are no strings at all: `?"` (a character), `$"` (a global),
`/["']/` (a regular expression). Each has a token here, so none of their quotes
ends or starts a string by mistake.
"""

from __future__ import annotations

import re
from functools import cache

from apispec.lint.languages import lexer
from apispec.lint.languages.dialect import Dialect
from apispec.lint.languages.lexer import Body, Heredoc, LineCloser, Memo, Span
from apispec.lint.scan import Lit, split_interpolations

_HOLES = re.compile(r"#\{(?:[^}\n#]|#(?!\{))*\}|%[sd]")
# A `#{...}` field may hold strings of its own ("#{h["k"]}"); one line, bounded.
_FIELD = (
    r"#\{(?:[^{}\"'\\\n]|\\.|\"(?:[^\"\\\n]|\\.)*\"|'(?:[^'\\\n]|\\.)*'"
    r"|\{[^{}\n]{0,200}\}){0,200}\}"
)
_PAIRS = {"(": ")", "[": "]", "{": "}", "<": ">"}
# %-literal types that are strings (and whether they interpolate); `%w`, `%i`,
# `%s` are words and symbols, `%r` a pattern: never a URL that is sent.
_STRINGS = {"": True, "Q": True, "x": True, "q": False}


@cache
def _delimited(opener: str) -> re.Pattern[str]:
    """The body of a %-literal up to its closer; brackets nest (two levels deep)."""
    closer = _PAIRS.get(opener, opener)
    o, c = re.escape(opener), re.escape(closer)
    if opener == closer:
        return re.compile(rf"(?:[^\\{o}]++|\\[\s\S])*+{c}")
    plain = rf"[^\\{o}{c}]++|\\[\s\S]"
    inner = rf"{o}(?:{plain})*{c}"
    return re.compile(rf"(?:{plain}|{o}(?:{plain}|{inner})*+{c})*+{c}")


class Percent(Span):
    """A %-literal: the delimiter is the opener's last character."""

    def close(self, memo: Memo, m: re.Match[str], name: str) -> tuple[int, int, int] | int | None:
        opener = m.group()[-1]
        key = name + opener
        if m.start() < memo.dead.get(key, -1):
            return memo.eol(m.end())
        body = _delimited(opener).match(memo.text, m.end(), memo.endpos)
        if body is None:
            memo.dead[key] = memo.endpos
            return memo.eol(m.end())
        return m.end(), body.end() - 1, body.end()


class RubyDialect(Dialect):
    name = "ruby"
    token_re = re.compile(
        r"(?P<c>(?<![\w\"'$?])\#(?!\{)[^\n]*)"
        r"|(?P<comment>^=begin\b)"
        r"|(?P<heredoc><<(?:[~-]|(?=[\"'`A-Z_]))(?P<hq>[\"'`]?)(?P<word>[A-Za-z_]\w*)(?P=hq))"
        # most strings: on one line, fields without quotes (the spans below take the others)
        r"|\"(?:(?P<dql>[^\"\\\n#]*+(?:(?:\\.|#(?!\{)|#\{[^{}\"'\n]*\})[^\"\\\n#]*+)*+\")|(?P<dq>))"
        r"|'(?:(?P<sql>[^'\\\n]*+(?:\\.[^'\\\n]*+)*+')|(?P<sq>))"
        r"|(?P<bt>`)"
        r"|(?P<pct>(?:(?<=[\s(,=\[{|&!?:;<>+*-])|^)%[qQwWiIrsx]?[^\w\s=])"
        # a regular expression, a character literal (`?"`), a quote-named global, __END__
        r"|(?P<x>(?:(?<=[=(,\[{|&!?:;~])|(?<=[=(,\[{|&!?:;~] )|(?<=\w )|^[ \t]*)"
        r"/(?![\s=*])(?:[^/\\\n]|\\.)+/[a-z]*"
        r"|(?<![\w)\]}])\?(?:\\.|[^\s\w\\])(?!\w)"
        r"|\$[\"'`]"
        r"|^__END__\r?\n[\s\S]*)",
        re.M,
    )
    spans = lexer.spans(
        comment=LineCloser(re.compile(r"^=end\b[^\n]*", re.M), comment=True),
        heredoc=Heredoc(_HOLES, "backslash"),
        dq=Body(
            re.compile(r"(?:[^\"\\#]++|\\[\s\S]|" + _FIELD + r"|#)*+\""),
            1,
            '"',
            _HOLES,
            "backslash",
        ),
        sq=Body(re.compile(r"(?:[^'\\]++|\\[\s\S])*+'"), 1, "'", None, "backslash"),
        bt=Body(re.compile(r"(?:[^`\\#]++|\\[\s\S]|" + _FIELD + r"|#)*+`"), 1, "`", _HOLES),
        pct=Percent(),
    )

    def literal(self, m: re.Match[str]) -> Lit | None:
        interp = _HOLES if m.lastgroup == "dql" else None
        start = m.start() + 1
        return Lit(
            m.start(), m.end(), split_interpolations(m.group()[1:-1], start, interp, "backslash")
        )

    def spanned(
        self, kind: str, m: re.Match[str], start: int, end: int, stop: int, span: Span
    ) -> Lit | None:
        interp = span.interp
        if kind == "heredoc" and m.group("hq") == "'":
            interp = None
        elif kind == "pct":
            letter = m.group()[1:-1]
            if letter not in _STRINGS:
                return None
            interp = _HOLES if _STRINGS[letter] else None
        content = m.string[start:end]
        return Lit(m.start(), stop, split_interpolations(content, start, interp, "backslash"))
