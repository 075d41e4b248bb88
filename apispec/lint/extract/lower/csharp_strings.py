"""C# string literals lowered to the IR: regular, verbatim, raw and interpolated.

Regular strings decode C escapes; verbatim strings (`@"..."`) know only `""` for a
quote; raw strings (three or more quotes) decode nothing. An interpolated string (`$"..."`,
`$@"..."`, `$$` raw ones) holds expressions between braces; in a regular or verbatim
one `{{` stands for a brace, in a raw one braces fewer than its `$` count are text.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from apispec.lint.extract.ir import Expr, Interp, Lit, Str
from apispec.lint.extract.lower.strings import c_escapes

if TYPE_CHECKING:
    from tree_sitter import Node

    from apispec.lint.extract.lower import Lowering

_WRAPPERS = frozenset({"interpolation_brace", "interpolation_alignment_clause", "comment"})
_DELIMITERS = frozenset({'"', "interpolation_start", "interpolation_quote"})


def doubled_quotes(raw: str, start: int) -> Lit:
    """A verbatim string's text: `""` stands for one quote."""
    if '""' not in raw:
        return Lit(raw, start)
    chars: list[str] = []
    offsets: list[int] = []
    i = 0
    while i < len(raw):
        chars.append(raw[i])
        offsets.append(start + i)
        i += 2 if raw[i] == '"' and raw[i + 1 : i + 2] == '"' else 1
    return Lit("".join(chars), start, tuple(offsets))


def literal(lowering: Lowering, node: Node) -> Str:
    """A string literal that interpolates nothing."""
    start, end = lowering.span(node)
    text = lowering.text(node)
    if node.type == "verbatim_string_literal":
        return Str((doubled_quotes(text[2:-1], start + 2),), start, end, True)
    if node.type == "raw_string_literal":
        quotes = len(text) - len(text.lstrip('"'))
        body = text[quotes : len(text) - quotes]
        return Str((_raw_lines(body, start + quotes),), start, end, True)
    return Str((c_escapes(text[1:-1], start + 1, continuation=False),), start, end, True)


def _raw_lines(body: str, start: int) -> Lit:
    """A raw string's content; a multi-line one loses its first and last line breaks."""
    if "\n" not in body:
        return Lit(body, start)
    first = body.find("\n") + 1
    last = body.rfind("\n")
    inner = body[first:last] if last >= first else body[first:]
    return Lit(inner, start + first)


def interpolated(lowering: Lowering, node: Node, expr: Callable[[Node], Expr]) -> Str:
    """`$"devices/{id}"`: literal runs and the expressions between braces."""
    start, end = lowering.span(node)
    opener = node.children[0] if node.children else None
    prefix = lowering.text(opener) if opener is not None else "$"
    raw = any(c.type == "interpolation_quote" for c in node.children)
    verbatim = "@" in prefix
    pieces: list[Lit | Expr] = []
    for child in node.children:
        kind = child.type
        if kind in _DELIMITERS:
            continue
        if kind == "interpolation":
            inner = [c for c in child.named_children if c.type not in _WRAPPERS]
            inner = [c for c in inner if c.type != "interpolation_format_clause"]
            if inner:
                at, until = lowering.span(child)
                pieces.append(Interp(expr(inner[0]), at, until))
            continue
        text = lowering.text(child)
        at = lowering.char(child.start_byte)
        if raw:
            pieces.append(Lit(text, at))
        elif verbatim:
            pieces.append(_braces(doubled_quotes(text, at)))
        else:
            pieces.append(c_escapes(text, at, continuation=False, braces=True))
    return Str(tuple(_merged(pieces)), start, end)


def _braces(lit: Lit) -> Lit:
    """`{{` and `}}` in a verbatim interpolated string stand for one brace."""
    if "{{" not in lit.text and "}}" not in lit.text:
        return lit
    chars: list[str] = []
    offsets: list[int] = []
    i = 0
    text = lit.text
    while i < len(text):
        chars.append(text[i])
        offsets.append(lit.offset(i))
        i += 2 if text[i] in "{}" and text[i + 1 : i + 2] == text[i] else 1
    return Lit("".join(chars), lit.start, tuple(offsets))


def _merged(pieces: list[Lit | Expr]) -> list[Lit | Expr]:
    """Adjacent literal runs (text and escapes are separate nodes) as one run."""
    out: list[Lit | Expr] = []
    for piece in pieces:
        last = out[-1] if out else None
        if isinstance(piece, Lit) and isinstance(last, Lit):
            offsets = tuple(last.offset(i) for i in range(len(last.text))) + tuple(
                piece.offset(i) for i in range(len(piece.text))
            )
            contiguous = all(offsets[i] == offsets[0] + i for i in range(len(offsets)))
            out[-1] = Lit(last.text + piece.text, last.start, None if contiguous else offsets)
        else:
            out.append(piece)
    return out
