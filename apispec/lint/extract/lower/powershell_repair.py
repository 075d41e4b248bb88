"""Constructs tree-sitter-powershell misreads, read again as what they mean to the linter.

The grammar's error recovery costs more than the construct it does not know: the
statements after it are swallowed (their strings read inside out). Each repair swaps
characters for others of the same length, so every offset stays where it was, and
the text is parsed again:

- `using namespace X` / `using module X` are unknown: taken for a command, they make
  the script's `param(...)` block an error that swallows the whole script. They load
  nothing the linter reads (a module's functions are in scope by name), so they read
  as blank;
- bare words listed with commas (`Select-Object id, name`, `Export-ModuleMember
  -Function Connect-Prtg, Invoke-PrtgApi`) are one argument, an array of words: each
  comma reads as a space (separate words, which no request reads);
- PowerShell 7's `$a ?? $b` and `$c ? $a : $b` read as `$a || $b` and `$c || $a || $b`,
  a chain the grammar knows, which the lowering reads as either value;
- a function's `param(...)` block with its first statement on the same line
  (`function Get-X { param($Path) Invoke-RestMethod ... }`): the space between reads
  as `;`, which the grammar takes;
- a quote that opens a string never closed on its line, where the string would close
  on a later line whose rest holds an odd number of that quote (that closing quote
  really opens a string of that line), is a stray: it reads as a space, so one odd
  line costs itself, not the rest of the file (docs/linter-detection.md, "Recovery").
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from apispec.lint.extract.parse import Parsed, parse

if TYPE_CHECKING:
    from tree_sitter import Node

_WORDS = frozenset({"command", "pipeline", "pipeline_chain", "simple_name", "generic_token", "-"})
_USING = re.compile(r"(?im)^[ \t]*using[ \t]+(?:namespace|module|assembly)\b[^\r\n]*")
_OPERATOR = re.compile(rb"[ \t]*(\?\?|\?|:)")
_PASSES = 4


def repaired(parsed: Parsed) -> Parsed | None:
    """The text repaired and parsed again (None: nothing to repair)."""
    if not parsed.root.has_error:
        return None
    current = parsed
    if _USING.search(parsed.text):
        current = parse(_USING.sub(lambda m: " " * len(m.group()), parsed.text), parsed.language)
    ternary = False
    for _ in range(_PASSES):
        if not current.root.has_error:
            break
        swaps: dict[int, str] = {}
        errors = _errors(current.root)
        swaps.update(_stray_quotes(current, errors))
        for error in errors:
            swaps.update(_word_commas(error))
            swaps.update(_param_then_code(error, current.data))
            found = _chain_operator(error, current.data, ternary)
            ternary = ternary or any(
                s == "||" and current.data[b : b + 2] != b"??" for b, s in found.items()
            )
            swaps.update(found)
        if not swaps:
            break
        chars = list(current.text)
        for byte, written in swaps.items():
            at = current.char(byte)
            chars[at : at + len(written)] = list(written)
        current = parse("".join(chars), current.language)
    return current if current is not parsed else None


def _errors(root: Node) -> list[Node]:
    found = []
    stack = [root]
    while stack:
        node = stack.pop()
        if node.type == "ERROR":
            found.append(node)
        if node.has_error:
            stack.extend(node.children)
    return found


def _word_commas(error: Node) -> dict[int, str]:
    found = {}
    children = error.children
    for k, child in enumerate(children):
        if child.type != "," or k + 1 >= len(children):
            continue
        before = children[k - 1] if k else error.prev_sibling
        if before is not None and before.type in _WORDS and children[k + 1].type == "simple_name":
            found[child.start_byte] = " "
    return found


def _param_then_code(error: Node, data: bytes) -> dict[int, str]:
    """The space after a `param(...)` block that a statement follows on the same line."""
    for child in error.children:
        if child.type != "param_block":
            continue
        at = child.end_byte
        if data[at : at + 1] in (b" ", b"\t") and data[at:].lstrip(b" \t")[:1] not in (
            b"",
            b"\n",
            b"\r",
            b"#",
        ):
            return {at: ";"}
    return {}


def _chain_operator(error: Node, data: bytes, ternary: bool) -> dict[int, str]:
    """`??`, a ternary's ` ?` and (once a ` ?` was read so) its ` :`, where the error
    holds them."""
    found: dict[int, str] = {}
    for node in (error, *error.children):
        m = _OPERATOR.fullmatch(data, node.start_byte, node.end_byte)
        if m is None:
            continue
        at = m.start(1)
        operator = m.group(1)
        spaced = at > 0 and data[at - 1 : at] in (b" ", b"\t")
        if operator == b"??":
            found[at] = "||"
        elif spaced and (operator == b"?" or ternary):
            found[at - 1] = "||"
    return found


_QUOTED = frozenset({"expandable_string_literal", "verbatim_string_characters"})


def _stray_quotes(parsed: Parsed, errors: list[Node]) -> dict[int, str]:
    """Openers of strings that run over line ends into an odd closing line."""
    found: dict[int, str] = {}
    data = parsed.data
    for error in errors:
        stack = [error]
        while stack:
            node = stack.pop()
            stack.extend(node.children)
            if node.type not in _QUOTED or node.start_point[0] == node.end_point[0]:
                continue
            quote = data[node.start_byte : node.start_byte + 1]
            if quote not in (b'"', b"'"):
                continue
            line_end = data.find(b"\n", node.end_byte)
            rest = data[node.end_byte : line_end if line_end >= 0 else len(data)]
            if rest.count(quote) % 2 == 1:
                found[node.start_byte] = " "
    return found
