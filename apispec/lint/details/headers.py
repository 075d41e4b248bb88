"""Authorization headers, and which call each belongs to.

A header is found wherever code writes one: a `"Authorization"` key or
argument, `Authorization = ...`, a `"Authorization: ..."` string (curl's -H),
or .NET's `AuthenticationHeaderValue("Basic", ...)`; each then goes to exactly
one call, so a rule reports it once. A header belongs to a call, not to a file:
one set on a named object (`pve_headers = {...}`, `jira.DefaultRequestHeaders`,
`req.Header.Set(...)`) goes to the call that uses that name, and is another
service's when no call of this API does; one among the arguments of a call
that is not this API's is that call's. A header set in the statement that
builds the file's own helper's request (this API's base joined with the
helper's path parameter, which is no call itself) is sent by every call of the
helper: it is checked once.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from dataclasses import replace
from heapq import heappop, heappush
from itertools import pairwise
from typing import TYPE_CHECKING

from apispec.lint.bases import factory_name
from apispec.lint.calls.callee import callee_before
from apispec.lint.calls.method import MEMBER_SPACED
from apispec.lint.candidates import chain_from, flatten
from apispec.lint.details.resolve import resolve_at
from apispec.lint.evidence import Base
from apispec.lint.patterns import lazy
from apispec.lint.reference import Reference, Span
from apispec.lint.scan import PARAM, Lit, Source

if TYPE_CHECKING:
    from collections.abc import Iterator

# After an "Authorization" key: `: `, ` => `, `, ` (Go's Header.Set, Postman's "value": ...)
_HEADER_SEPARATOR = re.compile(r"\]?\s*(?::|=>|,\s*[\"']value[\"']\s*:|,|=)\s*")
_AUTH_IDENT = re.compile(r"\bAuthorization\s*(?::|=)(?!=)\s*")
# Ruby's symbol keys name headers in lower case (RestClient, HTTP.rb): `authorization: key`.
_RUBY_AUTH = lazy(r"(?<![\w:@$])(?::authorization\s*=>|authorization:(?!:))\s*")
_AUTH_SCHEME = re.compile(r"AuthenticationHeaderValue\(\s*\"(\w+)\"\s*,")
_ASSIGNED_TO = re.compile(
    r"(?:^|[\s;(,])\$?(?:script:|global:)?([A-Za-z_][\w]*)(?:\.[\w.]+)?\s*(?::[^=\n]*)?(?::=|=)\s*@?\Z"
)
_SHELL_ASSIGNED = lazy(r"\s*(?:export\s+|local\s+|readonly\s+)?([A-Za-z_]\w*)=")
_ROOT = lazy(r"^\s*(?:(?:var|let|const|auto|val)\s+)?\$?(?:this\.|self\.)?([A-Za-z_]\w*)")
# Calls that set a header on the object they are called on: `req.Header.Set(...)`.
_SETTERS = frozenset(
    [
        "set",
        "add",
        "add_header",
        "addheader",
        "setheader",
        "setrequestheader",
        "tryaddwithoutvalidation",
        "append",
        "put",
        "header",
        "headers",
    ]
)

Header = tuple[str, str, Span | None]  # (name, value with `{}` for unknown parts, span)


def authorization_headers(source: Source) -> list[tuple[int, Header]]:
    """Every Authorization header of the file, with the offset it is written at, in order."""
    text = source.text
    found: list[tuple[int, Header]] = []
    for lit in _mentioning(source, "uthorization"):
        low = lit.raw.lower()
        if low == "authorization":
            m = _HEADER_SEPARATOR.match(text, lit.end)
            if m is None:
                continue
            value = header_value(source, m.end())
            if value is not None:
                found.append((lit.start, ("Authorization", value[0], value[1])))
        elif low.startswith("authorization:"):
            chain = chain_from(source, source.lit_by_start[lit.start])
            parts = chain.parts
            flat, offs, _ = flatten(parts)
            k = len("authorization:")
            while k < len(flat) and flat[k] == " ":
                k += 1
            value_text = flat[k:].replace(PARAM, "{}")
            if k < len(offs):
                span = Span(offs[k], parts[-1].end)
                found.append((lit.start, ("Authorization", value_text, span)))
    for m in _idents(text, source.pos, source.endpos):
        if source.token_at(m.start()) is not None:
            continue
        value = header_value(source, m.end())
        if value is not None:
            found.append((m.start(), ("Authorization", value[0], value[1])))
    if source.dialect.name == "ruby":
        for m in _RUBY_AUTH.finditer(text, source.pos, source.endpos):
            if source.token_at(m.start()) is None:
                value = header_value(source, m.end())
                if value is not None:
                    found.append((m.start(), ("Authorization", value[0], value[1])))
    for m in _AUTH_SCHEME.finditer(text, source.pos, source.endpos):
        if source.token_at(m.start()) is None:
            found.append(
                (m.start(), ("Authorization", m.group(1) + " {}", Span(m.start(1), m.end(1))))
            )
    found.sort(key=lambda item: item[0])
    return found


def _idents(text: str, pos: int, endpos: int) -> Iterator[re.Match[str]]:
    """`_AUTH_IDENT.finditer(text, pos, endpos)`, the regex tried only where the name starts.

    It begins with `\\b`, so a search tries it at every offset of the file; a match
    begins with the name, which `find` reaches much faster (the `\\b` still looks at the
    character before, as the search's would).
    """
    at = text.find("Authorization", pos, endpos)
    while at >= 0:
        m = _AUTH_IDENT.match(text, at, endpos)
        if m is not None:
            yield m
        at = text.find("Authorization", at + 1, endpos)


def _mentioning(source: Source, word: str) -> list[Lit]:
    """The literals whose text holds `word` (any case of its first letter), found from the text.

    Searching the text once is far cheaper than asking every literal of the file.
    """
    text = source.text
    starts = source.lit_starts
    lits = source.lits
    found: dict[int, Lit] = {}
    for spelling in (word, word.upper()):
        at = text.find(spelling, source.pos, source.endpos)
        while at >= 0:
            k = bisect_right(starts, at) - 1
            if k >= 0 and at < lits[k].end:
                found[k] = lits[k]
            at = text.find(spelling, at + len(spelling), source.endpos)
    return [found[k] for k in sorted(found)]


def header_value(source: Source, pos: int) -> tuple[str, Span] | None:
    j = source.lit_starting(pos)
    if j is not None:
        chain = chain_from(source, j)
        value = "".join("{}" if p.is_param else p.text for p in chain.parts)
        return value, Span(chain.start, chain.end)
    m = source.dialect.operand_re.match(source.text, pos)
    if m is None or m.end() == pos:
        return None
    if m.group().startswith("new"):
        return None
    # a variable holding `Bearer ${token}` (only a file that writes `Bearer` may hold one)
    bearer = source.memo.get("bearer")
    if bearer is None:
        bearer = source.memo["bearer"] = "Bearer" in source.text
    parts = resolve_at(source, pos) if bearer else None
    if parts and not all(p.is_param for p in parts):
        return "".join("{}" if p.is_param else p.text for p in parts), Span(m.start(), m.end())
    return "{}", Span(m.start(), m.end())


def attach_headers(
    source: Source, refs: list[Reference], bases: dict[str, Base] | None = None
) -> None:
    """Give each Authorization header to exactly one reference.

    A header inside a call's window belongs to that call (the first such call
    in file order); one set up elsewhere goes to the reference a few lines
    above it (a header set on the request object just built), else to the
    first reference after it (a session or a headers constant), so a rule
    reports it once. Headers and windows are swept in order, not every header
    against every call.
    """
    if not refs:
        return
    refs_weak = [k for k, ref in enumerate(refs) if ref.extra.get("weak")]
    if len(refs_weak) == len(refs):
        return  # only weak evidence: the file may be another product with its own scheme
    headers = authorization_headers(source)
    if not headers:
        return
    windows = sorted((ref.extra.get("call_window", (0, 0)), k) for k, ref in enumerate(refs))
    starts = [ref.span.start for ref in refs]
    in_order = all(a <= b for a, b in pairwise(starts))
    open_windows: list[tuple[int, int]] = []  # (reference index, window end): a heap
    w = 0
    assigned: dict[int, list[Header]] = {}
    for pos, header in headers:
        while w < len(windows) and windows[w][0][0] <= pos:
            (_, hi), k = windows[w]
            heappush(open_windows, (k, hi))
            w += 1
        target = None
        while open_windows:  # the first call (in file order) whose window holds the header
            k, hi = open_windows[0]
            if pos < hi:
                target = k
                break
            heappop(open_windows)  # ended before this header, so before every later one
        if target is None:
            owner = _owner(source, pos)
            if owner is None:
                target = _nearby(source, refs, starts, in_order, pos)
            elif owner:
                target = _user(source, refs, owner)
            if target is None and _in_helper_request(source, pos, owner, bases or {}):
                target = _nearby(source, refs, starts, in_order, pos)
                if refs[target].extra.get("weak"):
                    target = next(k for k, ref in enumerate(refs) if not ref.extra.get("weak"))
        if target is None or refs[target].extra.get("weak"):
            continue  # another service's header: no call of this API uses it
        assigned.setdefault(target, []).append(header)
    for k, headers_of in assigned.items():
        refs[k] = replace(refs[k], headers=tuple(headers_of))


def _owner(source: Source, pos: int) -> str | None:
    """Who a header outside every call of this API belongs to.

    A name (the variable or object it is set on), "" for a call or command that
    is not this API's (the header is that call's), None when the code does not
    say (then the nearest call gets it).
    """
    text = source.text
    line_start = source.line_start(pos)
    if source.dialect.name == "shell":
        m = _SHELL_ASSIGNED.match(text, line_start, pos)
        return m.group(1) if m else ""
    at = pos
    for _ in range(4):
        opener = source.enclosing_opener(at, 600)
        if opener < 0:
            break
        before = text[max(source.line_start(opener), opener - 200) : opener]
        made = factory_name(source, opener) if text[opener] == "(" else None
        if made is None and text[opener] in "{[":
            outer = source.enclosing_opener(opener, 600)
            if outer >= 0 and text[outer] == "(":
                made = factory_name(source, outer)
        if made is not None:  # `httpx.Client(base_url=..., headers={...}) as client`
            return made
        if text[opener] == "(":
            m = callee_before(text, max(source.pos, opener - 160), opener)
            if m is not None:
                names = [n for n in MEMBER_SPACED.split(m.group(1)) if n]
                if names == ["curl_setopt"]:  # PHP: set on the handle, its first argument
                    handle = _ROOT.match(text[opener + 1 : opener + 80].lstrip())
                    return handle.group(1) if handle else None
                if names and names[-1].lower() in _SETTERS and len(names) > 1:
                    root = _ROOT.match(names[0])
                    return root.group(1) if root else None
                if names and "AuthenticationHeaderValue" not in names[-1]:
                    return ""  # an argument of another call
        assigned = _ASSIGNED_TO.search(before)
        if assigned is not None and not (
            assigned.group(1).lower() == "headers" and source.enclosing_opener(opener, 600) >= 0
        ):  # `$p = @{ Headers = @{...} }`: the key of the options the header is in, not a name
            return assigned.group(1)
        if re.search(r"-\w+\s*@?\Z", before):
            return ""  # a PowerShell command's argument (`-Headers @{...}`)
        at = opener
    statement = text[line_start:pos]
    if "=" in statement or "." in statement:
        root = _ROOT.match(statement)
        if root is not None and root.group(1) not in ("headers", "Authorization"):
            return root.group(1)
    return None


def _user(source: Source, refs: list[Reference], owner: str) -> int | None:
    """The first call whose statement names `owner` (the object the header is set on)."""
    flags = re.I if source.dialect.name == "powershell" else 0
    word = re.compile(r"(?<![\w])\$?\{?" + re.escape(owner) + r"(?![\w])", flags)
    text = source.text
    for k, ref in enumerate(refs):
        window = ref.extra.get("call_window", (0, 0))
        start = min(source.line_start(ref.span.start), window[0] or ref.span.start)
        end = max(window[1], ref.span.end)
        if word.search(text, start, end):
            return k
    return None


def _nearby(
    source: Source, refs: list[Reference], starts: list[int], in_order: bool, pos: int
) -> int:
    """The reference a header outside every call window goes to."""
    line = source.line_col(pos)[0]
    if in_order:
        before = bisect_left(starts, pos) - 1  # the last reference that starts before it
        if before >= 0 and refs[before].line >= line - 6:
            return before
        return before + 1 if before + 1 < len(refs) else len(refs) - 1
    earlier = [k for k, start in enumerate(starts) if start < pos]
    if earlier and refs[earlier[-1]].line >= line - 6:
        return earlier[-1]
    later = [k for k, start in enumerate(starts) if start >= pos]
    return later[0] if later else len(refs) - 1


_THIS_API = re.compile(r":1616\b|prtg", re.I)
_OWNER_USES = 6  # uses of a header's object looked at for the request that sends it


def _in_helper_request(source: Source, pos: int, owner: str | None, bases: dict[str, Base]) -> bool:
    """Whether the header at `pos` is sent by a request to this API that is no call itself.

    A helper's body builds one request for every path it is given (`fetch(new
    URL(`/api/v2${path}`, host), { headers })`, `HttpRequest.newBuilder().uri(
    URI.create(baseUrl + API_V2 + path)).header("Authorization", key)`, a Feign
    builder's interceptor beside `.target(..., ".../api/v2")`): the statement that
    holds the header, or one that names the object it is set on, joins this API's
    base (`/api/v2` with no other host, or a base variable of this API).
    """
    if _builds_api_request(source, _statement(source, pos), bases):
        return True
    if not owner:
        return False
    word = re.compile(r"(?<![\w$.])" + re.escape(owner) + r"(?![\w])")
    text = source.text
    for k, m in enumerate(word.finditer(text, _line_end(source, pos), source.endpos)):
        if k >= _OWNER_USES:
            break
        if source.token_at(m.start()) is None and _builds_api_request(
            source, _statement(source, m.start()), bases
        ):
            return True
    return False


def _statement(source: Source, pos: int) -> tuple[int, int]:
    """The lines of the statement around `pos`: its outer call, and a chain's `.link` lines."""
    text = source.text
    lo, hi = source.line_start(pos), _line_end(source, pos)
    at = pos
    for _ in range(4):
        opener = source.enclosing_opener(at, 600)
        if opener < 0:
            break
        before = text[max(source.pos, opener - 40) : opener].rstrip()[-1:]
        if text[opener] == "{" and (not before or before not in "(,=:["):
            break  # a block (a function's body), not a mapping inside the statement
        closer = source.matching_closer(opener)
        lo = min(lo, source.line_start(opener))
        hi = max(hi, _line_end(source, closer) if closer > 0 else hi)
        at = opener
    for _ in range(8):  # a builder chain: `.uri(...)` and `.header(...)` on lines of their own
        if text[source.skip_space(lo) : source.skip_space(lo) + 1] != "." or lo <= source.pos:
            break
        lo = source.line_start(lo - 1)
    for _ in range(8):
        nxt = source.skip_space(hi)
        if not text.startswith(".", nxt) or hi >= source.endpos:
            break
        hi = _line_end(source, nxt)
    return lo, hi


def _line_end(source: Source, pos: int) -> int:
    end = source.text.find("\n", pos, source.endpos)
    return source.endpos if end < 0 else end


def _builds_api_request(source: Source, span: tuple[int, int], bases: dict[str, Base]) -> bool:
    text = source.text
    lo, hi = span
    at = text.find("/api/v2", lo, hi)
    while at >= 0:
        token = source.token_at(at)
        if token is not None and source.in_comment(at) is False:
            before = text[token[0] : at]
            if "://" not in before or _THIS_API.search(before):
                return True
        at = text.find("/api/v2", at + 7, hi)
    for name, base in bases.items():
        if (base.strong or not base.host) and re.search(
            r"(?<![\w$])\$?\{?" + re.escape(name) + r"(?![\w])", text[lo:hi], re.I
        ):  # (names are kept in lower case; `this.base` is a field)
            return True
    return False
