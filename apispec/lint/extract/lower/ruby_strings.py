"""Ruby string literals: single-quoted text and heredoc bodies.

A single-quoted string knows two escapes (`\\'` and `\\\\`); a heredoc's body is its
lines without the line end after the opener and the closing line, and `<<~` strips
the indentation its lines share.
"""

from __future__ import annotations

from apispec.lint.extract.ir import Expr, Lit
from apispec.lint.extract.lower.strings import dedent


def heredoc_lines(pieces: list[Lit | Expr], opener: str) -> list[Lit | Expr]:
    """A heredoc body's pieces as its text: no first line end, no closing line."""
    if pieces and isinstance(pieces[0], Lit) and pieces[0].text.startswith("\n"):
        pieces[0] = _cut(pieces[0], 1, len(pieces[0].text))
    if pieces and isinstance(pieces[-1], Lit):
        last = pieces[-1]
        cut = last.text.rfind("\n")
        if cut >= 0 and not last.text[cut + 1 :].strip():
            pieces[-1] = _cut(last, 0, cut)
    if opener.startswith("<<~"):
        pieces = dedent(pieces)
    return [p for p in pieces if not isinstance(p, Lit) or p.text]


def single_quoted(raw: str, start: int) -> Lit:
    """`'...'`: only `\\'` and `\\\\` are escapes."""
    if "\\" not in raw:
        return Lit(raw, start)
    chars: list[str] = []
    offsets: list[int] = []
    i = 0
    while i < len(raw):
        if raw[i] == "\\" and i + 1 < len(raw) and raw[i + 1] in "\\'":
            chars.append(raw[i + 1])
            offsets.append(start + i)
            i += 2
            continue
        chars.append(raw[i])
        offsets.append(start + i)
        i += 1
    return Lit("".join(chars), start, tuple(offsets))


def _cut(lit: Lit, start: int, end: int) -> Lit:
    if lit.offsets is None:
        return Lit(lit.text[start:end], lit.start + start)
    return Lit(lit.text[start:end], lit.offset(start), lit.offsets[start:end])
