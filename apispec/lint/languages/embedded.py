"""Code embedded in other files: Markdown fences, HTML `<script>`, notebook code cells,
CI workflow scripts in YAML.

Each finder returns the regions of code in a file and their language; the
extraction scans each region as that language (extract.py), so a new kind of
embedding is a finder here and never touches the stages. Prose never yields a
reference, however much it looks like an endpoint: a fenced block is code in
the language its info string names (`python`, `bash`, ...), an unlabelled
block shell when it runs curl, wget or httpie, else generic (full URLs only).
A notebook's code cells are JSON strings: their decoded text is a region of
its own, with the offset of each character in the notebook file, and the
references found in it are mapped back (`remap`).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import replace
from typing import NamedTuple

from apispec.lint.languages.table import FENCE_LANGUAGES
from apispec.lint.lines import Lines
from apispec.lint.patterns import lazy
from apispec.lint.reference import QueryValue, Reference, Segment, Span
from apispec.lint.scan import Source, unescape

# A fence line: up to three spaces, then three or more backticks or tildes; also
# backticks written escaped (`\`\`\``), as docs generated from shell heredocs have them.
_OPENER = lazy(r"[ \t]{0,3}(`{3,}|~{3,}|(?:\\`){3,})[ \t]*([^\n`\\]*)\n")
_CLOSER = lazy(r"[ \t]{0,3}(`{3,}|~{3,}|(?:\\`){3,})[ \t]*$", re.M)
_SHELLISH = lazy(r"^\s*(?:\$\s+)?(?:curl|wget|https?|xh)\s", re.M)
# An inline code span holding a request: a command, or an HTTP request line.
_SPAN = lazy(r"(?<![`\\])`([^`\n]+)`(?!`)")
_SPAN_COMMAND = lazy(r"\s*(?:\$\s+)?(?:curl|wget|xh|http|https)\s+\S")
_SPAN_REQUEST = lazy(r"\s*(?:GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)\s+\S*/api/v2")
# Data blocks show what a server answered: a call only when they describe a request.
_REQUEST_KEY = lazy(r"[\"']?method[\"']?\s*:")
_SCRIPT = lazy(r"<script\b[^>]*>(?P<body>[\s\S]*?)</script\s*>", re.I)


class Region(NamedTuple):
    """Code in `language` at text[start:end], or in `text` of its own with `offsets` into the file."""

    start: int
    end: int
    language: str
    text: str | None = None
    offsets: list[int] | None = None


def markdown(text: str, pos: int, endpos: int) -> list[Region]:
    """Fenced code blocks: a fence line, the code, then a line with the same fence.

    The lines that could close a block are indexed first, so a fence never
    closed costs one look-up, not a read to the end of the file.
    """
    starts = [pos]
    at = text.find("\n", pos, endpos)
    while at >= 0:
        starts.append(at + 1)
        at = text.find("\n", at + 1, endpos)
    closers: dict[str, list[int]] = {}  # fence: the lines that close it, in order
    for k, start in enumerate(starts):
        m = _CLOSER.match(text, start, endpos)
        if m is not None:
            closers.setdefault(m.group(1), []).append(k)
    regions = []
    k = 0
    while k < len(starts):
        m = _OPENER.match(text, starts[k], endpos)
        found = _closing(m, k, closers) if m is not None else None
        if m is None or found is None:
            k += 1
            continue
        close, info = found
        body = text[m.end() : starts[close]]
        info = info.strip().split(" ", 1)[0].strip("{}.").lower()
        language = FENCE_LANGUAGES.get(info)
        if language is None:
            language = "shell" if _SHELLISH.search(body) else "generic"
        elif language in ("json", "yaml") and not _REQUEST_KEY.search(body):
            language = "prose"  # a response or a configuration shown, not a request
        regions.append(Region(m.end(), starts[close], language))
        k = close + 1
    return _with_spans(text, regions, pos, endpos)


def _with_spans(text: str, fences: list[Region], pos: int, endpos: int) -> list[Region]:
    """The fences, and inline code spans outside them that hold a request.

    A span that runs a command (`curl ...`) or is an HTTP request line (`GET
    /api/v2/...`, as runbooks list the requests to try) is a request; a span
    holding a path alone only names it, as prose does.
    """
    if "`" not in text:
        return fences
    regions: list[Region] = []
    at = pos
    for fence in [*fences, Region(endpos, endpos, "")]:
        for m in _SPAN.finditer(text, at, fence.start):
            body = m.group(1)
            if _SPAN_COMMAND.match(body):
                regions.append(Region(m.start(1), m.end(1), "shell"))
            elif _SPAN_REQUEST.match(body):
                regions.append(Region(m.start(1), m.end(1), "http"))
        if fence.language:
            regions.append(fence)
        at = fence.end
    return regions


def _closing(
    opener: re.Match[str], line: int, closers: dict[str, list[int]]
) -> tuple[int, str] | None:
    """The line that closes the fence opened on `line`, and the fence's info string.

    A run of tildes may stand for a shorter fence whose info string starts with
    the rest (`~~~~` closed by `~~~`), the longest fence that is closed first.
    """
    fence, info = opener.group(1), opener.group(2)
    for length in range(len(fence), 2 if fence[0] == "~" else len(fence) - 1, -1):
        lines = closers.get(fence[:length], [])
        after = bisect_right(lines, line)
        if after < len(lines):
            rest = opener.string[opener.start(1) + length : opener.end(2)]
            return lines[after], info if length == len(fence) else rest
    return None


def html(text: str, pos: int, endpos: int) -> list[Region]:
    return [
        Region(m.start("body"), m.end("body"), "javascript")
        for m in _SCRIPT.finditer(text, pos, endpos)
    ]


def notebook(source: Source) -> list[Region]:
    """The code cells of a notebook as a Python region (`source` holds its JSON strings).

    Shell in a cell is a shell region of its own: a line run with `!` (`!curl ...`)
    and a `%%bash`/`%%sh` cell. Both regions keep the cells' whole text (the
    other language's lines blanked), so positions map the same way.
    """
    text = source.text
    code: list[str] = []
    offsets: list[int] = []
    cells: list[int] = []  # where each cell starts in the decoded text
    lits = source.lits
    i = 0
    while i < len(lits):
        lit = lits[i]
        if lit.raw == "source" and text[lit.end : lit.end + 10].lstrip(" :\n\t").startswith("["):
            cells.append(len(offsets))
            opener = text.index("[", lit.end)
            closer = source.matching_closer(opener, 10_000_000)
            j = i + 1
            while j < len(lits) and lits[j].start < closer:
                raw = text[lits[j].start + 1 : lits[j].end - 1]
                decoded, offs = unescape(raw, lits[j].start + 1, "backslash")
                code.append(decoded)
                offsets.extend(
                    offs if offs is not None else range(lits[j].start + 1, lits[j].end - 1)
                )
                j += 1
            code.append("\n")
            offsets.append(lits[j - 1].end if j > i + 1 else lit.end)
            i = j
            continue
        i += 1
    if not code:
        return []
    decoded_text = "".join(code)
    python, shell = _shell_lines(decoded_text, cells)
    if shell is None:
        return [Region(0, len(decoded_text), "python", decoded_text, offsets)]
    return [
        Region(0, len(python), "python", python, offsets),
        Region(0, len(shell), "shell", shell, offsets),
    ]


_CELL_MAGIC_SHELL = lazy(r"[ \t]*%%(?:bash|sh|script[ \t]+(?:ba)?sh)\b")


def _shell_lines(code: str, cells: list[int]) -> tuple[str, str | None]:
    """The cells' text with shell lines blanked, and with all else blanked (None: no shell)."""
    python = list(code)
    shell = [ch if ch == "\n" else " " for ch in code]
    found = False
    bounds = [*cells, len(code)]
    for k in range(len(cells)):
        lo, hi = bounds[k], bounds[k + 1]
        whole = _CELL_MAGIC_SHELL.match(code, lo) is not None
        at = lo
        while at < hi:
            end = code.find("\n", at, hi)
            end = hi if end < 0 else end
            line = code[at:end]
            bang = line.lstrip().startswith("!")
            if whole or bang:
                found = True
                first = at + (line.index("!") + 1 if bang else 0)
                if whole and at == lo:
                    first = end  # the magic line itself
                for n in range(at, end):
                    python[n] = " "
                    if n >= first:
                        shell[n] = code[n]
            at = end + 1
    if not found:
        return code, None
    return "".join(python), "".join(shell)


