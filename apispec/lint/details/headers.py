"""Authorization headers, and which call each belongs to.

A header is found wherever code writes one: a `"Authorization"` key or
argument, `Authorization = ...`, a `"Authorization: ..."` string (curl's -H),
or .NET's `AuthenticationHeaderValue("Basic", ...)`; each then goes to exactly
one call, so a rule reports it once.
"""

from __future__ import annotations

import re
from dataclasses import replace

from apispec.lint.candidates import chain_from, flatten
from apispec.lint.reference import Reference, Span
from apispec.lint.scan import PARAM, Source

# After an "Authorization" key: `: `, ` => `, `, ` (Go's Header.Set, Postman's "value": ...)
_HEADER_SEPARATOR = re.compile(r"\]?\s*(?::|=>|,\s*[\"']value[\"']\s*:|,|=)\s*")
_AUTH_IDENT = re.compile(r"\bAuthorization\s*(?::|=)(?!=)\s*")
_AUTH_SCHEME = re.compile(r"AuthenticationHeaderValue\(\s*\"(\w+)\"\s*,")

Header = tuple[str, str, Span | None]  # (name, value with `{}` for unknown parts, span)


def authorization_headers(source: Source) -> list[tuple[int, Header]]:
    """Every Authorization header of the file, with the offset it is written at, in order."""
    text = source.text
    found: list[tuple[int, Header]] = []
    for lit in source.lits:
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
    for m in _AUTH_IDENT.finditer(text, source.pos, source.endpos):
        if source.token_at(m.start()) is not None:
            continue
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
    return "{}", Span(m.start(), m.end())


def attach_headers(source: Source, refs: list[Reference]) -> None:
    """Give each Authorization header to exactly one reference.

    A header inside a call's window belongs to that call; one set up
    elsewhere goes to the reference a few lines above it (a header set on
    the request object just built), else to the first reference after it
    (a session or a headers constant), so a rule reports it once.
    """
    if not refs:
        return
    headers = authorization_headers(source)
    if not headers:
        return
    assigned: dict[int, list[Header]] = {}
    for pos, header in headers:
        target = None
        for k, ref in enumerate(refs):
            lo, hi = ref.extra.get("call_window", (0, 0))  # type: ignore[misc]
            if lo <= pos < hi:
                target = k
                break
        if target is None:
            line = source.line_col(pos)[0]
            before = [k for k, ref in enumerate(refs) if ref.span.start < pos]
            if before and refs[before[-1]].line >= line - 6:
                target = before[-1]
            else:
                after = [k for k, ref in enumerate(refs) if ref.span.start >= pos]
                target = after[0] if after else len(refs) - 1
        assigned.setdefault(target, []).append(header)
    for k, headers_of in assigned.items():
        refs[k] = replace(refs[k], headers=tuple(headers_of))
