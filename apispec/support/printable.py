"""Text from outside (file names, file contents) made safe to print or encode.

A file name on POSIX is bytes: Python hands names that are not UTF-8 over as
lone surrogates (`surrogateescape`), which no UTF-8 stream, JSON parser or XML
document accepts. A name may also hold a newline, an escape sequence or a
bidirectional override, which would break a one-line message, drive the
terminal, or make the line read differently from what it says. So:

- `printable` escapes all of these (`\\n`, `\\x1b`, `\\xff` for an undecodable
  byte, `\\u202e`) for text meant for a terminal or an XML document: lines of
  the text report, annotations, JUnit attributes, error messages;
- `unicode_safe` replaces only the lone surrogates, for JSON, where other
  control characters have their own exact escapes;
- `uri_path` percent-encodes a path's real bytes, for SARIF artifact URIs;
- `markdown_cell` and `spreadsheet_cell` make a table cell read literally in
  Markdown and in a spreadsheet opening a CSV file.
"""

from __future__ import annotations

import os
import re
from urllib.parse import quote

# C0 and C1 controls, DEL, line and paragraph separators, bidirectional
# embeddings/overrides/isolates, the two XML-invalid noncharacters, surrogates.
_UNSAFE = re.compile(
    "[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufffe\uffff\ud800-\udfff]"
)
_SURROGATE = re.compile("[\ud800-\udfff]")
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}
# ASCII punctuation that Markdown or HTML would read as syntax inside a table cell.
_MARKDOWN_SYNTAX = re.compile(r"([\\`*_\[\]<>|&~#!])")
# What a spreadsheet runs as a formula at the start of a cell.
_FORMULA = ("=", "+", "-", "@", "\t", "\r")


def _escape(match: re.Match[str]) -> str:
    char = match.group()
    named = _NAMED.get(char)
    if named is not None:
        return named
    code = ord(char)
    if 0xDC80 <= code <= 0xDCFF:  # an undecodable byte of a file name
        return f"\\x{code - 0xDC00:02x}"
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}"


def printable(text: str) -> str:
    """`text` with control, bidirectional and undecodable characters escaped; one line."""
    if text.isprintable():
        return text
    return _UNSAFE.sub(_escape, text)


def shortened(text: str, limit: int = 40) -> str:
    """`text` quoted for a message, cut to `limit` characters (a value a fuzzer made 5,000
    characters long would otherwise fill the one-line message)."""
    return repr(text if len(text) <= limit else text[: limit - 3] + "...")


def unicode_safe(text: str) -> str:
    """`text` with lone surrogates escaped, so that it encodes as UTF-8 and as strict JSON."""
    if text.isascii():
        return text
    return _SURROGATE.sub(_escape, text)


def uri_path(path: str) -> str:
    """A relative path as a URI reference, percent-encoding the name's own bytes."""
    return quote(os.fsencode(path.replace(os.sep, "/")))


def markdown_cell(text: str) -> str:
    """Text shown literally in a Markdown table cell: one line, controls and syntax escaped,
    so a `|` cannot end the cell, `<script>` stays text, a `*` or backtick starts nothing."""
    return _MARKDOWN_SYNTAX.sub(r"\\\1", printable(text))


def spreadsheet_cell(value: str) -> str:
    """A CSV cell a spreadsheet shows as text: a leading `=`, `+`, `-` or `@` would make it a
    formula, so such a cell gets a leading `'` (OWASP's advice on CSV injection)."""
    value = unicode_safe(value)
    return "'" + value if value.startswith(_FORMULA) else value