# CI workflow YAML: keys whose value is a shell script, and the mappings that set its
# environment (GitHub Actions `run`/`env`, GitLab CI `script`/`variables`).
_SCRIPT_KEY = lazy(
    r"^([ \t]*(?:-[ \t]+)?)(run|script|before_script|after_script):(?=[ \t]|$)[ \t]*([^\n#]*)",
    re.M,
)
_ENV_KEY = lazy(r"^([ \t]*(?:-[ \t]+)?)(?:env|variables):[ \t]*$", re.M)
_ENV_ENTRY = lazy(r"^[ \t]*([A-Za-z_]\w*):[ \t]+(?=\S)", re.M)
_EXPRESSION = lazy(r"\$\{\{[^\n}]{0,200}\}\}")  # `${{ secrets.TOKEN }}`: one value


def has_scripts(text: str) -> bool:
    """Whether a YAML text has a key holding a shell script (the cheap test, per YAML file)."""
    return _SCRIPT_KEY.search(text) is not None


def yaml_scripts(text: str, pos: int, endpos: int) -> list[Region]:
    """The YAML itself, and its CI shell scripts as one shell region with their environment.

    The shell region is the file's text with everything blanked but the scripts, after
    the environment entries, each `NAME: value` written `NAME=value` on a line of its
    own at the top (a step's `env:` may follow its `run:`), so a script's
    `curl "$API/x"` reads `API` as a shell variable; a folded (`>`) or plain multi-line
    script is one command line. Every character keeps its offset in the file.
    """
    shell = [ch if ch == "\n" else " " for ch in text[pos:endpos]]
    found = False
    at = pos
    while (m := _SCRIPT_KEY.search(text, at, endpos)) is not None:
        found = True
        column = len(m.group(1))  # the key's column: a script's lines are indented deeper
        value = m.group(3).rstrip()
        block = value[:1] in ("|", ">")
        # a plain scalar's and a `>` block's lines fold into one; an empty value: a list
        folded = value[:1] == ">" or (bool(value) and not block)
        first = m.start(3)
        if value and not block:
            _copy(text, shell, pos, first, first + len(value), unquote=True)
        end = _body_end(text, m.end(), endpos, column)
        at = max(end, m.end())  # a key inside a script is the script's text
        line = text.find("\n", m.end(), end)
        while 0 <= line < end:
            nxt = text.find("\n", line + 1, end)
            stop = end if nxt < 0 else nxt
            _copy(text, shell, pos, line + 1, stop, unquote=not block, item=not value)
            if folded and stop < end:
                shell[stop - pos] = " "  # folded: the script's lines are one command line
            line = nxt
    if not found:
        return []
    # the environment first: a step's `env:` may follow its `run:`, and applies to it
    env: list[str] = []
    env_at: list[int] = []
    at = pos
    while (m := _ENV_KEY.search(text, at, endpos)) is not None:
        column = len(m.group(1))
        end = _body_end(text, m.end(), endpos, column)
        at = max(end, m.end())
        for entry in _ENV_ENTRY.finditer(text, m.end(), end):
            value_at = entry.end()
            value_end = text.find("\n", value_at, end)
            value_end = end if value_end < 0 else value_end
            written = [" "] * (value_end - value_at)
            _copy(text, written, value_at, value_at, value_end)
            name = entry.group(1) + "="  # `NAME: value` -> `NAME=value`, the value in place
            env.extend([*name, *written, "\n"])
            env_at.extend([*range(value_at - len(name), value_end), value_end])
    code = "".join(env) + "".join(shell)
    code = _EXPRESSION.sub(lambda e: "${" + "_" * (len(e.group(0)) - 3) + "}", code)
    return [
        Region(pos, endpos, "yaml"),
        Region(0, len(code), "shell", code, [*env_at, *range(pos, endpos)]),
    ]


