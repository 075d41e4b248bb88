"""Decoding string literals' escapes, keeping where each character is written.

A filter diagnostic must point into the file even through `\\"` and `\\n`, so each
decoded character keeps the offset of the source text it came from.
"""

from __future__ import annotations

from apispec.lint.extract.ir import Lit

_SIMPLE = {
    "n": "\n",
    "t": "\t",
    "r": "\r",
    "0": "\0",
    "a": "\a",
    "b": "\b",
    "f": "\f",
    "v": "\v",
    "e": "\x1b",
}


def c_escapes(raw: str, start: int, *, continuation: bool = True, braces: bool = False) -> Lit:
    """`raw` (the source between the quotes, from offset `start`) with C-style escapes decoded.

    `braces`: `{{` and `}}` stand for one brace (f-strings, C# interpolated strings).
    `continuation`: a backslash before a line end joins the lines.
    """
    if "\\" not in raw and not (braces and ("{{" in raw or "}}" in raw)):
        return Lit(raw, start)
    chars: list[str] = []
    offsets: list[int] = []
    i = 0
    n = len(raw)
    while i < n:
        ch = raw[i]
        if braces and ch in "{}" and i + 1 < n and raw[i + 1] == ch:
            chars.append(ch)
            offsets.append(start + i)
            i += 2
            continue
        if ch != "\\" or i + 1 >= n:
            chars.append(ch)
            offsets.append(start + i)
            i += 1
            continue
        nxt = raw[i + 1]
        width = 2
        if nxt in _SIMPLE:
            out = _SIMPLE[nxt]
        elif nxt in "\n\r" and continuation:
            width = 3 if raw[i + 1 : i + 3] == "\r\n" else 2
            i += width
            continue
        elif nxt in "xuU":
            digits = {"x": 2, "u": 4, "U": 8}[nxt]
            code = raw[i + 2 : i + 2 + digits]
            try:
                out = chr(int(code, 16)) if len(code) == digits else nxt
                width = 2 + digits if len(code) == digits else 2
            except ValueError:
                out = nxt
        else:
            out = nxt
        chars.append(out)
        offsets.append(start + i)
        i += width
    return Lit("".join(chars), start, tuple(offsets))


def plain(raw: str, start: int) -> Lit:
    """A literal with no escapes (raw strings, single-quoted shell and PowerShell text)."""
    return Lit(raw, start)
