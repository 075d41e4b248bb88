"""Where a comment may go for a line: its own end, or the end of the statement around it.

A suppression comment is written at the end of a finding's line (`--add-suppressions`,
the editor's "Suppress" action) and read there. A line whose end lies inside a
multi-line string (a triple-quoted Python string, a JavaScript template literal, a Go
raw string, a C# verbatim string, a PowerShell here-string, a multi-line PHP or shell
string) has no comment position: text written there becomes part of the string's
value. Nor does a line inside a mapping (a params dict, a hashtable): its comment would
sit among the entries. The comment then goes where the statement goes on outside every
literal: on the line where the string closes or the mapping's closing bracket stands,
after it; and a suppression there covers every line the string or mapping spans.

Where there is no such place - a heredoc, whose terminator line takes nothing after it;
a YAML block scalar that is not a script; a block comment; a line continued with a
backslash (or PowerShell's backtick) - there is none, and the line is refused.
"""

from __future__ import annotations

import bisect
import re

from apispec.lint.extract import dialect, language_of
from apispec.lint.languages import embedded
from apispec.lint.lines import Lines, lf_text
from apispec.lint.scan import Source

# Language -> (comment opener, closer): the languages a comment is written in.
COMMENTS = {
    "python": ("#", ""),
    "shell": ("#", ""),
    "make": ("#", ""),
    "dockerfile": ("#", ""),
    "powershell": ("#", ""),
    "ruby": ("#", ""),
    "yaml": ("#", ""),
    "javascript": ("//", ""),
    "go": ("//", ""),
    "rust": ("//", ""),
    "swift": ("//", ""),
    "csharp": ("//", ""),
    "java": ("//", ""),
    "kotlin": ("//", ""),
    "groovy": ("//", ""),
    "php": ("//", ""),
    "markdown": ("<!--", " -->"),
    "html": ("<!--", " -->"),
}
# Languages whose `{` never opens a block: each one is a mapping (or a set).
_BRACE_MAPPINGS = frozenset({"python"})
# The first entry of a mapping: a key (quoted, a name, a bracketed expression) and its
# separator (`:`, `=>`); `=` only where `@{` or C#'s `new ... {` said it is an initializer.
_ENTRY = re.compile(r"""(?:"[^"\n]*"|'[^'\n]*'|[A-Za-z_$][\w$]*|\[[^\]\n]*\])[ \t]*(?::(?!:)|=>)""")
_NEW_INITIALIZER = re.compile(r"\bnew\b[^;{}()=]*(?:\(\s*\))?\s*\Z")
# A YAML key or list item opening a block scalar (`run: |`, `- >-`): its more indented
# lines are the scalar's text.
_BLOCK_SCALAR = re.compile(r"[ \t]*(?:-[ \t]+)?(?:[^#\n]*?:[ \t]+)?[|>][-+0-9]*[ \t]*(?:#.*)?$")
_CLOSING_QUOTES = frozenset("\"'`")


class CommentLines:
    """The comment position of each line of one text, found with the language's scanner.

    The scan is made on first use: most files never need it (a finding's own line is
    asked only where it holds no suppression).
    """

    def __init__(self, text: str, filename: str) -> None:
        # read with LF line ends, as the linter reads it; `original` maps offsets back
        self.lf = lf_text(text)
        self.text = self.lf.text
        self.filename = filename
        self.lines = Lines(self.text)
        self.language = language_of(filename, text)
        self._regions: list[embedded.Region] | None = None
        self._scans: dict[tuple[int, int, str], _Scan] = {}
        self._yaml: list[tuple[int, int, bool]] | None = None
        self._anchors: dict[int, int | None] = {}

    def line_end(self, line: int) -> int:
        """The offset where line `line`'s content ends (before its line break)."""
        starts = self.lines.starts
        return starts[line] - 1 if line < len(starts) else len(self.text)

    def original(self, offset: int) -> int:
        """The offset in the text as given of offset `offset` of `text`."""
        return self.lf.original(offset)

    def language_at(self, offset: int) -> str:
        """The language of the code at `offset`: the file's, or that of the Markdown fence
        or HTML script around it (found by the finders extraction uses)."""
        region = self._region(offset)
        return region.language if region is not None else self.language

    def anchor(self, line: int) -> int | None:
        """The line whose end takes the comment for line `line` (1-based), or None."""
        if line not in self._anchors:
            self._anchors[line] = self._anchor(line)
        return self._anchors[line]

    def _anchor(self, line: int) -> int | None:
        if not 1 <= line <= len(self.lines.starts):
            return None
        end = self.line_end(line)
        language = self.language_at(end)
        if language not in COMMENTS:
            return None
        if language == "yaml":
            return self._yaml_anchor(line, end)
        scan = self._scan(end)
        if scan is not None:
            for _ in range(len(self.text)):  # each step moves forward: a bound, never reached
                moved = scan.past_literal(end)
                if moved is None:
                    return None
                if moved == end:
                    moved = scan.past_mapping(end)
                if moved == end:
                    break
                end = self.line_end(self.lines.position(moved)[0])
        at = self.lines.position(end)[0]
        written = self.text[self.lines.starts[at - 1] : end].rstrip()
        if written.endswith("\\") or (language == "powershell" and written.endswith("`")):
            return None  # a continued line: a comment would end the statement or join it
        return at

    # -- the code around a line's end ---------------------------------------------

    def _region(self, offset: int) -> embedded.Region | None:
        if self.language not in ("markdown", "html"):
            return None
        if self._regions is None:
            finder = embedded.markdown if self.language == "markdown" else embedded.html
            self._regions = finder(self.text, 0, len(self.text))
        for region in self._regions:
            if region.start <= offset < region.end:
                return region
        return None

    def _scan(self, offset: int) -> _Scan | None:
        """The scanned code around `offset` (a fence or script with its own text: None)."""
        region = self._region(offset)
        if region is not None and region.text is not None:
            return None
        start, end = (region.start, region.end) if region is not None else (0, len(self.text))
        language = region.language if region is not None else self.language
        key = (start, end, language)
        scan = self._scans.get(key)
        if scan is None:
            source = Source(self.text, dialect(language), start, end, self.lines)
            scan = self._scans[key] = _Scan(source, language)
        return scan

    def _yaml_anchor(self, line: int, end: int) -> int | None:
        """YAML: a line of a block scalar has no comment position unless the scalar is a
        CI script of literal lines (`run: |`), whose lines are shell code."""
        if self._yaml is None:
            self._yaml = _block_scalars(self.text, self.lines)
        k = bisect.bisect_right(self._yaml, (line, len(self.text) + 1, True)) - 1
        if k >= 0:
            first, last, script = self._yaml[k]
            if first <= line <= last and not script:
                return None
        written = self.text[self.lines.starts[line - 1] : end].rstrip()
        return None if written.endswith("\\") else line


