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

from apispec.lint.calls.assemble import CallInfo
from apispec.lint.calls.method import from_callee
from apispec.lint.candidates import Chain
from apispec.lint.details.positional import mapping_after_path
from apispec.lint.details.query import entries, value_at
from apispec.lint.languages import lexer
from apispec.lint.languages.dialect import Dialect
from apispec.lint.languages.lexer import Body, Heredoc, LineCloser, Memo, Span
from apispec.lint.reference import QueryValue
from apispec.lint.scan import Lit, Source, split_interpolations

_INDENT = re.compile(r"[ \t]*")
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
    decorators = False  # `@conn.get(...)` calls the object in an instance variable
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

    def command_context(self, source: Source, chain: Chain) -> CallInfo | None:
        return _command(source, chain)

    def call_query(self, source: Source, info: CallInfo) -> list[QueryValue]:
        return _call_query(source, info)

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


# A call without parentheses: `conn.get 'devices'`, `req.url "x"`, Rails' `get 'x', to: 'c#a'`.
_COMMAND = re.compile(
    r"(?:^|[;{|(]|\bdo\b|\bthen\b)[ \t]*"
    r"((?:[@$]?[A-Za-z_]\w*(?:\.|::|&\.))*[A-Za-z_]\w*[!?]?)[ \t]+\Z",
    re.M,
)
_KEYWORDS = frozenset(
    [
        "if",
        "unless",
        "while",
        "until",
        "return",
        "and",
        "or",
        "not",
        "when",
        "case",
        "else",
        "elsif",
        "then",
        "do",
        "yield",
        "in",
        "begin",
    ]
)
_ROUTE_ARGUMENT = re.compile(r",\s*(?:to:|via:|controller:|action:|=>\s*['\"][\w/]+#)")
_ROUTE_VERBS = frozenset(("get", "post", "put", "patch", "delete", "head", "options", "match"))
_LINE_END = re.compile(r"[^\n]*?(?=\s+do\b|\s*\{\s*\||\s*#|\n|\Z)")


def _command(source: Source, chain: Chain) -> CallInfo | None:
    text = source.text
    m = _COMMAND.search(text, max(source.line_start(chain.start), chain.start - 200), chain.start)
    if m is None or m.group(1) in _KEYWORDS:
        return None
    callee = m.group(1)
    end = _LINE_END.match(text, chain.start, source.endpos)
    stop = end.end() if end is not None else chain.end
    args = text[chain.end : stop]
    names = re.split(r"\.|::|&\.", callee)
    info = CallInfo(callee=callee, window=(m.start(1), stop))
    if len(names) == 1 and (
        (
            names[0] in _ROUTE_VERBS
            and (_ROUTE_ARGUMENT.match(args) or re.match(r"\s+do\b", text[stop:]))
        )
        or names[0] == "mount"
    ):
        info.route = True  # Rails, Sinatra, Grape: the app's own route
        return info
    info.method = from_callee(callee)
    info.query_args = (chain.start - 1, stop)
    return info


_BLOCK_PARAM = re.compile(r"[ \t]*(?:\{|do\b)[ \t]*\|[ \t]*(\w+)[ \t]*\|")


def _call_query(source: Source, info: CallInfo) -> list[QueryValue]:
    """Faraday's params: the hash after the path of a GET (`conn.get('x', limit: 10)`), a
    variable holding one (or an options hash with `params:`), and a request block
    (`conn.get('x') { |req| req.params['limit'] = 10 }`)."""
    found: list[QueryValue] = []
    if (
        info.callee
        and info.method in (None, "GET", "DELETE", "HEAD")
        and info.query_args is not None
    ):
        found = mapping_after_path(source, *info.query_args)
    end = info.closer if info.closer >= 0 else info.window[1] - 1
    return found + _block_params(source, end)


def _block_params(source: Source, closer: int) -> list[QueryValue]:
    text = source.text
    m = _BLOCK_PARAM.match(text, closer + 1, source.endpos)
    if m is None:
        return []
    var = re.escape(m.group(1))
    stop = source.endpos
    block = text.find("{", closer + 1, m.end())
    if block >= 0:
        stop = max(block, source.matching_closer(block))
    else:  # do ... end: its lines, to the `end` indented like the call
        line_start = source.line_start(closer)
        blanks = _INDENT.match(text, line_start)  # `[ \t]*` matches anywhere
        indent = (blanks.end() if blanks is not None else line_start) - line_start
        ending = re.compile(rf"^[ \t]{{0,{indent}}}end\b", re.M).search(text, m.end(), stop)
        stop = ending.start() if ending else min(stop, m.end() + 2000)
    found: list[QueryValue] = []
    setter = re.compile(var + r"\.params\[\s*[:'\"]?(\w+)['\"]?\s*\]\s*=\s*")
    for s in setter.finditer(text, m.end(), stop):
        found.append(value_at(source, s.group(1), s.end()))
    merger = re.compile(var + r"\.params\.(?:update|merge!)\(\s*")
    for s in merger.finditer(text, m.end(), stop):
        at = text.index("(", s.start())
        inner = source.matching_closer(at)
        if inner > 0:
            found.extend(entries(source, s.end(), inner))
    return found
