"""Filter strings in their canonical spelling (`apispec filter fmt`), offered as code actions.

Why code actions and not `textDocument/formatting`: an editor runs one document
formatter per file (VS Code asks the user to choose, Helix takes the first
server that offers one, Neovim's `vim.lsp.buf.format()` runs them all), and
the files that hold filters already have theirs (ruff, black, prettier,
PowerShell's). A code action sits beside them: "Format the filter" on the
filter at the cursor (kind `refactor.rewrite`), and `source.formatFilters.apispec`
for every filter of the file, which VS Code can run on save like
`source.fixAll.apispec`.

Only a filter the checker finds no error in is rewritten, the formatted text
is escaped for its host string, and the edit is kept only if the edited line
reads back as the formatted filter at the same place; a `filter=` inside a URL
(URL-encoded), a filter with interpolations and one holding a backslash (whose
meaning depends on the host language's strings) are left alone.
"""

from __future__ import annotations

from dataclasses import dataclass

from apispec.filters.check import check
from apispec.filters.format import format as canonical
from apispec.lsp.actions import Action, wants
from apispec.lsp.completion import escaped
from apispec.lsp.context import filter_region, filter_regions
from apispec.lsp.positions import LineIndex
from apispec.registry.model import Registry

FORMAT_FILTER = "refactor.rewrite"
FORMAT_ALL = "source.formatFilters.apispec"
LONG_LINE = 10_000  # longer lines (minified code, data) are not searched for filters


@dataclass(frozen=True)
class Reformat:
    """Replace `text[start:end]` with `content`: the filter `before` written as `after`."""

    start: int
    end: int
    content: str
    before: str
    after: str


def reformats(
    index: LineIndex,
    language: str,
    registry: Registry,
    span: tuple[int, int] | None = None,
) -> list[Reformat]:
    """The filters on the lines `span` touches (None: the whole text) that are not in
    canonical form, with the edits that write them so."""
    first, last = 0, len(index.starts) - 1
    if span is not None:
        first, last = index.point(span[0])[0], index.point(span[1])[0]
    out = []
    for number in range(first, last + 1):
        line = index.line_text(number)
        if len(line) > LONG_LINE or "filter" not in line.lower():
            continue
        for region in filter_regions(line):
            found = _reformat(line, region.text, region.columns, region.quote, language, registry)
            if found is not None:
                start, end, content, after = found
                base = index.starts[number]
                out.append(Reformat(base + start, base + end, content, region.text, after))
    return out


def _reformat(
    line: str,
    text: str,
    columns: tuple[int, ...],
    quote: str,
    language: str,
    registry: Registry,
) -> tuple[int, int, str, str] | None:
    if not text.strip() or any(d.severity == "error" for d in check(text, registry=registry)):
        return None
    after = canonical(text)
    if after == text or "\\" in text or "\\" in after:
        return None  # what a backslash means depends on the host string's language
    if not quote and (": " in after or " #" in after):
        return None  # a bare YAML value would change its meaning
    start, end = columns[0], columns[len(text)]
    content = escaped(after, quote, language)
    edited = line[:start] + content + line[end:]
    again = filter_region(edited, start if quote else len(edited))
    if again is None or again.text != after or again.columns[0] != start:
        return None
    return start, end, content, after


def format_actions(
    index: LineIndex,
    language: str,
    registry: Registry,
    span: tuple[int, int],
    only: list[str] | None,
) -> list[Action]:
    """ "Format the filter" for each filter the range touches, and one action for all."""
    actions: list[Action] = []
    if wants(only, FORMAT_FILTER):
        for r in reformats(index, language, registry, span):
            title = f"Format the filter as `{r.after}`"
            actions.append(Action(title, FORMAT_FILTER, ((r.start, r.end, r.content),)))
    if wants(only, FORMAT_ALL):
        every = reformats(index, language, registry)
        if every:
            edits = tuple((r.start, r.end, r.content) for r in every)
            title = f"Format every filter string ({len(every)})"
            actions.append(Action(title, FORMAT_ALL, edits))
    return actions
