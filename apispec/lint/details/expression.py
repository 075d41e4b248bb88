"""The text an expression evaluates to, where its parts are literals (issue 18 point 4).

A filter is seldom one literal: `" AND ".join([...])`, `string.Join(" and ",
new[] { ... })`, `strings.Join(clauses, " or ")`, `$clauses -join ' AND '`,
`fmt.Sprintf("parentid = %s", id)`, `Uri.EscapeDataString(filter)`,
`tags.map(...).join(" OR ")`. `parts_at` reads such an expression as parts:
literal text keeps the offset of each character in the file (so a finding
points at the ` AND ` that is wrong), and what the code computes at run time
(an element, a variable of unknown content) is a placeholder. A list whose
elements are computed joins as two placeholders around its separator: the
separator is what the filter rules can still check.
"""

from __future__ import annotations

import re

from apispec.lint.candidates import chain_from
from apispec.lint.receivers import argument_end, links_after
from apispec.lint.scan import Part, Source

_DEPTH = 8  # expressions read inside one another (a variable of a join of a variable ...)
_REACH = 3000  # characters before a use where a variable's assignment is looked for
# Calls that return their argument URL-encoded: the filter is the argument.
_ENCODERS = frozenset(
    (
        "escapedatastring",
        "escapeuristring",
        "encodeuricomponent",
        "encodeuri",
        "queryescape",
        "pathescape",
        "quote",
        "quote_plus",
        "urlencode",
        "rawurlencode",
        "escape",
        "encode",
        "urlencodecomponent",
    )
)
_JOINS = frozenset(("join", "implode"))
_FORMATS = frozenset(("sprintf", "format", "printf", "formatted"))
_IDENT = re.compile(r"\$?(?:script:|global:|env:)?[A-Za-z_][\w]*(?:(?:\.|::|->|\?\.)[A-Za-z_]\w*)*")
_INDEX = re.compile(r"\s*\[[^\]\n]{0,60}\]")
_LIST_OPEN = re.compile(
    r"(?:@\(|new\s*(?:[\w.]*\s*)?\[\s*\]\s*\{|\[\]\s*[\w.]+\s*\{|array\(|\[|\()", re.I
)
_PLAIN = re.compile(r"\$?(?:script:|global:|env:)?[A-Za-z_]\w*")
_PS_JOIN = re.compile(r"\s*-join\s*", re.I)
# Where an interpolation's expression starts and ends inside its delimiters.
_HOLE = re.compile(r"\$\((?P<a>[\s\S]*)\)\Z|\$\{(?P<b>[\s\S]*)\}\Z|#?\{\{?(?P<c>[\s\S]*?)\}?\}\Z")


def parts_at(source: Source, pos: int, end: int | None = None) -> list[Part] | None:
    """The parts of the expression at `pos`, or None where the code shows nothing of its text."""
    return _Reader(source).parts(source, pos, end, 0)


def hole_parts(source: Source, hole: Part) -> list[Part] | None:
    """The parts of the expression inside an interpolation (`{Uri.EscapeDataString(f)}`, `$($f)`)."""
    m = _HOLE.match(hole.text)
    if m is None:
        inner_start, inner_end = hole.start, hole.end  # `$filter`
    else:
        group = next(g for g in ("a", "b", "c") if m.group(g) is not None)
        inner_start, inner_end = hole.start + m.start(group), hole.start + m.end(group)
    if source.text[hole.start : hole.end] != hole.text or inner_start >= inner_end:
        return None  # the hole's text is not the file's (an escaped or decoded literal)
    reader = _Reader(source)
    name = source.text[inner_start:inner_end].strip()
    if _PLAIN.fullmatch(name):  # `${flt}`, `$filter`, `{flt}`: the variable's value
        return reader.variable(name, hole.start, 0)
    # The hole's own literals are found by scanning its text alone; its variables
    # are looked up in the whole file.
    inner = Source(source.text, source.dialect, inner_start, inner_end, source.lines)
    return reader.parts(inner, inner_start, inner_end, 0)


