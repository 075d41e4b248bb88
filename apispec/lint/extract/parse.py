"""Source text -> tree-sitter tree, and offsets between the tree's bytes and the text.

Every grammar is a wheel from PyPI (`tree-sitter-<language>`), imported the first
time a file of its language is parsed, so a run pays only for the languages its
tree holds. Trees are built with error recovery: a construct the grammar does not
know costs its own node (an ERROR), never the rest of the file.

Positions: tree-sitter counts UTF-8 bytes, a Reference counts characters of the
decoded text. `Offsets` converts, at no cost for ASCII files (most of them).
"""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass
from functools import cache
from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tree_sitter import Language, Node, Parser, Tree

# language -> (grammar module, function returning the language pointer)
GRAMMARS: dict[str, tuple[str, str]] = {
    "python": ("tree_sitter_python", "language"),
    "javascript": ("tree_sitter_javascript", "language"),
    "typescript": ("tree_sitter_typescript", "language_typescript"),
    "tsx": ("tree_sitter_typescript", "language_tsx"),
    "go": ("tree_sitter_go", "language"),
    "csharp": ("tree_sitter_c_sharp", "language"),
    "java": ("tree_sitter_java", "language"),
    "kotlin": ("tree_sitter_kotlin", "language"),
    "ruby": ("tree_sitter_ruby", "language"),
    "php": ("tree_sitter_php", "language_php"),
    "php_only": ("tree_sitter_php", "language_php_only"),  # code without `<?php`
    "shell": ("tree_sitter_bash", "language"),
    "powershell": ("tree_sitter_powershell", "language"),
    "yaml": ("tree_sitter_yaml", "language"),
    "json": ("tree_sitter_json", "language"),
    "hcl": ("tree_sitter_hcl", "language"),
    "markdown": ("tree_sitter_markdown", "language"),
    "groovy": ("tree_sitter_groovy", "language"),
    "rust": ("tree_sitter_rust", "language"),
    "swift": ("tree_sitter_swift", "language"),
    "toml": ("tree_sitter_toml", "language"),
    "dockerfile": ("tree_sitter_dockerfile", "language"),
}


@cache
def grammar(language: str) -> Language:
    """The tree-sitter Language of `language` (its wheel imported on first use)."""
    from tree_sitter import Language

    module, function = GRAMMARS[language]
    return Language(getattr(import_module(module), function)())


@cache
def parser(language: str) -> Parser:
    """One parser per language and process: parsers are reusable, not thread-safe."""
    from tree_sitter import Parser

    return Parser(grammar(language))


class Offsets:
    """Byte offsets of the UTF-8 text <-> character offsets of the decoded text."""

    __slots__ = ("_extra", "_starts", "ascii")

    def __init__(self, text: str, data: bytes) -> None:
        self.ascii = len(text) == len(data)
        self._starts: list[int] = []  # byte offset where each non-ASCII character starts
        self._extra: list[int] = []  # bytes beyond one per character, up to and with it
        if not self.ascii:
            position = extra = 0
            for char in text:
                if char < "\x80":
                    position += 1
                    continue
                width = len(char.encode("utf-8", "surrogatepass"))
                extra += width - 1
                self._starts.append(position)
                self._extra.append(extra)
                position += width

    def char(self, byte: int) -> int:
        """The character offset of a byte offset at a character boundary."""
        if self.ascii:
            return byte
        k = bisect_left(self._starts, byte)  # non-ASCII characters that start before `byte`
        return byte - self._extra[k - 1] if k else byte


@dataclass
class Parsed:
    """One parsed text: its tree, its bytes and the offsets between them."""

    language: str
    text: str
    data: bytes
    tree: Tree
    offsets: Offsets

    @property
    def root(self) -> Node:
        return self.tree.root_node

    def char(self, byte: int) -> int:
        return self.offsets.char(byte)

    def node_text(self, node: Node) -> str:
        return self.data[node.start_byte : node.end_byte].decode("utf-8", "surrogatepass")


def parse(text: str, language: str, old: Parsed | None = None) -> Parsed:
    """Parse `text` as `language`; `old` (an earlier parse of an edited text) is reused."""
    data = text.encode("utf-8", "surrogatepass")
    tree = (
        parser(language).parse(data, old.tree) if old is not None else parser(language).parse(data)
    )
    return Parsed(language, text, data, tree, Offsets(text, data))
