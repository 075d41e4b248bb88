"""A request's resolved URL -> the Reference the rules read: path, segments, query, headers.

The URL is a partly known string (ir.Text). Its path is what follows `/api/v2`, or,
for a relative URL, the whole of it; segments that hold an unknown piece or are
all digits are parameters. Query values come from the URL's query string
(URL-decoded, each character keeping its place in the file) and from the request's
query mapping. Whether the path is this API's is decided by evidence.py.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from urllib.parse import unquote_plus

from apispec.lint.extract.context import pairs_map
from apispec.lint.extract.ir import AltV, Hole, Lit, MapV, ObjV, ParamV, Piece, SeqV, Text, Value
from apispec.lint.reference import QueryValue, Segment, Span

_API_V2 = re.compile(r"/api/v2(?=[/?#\0]|$)")
_API_V2_BARE = re.compile(r"/api/v2(?=[A-Za-z])")
_HEX2 = re.compile(r"[0-9A-Fa-f]{2}")
_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://")
# a format slot no format call filled: a parameter of unknown value
_SLOT = re.compile(r"%[-+ #0]*\d*(?:\.\d+)?[sdivqrxf]|\{[\w.]*(?::[^{}]*)?\}|\$\{?\w+\}?")


@dataclass
class Flat:
    """A Text as one string: holes are U+0000, each character knows its piece and offset."""

    chars: str
    offsets: list[int]  # file offset of each character (a hole: its start)
    holes: list[Hole | None]  # the hole a U+0000 stands for
    variable: list[bool] = field(default_factory=list)  # a variable's word (ir.Lit.var)

    @classmethod
    def of(cls, text: Text) -> Flat:
        chars: list[str] = []
        offsets: list[int] = []
        holes: list[Hole | None] = []
        variable: list[bool] = []
        for piece in text.pieces:
            if isinstance(piece, Lit):
                size = len(piece.text)
                chars.append(piece.text)
                if piece.offsets is None:
                    offsets.extend(range(piece.start, piece.start + size))
                else:
                    offsets.extend(piece.offset(i) for i in range(size))
                holes.extend([None] * size)
                variable.extend([piece.var] * size)
            else:
                chars.append("\0")
                offsets.append(piece.start)
                holes.append(piece)
                variable.append(False)
        return cls("".join(chars), offsets, holes, variable)

    def end_of(self, index: int) -> int:
        hole = self.holes[index]
        return hole.end if hole is not None else self.offsets[index] + 1

    def source(self, start: int, end: int) -> str:
        """The characters as the code writes them (a hole: its source text)."""
        out = []
        for i in range(start, end):
            hole = self.holes[i]
            out.append(hole.text if hole is not None else self.chars[i])
        return "".join(out)


@dataclass
class Located:
    """Where a URL's API path is: the path's characters and what precedes it."""

    flat: Flat
    start: int  # index of the path's first character (its leading `/`, if any)
    end: int  # index after the path (before `?`, `#` or the end)
    query_start: int  # index after `?`, or -1
    via_api_v2: bool
    prefix: str  # the known text before the path (a base, `https://host/api/v2`)
    prefix_hints: tuple[str, ...]  # the names of holes before the path


def locate(text: Text) -> Located | None:
    """Find the API path in a URL: after `/api/v2`, or the URL itself when it is relative."""
    flat = Flat.of(text)
    s = flat.chars
    m = _API_V2.search(s) or _joined_bare(flat)
    if m is not None:
        if any(c.isspace() for c in s[: m.start()]):
            return None  # a line of text (`"GET /api/v2/x failed"`, a log message), no URL
        start = m.end()
        via = True
        prefix_end = m.start()
    else:
        if _SCHEME.match(s) or s.startswith("//") or "/api/v2" in s:
            return None  # a full URL of another path, or `/api/v2` run into a word
        start = 0
        while start < len(s) and s[start] == "\0" and start + 1 < len(s) and s[start + 1] == "/":
            start += 1  # a base variable before the path: `f"{base}/devices"`
        if start < len(s) and s[start] == "\0" and start + 1 == len(s):
            return None
        via = False
        prefix_end = start
    end = len(s)
    for k in range(start, len(s)):
        if s[k] in "?#":
            end = k
            break
    query_start = end + 1 if end < len(s) and s[end] == "?" else -1
    hints = tuple(h.hint for h in flat.holes[:prefix_end] if h is not None)
    return Located(flat, start, end, query_start, via, s[:prefix_end], hints)


def _joined_bare(flat: Flat) -> re.Match[str] | None:
    """`/api/v2` joined to a path written without its slash (`$base + '/api/v2' + $Endpoint`
    called with `'experimental/users'`): the path starts where the two texts meet."""
    for m in _API_V2_BARE.finditer(flat.chars):
        end = m.end()
        if flat.holes[end - 1] is None and flat.offsets[end] != flat.offsets[end - 1] + 1:
            return m
    return None


def segments(loc: Located) -> tuple[list[Segment], str, Span] | None:
    """The path's segments, its `{}` template and its span; None for an empty path."""
    flat = loc.flat
    s = flat.chars
    found: list[Segment] = []
    shown: list[str] = []
    k = loc.start
    while k < loc.end:
        while k < loc.end and s[k] == "/":
            k += 1
        if k >= loc.end:
            break
        j = k
        while j < loc.end and s[j] != "/":
            j += 1
        text = s[k:j]
        span = Span(flat.offsets[k], flat.end_of(j - 1))
        if "\0" in text or _SLOT.fullmatch(text) or all(flat.variable[k:j]):
            found.append(Segment(flat.source(k, j), True, span))
            shown.append("{}")
        elif text.isdigit():
            found.append(Segment(text, True, span))
            shown.append("{}")
        else:
            found.append(Segment(text, False, span))
            shown.append(text)
        k = j
    if not found:
        return None
    first = found[0].span
    last = found[-1].span
    assert first is not None and last is not None
    end = last.end if last.end >= first.start else first.end
    start = first.start
    lead = loc.start
    while lead < len(s) and s[lead] == "/":
        lead += 1
    if lead > loc.start and flat.holes[lead - 1] is None and flat.offsets[lead - 1] == start - 1:
        start -= 1  # the path's leading slash, where the code writes one before it
    return found, "/" + "/".join(shown), Span(start, end)


