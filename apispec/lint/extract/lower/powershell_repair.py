"""A construct tree-sitter-powershell misreads: bare words listed with commas.

`Select-Object id, name`, `Format-Table id, name, status` and `Export-ModuleMember
-Function Connect-Prtg, Invoke-PrtgApi` are one argument, an array of words; the
grammar takes the comma for an error, and its recovery swallows the statements that
follow up to the next bracket, calls included. Each such comma (a direct child of an
error, between a word and the next word) is read as a space instead: the words become
separate arguments, which no request reads, and every offset stays where it was.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from apispec.lint.extract.parse import Parsed, parse

if TYPE_CHECKING:
    from tree_sitter import Node

_WORDS = frozenset({"command", "pipeline_chain", "simple_name", "generic_token", "-"})


def repaired(parsed: Parsed) -> Parsed | None:
    """The text with its word-list commas read as spaces, parsed again (None: none)."""
    if not parsed.root.has_error:
        return None
    commas: list[int] = []
    stack = [parsed.root]
    while stack:
        node = stack.pop()
        if not node.has_error:
            continue
        if node.type == "ERROR":
            commas.extend(_word_commas(node))
        stack.extend(node.children)
    if not commas:
        return None
    chars = list(parsed.text)
    for byte in commas:
        chars[parsed.char(byte)] = " "
    return parse("".join(chars), parsed.language)


def _word_commas(error: Node) -> list[int]:
    found = []
    children = error.children
    for k, child in enumerate(children):
        if child.type != "," or k + 1 >= len(children):
            continue
        before = children[k - 1] if k else error.prev_sibling
        if before is not None and before.type in _WORDS and children[k + 1].type == "simple_name":
            found.append(child.start_byte)
    return found
