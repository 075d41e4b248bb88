"""Source text -> tree-sitter tree, and offsets between the tree's bytes and the text.

Every grammar is a wheel from PyPI (`tree-sitter-<language>`), imported the first
time a file of its language is parsed, so a run pays only for the languages its
tree holds. Trees are built with error recovery: a construct the grammar does not
know costs its own node (an ERROR), never the rest of the file. A literal that never
closes (an unclosed string or block comment, its closing quote MISSING in the tree)
would swallow the code after it: the line it opens on is blanked and the text parsed
again, so it costs that line. Python's comment lines without a quote, backslash or
brace are given to the parser as spaces (`_quieted`: its scanner costs n squared for n
comment lines).

Positions: tree-sitter counts UTF-8 bytes, a Reference counts characters of the
decoded text. `Offsets` converts, at no cost for ASCII files (most of them).
"""

from __future__ import annotations

import re
import warnings
from bisect import bisect_left
from collections import OrderedDict
from dataclasses import dataclass
from functools import cache
from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tree_sitter import Language, Node, Parser, Query, Tree

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
    pointer = getattr(import_module(module), function)()
    if isinstance(pointer, int):  # an older wheel (tree-sitter-dockerfile 0.2): a bare address
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            return Language(pointer)
    return Language(pointer)


@cache
def parser(language: str) -> Parser:
    """One parser per language and process: parsers are reusable, not thread-safe."""
    from tree_sitter import Parser

    return Parser(grammar(language))


@cache
def _missing(language: str) -> Query:
    from tree_sitter import Query

    return Query(grammar(language), "(MISSING) @missing")


# closing delimiters of literals; a MISSING one means the literal ran to the end
_CLOSERS = frozenset({'"', "'", "`", '"""', "'''", "*/"})
_RECOVERIES = 3  # literals blanked one after another, at most


def _tree(language: str, data: bytes, old: Parsed | None = None) -> tuple[bytes, Tree]:
    """The tree of `data`, and the bytes it was built from (quiet comment lines, and
    literals that never close on the line they open on, blanked: the same length, so
    offsets keep). `old`: the document's previous parse, edited into this one."""
    fed, quiet = _quieted(data, language)
    if old is None:
        tree = parser(language).parse(fed)
    else:
        _edit(old, fed)
        tree = parser(language).parse(fed, old.tree)
    if quiet and (inside := _in_strings(tree, quiet)):
        fed = _restored(fed, data, inside)
        tree = parser(language).parse(fed)
    data = fed
    for _ in range(_RECOVERIES):
        if not tree.root_node.has_error:
            break
        from tree_sitter import QueryCursor

        found = QueryCursor(_missing(language)).captures(tree.root_node).get("missing", [])
        opens = {
            node.parent.start_byte
            for node in found
            if node.type in _CLOSERS
            and node.parent is not None
            and node.parent.start_point.row < node.start_point.row
        } or _over_lines(language, tree, data)
        if not opens:
            break
        blanked = bytearray(data)
        for at in opens:
            start = data.rfind(b"\n", 0, at) + 1
            end = data.find(b"\n", at)
            end = len(data) if end < 0 else end
            blanked[start:end] = b" " * (end - start)
        data = bytes(blanked)
        tree = parser(language).parse(data)
    return data, tree


# string nodes that may not span lines, where a grammar pairs an unclosed quote with the
# next line's opening one instead of marking the closer MISSING (Java, Kotlin)
_ONE_LINE = {"java": "string_literal", "kotlin": "string_literal"}


def _over_lines(language: str, tree: Tree, data: bytes) -> set[int]:
    """Where a one-line string that spans lines opens: its quote was never closed."""
    kind = _ONE_LINE.get(language)
    if kind is None:
        return set()
    from tree_sitter import Query, QueryCursor

    query = Query(grammar(language), f"({kind}) @s")
    found = QueryCursor(query).captures(tree.root_node).get("s", [])
    return {
        node.start_byte
        for node in found
        if node.start_point.row < node.end_point.row
        and data[node.start_byte : node.start_byte + 3] != b'"""'
    }


# tree-sitter-python's scanner looks ahead over all the comment lines that follow each
# comment line (for the indentation after them): a run of n comment lines after code costs
# n squared (2,000 took five seconds, the 130,000 of a 1 MB file hours). A comment line
# without a quote, backslash or brace is to the grammar what a blank line is (the tree path
# skips comment nodes), so the parser is given spaces in its place; the text, and every
# offset, stay the file's. The same bytes inside a triple-quoted string are the string's:
# such lines are given back as written (`_in_strings`).
_QUIET_COMMENT = re.compile(rb"^[ \t]*#[^'\"\\{}\r\n]*(?=\r?\n|\r?\Z)", re.MULTILINE)
_QUIETED = frozenset({"python"})