def url_query(loc: Located) -> list[QueryValue]:
    """`name=value&...` after the URL's `?`, URL-decoded, unknown pieces as placeholders."""
    if loc.query_start < 0:
        return []
    flat = loc.flat
    s = flat.chars
    end = s.find("#", loc.query_start)
    end = len(s) if end < 0 else end
    found: list[QueryValue] = []
    pos = loc.query_start
    while pos < end:
        amp = s.find("&", pos, end)
        amp = end if amp < 0 else amp
        item = s[pos:amp]
        name, eq, _ = item.partition("=")
        if name and "\0" not in name:
            if not eq:
                found.append(QueryValue(unquote_plus(name), "", None))
            else:
                vstart = pos + len(name) + 1
                found.append(_value(unquote_plus(name), flat, vstart, amp, decode=True))
        pos = amp + 1
    return found


def _value(name: str, flat: Flat, start: int, end: int, decode: bool) -> QueryValue:
    """A query value from characters start..end of a flat text."""
    if start >= end:
        at = (
            flat.offsets[start]
            if start < len(flat.offsets)
            else (flat.offsets[-1] + 1 if flat.offsets else 0)
        )
        return QueryValue(name, "", Span(at, at))
    chars: list[str] = []
    offs: list[int] = []
    holes: list[tuple[int, int]] = []
    known = False
    for k in range(start, end):
        hole = flat.holes[k]
        if hole is not None:
            text = hole.text or "{}"
            holes.append((len(chars), len(chars) + len(text)))
            chars.extend(text)
            width = max(hole.end - hole.start, 1)
            offs.extend(hole.start + min(i, width - 1) for i in range(len(text)))
        else:
            known = True
            chars.append(flat.chars[k])
            offs.append(flat.offsets[k])
    if not known:
        return QueryValue(name, None, Span(offs[0], offs[-1] + 1))
    value = "".join(chars)
    if decode:
        value, offs, holes = url_decode(value, offs, holes)
    if not offs:
        return QueryValue(name, value, None)
    contiguous = all(offs[i] == offs[0] + i for i in range(len(offs)))
    return QueryValue(
        name, value, Span(offs[0], offs[-1] + 1), tuple(holes), None if contiguous else tuple(offs)
    )


