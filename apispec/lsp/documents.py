"""Open documents as the editor has them (unsaved text included), and how to lint one.

The server keeps its own store instead of pygls's workspace: documents are
synchronised in full (never patched line by line, so a form feed or a lone
`\\r` cannot shift an edit), and each version's line index is built once.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import unquote, urlparse

from apispec.lsp import adapter
from apispec.lsp.positions import LineIndex

if TYPE_CHECKING:  # the first diagnostics are linted before the protocol types load
    from lsprotocol import types

# Language ids editors use, mapped to a file name ending the linter knows, for
# buffers that are not files (untitled:) or whose name says nothing.
_EXTENSIONS = {
    "python": ".py",
    "powershell": ".ps1",
    "shellscript": ".sh",
    "bash": ".sh",
    "sh": ".sh",
    "javascript": ".js",
    "javascriptreact": ".jsx",
    "typescript": ".ts",
    "typescriptreact": ".tsx",
    "go": ".go",
    "csharp": ".cs",
    "java": ".java",
    "kotlin": ".kt",
    "groovy": ".groovy",
    "ruby": ".rb",
    "php": ".php",
    "yaml": ".yaml",
    "json": ".json",
    "jsonc": ".json",
    "markdown": ".md",
    "html": ".html",
}
BINARY_PROBE = 8192  # the CLI calls a file binary when a NUL byte is in its first 8 KiB


def path_of(uri: str) -> Path | None:
    """The file a `file:` URI names; None for any other scheme."""
    parsed = urlparse(uri)
    if parsed.scheme != "file":
        return None
    path = unquote(parsed.path)
    if parsed.netloc and parsed.netloc != "localhost":
        path = f"//{parsed.netloc}{path}"  # a UNC share
    if len(path) > 2 and path[0] == "/" and path[2] == ":":
        path = path[1:]  # /C:/x on Windows
    return Path(path)


@dataclass
class Document:
    uri: str
    text: str
    version: int | None
    language_id: str = ""
    _index: LineIndex | None = field(default=None, repr=False)

    @property
    def path(self) -> Path | None:
        return path_of(self.uri)

    @property
    def directory(self) -> Path | None:
        path = self.path
        return path.parent if path is not None else None

    @property
    def lint_name(self) -> str:
        """The name the linter sees: the file's, with an ending from the language id
        when the name alone would leave the linter guessing."""
        path = self.path
        name = str(path) if path is not None else urlparse(self.uri).path or "untitled"
        extension = _EXTENSIONS.get(self.language_id)
        if extension and adapter.language_of(name, self.text[:200]) == "generic":
            name += extension
        return name

    def index(self, encoding: str) -> LineIndex:
        if self._index is None or self._index.encoding != encoding:
            self._index = LineIndex(self.text, encoding)
        return self._index

    def not_linted(self, max_size: int) -> str | None:
        """Why `apispec lint` would skip this text (binary, too large), or None."""
        if "\0" in self.text[:BINARY_PROBE]:
            return "binary"
        size = len(self.text)
        if size * 4 > max_size:  # only then can the UTF-8 size be above the limit
            size = len(self.text.encode("utf-8", "surrogatepass"))
        if size > max_size:
            return f"larger than the max-file-size of {max_size:,} bytes ({size:,} bytes)"
        return None


class Documents:
    """The open documents, by URI."""

    def __init__(self) -> None:
        self._open: dict[str, Document] = {}

    def open(self, item: types.TextDocumentItem) -> Document:
        doc = Document(item.uri, item.text, item.version, item.language_id)
        self._open[item.uri] = doc
        return doc

    def change(self, params: types.DidChangeTextDocumentParams, encoding: str) -> Document | None:
        """Apply full-text changes; a change to a document never opened is ignored."""
        old = self._open.get(params.text_document.uri)
        if old is None:
            return None
        text = old.text
        for change in params.content_changes:
            part = getattr(change, "range", None)  # None: the whole document
            if part is None:
                text = change.text
            else:  # a client that sends ranges despite full sync: apply it exactly
                index = LineIndex(text, encoding)
                start = index.offset(part.start)
                end = index.offset(part.end)
                text = text[:start] + change.text + text[max(start, end) :]
        doc = Document(old.uri, text, params.text_document.version, old.language_id)
        self._open[old.uri] = doc
        return doc

    def close(self, uri: str) -> None:
        self._open.pop(uri, None)

    def get(self, uri: str) -> Document | None:
        return self._open.get(uri)

    def all(self) -> list[Document]:
        return list(self._open.values())
