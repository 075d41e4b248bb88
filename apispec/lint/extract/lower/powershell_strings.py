"""PowerShell's string literals lowered to the IR: verbatim strings (`'...'`, `@'...'@`,
a doubled quote is one) and expandable ones (`"...$x...${y}...$($g.id)..."`, `@"..."@`):
text runs with backtick escapes, and the variables and sub-expressions between them.

Apart from powershell.py so the lowering's node table reads at once; here-strings'
line rules and escapes are a concern of their own.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from apispec.lint.extract.ir import Expr, Interp, Lit, Str
from apispec.lint.extract.lower.strings import backtick_escapes, undoubled

if TYPE_CHECKING:
    from tree_sitter import Node

    from apispec.lint.extract.lower.powershell import PowerShellLowering


def verbatim(lowering: PowerShellLowering, node: Node) -> Expr:
    start, end = lowering.span(node)
    raw = lowering.text(node)
    if raw.startswith("@'"):  # a here-string: the lines between its own lines
        first = raw.find("\n") + 1
        last = raw.rfind("\n")
        if last < first:
            return Str((), start, end)
        body = raw[first:last].removesuffix("\r")
        return Str((Lit(body, start + first),), start, end, True)
    return Str((undoubled(raw[1:-1], start + 1, "'"),), start, end, True)


def expandable(lowering: PowerShellLowering, node: Node) -> Expr:
    """`"...$x...${y}...$($g.id)..."` (and `@"..."@`): text runs and interpolations."""
    start, end = lowering.span(node)
    data = lowering.data
    here = data.startswith(b'@"', node.start_byte)
    if here:  # the lines between the opener's line and the closer's (bytes)
        at = data.find(b"\n", node.start_byte, node.end_byte) + 1
        stop = data.rfind(b"\n", node.start_byte, node.end_byte)
        if stop > 0 and data[stop - 1 : stop] == b"\r":
            stop -= 1
    else:
        at, stop = node.start_byte + 1, node.end_byte - 1
    stop = max(stop, at)
    pieces: list[Lit | Expr] = []
    for child in node.named_children:
        if child.type not in ("variable", "sub_expression"):
            continue
        if child.start_byte > at:
            pieces.extend(_run(lowering, at, child.start_byte, "" if here else '"'))
        value = lowering.variable(child) if child.type == "variable" else lowering.expr(child)
        first, last = lowering.span(child)
        pieces.append(Interp(value, first, last))
        at = child.end_byte
    if stop > at:
        pieces.extend(_run(lowering, at, stop, "" if here else '"'))
    return Str(tuple(pieces), start, end, True)


def _run(
    lowering: PowerShellLowering, start_byte: int, end_byte: int, doubled: str
) -> list[Lit | Expr]:
    raw = lowering.data[start_byte:end_byte].decode("utf-8", "surrogatepass")
    lit = backtick_escapes(raw, lowering.char(start_byte), doubled)
    return [lit] if lit.text else []
