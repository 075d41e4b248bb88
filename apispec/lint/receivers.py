"""Who receives a call: the method chain it belongs to, and where its arguments stand.

`client.R().SetQueryParam("limit", "50").Get("/devices")`,
`PrtgApi.AppendPathSegment("groups").GetStringAsync()`: a request is often a
chain of calls on one object, and what the request sends (its path segments,
query, method) is spread over the chain. `method_chain` reads the chain a call
belongs to from the brackets stage 1 matched, so it costs a few look-ups;
`call_site` says which call, and which of its arguments, a literal stands in.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from apispec.lint.patterns import lazy
from apispec.lint.scan import Source

CALLEE = re.compile(r"((?:[\w$@]+(?:\(\))?\s*(?:\.|->|::|\?\.)\s*)*[\w$@-]*[\w$])\s*$")
# A run of the characters a callee may hold (letters, digits, `_$@-.>:?()`, blanks, and any
# non-ASCII one), matched on the text before a bracket reversed: the run's length without
# a Python loop per character. Written as the ASCII characters it excludes, as a class
# spanning all of Unicode costs milliseconds to compile.
_CALLEE_RUN = re.compile(r"[^\x00-\x08\x0e-\x1f!\"#%&'*+,/;<=\[\\\]^`{|}~\x7f]*")
# What may stand between `<` and `>` (or `[` and `]`) of type arguments: `<List<T>>`, `[[]Object]`.
_TYPE_ARGUMENT_CHARS = frozenset(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_$.,?[]<>{}:;|&*\"' \t\r\n"
)
_TYPE_ARGUMENT_REACH = 200
_IDENT_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_$@")
_MEMBER = lazy(r"(?:\?\.|\.|->|::)\s*\Z")
_NEXT_LINK = lazy(r"\s*(?:\?\.|\.|->)\s*([A-Za-z_$][\w$]*)")
_MAX_LINKS = 40


def type_arguments_before(text: str, lo: int, end: int, brackets: str) -> int:
    """Where type arguments ending right before `end` start (`<List<T>>`, Go's `[T]`); else `end`.

    `brackets` is the dialect's pair (`<>`, `[]`, or empty where a language has none).
    """
    if not brackets or end <= lo or text[end - 1] != brackets[1]:
        return end
    depth = 0
    i = end - 1
    floor = max(lo, end - _TYPE_ARGUMENT_REACH)
    while i >= floor:
        ch = text[i]
        if ch == brackets[1]:
            depth += 1
        elif ch == brackets[0]:
            depth -= 1
            if depth == 0:
                j = i
                while j > lo and text[j - 1] in " \t":
                    j -= 1
                return i if j > lo and text[j - 1] in _IDENT_CHARS else end
        elif ch not in _TYPE_ARGUMENT_CHARS:
            return end
        i -= 1
    return end


def callee_of(source: Source, lo: int, opener: int) -> re.Match[str] | None:
    """The callee right before the bracket `opener`, the dialect's type arguments skipped."""
    return callee_in(source.text, lo, opener, getattr(source.dialect, "type_brackets", ""))


def callee_in(text: str, lo: int, opener: int, brackets: str = "<>") -> re.Match[str] | None:
    """The callee right before `opener`, type arguments in `brackets` skipped (`api.get<T>(`).

    `CALLEE.search(text, lo, end)`, without trying the positions that cannot
    start it: a match holds only callee characters, so it starts after the
    last other character before the end, and the regex's nested repetitions
    cost a lot at each position it is tried from.
    """
    end = type_arguments_before(text, lo, opener, brackets)
    while end > lo and text[end - 1] in " \t":
        end -= 1
    # the run of callee characters that ends at `end`, read backwards by the regex engine
    run = _CALLEE_RUN.match(text[lo:end][::-1])  # `[...]*`: it matches anywhere
    start = end - (run.end() if run is not None else 0)
    return CALLEE.search(text, start, end)


class Link(NamedTuple):
    """One call of a method chain: `.name(...)`; opener -1 for a property (`.Content`)."""

    name: str
    start: int  # where the name starts
    opener: int
    closer: int


class MethodChain(NamedTuple):
    """`root.a(...).b(...)`: what the chain starts from and its calls, in order."""

    root: str  # the expression before the first call: `c.r`, `api`, `PrtgApi`, `"https://..."`
    root_start: int
    links: tuple[Link, ...]
    at: int  # index of the link whose bracket the chain was asked for

    @property
    def end(self) -> int:
        last = self.links[-1]
        return last.closer + 1 if last.closer >= 0 else last.start + len(last.name)

    @property
    def receiver(self) -> str:
        """The last name of the root (`c.r` -> `r`, `this.api` -> `api`), '' for a literal."""
        name = re.split(r"\?\.|\.|->|::", self.root)[-1]
        return name if name and name[0] not in "\"'`" else ""


def method_chain(source: Source, opener: int) -> MethodChain | None:
    """The method chain whose call opens with the bracket at `opener`."""
    text = source.text
    closer = source.matching_closer(opener)
    m = callee_of(source, max(source.pos, opener - 160), opener)
    if m is None or closer < 0:
        return None
    name_start = (
        m.start(1) + max(m.group(1).rfind("."), m.group(1).rfind(">"), m.group(1).rfind(":")) + 1
    )
    links = [Link(text[name_start : _name_end(text, name_start)], name_start, opener, closer)]
    root, root_start = _back(source, name_start, links)
    at = len(links) - 1
    _forward(source, closer, links)
    return MethodChain(root, root_start, tuple(links), at)


def _name_end(text: str, start: int) -> int:
    end = start
    while end < len(text) and text[end] in _IDENT_CHARS:
        end += 1
    return end


def _back(source: Source, name_start: int, links: list[Link]) -> tuple[str, int]:
    """Walk back over `.call(...)` links before `name_start`; the root expression and its start."""
    text = source.text
    floor = source.pos
    brackets = getattr(source.dialect, "type_brackets", "")
    at = name_start
    for _ in range(_MAX_LINKS):
        m = _MEMBER.search(text, max(floor, at - 80), at)
        if m is None or source.token_at(m.start()) is not None:
            return "", at
        j = m.start()
        while j > floor and text[j - 1] in " \t\r\n":
            j -= 1
        if j <= floor:
            return "", at
        if text[j - 1] == ")":
            opener = source.brackets.opener(j - 1)
            if opener < 0:
                return "", at
            k = type_arguments_before(text, floor, opener, brackets)
            start = k
            while start > floor and text[start - 1] in _IDENT_CHARS:
                start -= 1
            if start == k:  # `(expr).x`: a parenthesized root
                return text[opener:j], opener
            links.insert(0, Link(text[start:k], start, opener, j - 1))
            at = start
            continue
        token = source.token_at(j - 1)
        if token is not None:  # a literal root: "https://...".AppendPathSegment(...)
            return text[token[0] : token[1]], token[0]
        start = j
        while start > floor and (text[start - 1] in _IDENT_CHARS or text[start - 1] == "."):
            start -= 1
        while start < j and text[start] == ".":
            start += 1
        if start == j:
            return "", at
        return text[start:j], start
    return "", at


def links_after(source: Source, end: int) -> tuple[Link, ...]:
    """The calls chained on the expression ending at `end` (`"...".WithHeader(..).GetAsync()`).

    Empty unless at least one of them is a call: a property (`.length`) alone is no chain.
    """
    links: list[Link] = []
    _forward(source, end - 1, links)
    return tuple(links) if any(k.opener >= 0 for k in links) else ()


def _forward(source: Source, closer: int, links: list[Link]) -> None:
    """Extend `links` with the `.call(...)` links after `closer`."""
    text = source.text
    brackets = getattr(source.dialect, "type_brackets", "")
    pos = closer + 1
    for _ in range(_MAX_LINKS):
        m = _NEXT_LINK.match(text, pos, source.endpos)
        if m is None:
            return
        k = m.end()
        if brackets and k < source.endpos and text[k] == brackets[0]:
            k = _type_arguments_after(text, k, source.endpos, brackets)
        while k < source.endpos and text[k] in " \t":
            k += 1
        if k < source.endpos and text[k] == "(":
            end = source.matching_closer(k)
            if end < 0:
                return
            links.append(Link(m.group(1), m.start(1), k, end))
            pos = end + 1
        else:
            links.append(Link(m.group(1), m.start(1), -1, -1))
            pos = m.end()


def _type_arguments_after(text: str, opener: int, endpos: int, brackets: str) -> int:
    depth = 0
    for i in range(opener, min(endpos, opener + _TYPE_ARGUMENT_REACH)):
        ch = text[i]
        if ch == brackets[0]:
            depth += 1
        elif ch == brackets[1]:
            depth -= 1
            if depth == 0:
                return i + 1
        elif ch not in _TYPE_ARGUMENT_CHARS:
            return opener
    return opener


def argument_end(source: Source, pos: int, closer: int) -> int:
    """The end of the argument or option value starting at `pos` (a comma at depth 0, or `closer`)."""
    text = source.text
    depth = 0
    while pos < closer:
        token = source.token_at(pos)
        if token is not None:
            pos = token[1]
            continue
        ch = text[pos]
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch in ",;" and depth == 0:
            return pos
        pos += 1
    return closer


class CallSite(NamedTuple):
    """The call a path literal is an argument of."""

    opener: int
    argument: int  # which argument (0-based) the literal starts
    chain: MethodChain
    constructor: bool  # `new X(...)`

    @property
    def link(self) -> Link:
        return self.chain.links[self.chain.at]


# A call that sends the request (its name starts with a verb, or says request/send):
# what follows it in a chain works on the response.
_NEW_BEFORE = lazy(r"\bnew\s+(?:[\w.]+\.)?\Z")


def call_site(source: Source, start: int) -> CallSite | None:
    """The call whose argument list holds `start` directly (not inside another bracket)."""
    opener = source.enclosing_opener(start, 400)
    if opener < 0 or source.text[opener] != "(":
        return None
    argument = 0
    pos = opener + 1
    while True:
        end = argument_end(source, pos, start)
        if end >= start:
            break
        argument += 1
        pos = end + 1
        if argument > 8:
            return None
    chain = method_chain(source, opener)
    if chain is None:
        return None
    link = chain.links[chain.at]
    text = source.text
    constructor = _NEW_BEFORE.search(text, max(source.pos, link.start - 40), link.start) is not None
    return CallSite(opener, argument, chain, constructor)
