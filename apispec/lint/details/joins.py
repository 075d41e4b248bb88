"""Filters joined from parts (issue 18 point 4): the text a join evaluates to.

`" and ".join([...])`, `string.Join(" AND ", new[] { ... })`,
`strings.Join(clauses, " or ")`, `[a, b].join(" OR ")`, `tags.map(...).join(" OR ")`,
`$clauses -join ' AND '`, Terraform's `join("&", [...])`, PHP's `implode`, Java's
`String.join(" and ", a, b)` and `Stream.of(a, b).collect(Collectors.joining(" AND "))`,
Kotlin's `listOf(a, b).joinToString(" and ")`: the
separator and the elements are read by the caller's resolver
(details/resolve.py), each character keeping its offset in the file, so a
finding points at the separator that is wrong. Elements computed at run time
(a list built in a loop, a `map` over tags) join as two placeholders around
the separator: the separator is what the filter rules can still check.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from apispec.lint.candidates import chain_from
from apispec.lint.patterns import lazy
from apispec.lint.receivers import argument_end, links_after
from apispec.lint.scan import Part, Source

# Reads the expression at a position (up to an end, or to the expression's own end).
Resolve = Callable[[int, "int | None"], "list[Part] | None"]

_JOINS = frozenset(("join", "implode", "jointostring"))
# Calls that make a list of their arguments (Java, Kotlin): `List.of(a, b)`, `listOf(a, b)`.
_LIST_FACTORIES = frozenset(
    ("of", "aslist", "listof", "mutablelistof", "setof", "arrayof", "sequenceof", "stream")
)
# `.collect(Collectors.joining(" and "))`: a stream's join, the separator in `joining`.
_COLLECTOR = lazy(r"\s*(?:[\w.]*\.)?joining\s*\(")
# Calls that map each element with a function: `array_map(fn ($t) => "...", $tags)`,
# `tags.map(t => `...`)`, `.map { "..." }`; the function's body as written stands for each.
_MAPS = frozenset(("map", "array_map", "select", "collect"))
_ARROW = lazy(r"(?:=>|->|return)\s*|\{\s*(?:[\w, ]+->\s*)?")
_IDENT = lazy(r"\$?(?:script:|global:)?[A-Za-z_]\w*(?:(?:\.|::|->|\?\.)[A-Za-z_]\w*)*")
_LIST_OPEN = lazy(
    r"(?:@\(|new\s*(?:[\w.]*\s*)?\[\s*\]\s*\{|\[\]\s*[\w.]+\s*\{|array\(|\[|\()", re.I
)
_PS_JOIN = lazy(r"\s*-join\s*", re.I)
# An empty collection made by a constructor: `new List<string>()`, `new ArrayList<>()`.
_NEW_EMPTY = lazy(r"new\s+[\w.]+\s*(?:<[^<>;]*>)?\s*\(\s*\)(?!\s*\{)")
# Calls that add elements to the list they are called on, and those that add a list's.
_ADDERS = frozenset(("append", "push", "add", "unshift", "insert", "add_last", "addlast"))
_EXTENDERS = frozenset(("extend", "addrange", "addall", "concat", "push_all"))
_REACH = 3000  # characters before a use where a list variable's assignment is looked for


def join_at(source: Source, pos: int, end: int, resolve: Resolve) -> list[Part] | None:
    """The parts of the join written in text[pos:end], or None when it is no join."""
    text = source.text
    pos = source.skip_space(pos)
    j = source.lit_starting(pos)
    if j is not None:  # most values: a literal that nothing joins (a look at what follows it)
        k = source.skip_space(source.lits[j].end)
        if k < end and text[k] not in ".+-,":
            return None
        if k >= end and source.lits[j].end >= end:
            return None
    if j is not None and source.dialect.name == "powershell":
        listed = _bare_list_join(source, pos, end, resolve)  # `"a", "b" -join " AND "`
        if listed is not None:
            return listed
    if j is not None:  # `" and ".join(items)`: the literal is the separator
        chain = chain_from(source, j)
        args = _join_arguments(source, chain.end, end)
        if args is None or len(args) != 1:
            return None
        return _join(_list_at(source, *args[0], resolve), resolve(pos, chain.end))
    opener = _LIST_OPEN.match(text, pos, end)
    if opener is not None and text[opener.end() - 1] in "([{":
        closer = source.matching_closer(opener.end() - 1)
        if closer < 0 or closer >= end:
            return None
        return _joined_after(
            source, closer + 1, end, _elements(source, opener.end(), closer, resolve), resolve
        )
    m = _IDENT.match(text, pos, end)
    if m is None:
        return None
    after = source.skip_space(m.end())
    if after < end and text[after] == "(":
        closer = source.matching_closer(after)
        if closer < 0 or closer >= end:
            return None
        name = re.split(r"\?\.|\.|->|::", m.group())[-1].lower()
        if name in _JOINS:  # string.Join(sep, list), strings.Join(list, sep), join(sep, list)
            args = _arguments(source, after, closer)
            literal = [source.lit_starting(source.skip_space(a)) is not None for a, _ in args]
            if len(args) > 2 and literal[0]:  # C#'s string.Join(" or ", a, b, c)
                items = [resolve(a, b) for a, b in args[1:]]
                known = [item for item in items if item is not None]
                return _join(known if len(known) == len(items) else None, resolve(*args[0]))
            receiver = m.group()[: -len(name)].rstrip(".?")
            if len(args) == 1 and receiver and literal[0] and not receiver.endswith(("-", ":")):
                # `clauses.join(" AND ")`: a list variable's elements
                elements = _variable_list(source, receiver, pos, resolve)
                return _join(elements, resolve(*args[0]))
            if len(args) != 2 or literal.count(True) != 1:
                return None
            sep_at, list_at = (0, 1) if literal[0] else (1, 0)
            return _join(_list_at(source, *args[list_at], resolve), resolve(*args[sep_at]))
        if (
            name in _LIST_FACTORIES
        ):  # `Stream.of(a, b).collect(...)`, `listOf(a, b).joinToString(...)`
            elements = _elements(source, after + 1, closer, resolve) if closer > after + 1 else None
            return _joined_after(source, closer + 1, end, elements, resolve)
        # `tags.map((t) => ...).join(" OR ")`: computed elements, a known separator
        elements = _mapped(source, after, closer, resolve) if name in _MAPS else None
        return _joined_after(source, closer + 1, end, elements, resolve)
    after = source.skip_space(m.end())
    if not source.text.startswith(".", after) and not _PS_JOIN.match(source.text, m.end(), end):
        return None  # a plain variable: not a join (its value is the resolver's to read)
    elements = _variable_list(source, m.group(), pos, resolve)
    return _joined_after(source, m.end(), end, elements, resolve)


def _bare_list_join(source: Source, pos: int, end: int, resolve: Resolve) -> list[Part] | None:
    """PowerShell's comma list joined without brackets: `"a", "b" -join " AND "`."""
    text = source.text
    items: list[tuple[int, int]] = []
    at = pos
    while at < end:
        stop = argument_end(source, at, end)
        ps = _PS_JOIN.search(text, at, stop)
        while ps is not None and source.token_at(ps.start() + 1) is not None:
            ps = _PS_JOIN.search(text, ps.end(), stop)
        if ps is not None:
            items.append((at, ps.start()))
            if len(items) < 2:
                return None
            elements = [resolve(a, b) for a, b in items]
            known = [e for e in elements if e is not None]
            return _join(known if len(known) == len(elements) else None, resolve(ps.end(), end))
        items.append((at, stop))
        if stop >= end or text[stop] != ",":
            return None
        at = stop + 1
    return None