def url_decode(
    value: str, offs: list[int], holes: list[tuple[int, int]]
) -> tuple[str, list[int], list[tuple[int, int]]]:
    """Percent-decoding (and `+` as a space), each character keeping its file offset."""
    if "%" not in value and "+" not in value:
        return value, offs, holes
    out: list[str] = []
    new_offs: list[int] = []
    hole_ends = dict(holes)
    new_holes: list[tuple[int, int]] = []
    i = 0
    n = len(value)
    while i < n:
        if i in hole_ends:
            b = hole_ends[i]
            new_holes.append((len(out), len(out) + b - i))
            out.extend(value[i:b])
            new_offs.extend(offs[i:b])
            i = b
            continue
        ch = value[i]
        if ch == "%" and i + 2 < n + 0 and _HEX2.fullmatch(value, i + 1, i + 3):
            out.append(unquote_plus(value[i : i + 3]))
            new_offs.append(offs[i])
            i += 3
            continue
        out.append(" " if ch == "+" else ch)
        new_offs.append(offs[i])
        i += 1
    return "".join(out), new_offs, new_holes


def mapping_query(value: Value | None, options: tuple[str, ...] = ()) -> list[QueryValue]:
    """Query values of a params mapping (each entry with a literal key)."""
    found: list[QueryValue] = []
    for option in _options(value):
        if isinstance(option, SeqV):  # a query given as (name, value) pairs
            option = pairs_map(option) or option
        if isinstance(option, MapV):
            for entry in option.entries:
                if entry.key is None or entry.key in options:
                    continue
                found.append(
                    entry_value(
                        entry.key, entry.value, entry.key_start, entry.key_end, entry.written
                    )
                )
        elif isinstance(option, Text):  # a query string (`urlencode(...)`)
            loc = Located(
                Flat.of(Text((Lit("?", option.start), *option.pieces))), 0, 0, 1, False, "", ()
            )
            found.extend(url_query(loc))
        if found:
            break
    return found


def entry_value(
    name: str,
    value: Value,
    key_start: int,
    key_end: int,
    written: tuple[int, int] | None = None,
) -> QueryValue:
    """One mapping entry as a query value (the library encodes it: no decoding here).

    A value of a list is its first item (the key is sent once per item). A wholly unknown
    value stands where the entry writes it (`q.Set("take", strconv.Itoa(max))`), not
    where the variable it reads is declared."""
    text = _first_text(value.items[0] if isinstance(value, SeqV) and value.items else value)
    if text is None or not text.pieces:
        return QueryValue(name, None, Span(key_start, key_end))
    flat = Flat.of(text)
    found = _value(name, flat, 0, len(flat.chars), decode=False)
    if (
        found.value is None
        and written is not None
        and found.span is not None
        and not written[0] <= found.span.start < written[1]
    ):
        return QueryValue(name, None, Span(*written))
    return found


def header_values(value: Value | None) -> list[tuple[str, str, Span | None]]:
    """Authorization headers of a headers mapping: (name, value with `{}` holes, span)."""
    found: list[tuple[str, str, Span | None]] = []
    for option in _options(value):
        if not isinstance(option, MapV):
            continue
        for entry in option.entries:
            if entry.key is None or entry.key.lower() != "authorization":
                continue
            text = _first_text(entry.value)
            if text is None or not text.pieces:
                continue
            flat = Flat.of(text)
            shown = "".join(
                "{}" if h is not None else c for c, h in zip(flat.chars, flat.holes, strict=True)
            )
            span = Span(flat.offsets[0], max(flat.offsets[0], flat.end_of(len(flat.chars) - 1)))
            if entry.written is not None and not entry.written[0] <= span.start < entry.written[1]:
                span = Span(*entry.written)  # a name: the header is where the mapping names it
            found.append((entry.key, shown, span))
        if found:
            break
    return found


