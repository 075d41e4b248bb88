"""Where the cursor is: in a filter string, in an API v2 path, or elsewhere.

Completion and hover must answer while the code is half typed (an unclosed
string, a call without its parenthesis), when the linter's extraction cannot
see a call yet. So they read the cursor's line only: the quoted string
around the cursor, what stands before it (`"filter": `, `filter=`,
`-Filter `, `q.Set("filter", `), and whether it holds a query string or a
path under `/api/v2`. Escapes of the host string are undone (with a map back
to the line) so the filter checker sees the filter as the server will.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

QUOTES = "\"'`"

# Before a string that holds a filter: the word `filter` as a key, argument
# name, option or variable, then `:`, `=`, `=>`, `:=`, `,` or a space, and
# maybe a brace and a string prefix (f"", $"", @"").
_FILTER_BEFORE = re.compile(
    r"""(?ix)(?:^|[^\w.])[-$]?["']?filter["']?\]?\s*(?:=>|:=|[:=,]|\s)\s*[{\[]?\s*
        (?:[rfbu]{1,2}|\$@?|@\$?)?\Z"""
)
# A YAML key whose value is a bare (unquoted) filter.
_YAML_FILTER = re.compile(r"""^\s*(?:-\s+)?["']?filter["']?\s*:\s+(?=[^\s"'|>])""", re.I)
_QUERY_FILTER = re.compile(r"(?:^|[?&])filter=", re.I)
# Interpolations as languages write them: {x} f-strings/C#/format, ${x} JS/shell,
# $(x) PowerShell, $x PowerShell/shell/PHP, #{x} Ruby, %s/%d/%v printf.
_INTERPOLATION = r"(?:#?\{[^{}]*\}|\$\{[^{}]*\}|\$\([^()]*\)|\$\w+|%[sdv])"
_LEADING_INTERPOLATION = re.compile(rf"\A{_INTERPOLATION}(?=/)")
_PARAM = re.compile(rf"\A(?:{_INTERPOLATION}|\d+|:\w+|<[^<>]*>)\Z")


@dataclass(frozen=True)
class Literal:
    """A string on one line: its content is `line[start:end]`."""

    start: int
    end: int
    quote: str  # the delimiter; "" for a bare YAML value


def literal_at(line: str, column: int) -> Literal | None:
    """The string whose content contains (or ends at) `column`; unclosed strings run to the line's end."""
    yaml = _YAML_FILTER.match(line)
    if yaml is not None and column >= yaml.end():
        return Literal(yaml.end(), len(line.rstrip()), "")
    i = 0
    length = len(line)
    while i < length:
        ch = line[i]
        if ch not in QUOTES:
            i += 1
            continue
        j = i + 1
        while j < length:
            c = line[j]
            if c == "\\" and ch != "`":
                j += 2
                continue
            if c == ch:
                if ch == "'" and line[j + 1 : j + 2] == "'" and j > i + 1:
                    j += 2  # `''` inside a single-quoted string (YAML, PowerShell, SQL)
                    continue
                break
            j += 1
        end = min(j, length)
        if i < column <= end:
            return Literal(i + 1, end, ch)
        if column <= i:
            return None
        i = end + 1
    return None


@dataclass(frozen=True)
class Region:
    """A piece of a string that holds a filter or a path, with its escapes undone.

    `text[i]` stands at `line[columns[i]]`; `columns[len(text)]` is where the
    region ends on the line.
    """

    text: str
    columns: tuple[int, ...]
    quote: str
    in_query: bool = False  # the `filter=` value of a query string (URL-encoded)

    def column(self, index: int) -> int:
        return self.columns[max(0, min(index, len(self.text)))]

    def index(self, column: int) -> int:
        """The character of `text` at line column `column` (the region's end past it)."""
        for i, at in enumerate(self.columns):
            if at >= column:
                return i
        return len(self.text)


def _unescaped(line: str, start: int, end: int, quote: str) -> Region:
    chars: list[str] = []
    columns: list[int] = []
    i = start
    while i < end:
        ch = line[i]
        nxt = line[i + 1 : i + 2] if i + 1 < end else ""
        if quote and ch in "\\`" and nxt in (quote, "\\") and not (ch == "`" and nxt == "\\"):
            chars.append(nxt)
            columns.append(i)
            i += 2
            continue
        if quote in "\"'" and quote and ch == quote and nxt == quote:
            chars.append(quote)  # doubled quote (PowerShell, YAML single quotes)
            columns.append(i)
            i += 2
            continue
        chars.append(ch)
        columns.append(i)
        i += 1
    columns.append(end)
    return Region("".join(chars), tuple(columns), quote)


