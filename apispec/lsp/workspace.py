"""Workspace diagnostics: every file `apispec lint FOLDER` would lint, as the editor sees it.

Files are found by the linter's own walk (so `.gitignore`, `exclude` and
`max-file-size` apply alike); an open document is linted from its buffer, a
closed one from disk. Each file's findings use that file's own profile (its
nearest configuration file), as the document diagnostics do, so a file shows
the same problems whether it is open or not. A file that calls a helper
another file of its folder defines is linted again with the folder's helper
table (apispec.lsp.helper_index), as `apispec lint FOLDER` does.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from apispec.lsp import adapter
from apispec.lsp.analysis import Analyzer, Result
from apispec.lsp.documents import Document, Documents
from apispec.lsp.helper_index import HelperIndex
from apispec.lsp.settings import Profiles


@dataclass(frozen=True)
class FileReport:
    document: Document  # the open document, or the file's text read from disk
    result: Result
    result_id: str


def result_id(text: str, profile_key: tuple[object, ...], dependency: bytes | None = None) -> str:
    """Equal for equal text linted with an equal profile and helper table: the client may
    keep what it has."""
    digest = hashlib.blake2b(digest_size=12)
    digest.update(repr(profile_key).encode("utf-8", "surrogatepass"))
    digest.update(dependency or b"-")
    digest.update(text.encode("utf-8", "surrogatepass"))
    return digest.hexdigest()


def scan(
    folders: list[Path],
    documents: Documents,
    profiles: Profiles,
    analyzer: Analyzer,
    cancelled: Callable[[], bool],
    helpers: HelperIndex | None = None,
) -> Iterator[FileReport]:
    """A report for each file the linter reads; `cancelled()` is asked between files."""
    seen: set[str] = set()
    for folder in folders:
        folder_profile = profiles.profile(folder, folder)
        try:
            paths = adapter.workspace_files(folder, folder_profile.config)
        except adapter.ApispecError:
            continue  # the folder vanished: nothing to report
        for path in paths:
            if cancelled():
                return
            if path in seen:
                continue  # a folder nested in another
            seen.add(path)
            uri = Path(path).as_uri()
            profile = profiles.profile(Path(path).parent, folder)
            doc = documents.get(uri)
            if doc is None:
                text, _reason = adapter.read_document(path, profile.config.max_file_size)
                if text is None:
                    continue  # nothing the linter could report, or a file it skips
                doc = Document(uri, text, None)
            result = analyzer.lint(doc, profile)
            table = helpers.table(folder) if helpers is not None else None
            if result.skipped is None and table and table[0].calls_others(doc.text, path):
                result = analyzer.lint(doc, profile, table)
            if result.skipped is None:
                yield FileReport(doc, result, result_id(doc.text, profile.key, result.dependency))
