"""Decoding string literals' escapes, keeping where each character is written.

A filter diagnostic must point into the file even through `\\"` and `\\n`, so each
decoded character keeps the offset of the source text it came from.
"""

from __future__ import annotations

from collections.abc import Iterator

from apispec.lint.extract.ir import Expr, Lit

_SIMPLE = {
    "n": "\n",
    "t": "\t",
    "r": "\r",
    "0": "\0",
    "a": "\a",
    "b": "\b",
    "f": "\f",
    "v": "\v",
    "e": "\x1b",
}


def c_escapes(raw: str, start: int, *, continuation: bool = True, braces: bool = False) -> Lit:
    """`raw` (the source between the quotes, from offset `start`) with C-style escapes decoded.

    `braces`: `{{` and `}}` stand for one brace (f-strings, C# interpolated strings).
    `continuation`: a backslash before a line end joins the lines.
    """
    if "\\" not in raw and not (braces and ("{{" in raw or "}}" in raw)):
        return Lit(raw, start)
    chars: list[str] = []
    offsets: list[int] = []
    i = 0
    n = len(raw)
    while i < n:
        ch = raw[i]
        if braces and ch in "{}" and i + 1 < n and raw[i + 1] == ch:
            chars.append(ch)
            offsets.append(start + i)
            i += 2
            continue
        if ch != "\\" or i + 1 >= n:
            chars.append(ch)
            offsets.append(start + i)
            i += 1
            continue
        nxt = raw[i + 1]
        width = 2
        if nxt in _SIMPLE:
            out = _SIMPLE[nxt]
        elif nxt in "\n\r" and continuation:
            width = 3 if raw[i + 1 : i + 3] == "\r\n" else 2
            i += width
            continue
        elif nxt in "xuU":
            digits = {"x": 2, "u": 4, "U": 8}[nxt]
            code = raw[i + 2 : i + 2 + digits]
            try:
                out = chr(int(code, 16)) if len(code) == digits else nxt
                width = 2 + digits if len(code) == digits else 2
            except ValueError:
                out = nxt
        else:
            out = nxt
        chars.append(out)
        offsets.append(start + i)
        i += width
    return Lit("".join(chars), start, tuple(offsets))


def plain(raw: str, start: int) -> Lit:
    """A literal with no escapes (raw strings, single-quoted shell and PowerShell text)."""
    return Lit(raw, start)


_BACKTICK = {"0": "\0", "a": "\a", "b": "\b", "e": "\x1b", "f": "\f", "n": "\n", "r": "\r"}
_BACKTICK.update({"t": "\t", "v": "\v"})


def backtick_escapes(raw: str, start: int, doubled: str = "") -> Lit:
    """PowerShell's expandable text: `` `n ``, `` `t ``, `` `$ `` (a backtick escapes the
    next character) and, inside quotes, the quote written twice (`""` is one `"`)."""
    if "`" not in raw and not (doubled and doubled * 2 in raw):
        return Lit(raw, start)
    chars: list[str] = []
    offsets: list[int] = []
    i = 0
    n = len(raw)
    while i < n:
        ch = raw[i]
        if ch == "`" and i + 1 < n:
            nxt = raw[i + 1]
            chars.append(_BACKTICK.get(nxt, nxt))
            offsets.append(start + i)
            i += 2
            continue
        chars.append(ch)
        offsets.append(start + i)
        i += 2 if doubled and ch == doubled and raw[i + 1 : i + 2] == doubled else 1
    return Lit("".join(chars), start, tuple(offsets))


def undoubled(raw: str, start: int, quote: str) -> Lit:
    """A verbatim literal whose quote is written twice inside it (`'it''s'`)."""
    if quote * 2 not in raw:
        return Lit(raw, start)
    chars: list[str] = []
    offsets: list[int] = []
    i = 0
    while i < len(raw):
        chars.append(raw[i])
        offsets.append(start + i)
        i += 2 if raw[i] == quote and raw[i + 1 : i + 2] == quote else 1
    return Lit("".join(chars), start, tuple(offsets))


def merged(pieces: list[Lit | Expr]) -> tuple[Lit | Expr, ...]:
    """A string's pieces with adjacent literal runs as one (a fragment, an escape, a
    fragment: grammars split them), empty runs left out."""
    out: list[Lit | Expr] = []
    for piece in pieces:
        last = out[-1] if out else None
        if isinstance(piece, Lit) and isinstance(last, Lit) and piece.text:
            offsets = [last.offset(i) for i in range(len(last.text))]
            offsets += [piece.offset(i) for i in range(len(piece.text))]
            contiguous = all(offsets[i] == offsets[0] + i for i in range(len(offsets)))
            out[-1] = Lit(
                last.text + piece.text, last.start, None if contiguous else tuple(offsets)
            )
        elif not (isinstance(piece, Lit) and not piece.text):
            out.append(piece)
    return tuple(out)


def dedent(pieces: list[Lit | Expr], indent: int | None = None) -> list[Lit | Expr]:
    """A heredoc's lines without their indentation: `indent` blanks, or the smallest
    indentation of its lines (Ruby's `<<~`; PHP strips the closing marker's)."""
    if indent is None:
        text = "".join(p.text if isinstance(p, Lit) else "x" for p in pieces)
        lines = [line for line in text.split("\n") if line.strip()]
        indent = min((len(line) - len(line.lstrip(" \t")) for line in lines), default=0)
    if not indent:
        return pieces
    out: list[Lit | Expr] = []
    at_line_start = True
    for piece in pieces:
        if not isinstance(piece, Lit):
            out.append(piece)
            at_line_start = False
            continue
        kept = [k for k in _kept(piece.text, indent, at_line_start)]
        offsets = tuple(piece.offset(k) for k in kept)
        out.append(
            Lit(
                "".join(piece.text[k] for k in kept),
                offsets[0] if offsets else piece.start,
                offsets,
            )
        )
        at_line_start = piece.text.endswith("\n") or (at_line_start and not piece.text)
    return out


def _kept(text: str, indent: int, at_line_start: bool) -> Iterator[int]:
    """Indexes of the characters that stay once each line's first `indent` blanks go."""
    column = 0 if at_line_start else indent
    for k, ch in enumerate(text):
        if ch == "\n":
            column = 0
            yield k
            continue
        if column < indent and ch in " \t":
            column += 1
            continue
        column = indent
        yield k