def filter_region(line: str, column: int) -> Region | None:
    """The filter around `column`: a string given as `filter`, or `filter=` in a query string."""
    literal = literal_at(line, column)
    if literal is None:
        return None
    content = line[literal.start : literal.end]
    if literal.quote == "":
        return _unescaped(line, literal.start, literal.end, "")
    for m in _QUERY_FILTER.finditer(content):
        start = literal.start + m.end()
        stop = content.find("&", m.end())
        end = literal.start + (stop if stop >= 0 else len(content))
        hash_at = line.find("#", start, end)
        end = hash_at if hash_at >= 0 else end
        if start <= column <= end:
            region = _unescaped(line, start, end, literal.quote)
            return Region(region.text, region.columns, region.quote, in_query=True)
    if _FILTER_BEFORE.search(line, 0, literal.start - 1):
        return _unescaped(line, literal.start, literal.end, literal.quote)
    return None


def filter_regions(line: str) -> list[Region]:
    """Every string on the line given as a filter (not `filter=` inside a query string)."""
    found: list[Region] = []
    yaml = _YAML_FILTER.match(line)
    if yaml is not None:
        region = filter_region(line, yaml.end())
        return [region] if region is not None else []
    after = 0
    for at, ch in enumerate(line):
        if ch not in QUOTES or at < after:
            continue
        literal = literal_at(line, at + 1)
        if literal is None or literal.start != at + 1:
            continue
        after = literal.end + 1
        region = filter_region(line, literal.start)
        if region is not None and not region.in_query:
            found.append(region)
    return found


@dataclass(frozen=True)
class PathPrefix:
    """The path typed before the cursor: segments done, and the one being typed."""

    done: tuple[str, ...]  # segments before the current one, as written
    partial: str  # the current segment up to the cursor
    partial_start: int  # line column where the current segment starts
    segment_end: int  # line column where the current segment ends (after the cursor)


def path_region(line: str, column: int) -> tuple[Region, int] | None:
    """The API v2 path in the string around `column`, and where it starts in the region.

    A path follows `/api/v2` in a URL, starts the string (`/devices`,
    `experimental/objects`), or follows an interpolated base (`{BASE}/...`,
    `$base/...`).
    """
    literal = literal_at(line, column)
    if literal is None or literal.quote == "":
        return None
    region = _unescaped(line, literal.start, literal.end, literal.quote)
    text = region.text
    at = text.find("/api/v2")
    if at >= 0 and text[at + 7 : at + 8] in ("/", "", "?", "#"):
        start = at + 7
    elif text.startswith("/") or text.startswith("experimental/"):
        start = 0
    else:
        lead = _LEADING_INTERPOLATION.match(text)
        if lead is None:
            return None
        start = lead.end()
    query = text.find("?", start)
    end = query if query >= 0 else len(text)
    index = region.index(column)
    if not start <= index <= end:
        return None
    return Region(text[:end], region.columns[: end + 1], region.quote), start


def path_prefix(line: str, column: int) -> PathPrefix | None:
    found = path_region(line, column)
    if found is None:
        return None
    region, start = found
    index = region.index(column)
    typed = region.text[start:index]
    slash = typed.rfind("/")
    partial = typed[slash + 1 :]
    done = tuple(s for s in typed[: max(slash, 0)].split("/") if s)
    next_slash = region.text.find("/", index)
    segment_end = next_slash if next_slash >= 0 else len(region.text)
    return PathPrefix(done, partial, region.column(start + slash + 1), region.column(segment_end))


def is_param(segment: str) -> bool:
    """An interpolation or a literal id standing for a `{param}` segment."""
    return bool(_PARAM.match(segment))


def whole_path(line: str, column: int) -> tuple[str, int, int] | None:
    """The complete path in the string around `column` and its columns (for hover)."""
    found = path_region(line, column)
    if found is None:
        return None
    region, start = found
    path = region.text[start:]
    if not path.strip("/"):
        return None
    return path, region.column(start), region.column(len(region.text))