def _joined_after(
    source: Source, pos: int, end: int, elements: list[list[Part]] | None, resolve: Resolve
) -> list[Part] | None:
    """`.join(sep)` or `-join sep` after the list ending at `pos`, applied to `elements`."""
    ps = _PS_JOIN.match(source.text, pos, end)
    if ps is not None:
        return _join(elements, resolve(ps.end(), end))
    args = _join_arguments(source, pos, end)
    if args is None or len(args) != 1:
        return None
    return _join(elements, resolve(*args[0]))


def _join_arguments(source: Source, pos: int, end: int) -> list[tuple[int, int]] | None:
    """The arguments of a `.join(...)` chained on the expression ending at `pos`."""
    if not source.text.startswith(".", source.skip_space(pos)):
        return None
    for link in links_after(source, pos):
        if link.opener < 0 or link.closer >= end:
            continue
        name = link.name.lower()
        if name in _JOINS:
            return _arguments(source, link.opener, link.closer)
        collector = _COLLECTOR.match(source.text, link.opener + 1, link.closer)
        if name == "collect" and collector is not None:
            inner = source.matching_closer(collector.end() - 1)
            return _arguments(source, collector.end() - 1, inner) if inner > 0 else None
    return None


def _join(elements: list[list[Part]] | None, separator: list[Part] | None) -> list[Part] | None:
    """Elements joined by the separator; unknown elements are two placeholders around it."""
    if not separator or all(p.is_param for p in separator):
        return None
    if elements is None:
        first, last = separator[0].start, separator[-1].end
        return [Part("{}", True, first, first), *separator, Part("{}", True, last, last)]
    joined: list[Part] = []
    for k, element in enumerate(elements):
        if k:
            joined.extend(separator)
        joined.extend(element)
    return joined


def _list_at(source: Source, lo: int, hi: int, resolve: Resolve) -> list[list[Part]] | None:
    """The elements of a list literal at `lo`, or of the list literal a variable there holds."""
    pos = source.skip_space(lo)
    opener = _LIST_OPEN.match(source.text, pos, hi)
    if opener is not None and source.text[opener.end() - 1] in "([{":
        closer = source.matching_closer(opener.end() - 1)
        return _elements(source, opener.end(), closer, resolve) if 0 < closer <= hi else None
    m = _IDENT.match(source.text, pos, hi)
    if m is not None and not source.text[m.end() : hi].strip():
        return _variable_list(source, m.group(), pos, resolve)
    if m is not None and source.text.startswith("(", source.skip_space(m.end())):
        closer = source.matching_closer(source.skip_space(m.end()))
        if 0 < closer < hi and m.group().lower() in _MAPS:  # PHP's array_map(fn ..., $list)
            return _mapped(source, source.skip_space(m.end()), closer, resolve)
    return None


