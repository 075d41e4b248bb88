"""Terraform (HCL): `http` data sources, `${...}` templates, heredocs, `urlencode()`.

An HCL string is a template: `"${local.api}/devices/${each.key}"`. An
interpolation may hold strings of its own (`${urlencode("status = down")}`),
which no regular expression of a string can match, so this dialect scans
strings itself, bracket by bracket. An interpolation that is a quoted string,
alone or URL-encoded (`${urlencode("...")}`), is constant text: its characters
stand in the literal with their own offsets, so a filter written that way is
checked as written. `$${` and `%%{` are literal text; `%{ ... }` directives
produce no text. Heredocs (`<<EOT`, `<<-EOT`) are templates too, except the
`command` of a provisioner, which is a shell script (languages/embedded.py
scans it as shell). The call is the block around the URL: `data "http"` with
`url`, `method`, `request_headers`.
"""

from __future__ import annotations

import re
from bisect import bisect_right

from apispec.lint.languages.dialect import Dialect
from apispec.lint.scan import Lit, Part

# What starts a token: a comment, a string, a heredoc.
_NEXT = re.compile(r"#|//|/\*|\"|<<-?(?=[A-Za-z_])")
_HEREDOC = re.compile(r"<<(-?)([A-Za-z_][\w-]*)[ \t]*\r?\n")
_IDENT_LINE = re.compile(r"^[ \t]*([A-Za-z_][\w-]*)[ \t]*\r?$", re.M)
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", '"': '"', "\\": "\\"}
# An interpolation that is constant text: a quoted string, alone or URL-encoded.
_CONSTANT = re.compile(r"\s*(?:(?:urlencode|lower|upper|trimspace)\s*\(\s*)?\"")
_CLOSING = re.compile(r"\s*\)?\s*\Z")
_VERB = re.compile(r"%[sdvq]")  # format() placeholders
# `command = <<EOT`: a provisioner's shell script (scanned as shell, not here).
COMMAND_HEREDOC = re.compile(r"\bcommand\s*=\s*\Z")
_HOLE_REACH = 2000
_NESTING = 8  # strings inside interpolations inside strings ... read this deep


class TerraformDialect(Dialect):
    name = "hcl"
    concat_re = None  # HCL joins strings only with templates and format()

    def scan(self, text: str, pos: int, endpos: int) -> tuple[list[Lit], list[tuple[int, int]]]:
        lits: list[Lit] = []
        comments: list[tuple[int, int]] = []
        last_closer = text.rfind("*/", pos, endpos)  # an opener after it closes nowhere
        closings: dict[str, list[int]] | None = None  # heredoc identifiers' lines, on first need
        at = pos
        while True:
            m = _NEXT.search(text, at, endpos)
            if m is None:
                break
            token = m.group()
            start = m.start()
            if token in ("#", "//", "/*"):
                if token == "/*":
                    if last_closer < m.end():  # unclosed: it costs its opener only
                        at = m.end()
                        continue
                    end = text.find("*/", m.end(), endpos) + 2
                else:
                    end = text.find("\n", start, endpos)
                    end = endpos if end < 0 else end
                comments.append((start, end))
                at = end
                continue
            if token == '"':
                parts, end = string_parts(text, start + 1, endpos)
                lits.append(Lit(start, end, parts))
                at = end
                continue
            heredoc = _HEREDOC.match(text, start, endpos)
            if heredoc is None:
                at = m.end()
                continue
            if closings is None:
                closings = _closing_lines(text, pos, endpos)
            lit = _heredoc(text, heredoc, endpos, closings)
            lit.prose = COMMAND_HEREDOC.search(text, max(pos, start - 40), start) is not None
            lits.append(lit)
            at = lit.end
        return lits, comments


class _Text:
    """Literal characters with their offsets, flushed into Parts between interpolations."""

    def __init__(self) -> None:
        self.parts: list[Part] = []
        self.chars: list[str] = []
        self.offs: list[int] = []

    def add(self, ch: str, at: int) -> None:
        self.chars.append(ch)
        self.offs.append(at)

    def flush(self) -> None:
        if self.chars:
            offs = tuple(self.offs)
            self.parts.append(Part("".join(self.chars), False, offs[0], offs[-1] + 1, offs))
            self.chars, self.offs = [], []

    def hole(self, part: Part) -> None:
        self.flush()
        self.parts.append(part)


