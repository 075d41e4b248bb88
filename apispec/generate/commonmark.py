"""What CommonMark makes of registry text: its code spans, and raw HTML made inert.

Registry text is plain prose with backtick code spans. Two outputs read it as
CommonMark: the Markdown reference docs (`templating.md_text`) and the
description fields of the OpenAPI document, which Redoc, Stoplight Elements
and Swagger UI render as Markdown with raw HTML allowed. There,
`/api/v2/<collection>/<id>` loses its placeholders to the HTML parser
(`/api/v2//`), so outside code spans `&`, `<` and `>` become entities, which
every CommonMark renderer shows as the characters themselves.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

_BACKTICKS = re.compile(r"`+")
_HTML_SPECIAL = {"&": "&amp;", "<": "&lt;", ">": "&gt;"}


def _pieces(text: str) -> Iterator[tuple[int, int, int]]:
    """(start, end, fence) for each piece in order; fence 0 is plain text, else the
    backtick count of a code span that spans `text[start:end]`, fences included."""
    pos = 0
    plain_from = 0
    while True:
        opening = _BACKTICKS.search(text, pos)
        if opening is None:
            break
        size = len(opening.group())
        closing = _BACKTICKS.search(text, opening.end())
        while closing is not None and len(closing.group()) != size:
            closing = _BACKTICKS.search(text, closing.end())
        if closing is None:
            pos = opening.end()
            continue
        if opening.start() > plain_from:
            yield plain_from, opening.start(), 0
        yield opening.start(), closing.end(), size
        pos = plain_from = closing.end()
    if plain_from < len(text):
        yield plain_from, len(text), 0


def code_spans(text: str) -> Iterator[tuple[str, bool]]:
    """(piece, is_code) in order, pairing backtick runs as CommonMark does.

    A run of n backticks opens a code span only if a later run of exactly n
    backticks closes it; otherwise the run is plain text. The content keeps
    CommonMark's single-space stripping so both outputs show the same text.
    """
    for start, end, fence in _pieces(text):
        if not fence:
            yield text[start:end], False
            continue
        content = text[start + fence : end - fence]
        if len(content) > 2 and content[0] == content[-1] == " " and content.strip():
            content = content[1:-1]
        yield content, True


def inert_html(text: str) -> str:
    """`text` with `&`, `<` and `>` outside code spans written as entities; code spans,
    Markdown links and emphasis unchanged."""
    out = []
    for start, end, fence in _pieces(text):
        piece = text[start:end]
        out.append(piece if fence else "".join(_HTML_SPECIAL.get(ch, ch) for ch in piece))
    return "".join(out)
