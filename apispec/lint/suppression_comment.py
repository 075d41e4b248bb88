"""Write `apispec: ignore[CODE]` on a line, in the comment syntax of the code there.

The linter finds its marker in any comment (apispec.lint.suppress); writing
one needs the language of the line: a Markdown fence or an HTML script has
its own. An existing marker on the line gains the code instead of a second
comment. Where no comment can be written safely (JSON, a notebook, a line
continued with a backslash or a backtick, a file of unknown kind) there is no
edit: a wrong comment would break the code it was meant to quiet.
"""

from __future__ import annotations

from dataclasses import dataclass

from apispec.lint import suppress
from apispec.lint.extract import language_of
from apispec.lint.languages import embedded
from apispec.lint.lines import lf_line_ends

# Language -> (comment opener, closer).
_COMMENTS = {
    "python": ("#", ""),
    "shell": ("#", ""),
    "powershell": ("#", ""),
    "ruby": ("#", ""),
    "yaml": ("#", ""),
    "javascript": ("//", ""),
    "go": ("//", ""),
    "csharp": ("//", ""),
    "java": ("//", ""),
    "php": ("//", ""),
    "markdown": ("<!--", " -->"),
    "html": ("<!--", " -->"),
}


@dataclass(frozen=True)
class SuppressionEdit:
    """Insert `content` at character offset `offset` of the file text."""

    offset: int
    content: str


def suppression_edit(text: str, line: int, code: str, filename: str) -> SuppressionEdit | None:
    """The insertion that makes line `line` (1-based) suppress `code`, or None.

    None also when the line already suppresses `code` (or every code). A lone CR ends a
    line, as it does for the linter (apispec.lint.lines.lf_line_ends).
    """
    text = lf_line_ends(text)  # the same offsets: the edit applies to the original text
    starts = _line_starts(text)
    if not 1 <= line <= len(starts):
        return None
    start = starts[line - 1]
    end = starts[line] - 1 if line < len(starts) else len(text)
    if text[start:end].endswith("\r"):
        end -= 1
    written = text[start:end]
    existing = suppress.parse(written).lines.get(1)
    if existing is not None:
        if existing.codes is None or code in existing.codes:
            return None
        close = start + existing.end_column - 2  # the `]` of `ignore[...]`
        if text[close : close + 1] != "]":
            return None  # `apispec: ignore` without a list already covers every code
        return SuppressionEdit(close, f", {code}" if existing.codes else code)
    stripped = written.rstrip()
    if stripped.endswith(("\\", "`")):
        return None  # a continued line: a comment would end the statement or join it
    comment = _COMMENTS.get(_language_at(text, filename, end))
    if comment is None:
        return None
    opener, closer = comment
    gap = "  " if stripped else ""
    return SuppressionEdit(end, f"{gap}{opener} apispec: ignore[{code}]{closer}")


def _line_starts(text: str) -> list[int]:
    starts = [0]
    at = text.find("\n")
    while at >= 0:
        starts.append(at + 1)
        at = text.find("\n", at + 1)
    return starts


def _language_at(text: str, filename: str, offset: int) -> str:
    """The language of the code at `offset` (the end of a line, where the comment goes):
    the file's, or that of the Markdown fence or HTML script around it, found by the
    finders extraction uses, so the comment is written in the language the line was
    linted as."""
    language = language_of(filename, text)
    if language == "markdown":
        regions = embedded.markdown(text, 0, len(text))
    elif language == "html":
        regions = embedded.html(text, 0, len(text))
    else:
        return language
    for region in regions:
        if region.start <= offset < region.end:
            return region.language
    return language