class _Reader:
    """Reads expressions of one file; `outer` is where variables are looked up."""

    def __init__(self, outer: Source) -> None:
        self.outer = outer

    def parts(self, source: Source, pos: int, end: int | None, depth: int) -> list[Part] | None:
        if depth > _DEPTH:
            return None
        text = source.text
        pos = source.skip_space(pos)
        limit = source.endpos if end is None else end
        if pos >= limit:
            return None
        if source.dialect.name == "shell" and text.startswith(("$(", "`"), pos):
            return None  # a command's output
        j = source.lit_starting(pos)
        if j is not None:
            chain = chain_from(source, j)
            parts = list(chain.parts)
            joined = self.joined_after(source, chain.end, None, depth, separator=parts)
            return joined if joined is not None else parts
        opener = _LIST_OPEN.match(text, pos, limit)
        if opener is not None and text[opener.end() - 1] in "([{":
            closer = source.matching_closer(opener.end() - 1)
            if closer < 0:
                return None
            elements = self.elements(source, opener.end(), closer, depth)
            return self.joined_after(source, closer + 1, elements, depth)
        m = _IDENT.match(text, pos, limit)
        if m is None:
            return None
        after = m.end()
        index = _INDEX.match(text, after, limit)
        if index is not None:
            after = index.end()
        if after < limit and text[after] == "(":
            return self.call(source, m.group(), after, depth)
        listed = self.variable_elements(m.group(), pos, depth)
        joined = self.joined_after(source, after, listed, depth)
        if joined is not None:
            return joined
        return self.variable(m.group(), pos, depth + 1)

    def assignment(self, var: str, before: int) -> int:
        """Where the value of `var`'s last assignment before `before` starts (-1: none)."""
        outer = self.outer
        dollar = var.startswith("$")
        name = re.escape(var[1:] if dollar else var)
        pattern = re.compile(
            r"(?<![\w$.])" + (r"\$" if dollar else "") + name + r"\s*(?::=|=)(?!=)\s*",
            re.I if dollar else 0,
        )
        last = -1
        for m in pattern.finditer(outer.text, max(outer.pos, before - _REACH), before):
            if outer.token_at(m.start()) is None:
                last = m.end()
        return last

    def variable(self, var: str, before: int, depth: int) -> list[Part] | None:
        """What `var` was last assigned before `before` (`flt = "..."`, `$f = $c -join ' and '`)."""
        if depth > _DEPTH:
            return None
        at = self.assignment(var, before)
        return self.parts(self.outer, at, None, depth + 1) if at >= 0 else None

    def variable_elements(self, var: str, before: int, depth: int) -> list[list[Part]] | None:
        """The elements of the list literal `var` was last assigned, if it was one."""
        outer = self.outer
        at = self.assignment(var, before)
        opener = _LIST_OPEN.match(outer.text, at) if at >= 0 else None
        if opener is None or outer.text[opener.end() - 1] not in "([{":
            return None
        closer = outer.matching_closer(opener.end() - 1)
        return self.elements(outer, opener.end(), closer, depth) if closer > 0 else None

    def call(self, source: Source, callee: str, opener: int, depth: int) -> list[Part] | None:
        name = re.split(r"\?\.|\.|->|::", callee)[-1].lower()
        closer = source.matching_closer(opener)
        if closer < 0:
            return None
        args = _arguments(source, opener, closer)
        if name in _ENCODERS and args:
            return self.parts(source, args[0][0], args[0][1], depth + 1)
        if name in _FORMATS and args:
            first = source.lit_starting(source.skip_space(args[0][0]))
            return list(chain_from(source, first).parts) if first is not None else None
        if name in _JOINS and len(args) == 2:
            literal = [source.lit_starting(source.skip_space(a)) is not None for a, _ in args]
            if literal.count(True) != 1:
                return None
            sep_at, list_at = (0, 1) if literal[0] else (1, 0)
            separator = self.parts(source, args[sep_at][0], args[sep_at][1], depth + 1)
            elements = self.list_at(source, args[list_at][0], args[list_at][1], depth)
            return _join(elements, separator)
        # `tags.map(...).join(" OR ")`: the elements are computed, the separator is known
        return self.joined_after(source, closer + 1, None, depth)

    def joined_after(
        self,
        source: Source,
        pos: int,
        elements: list[list[Part]] | None,
        depth: int,
        separator: list[Part] | None = None,
    ) -> list[Part] | None:
        """A `.join(sep)` or `-join sep` after the expression ending at `pos`, applied to it.

        With `separator` given, the expression itself is the separator (Python's
        `" and ".join(items)`) and the argument of `.join` is the list.
        """
        text = source.text
        ps = _PS_JOIN.match(text, pos, source.endpos)
        if ps is not None and separator is None:
            return _join(elements, self.parts(source, ps.end(), None, depth + 1))
        if not text.startswith(".", source.skip_space(pos)):
            return None
        for link in links_after(source, pos):
            if link.name.lower() not in _JOINS or link.opener < 0:
                continue
            args = _arguments(source, link.opener, link.closer)
            if len(args) != 1:
                return None
            if separator is not None:
                return _join(self.list_at(source, args[0][0], args[0][1], depth), separator)
            return _join(elements, self.parts(source, args[0][0], args[0][1], depth + 1))
        return None

    def list_at(self, source: Source, lo: int, hi: int, depth: int) -> list[list[Part]] | None:
        """The elements of a list literal at `lo`, or of the list a variable there holds."""
        pos = source.skip_space(lo)
        opener = _LIST_OPEN.match(source.text, pos, hi)
        if opener is not None and source.text[opener.end() - 1] in "([{":
            closer = source.matching_closer(opener.end() - 1)
            return self.elements(source, opener.end(), closer, depth) if closer > 0 else None
        m = _IDENT.match(source.text, pos, hi)
        if m is not None and not source.text[m.end() : hi].strip():
            return self.variable_elements(m.group(), pos, depth)
        return None

    def elements(self, source: Source, lo: int, closer: int, depth: int) -> list[list[Part]] | None:
        """A list literal's elements; None when one of them is not an expression of literals."""
        found: list[list[Part]] = []
        for a, b in _arguments(source, lo - 1, closer):
            element = self.parts(source, a, b, depth + 1)
            if element is None:
                return None
            found.append(element)
        return found or None


def _join(elements: list[list[Part]] | None, separator: list[Part] | None) -> list[Part] | None:
    """Elements joined by the separator; unknown elements are two placeholders around it."""
    if not separator:
        return None
    if elements is None:
        hole = Part("{}", True, separator[0].start, separator[0].start)
        return [hole, *separator, Part("{}", True, separator[-1].end, separator[-1].end)]
    joined: list[Part] = []
    for k, element in enumerate(elements):
        if k:
            joined.extend(separator)
        joined.extend(element)
    return joined


def _arguments(source: Source, opener: int, closer: int) -> list[tuple[int, int]]:
    """The spans of the comma-separated items between `opener` and `closer`."""
    spans = []
    pos = opener + 1
    while pos < closer:
        end = argument_end(source, pos, closer)
        if source.text[pos:end].strip():
            spans.append((pos, end))
        pos = end + 1
    return spans