def _mapped(source: Source, opener: int, closer: int, resolve: Resolve) -> list[list[Part]] | None:
    """Two elements made by a mapping function whose body is a literal (each written alike)."""
    for arrow in _ARROW.finditer(source.text, opener + 1, closer):
        if source.token_at(arrow.start()) is not None:
            continue
        at = source.skip_space(arrow.end())
        if source.lit_starting(at) is not None:
            element = resolve(at, None)
            return [element, element] if element else None
    return None


def _variable_list(
    source: Source, var: str, before: int, resolve: Resolve
) -> list[list[Part]] | None:
    """The elements of the list literal `var` was last assigned before `before`, if it was one."""
    dollar = var.startswith("$")
    name = re.escape(var[1:] if dollar else var)
    pattern = re.compile(
        r"(?<![\w$.])"
        + (r"\$" if dollar else "")
        + name
        + r"(?:\s*:\s*[\w.<>\[\]| ]+?)?\s*(?::=|=)(?!=)\s*",
        re.I if dollar else 0,
    )
    last = None
    for m in pattern.finditer(source.text, max(source.pos, before - _REACH), before):
        if source.token_at(m.start()) is None and not source.text.startswith("append(", m.end()):
            last = m  # (Go's `a = append(a, ...)` adds to the list: not a new one)
    if last is None:
        return None
    if _NEW_EMPTY.match(source.text, last.end()):
        return _appended(source, var, last.end(), before, [], resolve)
    opener = _LIST_OPEN.match(source.text, last.end())
    if opener is None or source.text[opener.end() - 1] not in "([{":
        return None
    closer = source.matching_closer(opener.end() - 1)
    if closer < 0:
        return None
    elements = _elements(source, opener.end(), closer, resolve) if closer > opener.end() else []
    return _appended(source, var, closer + 1, before, elements, resolve)


def _appended(
    source: Source,
    var: str,
    after: int,
    before: int,
    elements: list[list[Part]] | None,
    resolve: Resolve,
) -> list[list[Part]] | None:
    """A list's elements with those the statements between `after` and `before` add to it.

    Clauses are pushed one statement at a time, most under a condition
    (`if site: clauses.append(...)`): each added element is taken as present, so
    the joined filter has every clause and separator the code can send; an element
    the resolver cannot read is a placeholder. Adders: `.append`/`.push`/`.Add`
    (`.extend`/`.AddRange` a list's), Ruby's `<<`, PHP's `$a[] =` and `array_push`,
    `+=`, Go's `a = append(a, ...)`.
    """
    if elements is None:
        return None
    text = source.text
    name = re.escape(var)
    adds = re.compile(
        r"(?<![\w$.])(?:array_push\s*\(\s*"
        + name
        + r"\s*,|"
        + name
        + r"\s*(?:(?:\.|->|\?\.)\s*(\w+)\s*\(|(<<|\+=)|\[\s*\]\s*=(?!=)|(?::=|=)\s*append\s*\(\s*"
        + name
        + r"\s*,))",
        re.I if var.startswith("$") else 0,
    )
    found = list(elements)
    if text.find(var.lstrip("$"), after, before) < 0:
        return found
    for m in adds.finditer(text, after, before):
        if source.token_at(m.start()) is not None:
            continue
        method = (m.group(1) or "").lower()
        if m.group(1) is not None and method not in _ADDERS and method not in _EXTENDERS:
            continue
        at = source.skip_space(m.end())
        if m.group(2) or text[m.end() - 1] == "=":  # `<<`, `+=`, `[] =`: one value (or a list)
            listed = _list_at(source, at, before, resolve) if text.startswith("[", at) else None
            if listed is not None:
                found.extend(listed)
            else:
                found.append(resolve(at, None) or [Part("{}", True, at, at)])
            continue
        opener = m.end() - 1 if text[m.end() - 1] == "(" else text.rfind("(", m.start(), m.end())
        closer = source.matching_closer(opener)
        if closer < 0 or closer > before:
            continue
        args = _arguments(source, opener, closer)
        if method in _EXTENDERS:
            for lo, hi in args:
                listed = _list_at(source, lo, hi, resolve)
                found.extend(listed if listed is not None else [[Part("{}", True, lo, lo)]])
            continue
        if m.group(1) is None:  # `array_push($a, ...)`, `a = append(a, ...)`: the list first
            args = args[1:]
        for lo, hi in args:
            spread = text.find("...", lo, hi) >= 0
            element = None if spread else resolve(lo, hi)
            found.append(element or [Part("{}", True, lo, lo)])
    return found


def _elements(source: Source, lo: int, closer: int, resolve: Resolve) -> list[list[Part]] | None:
    """A list literal's elements; None when one of them shows nothing of its text."""
    found: list[list[Part]] = []
    for a, b in _arguments(source, lo - 1, closer):
        element = resolve(a, b)
        if element is None:
            return None
        found.append(element)
    return found or None


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
