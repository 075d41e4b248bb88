"""Find the API v2 calls in one file: the entry point the lint engine calls.

Languages move one at a time from the text path (legacy.py: regular expressions
over literals) to the tree path (tree.py: tree-sitter trees lowered to one IR,
values followed, client knowledge as rows). `TREE` lists the languages that
have moved; `APISPEC_EXTRACT=tree:LANG,LANG` (development only) tries others.
"""

from __future__ import annotations

import os

from apispec.lint.extract.legacy import (
    STDIN,
    Extraction,
    dialect,
    extract_region,
    language_of,
)
from apispec.lint.extract.legacy import extract as _text_extract
from apispec.lint.helpers import HelperTable
from apispec.lint.lines import Lines
from apispec.lint.prefilter import collections, might_reference
from apispec.lint.reference import Reference
from apispec.registry.model import Registry

__all__ = [
    "STDIN",
    "Extraction",
    "dialect",
    "extract",
    "extract_references",
    "extract_region",
    "language_of",
    "might_reference",
]

TREE: frozenset[str] = frozenset(
    {
        "python",
        "csharp",
        "javascript",
        "go",
        "rust",
        "ruby",
        "php",
        "shell",
        "java",
        "kotlin",
        "groovy",
        "swift",
        "powershell",
    }
)


def _tree_languages() -> frozenset[str]:
    forced = os.environ.get("APISPEC_EXTRACT", "")
    if forced.startswith("tree:"):
        return TREE | frozenset(forced[5:].split(","))
    return TREE


def extract(
    text: str,
    filename: str,
    registry: Registry | None = None,
    helpers: HelperTable | None = None,
    lines: Lines | None = None,
) -> Extraction:
    """The calls in `text` and the helpers it defines (for the repository pass)."""
    language = language_of(filename, text)
    tree = _tree_languages()
    if language == "notebook" and "python" in tree:
        if not might_reference(text) and not (helpers and helpers.names_in(text.lower())):
            return Extraction([], [])
        return _notebook(text, registry, helpers, lines, tree)
    if language in tree:
        if not might_reference(text) and not (helpers and helpers.names_in(text.lower())):
            return Extraction([], [])
        from apispec.lint.extract.tree import extract_tree

        try:
            refs, defined = extract_tree(
                text, language, collections(registry), lines, helpers, filename, read=extract_region
            )
        except RecursionError:  # nested deeper than lowering recurses: read as text
            return _text_extract(text, filename, registry, helpers, lines, frozenset())
        return Extraction(refs, defined)
    return _text_extract(text, filename, registry, helpers, lines, _tree_languages())


def _notebook(
    text: str,
    registry: Registry | None,
    helpers: HelperTable | None,
    lines: Lines | None,
    tree: frozenset[str],
) -> Extraction:
    """A notebook's code cells: one Python program (and shell lines), read on its tree."""
    from apispec.lint.extract.regions import notebook
    from apispec.lint.extract.tree import extract_tree
    from apispec.lint.languages.embedded import remap

    known = collections(registry)
    lines = lines if lines is not None else Lines(text)
    refs: list[Reference] = []
    defined = []
    for region in notebook(text):
        offsets = [*region.offsets, (region.offsets[-1] + 1) if region.offsets else 0]
        if region.language in tree:
            found, learnt = extract_tree(
                region.text, region.language, known, None, helpers, evidence_text=text
            )
            defined.extend(learnt)
        else:
            found = extract_region(region.text, region.language, known, 0, len(region.text))
        refs.extend(remap(ref, offsets, lines) for ref in found)
    refs.sort(key=lambda ref: ref.span.start)
    return Extraction(refs, defined)


def extract_references(
    text: str, filename: str, registry: Registry | None = None, helpers: HelperTable | None = None
) -> list[Reference]:
    """Every API v2 call in `text`, in file order."""
    return extract(text, filename, registry, helpers).references