def _body_end(text: str, at: int, endpos: int, column: int) -> int:
    """Where the lines indented deeper than `column` after `at` end (blank lines kept)."""
    line = text.find("\n", at, endpos)
    end = at
    while 0 <= line < endpos:
        nxt = text.find("\n", line + 1, endpos)
        stop = endpos if nxt < 0 else nxt
        row = text[line + 1 : stop]
        if row.strip():
            if len(row) - len(row.lstrip(" \t")) <= column:
                break
            end = stop
        line = nxt
    return end


def _copy(
    text: str, out: list[str], pos: int, lo: int, hi: int, unquote: bool = False, item: bool = False
) -> None:
    """text[lo:hi] into `out`; a list item's `- ` and a quoted scalar's quotes left blank."""
    while lo < hi and text[lo] in " \t":
        lo += 1
    if item and text.startswith("- ", lo):
        lo += 2
        while lo < hi and text[lo] in " \t":
            lo += 1
        if text[lo : lo + 1] in ("|", ">"):
            return  # a block item's indicator: its lines follow
    while hi > lo and text[hi - 1] in " \t\r":
        hi -= 1
    if unquote and hi - lo >= 2 and text[lo] in "'\"" and text[hi - 1] == text[lo]:
        lo, hi = lo + 1, hi - 1
    for k in range(lo, hi):
        out[k - pos] = text[k]


