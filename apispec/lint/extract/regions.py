"""Code inside other files, found on their own syntax trees, with positions mapped back.

A notebook is JSON whose code cells are one Python program (cells share one
namespace); a `!` line or a `%%bash` cell is shell. Each region is handed to the
tree path as its own text plus, for every character, its offset in the file, so a
finding points into the notebook as written (through the JSON string escapes).
Literals holding code (a Jenkinsfile's `sh` step) are regions too; build files
(Makefiles, Dockerfiles) are read in buildfiles.py.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from apispec.lint.extract.context import Ctx, options
from apispec.lint.extract.ir import Lit, Str, Text, Value
from apispec.lint.extract.parse import parse

if TYPE_CHECKING:
    from tree_sitter import Node

    from apispec.lint.extract.lower.model import FileModel
    from apispec.lint.extract.values import Resolver
    from apispec.lint.lines import Lines
    from apispec.lint.reference import Reference

# a shell variable a script names: `$PRTG_URL`, `${PRTG_URL}`
_SHELL_VARIABLE = re.compile(r"\$\{([A-Za-z_]\w*)\}|\$([A-Za-z_]\w*)")

_CELL_SHELL = re.compile(r"[ \t]*%%(?:bash|sh|script[ \t]+(?:ba)?sh)\b")
_MAGIC = re.compile(r"[ \t]*[%!]")


@dataclass
class Region:
    """Code of one language, its text and the file offset of each of its characters.

    The text is kept as chunks and joined when read: appending to a string held by an
    object copies it each time, quadratic over a build file of many lines."""

    language: str
    chunks: list[str] = field(default_factory=list)
    offsets: list[int] = field(default_factory=list)

    def add(self, chunk: str, where: list[int]) -> None:
        self.chunks.append(chunk)
        self.offsets.extend(where)

    @property
    def text(self) -> str:
        return "".join(self.chunks)


def notebook(text: str) -> list[Region]:
    """The code cells of a notebook: Python, with `!` lines and `%%bash` cells as shell.

    Both regions keep every code cell's lines (the other language's blanked), so a
    line of either maps to the same place; Markdown and raw cells and the outputs are
    never code.
    """
    parsed = parse(text, "json")
    python, shell = Region("python"), Region("shell")
    for cell in _cells(parsed.root, parsed.data):
        if _member(cell, "cell_type", parsed.data) != "code":
            continue
        source = _source(cell, parsed.data, parsed.offsets.char)
        if source is None:
            continue
        code, where = source
        whole_shell = _CELL_SHELL.match(code) is not None
        for line, at in _lines(code, where):
            is_shell = whole_shell or line.lstrip().startswith("!")
            blank = "".join(c if c == "\n" else " " for c in line)
            if is_shell:
                stripped = line.replace("!", " ", 1) if not whole_shell else line
                if whole_shell and _CELL_SHELL.match(line):
                    stripped = blank
                shell.add(stripped, at)
                python.add(blank, at)
            else:
                python.add(blank if _MAGIC.match(line) else line, at)
                shell.add(blank, at)
        python.add("\n", [where[-1] if where else 0])
        shell.add("\n", [where[-1] if where else 0])
    return [r for r in (python, shell) if r.text.strip()]


def _cells(root: Node, data: bytes) -> list[Node]:
    """The objects of the top-level `cells` array."""
    document = root.named_children[0] if root.named_children else None
    if document is None or document.type != "object":
        return []
    for pair in document.named_children:
        if pair.type != "pair":
            continue
        key = pair.child_by_field_name("key")
        value = pair.child_by_field_name("value")
        if key is not None and value is not None and _string(key, data) == "cells":
            return [c for c in value.named_children if c.type == "object"]
    return []


def _member(obj: Node, name: str, data: bytes) -> str | None:
    for pair in obj.named_children:
        if pair.type != "pair":
            continue
        key = pair.child_by_field_name("key")
        value = pair.child_by_field_name("value")
        if key is not None and value is not None and _string(key, data) == name:
            return _string(value, data) if value.type == "string" else None
    return None


def _source(obj: Node, data: bytes, char: Callable[[int], int]) -> tuple[str, list[int]] | None:
    """A cell's `source` (an array of strings or one string): its text and offsets."""
    for pair in obj.named_children:
        if pair.type != "pair":
            continue
        key = pair.child_by_field_name("key")
        value = pair.child_by_field_name("value")
        if key is None or value is None or _string(key, data) != "source":
            continue
        strings = [value] if value.type == "string" else value.named_children
        text: list[str] = []
        where: list[int] = []
        for node in strings:
            if node.type != "string":
                continue
            decoded, offsets = decode(node, data, char)
            text.append(decoded)
            where.extend(offsets)
        return "".join(text), where
    return None


