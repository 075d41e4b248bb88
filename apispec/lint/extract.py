"""Find the API v2 calls in one file: the entry point the lint engine calls.

The language is chosen from the file name (extension, well-known names) and,
for extension-less scripts, the shebang; each language module knows only how
its strings, comments and calls look, and the shared machinery in
`languages/common.py` does the rest. Files in no known language get a generic
scanner that reports only full `/api/v2` URLs in quotes.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import PurePath
from typing import TYPE_CHECKING

from apispec.lint.prefilter import collections, might_reference
from apispec.lint.reference import Reference
from apispec.model import Registry

if TYPE_CHECKING:
    from apispec.lint.languages.common import Dialect

__all__ = ["extract_references", "language_of", "might_reference"]

_EXTENSIONS = {
    ".py": "python",
    ".pyw": "python",
    ".ps1": "powershell",
    ".psm1": "powershell",
    ".sh": "shell",
    ".bash": "shell",
    ".zsh": "shell",
    ".ksh": "shell",
    ".js": "javascript",
    ".mjs": "javascript",
    ".cjs": "javascript",
    ".jsx": "javascript",
    ".ts": "javascript",
    ".tsx": "javascript",
    ".mts": "javascript",
    ".cts": "javascript",
    ".go": "go",
    ".cs": "csharp",
    ".csx": "csharp",
    ".java": "java",
    ".kt": "java",
    ".kts": "java",
    ".groovy": "java",
    ".rb": "ruby",
    ".php": "php",
    ".yml": "yaml",
    ".yaml": "yaml",
    ".json": "json",
    ".ipynb": "notebook",
    ".md": "markdown",
    ".markdown": "markdown",
    ".html": "html",
    ".htm": "html",
    ".txt": "prose",
    ".rst": "prose",
    ".xml": "prose",
    ".svg": "prose",
    ".css": "prose",
    ".csv": "prose",
}
_NAMES = {"Rakefile": "ruby", "Gemfile": "ruby", "Jenkinsfile": "java"}
_SHEBANG = re.compile(r"#!\s*\S*?(?:/env\s+)?(\w+)")
_INTERPRETERS = {
    "python": "python",
    "python3": "python",
    "bash": "shell",
    "sh": "shell",
    "zsh": "shell",
    "dash": "shell",
    "ksh": "shell",
    "pwsh": "powershell",
    "node": "javascript",
    "deno": "javascript",
    "ruby": "ruby",
    "php": "php",
}
# Markdown info strings and notebook languages, mapped to a language.
FENCE_LANGUAGES = {
    "python": "python",
    "py": "python",
    "python3": "python",
    "ipython": "python",
    "powershell": "powershell",
    "ps1": "powershell",
    "pwsh": "powershell",
    "ps": "powershell",
    "sh": "shell",
    "bash": "shell",
    "shell": "shell",
    "console": "shell",
    "shell-session": "shell",
    "zsh": "shell",
    "curl": "shell",
    "js": "javascript",
    "javascript": "javascript",
    "ts": "javascript",
    "typescript": "javascript",
    "jsx": "javascript",
    "tsx": "javascript",
    "node": "javascript",
    "go": "go",
    "golang": "go",
    "cs": "csharp",
    "csharp": "csharp",
    "c#": "csharp",
    "java": "java",
    "kotlin": "java",
    "groovy": "java",
    "rb": "ruby",
    "ruby": "ruby",
    "php": "php",
    "yaml": "yaml",
    "yml": "yaml",
    "json": "json",
}


def language_of(filename: str, text: str = "") -> str:
    """The language extraction uses for a file: by name, then by shebang."""
    path = PurePath(filename)
    language = _NAMES.get(path.name) or _EXTENSIONS.get(path.suffix.lower())
    if language:
        return language
    if text.startswith("#!"):
        m = _SHEBANG.match(text)
        if m:
            return _INTERPRETERS.get(m.group(1).rstrip("0123456789.") or m.group(1), "generic")
    return "generic"


def extract_references(
    text: str, filename: str, registry: Registry | None = None
) -> list[Reference]:
    """Every API v2 call in `text`, in file order.

    `registry` (default: the bundled one) supplies the collection names that
    let a relative path count; pass the registry being linted against.
    """
    if not might_reference(text):
        return []
    language = language_of(filename, text)
    return extract_region(text, language, collections(registry), 0, len(text))


def extract_region(
    text: str, language: str, known: frozenset[str], pos: int, endpos: int
) -> list[Reference]:
    """References inside text[pos:endpos] (a Markdown fence, an HTML script) as `language`."""
    handler = _handler(language)
    return handler(text, known, pos, endpos)


def _handler(language: str) -> Callable[[str, frozenset[str], int, int], list[Reference]]:
    if language == "prose":
        return lambda text, known, pos, endpos: []
    if language == "markdown":
        from apispec.lint.languages.markdown import extract as markdown

        return markdown
    if language == "html":
        from apispec.lint.languages.markdown import extract_html

        return extract_html
    if language in ("yaml", "json", "notebook"):
        from apispec.lint.languages import data

        return data.HANDLERS[language]
    from apispec.lint.languages.common import Source

    dialect = _dialect(language)

    def run(text: str, known: frozenset[str], pos: int, endpos: int) -> list[Reference]:
        source = Source(text, dialect, pos, endpos)
        return dialect.extractor(source, known, language).run()

    return run


def _dialect(language: str) -> Dialect:
    from apispec.lint.languages import dialect

    return dialect(language)
