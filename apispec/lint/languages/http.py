"""HTTP request messages: `.http`/`.rest` files, `http` fences and request lines in docs.

A request is a line `METHOD URL [HTTP/1.1]` with header lines below it
(`Authorization: Bearer ...`), as the REST clients of editors write them and as
documentation shows raw requests. The URL and each header value are the
literals; the method is the line's first word. `{{variable}}`, `${VAR}` and
`$VAR` are interpolations.
"""

from __future__ import annotations

import bisect
import re
from typing import cast

from apispec.lint.calls.assemble import CallInfo
from apispec.lint.candidates import Chain
from apispec.lint.languages.dialect import Dialect
from apispec.lint.scan import Lit, Source, split_interpolations

_LINE = re.compile(
    r"[ \t]*(?:(?P<c>(?:#|//)[^\n]*)"
    r"|(?P<verb>GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)[ \t]+(?P<url>[^\s]+)(?:[ \t]+HTTP/[\d.]+)?[ \t]*$"
    r"|(?P<name>[A-Za-z][\w-]*):[ \t]*(?P<value>[^\n]*?)[ \t]*$)",
    re.M,
)
# A blank line (a request's headers end there) or the next request line.
_REQUEST_END = re.compile(
    r"^[ \t\r]*$|^[ \t]*(?:GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)[ \t]", re.M
)
_HOLES = re.compile(r"\{\{[^{}\n]*\}\}|\$\{[^}\n]*\}|\$[A-Za-z_]\w*|\{[^{}\n]*\}")


class HttpDialect(Dialect):
    name = "http"
    concat_re = None

    def scan(self, text: str, pos: int, endpos: int) -> tuple[list[Lit], list[tuple[int, int]]]:
        lits: list[Lit] = []
        comments: list[tuple[int, int]] = []
        line = pos  # a region may start inside a line (a code span): that is a line start too
        while line < endpos:
            newline = text.find("\n", line, endpos)
            end_of_line = endpos if newline < 0 else newline
            m = _LINE.match(text, line, end_of_line)
            line = end_of_line + 1
            if m is None:
                continue
            if m.group("c") is not None:
                comments.append((m.start("c"), m.end("c")))
                continue
            group = "url" if m.group("verb") else "value"
            start, end = m.start(group), m.end(group)
            if start < end:
                parts = split_interpolations(text[start:end], start, _HOLES, "none")
                lits.append(Lit(start, end, parts))
        return lits, comments

    def command_context(self, source: Source, chain: Chain) -> CallInfo | None:
        text = source.text
        line_start = source.line_start(chain.start)
        end_of_line = text.find("\n", chain.end, source.endpos)
        m = _LINE.match(text, line_start, end_of_line if end_of_line >= 0 else source.endpos)
        if m is None or not m.group("verb"):
            return CallInfo()  # a header value, not a request line
        return CallInfo(
            callee=m.group("verb"), method=m.group("verb"), window=(line_start, _end(source, chain))
        )


def _end(source: Source, chain: Chain) -> int:
    """Where a request's headers end: at the next blank line or request line.

    The lines that end requests are found once per source: searched from each request,
    a file of requests without blank lines was read to its end once per request.
    """
    ends = cast("list[int] | None", source.memo.get("request_ends"))
    if ends is None:
        found = _REQUEST_END.finditer(source.text, source.pos, source.endpos)
        ends = source.memo["request_ends"] = [m.start() for m in found]
    k = bisect.bisect_right(ends, source.lines.line_start(chain.end))
    return ends[k] if k < len(ends) else source.endpos
