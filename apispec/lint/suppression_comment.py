"""Write `apispec: ignore[CODE]` for a line, in the comment syntax of the code there.

The linter finds its marker in any comment (apispec.lint.suppress); writing one
needs the language of the line (a Markdown fence or an HTML script has its own)
and a place where a comment changes nothing but the comment: the end of the line,
or, for a line inside a multi-line string or a mapping, the end of the line where
that string or mapping closes (apispec.lint.comment_lines), whose suppression covers
the lines between. An existing marker there gains the code instead of a second
comment. Where no comment can be written safely (JSON, a notebook, a heredoc, a line
continued with a backslash or a backtick, a file of unknown kind) there is no edit:
a wrong comment would break the code it was meant to quiet.
"""

from __future__ import annotations

from dataclasses import dataclass

from apispec.lint import suppress
from apispec.lint.comment_lines import COMMENTS, CommentLines


@dataclass(frozen=True)
class SuppressionEdit:
    """Insert `content` at character offset `offset` of the file text."""

    offset: int
    content: str


def suppression_edit(text: str, line: int, code: str, filename: str) -> SuppressionEdit | None:
    """The insertion that makes line `line` (1-based) suppress `code`, or None.

    None also when the line already suppresses `code` (or every code).
    """
    places = CommentLines(text, filename)
    if _suppressed(places, line, code):
        return None
    anchor = places.anchor(line)
    return None if anchor is None else _edit(places, anchor, [code])


def with_suppressions(
    text: str, codes: dict[int, set[str]], filename: str
) -> tuple[str, int, list[int]]:
    """`text` with a suppression of each line's codes: the new text, how many codes were
    added, and the lines no comment can be written for (not already suppressed)."""
    places = CommentLines(text, filename)
    per_anchor: dict[int, set[str]] = {}
    refused = []
    for line in sorted(codes):
        wanted = {code for code in codes[line] if not _suppressed(places, line, code)}
        if not wanted:
            continue
        anchor = places.anchor(line)
        if anchor is None:
            refused.append(line)
        else:
            per_anchor.setdefault(anchor, set()).update(wanted)
    added = 0
    pieces = []
    at = 0
    for anchor in sorted(per_anchor):  # one edit per line, all made on the text as read
        new = [code for code in sorted(per_anchor[anchor]) if not _suppressed(places, anchor, code)]
        edit = _edit(places, anchor, new) if new else None
        if edit is not None:
            pieces += [text[at : edit.offset], edit.content]
            at = edit.offset
            added += len(new)
    return "".join([*pieces, text[at:]]), added, refused


def _suppressed(places: CommentLines, line: int, code: str) -> bool:
    """Whether `code` is suppressed on `line` already: by its own line or its anchor's."""
    for at in (line, places.anchor(line)):
        found = _marker(places, at) if at is not None else None
        if found is not None and (found.codes is None or code in found.codes):
            return True
    return False


def _marker(places: CommentLines, line: int) -> suppress.Suppression | None:
    if not 1 <= line <= len(places.lines.starts):
        return None
    start = places.lines.starts[line - 1]
    written = places.text[start : places.line_end(line)]
    return suppress.parse(written).lines.get(1) if "apispec:" in written else None


def _edit(places: CommentLines, line: int, codes: list[str]) -> SuppressionEdit | None:
    """The comment (or the codes added to the marker) at the end of line `line`, for
    codes the line does not suppress yet."""
    start = places.lines.starts[line - 1]
    end = places.line_end(line)
    listed = ", ".join(codes)
    existing = _marker(places, line)
    if existing is not None:
        close = start + existing.end_column - 2  # the `]` of `ignore[...]`
        if existing.codes is None or places.text[close : close + 1] != "]":
            return None  # `apispec: ignore` without a list already covers every code
        return SuppressionEdit(places.original(close), f", {listed}" if existing.codes else listed)
    comment = COMMENTS.get(places.language_at(end))
    if comment is None:
        return None
    opener, closer = comment
    gap = "  " if places.text[start:end].strip() else ""
    content = f"{gap}{opener} apispec: ignore[{listed}]{closer}"
    return SuppressionEdit(places.original(end), content)