def _string(node: Node, data: bytes) -> str | None:
    try:
        value = json.loads(data[node.start_byte : node.end_byte])
    except ValueError:
        return None
    return value if isinstance(value, str) else None


def decode(node: Node, data: bytes, char: Callable[[int], int]) -> tuple[str, list[int]]:
    """A JSON string's characters, each with the file offset of the text it came from."""
    raw = data[node.start_byte + 1 : node.end_byte - 1].decode("utf-8", "surrogatepass")
    start = char(node.start_byte + 1)
    out: list[str] = []
    offsets: list[int] = []
    i = 0
    while i < len(raw):
        ch = raw[i]
        if ch == "\\" and i + 1 < len(raw):
            nxt = raw[i + 1]
            if nxt == "u" and i + 6 <= len(raw):
                try:
                    out.append(chr(int(raw[i + 2 : i + 6], 16)))
                except ValueError:
                    out.append(nxt)
                offsets.append(start + i)
                i += 6
                continue
            out.append({"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f"}.get(nxt, nxt))
            offsets.append(start + i)
            i += 2
            continue
        out.append(ch)
        offsets.append(start + i)
        i += 1
    return "".join(out), offsets


def _lines(code: str, where: list[int]) -> list[tuple[str, list[int]]]:
    found = []
    at = 0
    while at < len(code):
        end = code.find("\n", at)
        end = len(code) if end < 0 else end + 1
        found.append((code[at:end], where[at:end]))
        at = end
    return found


# reads `text[pos:endpos]` as a language with a file's evidence (legacy.extract_region)
RegionReader = Callable[[str, str, frozenset[str], int, int, str], list["Reference"]]


def literal_regions(
    model: FileModel,
    resolver: Resolver,
    known: frozenset[str],
    lines: Lines,
    text: str,
    read: RegionReader,
) -> list[Reference]:
    """Code of another language inside the file's literals (a Jenkinsfile's `sh "curl
    ..."` step), read by that language's extractor with the file's evidence.

    An interpolation (`"${api}/x"`) and a shell variable the file assigns (a pipeline's
    `environment { PRTG = '...' }`) stand for their text where it is known, its
    characters placed where the code names it; positions are mapped back to the file.
    """
    from apispec.lint.languages.embedded import remap

    found: list[Reference] = []
    lowering = model.lowering
    if lowering is None:
        return found
    for language, node in model.regions:
        literal = lowering.expr(node)
        if not isinstance(literal, Str):
            continue
        region = Region(language)
        ctx = Ctx(literal.start, model.function_at(literal.start))
        for piece in literal.pieces:
            if isinstance(piece, Lit):
                _plain(region, piece, resolver, ctx)
                continue
            known_text = _known(resolver.value(piece, ctx))
            if known_text is not None:
                region.add(known_text, [piece.start] * len(known_text))
            else:
                region.add(text[piece.start : piece.end], list(range(piece.start, piece.end)))
        if not region.text.strip():
            continue
        refs = read(region.text, language, known, 0, len(region.text), text)
        found.extend(remap(ref, region.offsets, lines) for ref in refs)
    return found


def _plain(region: Region, piece: Lit, resolver: Resolver, ctx: Ctx) -> None:
    """Literal script text, with the shell variables the file assigns filled in."""
    done = 0
    for m in _SHELL_VARIABLE.finditer(piece.text):
        name = m.group(1) or m.group(2)
        value = _known(resolver.name(name, ctx, 0)) if name in resolver.model.assigns else None
        if value is None:
            continue
        region.add(piece.text[done : m.start()], [piece.offset(i) for i in range(done, m.start())])
        region.add(value, [piece.offset(m.start())] * len(value))
        done = m.end()
    region.add(piece.text[done:], [piece.offset(i) for i in range(done, len(piece.text))])


def _known(value: Value) -> str | None:
    """The text of a value wholly known (one alternative, no hole), else None."""
    found = options(value)
    if len(found) != 1 or not isinstance(found[0], Text) or not found[0].pieces:
        return None
    if not all(isinstance(p, Lit) for p in found[0].pieces):
        return None
    return "".join(p.text for p in found[0].pieces if isinstance(p, Lit))