class _Scan:
    """One scanned region: its multi-line literals and comments, and its brackets."""

    def __init__(self, source: Source, language: str) -> None:
        self.source = source
        self.language = language
        text = source.text
        # The outermost literals and comments that span lines (a string inside another
        # string's code hole is part of that string here), in order.
        spans: list[tuple[int, int, bool]] = []
        tokens = [(lit.start, lit.end, False) for lit in source.lits]
        tokens += [(start, end, True) for start, end in source.comments]
        tokens.sort()
        reach = -1
        for start, end, comment in tokens:
            if end <= reach:
                continue  # inside the previous one
            reach = end
            if text.find("\n", start, end) >= 0:
                spans.append((start, end, comment))
        self.spans = spans
        self.starts = [start for start, _, _ in spans]

    def past_literal(self, end: int) -> int | None:
        """`end` when it lies outside every multi-line literal; else the offset just past the
        literal holding it, where the statement goes on; None when nothing may follow it."""
        k = bisect.bisect_right(self.starts, end) - 1
        heredoc = self.language == "php" and k + 1 < len(self.spans)
        if heredoc and self.spans[k + 1][0] == end + 1 and not self._quoted(k + 1):
            k += 1  # PHP: the line of `<<<EOT` ends where the heredoc's text starts
        elif k < 0 or not self.spans[k][0] < end < self.spans[k][1]:
            return end
        _, stop, comment = self.spans[k]
        if comment or not self._quoted(k):
            return None  # a block comment, a heredoc: its closing line takes nothing after it
        return stop

    def _quoted(self, k: int) -> bool:
        """Whether literal `k` ends with a closing quote (`"`, `'`, a backtick, `\"@`),
        after which a statement may go on; a heredoc ends with its terminator word."""
        text = self.source.text
        stop = self.spans[k][1]
        last = text[stop - 1]
        return last in _CLOSING_QUOTES or (last == "@" and text[stop - 2] in "\"'")

    def past_mapping(self, end: int) -> int:
        """`end` when no mapping encloses it; else the offset just past the closing bracket
        of the outermost mapping that does (or `end` when that mapping never closes)."""
        source = self.source
        brackets = source.brackets
        outermost = -1
        opener = brackets.enclosing(end, source.pos)
        while opener >= 0:
            if self._mapping(opener):
                outermost = opener
            opener = brackets.enclosing(opener, source.pos)
        if outermost < 0:
            return end
        closer = brackets.closer.get(outermost, -1)
        return closer + 1 if closer > end else end

    def _mapping(self, opener: int) -> bool:
        """Whether the bracket at `opener` opens a mapping literal, not a block or a call."""
        text = self.source.text
        ch = text[opener]
        if ch == "(":
            return False
        if ch == "{" and (self.language in _BRACE_MAPPINGS or text[opener - 1 : opener] == "@"):
            return True
        first = self.source.skip_gap(opener + 1)
        if _ENTRY.match(text, first):
            return True
        if ch == "{" and self.language == "csharp":
            before = text[max(self.source.pos, opener - 200) : opener]
            return _NEW_INITIALIZER.search(before) is not None
        return False


def _block_scalars(text: str, lines: Lines) -> list[tuple[int, int, bool]]:
    """(first line, last line, is a literal CI script) of each YAML block scalar's text."""
    found: list[tuple[int, int, bool]] = []
    starts = lines.starts
    count = len(starts)
    line = 1
    while line <= count:
        start = starts[line - 1]
        end = starts[line] - 1 if line < count else len(text)
        m = _BLOCK_SCALAR.match(text, start, end)
        line += 1
        if m is None:
            continue
        indent = len(text[start:end]) - len(text[start:end].lstrip(" "))
        first = line
        while line <= count:
            body_start = starts[line - 1]
            body_end = starts[line] - 1 if line < count else len(text)
            body = text[body_start:body_end]
            if body.strip() and len(body) - len(body.lstrip(" ")) <= indent:
                break
            line += 1
        script = embedded.has_scripts(text[start:end]) and "|" in text[start:end]
        if line > first:
            found.append((first, line - 1, script))
    return found
