"""Python's implicit line joining, done for tree-sitter-python where its scanner fails.

Inside brackets Python ignores line breaks and indentation, so a continuation line may
start at any column, comments and blank lines included (`def f(  # note` then `self)`
at column 0). tree-sitter-python's indentation scanner does not: a continuation line
indented less than its statement is read as a dedent, and the error recovery then
loses the statement's class or function (tree-sitter/tree-sitter-python#256), so the
calls in it lose what their receivers are. Layout must never change what is linted.

`joined` gives the same program with every line break inside brackets, and every
comment there, turned into spaces of the same byte length: one logical line is one
physical line, and every byte offset (all the tree path uses) stays where it was.
The scan is one pass of one regular expression over the text (strings and comments
skipped as Python's tokenizer skips them), so it costs linear time.
"""

from __future__ import annotations

import re

# A string's opening quote (with its prefix), a comment, a bracket, a line break, or a
# word (so that a prefix is only read where a string starts: `if'a'in x` holds one).
_TOKEN = re.compile(
    r"""(?P<quote>[rRbBuUfF]{0,2}(?:'''|\"\"\"|'|"))"""
    r"|(?P<comment>\#[^\r\n]*)"
    r"|(?P<open>[(\[{])"
    r"|(?P<close>[)\]}])"
    r"|(?P<nl>\r\n|\r|\n)"
    r"|\w+"
)
# Where a string that opened with each quote ends (an escape skips the next character;
# a one-line string also ends, unterminated, at its line's end).
_REST = {
    "'''": re.compile(r"(?:[^\\']|\\.|'(?!''))*(?:'''|\Z)", re.S),
    '"""': re.compile(r'(?:[^\\"]|\\.|"(?!""))*(?:"""|\Z)', re.S),
    "'": re.compile(r"(?:[^\\'\r\n]|\\(?:\r\n|.))*'?", re.S),
    '"': re.compile(r'(?:[^\\"\r\n]|\\(?:\r\n|.))*"?', re.S),
}


def joined(text: str) -> bytes | None:
    """`text` as UTF-8 with the line breaks and comments inside brackets blanked, or None
    when it has none (nothing to join)."""
    blanks: list[tuple[int, int]] = []  # character spans to turn into spaces
    depth = 0
    at = 0
    token = _TOKEN
    while True:
        m = token.search(text, at)
        if m is None:
            break
        at = m.end()
        kind = m.lastgroup
        if kind == "quote":
            quote = m.group("quote").lstrip("rRbBuUfF")
            rest = _REST[quote].match(text, at)
            at = rest.end() if rest is not None else len(text)
        elif kind == "open":
            depth += 1
        elif kind == "close":
            depth = max(depth - 1, 0)
        elif depth and kind in ("nl", "comment"):
            blanks.append((m.start(), m.end()))
    if not blanks:
        return None
    pieces: list[bytes] = []
    last = 0
    for start, end in blanks:
        pieces.append(text[last:start].encode("utf-8", "surrogatepass"))
        pieces.append(b" " * len(text[start:end].encode("utf-8", "surrogatepass")))
        last = end
    pieces.append(text[last:].encode("utf-8", "surrogatepass"))
    return b"".join(pieces)