def _first_text(value: Value) -> Text | None:
    for option in _options(value):
        if isinstance(option, Text):
            return option
    return None


def _options(value: Value | None) -> list[Value]:
    if value is None:
        return []
    if isinstance(value, AltV):
        return list(value.options)
    return [value]


def join_base(base: Text, url: Text, rule: str) -> Text | None:
    """The URL a client with base `base` requests for `url`, by the library's rule."""
    flat = Flat.of(url).chars
    if _SCHEME.match(flat):
        return url  # an absolute URL ignores the base
    base_flat = Flat.of(base).chars
    if rule == "directory":  # Faraday: the base is a directory, then RFC 3986 resolution
        rule = "rfc3986"
        if not base_flat.endswith("/"):
            base = base.plus(Text((Lit("/", base.pieces[-1].end if base.pieces else 0),)))
            base_flat += "/"
    if rule == "rfc3986" and "/" not in base_flat.replace("\0", ""):
        rule = "slash"  # a base of unknown text: its path is taken to be a directory
    if rule == "rfc3986":
        if flat.startswith("/"):
            m = re.match(r"[A-Za-z][A-Za-z0-9+.-]*://[^/\0]*", base_flat)
            if m is None:
                return None
            return Text((*_cut(base, m.end()), *url.pieces))
        if base_flat.endswith("/"):
            return base.plus(url)
        cut = base_flat.rfind("/")
        return Text((*_cut(base, cut + 1), *url.pieces)) if cut >= 0 else base.plus(url)
    if rule == "prefix" and flat.startswith("/"):
        return None
    if rule == "root":  # Spring's root URI: a path from the root joins it, any other stays
        return base.plus(url) if flat.startswith("/") else url
    if rule == "concat":
        return base.plus(url)
    left = rstrip_slash(base)
    right = url if flat.startswith("/") else Text((Lit("/", url.start), *url.pieces))
    return left.plus(right)


def _cut(text: Text, length: int) -> tuple[Piece, ...]:
    """The first `length` characters of a text, as pieces."""
    out: list[Piece] = []
    left = length
    for piece in text.pieces:
        if left <= 0:
            break
        if isinstance(piece, Lit):
            if len(piece.text) <= left:
                out.append(piece)
                left -= len(piece.text)
            else:
                offsets = piece.offsets[:left] if piece.offsets else None
                out.append(Lit(piece.text[:left], piece.start, offsets))
                left = 0
        else:
            out.append(piece)
            left -= 1
    return tuple(out)


def rstrip_slash(text: Text) -> Text:
    pieces = list(text.pieces)
    while pieces and isinstance(pieces[-1], Lit) and pieces[-1].text.endswith("/"):
        last = pieces[-1]
        assert isinstance(last, Lit)
        stripped = last.text.rstrip("/")
        if stripped:
            offsets = last.offsets[: len(stripped)] if last.offsets else None
            pieces[-1] = Lit(stripped, last.start, offsets)
            break
        pieces.pop()
    return Text(tuple(pieces))


def texts(value: Value | None) -> list[Text]:
    """Every alternative of a value that is a string."""
    return [o for o in _options(value) if isinstance(o, Text)]


def is_mapping(value: Value | None) -> bool:
    return any(isinstance(o, (MapV, ParamV)) for o in _options(value))


__all__ = [
    "Flat",
    "Located",
    "ObjV",
    "SeqV",
    "entry_value",
    "header_values",
    "is_mapping",
    "join_base",
    "locate",
    "mapping_query",
    "rstrip_slash",
    "segments",
    "texts",
    "url_query",
]