def _quieted(data: bytes, language: str) -> tuple[bytes, list[tuple[int, int]]]:
    """The bytes to parse, and the runs of comment lines they hold as spaces."""
    if language not in _QUIETED or b"#" not in data:
        return data, []
    runs: list[tuple[int, int]] = []
    for match in _QUIET_COMMENT.finditer(data):
        start, end = match.span()
        if runs and data[runs[-1][1] : start] in (b"\n", b"\r\n"):  # the next line
            runs[-1] = (runs[-1][0], end)
        else:
            runs.append((start, end))
    if not runs:
        return data, []
    return _QUIET_COMMENT.sub(lambda m: b" " * (m.end() - m.start()), data), runs


def _in_strings(tree: Tree, runs: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The runs that lie inside a string (a docstring's lines that start with `#`)."""
    root = tree.root_node
    inside = []
    for start, end in runs:
        node = root.descendant_for_byte_range(start, end)
        while node is not None and node.type not in ("string", "module", "block"):
            node = node.parent
        if node is not None and node.type == "string":
            inside.append((start, end))
    return inside


def _restored(fed: bytes, data: bytes, runs: list[tuple[int, int]]) -> bytes:
    buffer = bytearray(fed)
    for start, end in runs:
        buffer[start:end] = data[start:end]
    return bytes(buffer)


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
    data, tree = _tree(language, text.encode("utf-8", "surrogatepass"), old)
    return _rejoined(Parsed(language, text, data, tree, Offsets(text, data)))


def _rejoined(parsed: Parsed) -> Parsed:
    """A Python tree in error parsed again with its bracketed lines joined (joined.py), when
    that reads without an error: the same program, each byte at its offset."""
    if parsed.language != "python" or not parsed.root.has_error:
        return parsed
    from apispec.lint.extract.joined import joined

    # the bytes as parsed (an unclosed literal's line may be blanked): same length, UTF-8
    data = joined(parsed.data.decode("utf-8", "surrogatepass"))
    if data is None:
        return parsed
    data, tree = _tree("python", data)
    if tree.root_node.has_error:
        return parsed
    return Parsed(parsed.language, parsed.text, data, tree, parsed.offsets)


class Trees:
    """The last tree of each open document, so that a re-parse after an edit reuses it.

    An editor sends the whole text after each keystroke; the edit is the span between
    the longest common prefix and suffix of the old and new bytes, given to the old tree
    (`Tree.edit`) before `Parser.parse(new, old_tree)`, which then re-reads only what
    the edit touched. Bounded: the least recently used document is forgotten first.
    """

    def __init__(self, size: int = 64) -> None:
        self._size = size
        self._last: OrderedDict[str, Parsed] = OrderedDict()

    def parse(self, key: str, text: str, language: str) -> Parsed:
        old = self._last.pop(key, None)
        if old is not None and old.language == language and old.text == text:
            parsed = old
        else:
            parsed = parse(
                text, language, old if old is not None and old.language == language else None
            )
        self._last[key] = parsed
        while len(self._last) > self._size:
            self._last.popitem(last=False)
        return parsed

    def forget(self, key: str) -> None:
        """A closed document: its tree is no longer kept."""
        self._last.pop(key, None)

    def __len__(self) -> int:
        return len(self._last)


def _edit(old: Parsed, new: bytes) -> None:
    """Tell the old tree where the bytes it was built from changed into `new` (one
    contiguous edit)."""
    data = old.data
    limit = min(len(data), len(new))
    start = 0
    while start < limit and data[start] == new[start]:
        start += 1
    suffix = 0
    while suffix < limit - start and data[-1 - suffix] == new[-1 - suffix]:
        suffix += 1
    old_end = len(data) - suffix
    new_end = len(new) - suffix
    old.tree.edit(
        start_byte=start,
        old_end_byte=old_end,
        new_end_byte=new_end,
        start_point=_point(data, start),
        old_end_point=_point(data, old_end),
        new_end_point=_point(new, new_end),
    )


def _point(data: bytes, offset: int) -> tuple[int, int]:
    row = data.count(b"\n", 0, offset)
    return row, offset - (data.rfind(b"\n", 0, offset) + 1)


# Set by the language server (editors re-lint one document after each edit); a command
# line run parses each file once and keeps no tree.
TREES: Trees | None = None


def keep_trees(size: int = 64) -> Trees:
    """Keep documents' trees between parses from now on (the language server)."""
    global TREES
    if TREES is None:
        TREES = Trees(size)
    return TREES