def terraform(source: Source) -> list[Region]:
    """The HCL of a Terraform file, and the shell script of each provisioner `command` heredoc.

    The HCL dialect (languages/terraform.py) leaves those heredocs out: a
    `local-exec` command runs curl like any shell script.
    """
    regions = [Region(source.pos, source.endpos, "hcl")]
    text = source.text
    for lit in source.lits:
        if lit.prose and lit.parts:  # a command heredoc: its body, from its first line
            body = text.index("\n", lit.start) + 1
            regions.append(Region(body, lit.parts[-1].end, "shell"))
    return regions


def remap(ref: Reference, offsets: list[int], lines: Lines) -> Reference:
    """A reference found in a region's own text, with every position in the file (`lines`)."""

    def at(k: int) -> int:
        if k < len(offsets):
            return offsets[k]
        return offsets[-1] + 1

    def span(s: Span | None) -> Span | None:
        return (
            None
            if s is None
            else Span(at(s.start), at(s.end - 1) + 1 if s.end > s.start else at(s.start))
        )

    position = lines.position
    new_span = span(ref.span) or ref.span
    query = []
    for q in ref.query:
        if q.span is None:
            query.append(q)
            continue
        if q.offset_map is not None:
            omap = tuple(at(k) for k in q.offset_map)
        elif q.value is not None:
            omap = tuple(at(q.span.start + k) for k in range(len(q.value)))
        else:
            omap = None
        query.append(QueryValue(q.name, q.value, span(q.span), q.placeholder_spans, omap))
    line, column = position(new_span.start)
    end_line, end_column = position(new_span.end)
    return replace(
        ref,
        span=new_span,
        segments=tuple(Segment(s.text, s.is_param, span(s.span)) for s in ref.segments),
        query=tuple(query),
        headers=tuple((n, v, span(s)) for n, v, s in ref.headers),
        line=line,
        column=column,
        end_line=end_line,
        end_column=end_column,
        language="notebook",
    )