def string_parts(
    text: str, k: int, endpos: int, quoted: bool = True, depth: int = 0
) -> tuple[list[Part], int]:
    """The parts of a template starting at `k` (after its quote), and where it ends.

    A quoted string ends at its closing quote, or at the end of its line when
    it has none (one bad quote costs that line only). Strings nest inside
    interpolations only `_NESTING` deep: deeper ones are passed over as text.
    """
    out = _Text()
    while k < endpos:
        ch = text[k]
        if quoted and ch == '"':
            out.flush()
            return out.parts, k + 1
        if quoted and ch == "\n":
            break
        if quoted and ch == "\\" and k + 1 < endpos:
            out.add(_ESCAPES.get(text[k + 1], text[k + 1]), k)
            k += 2
            continue
        if text.startswith(("$${", "%%{"), k):
            out.add(text[k + 1], k + 1)
            out.add("{", k + 2)
            k += 3
            continue
        if text.startswith(("${", "%{"), k):
            close = hole_end(text, k + 2, endpos, depth + 1)
            if ch == "%":  # a directive (`%{ if ... }`) adds no text of its own
                out.flush()
            else:
                inline = _constant(text, k + 2, close - 1, endpos, depth + 1)
                if inline is not None:
                    out.flush()
                    out.parts.extend(inline)
                else:
                    out.hole(Part(text[k:close], True, k, close))
            k = close
            continue
        if _VERB.match(text, k):
            out.hole(Part(text[k : k + 2], True, k, k + 2))
            k += 2
            continue
        out.add(ch, k)
        k += 1
    out.flush()
    return out.parts, k


def hole_end(text: str, k: int, endpos: int, nesting: int = 1) -> int:
    """The position after the `}` closing an interpolation whose expression starts at `k`."""
    depth = 1
    limit = min(endpos, k + _HOLE_REACH)
    while k < limit:
        ch = text[k]
        if ch == '"':
            if nesting > _NESTING:  # too deep to read: to the next quote on the line
                close = text.find('"', k + 1, limit)
                newline = text.find("\n", k + 1, limit)
                if close < 0 or 0 <= newline < close:
                    return newline if newline >= 0 else limit
                k = close + 1
                continue
            _, k = string_parts(text, k + 1, limit, depth=nesting)
            continue
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                return k + 1
        elif ch == "\n" and depth == 1:
            return k  # an interpolation never closed on its line: give up at its end
        k += 1
    return limit


def _constant(text: str, lo: int, hi: int, endpos: int, nesting: int) -> list[Part] | None:
    """The parts of an interpolation that is a quoted string (`${urlencode("x")}`), else None."""
    m = _CONSTANT.match(text, lo, hi)
    if m is None or nesting > 2:  # `${urlencode("...${var}...")}`: constants sit shallow
        return None
    parts, end = string_parts(text, m.end(), endpos, depth=nesting)
    if end > hi or not _CLOSING.match(text, end, hi):
        return None
    return parts


def _closing_lines(text: str, pos: int, endpos: int) -> dict[str, list[int]]:
    """Every line holding only an identifier, by identifier: where heredocs may close.

    Indexed once, so a file of many heredocs never closed costs one look-up each.
    """
    found: dict[str, list[int]] = {}
    for m in _IDENT_LINE.finditer(text, pos, endpos):
        found.setdefault(m.group(1), []).append(m.start())
    return found


def _heredoc(text: str, m: re.Match[str], endpos: int, closings: dict[str, list[int]]) -> Lit:
    """A heredoc template: its body up to the line holding only its identifier.

    One never closed is its own line only: the rest of the file is still read.
    """
    lines = closings.get(m.group(2), [])
    k = bisect_right(lines, m.end() - 1)
    if k == len(lines):
        return Lit(m.start(), m.end() - 1, [])
    close = lines[k]
    parts, _ = string_parts(text, m.end(), close, quoted=False)
    end = text.find("\n", close, endpos)
    return Lit(m.start(), endpos if end < 0 else end, parts)
