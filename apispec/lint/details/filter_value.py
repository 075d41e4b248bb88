"""Query values as the server receives them: URL-decoded, interpolations as placeholders.

A filter written `status%20%3D%20down` or `"status = " + s` is checked as
`status = down` and `status = {}`; every character keeps its offset in the
file, so a diagnostic points into the source even through escapes and
percent-encoding.
"""

from __future__ import annotations

from urllib.parse import unquote_plus

from apispec.lint.patterns import lazy
from apispec.lint.reference import QueryValue, Span
from apispec.lint.scan import PARAM, Part

_HEX2 = lazy(r"[0-9A-Fa-f]{2}")


def value_from_parts(
    name: str, parts: list[Part], start: int, end: int, decode: bool
) -> QueryValue:
    """A QueryValue from an expression's parts; interpolations become placeholders."""
    if all(p.is_param for p in parts):
        return QueryValue(name, None, Span(start, end))
    chars: list[str] = []
    offs: list[int] = []
    holes: list[tuple[int, int]] = []
    for part in parts:
        if part.is_param:
            holes.append((len(chars), len(chars) + len(part.text)))
            chars.extend(part.text)
            offs.extend(range(part.start, part.end))
        else:
            text = part.text
            for i, ch in enumerate(text):
                chars.append(ch)
                offs.append(part.offset(i))
    value = "".join(chars)
    if decode:
        value, offs, holes = url_decode(value, offs, holes)
    if not offs:
        return QueryValue(name, value, Span(start, start))
    span = Span(offs[0], offs[-1] + 1)
    contiguous = all(offs[i] == offs[0] + i for i in range(len(offs)))
    return QueryValue(
        name,
        value,
        span,
        tuple(holes),
        None if contiguous else tuple(offs),
    )


def url_decode(
    value: str, offs: list[int], holes: list[tuple[int, int]]
) -> tuple[str, list[int], list[tuple[int, int]]]:
    if "%" not in value and "+" not in value:
        return value, offs, holes
    out: list[str] = []
    new_offs: list[int] = []
    hole_starts = {a: b for a, b in holes}
    new_holes: list[tuple[int, int]] = []
    i = 0
    n = len(value)
    while i < n:
        if i in hole_starts:
            b = hole_starts[i]
            new_holes.append((len(out), len(out) + b - i))
            out.extend(value[i:b])
            new_offs.extend(offs[i:b])
            i = b
            continue
        ch = value[i]
        if ch == "%" and i + 2 < n and _HEX2.fullmatch(value, i + 1, i + 3):
            out.append(unquote_plus(value[i : i + 3]))
            new_offs.append(offs[i])
            i += 3
            continue
        out.append(" " if ch == "+" else ch)
        new_offs.append(offs[i])
        i += 1
    return "".join(out), new_offs, new_holes


def parse_query_string(
    flat: str, offs: list[int], owner: list[int], parts: list[Part], start: int, end: int
) -> list[QueryValue]:
    """`name=value&...` of a URL, URL-decoded, interpolations as placeholders."""
    found: list[QueryValue] = []
    pos = start
    while pos < end:
        amp = flat.find("&", pos, end)
        if amp < 0:
            amp = end
        item = flat[pos:amp]
        if item:
            name, eq, _ = item.partition("=")
            if PARAM in name or not name:
                pos = amp + 1
                continue
            if not eq:
                found.append(QueryValue(unquote_plus(name), "", None))
                pos = amp + 1
                continue
            vstart = pos + len(name) + 1
            vparts: list[Part] = []
            k = vstart
            while k < amp:
                if flat[k] == PARAM:
                    part = parts[owner[k]]
                    vparts.append(Part(part.text, True, part.start, part.end))
                    k += 1
                    continue
                j = k
                while j < amp and flat[j] != PARAM:
                    j += 1
                piece = flat[k:j]
                vparts.append(Part(piece, False, offs[k], offs[j - 1] + 1, tuple(offs[k:j])))
                k = j
            if not vparts:
                found.append(QueryValue(unquote_plus(name), "", Span(offs[pos], offs[pos])))
            else:
                s = vparts[0].start
                e = vparts[-1].end
                found.append(value_from_parts(unquote_plus(name), vparts, s, e, decode=True))
        pos = amp + 1
    return found
