"""The query a call sends: in its URL, in a mapping among its arguments, or built apart.

Forms read: `?a=1&b=2` in the URL; `params={...}`, `query: {...}`,
`URLSearchParams({...})`, `http_build_query([...])` among the arguments; a
mapping variable (`params=p` with `p = {...}` above); setters shortly before
the call (`q.Set("filter", ...)`, `params.append('limit', 100)`); and a plain
variable holding a literal value (`flt = '...'` then `?filter=${flt}`).
"""

from __future__ import annotations

import re

from apispec.lint.calls.assemble import CallInfo
from apispec.lint.calls.callee import callee_before
from apispec.lint.calls.method import MEMBER_SPACED
from apispec.lint.candidates import PathHit, chain_from, flatten
from apispec.lint.details.filter_value import parse_query_string, value_from_parts
from apispec.lint.details.resolve import resolve_at, resolve_parts
from apispec.lint.languages.clients import table
from apispec.lint.patterns import lazy
from apispec.lint.receivers import argument_end
from apispec.lint.reference import QueryValue, Span
from apispec.lint.scan import CLOSERS, OPENERS, PARAM, Part, Source

_QUERY_CONTAINER = re.compile(
    r"(?:\b(?:params|query|qs|query_params|queryParams|searchParams|query_string)|\$(?:query|params|q))"
    r"\b['\"]?\s*(?:=|:|=>)\s*(@\{|\{|dict\(|\[)"
)
_QUERY_REF = re.compile(r"\b(?:params|query|qs)\s*[=:]\s*(\$?[A-Za-z_]\w*)\b(?!\s*[({\[.])")
_SEARCH_PARAMS = re.compile(
    r"\bURLSearchParams\(\s*\{|\burlencode\(\s*\{|\bhttp_build_query\(\s*(\[|array\()"
)
_SETTER = re.compile(
    r"\.(?:Set|Add|set|append|add|AddQueryParameter|addQueryParameter|queryParam)\(\s*"
)
# The receiver of a setter, and its first name: `q` of `q.Set(`, `url` of `url.searchParams.set(`.
_RECEIVER = lazy(r"(\$?[A-Za-z_]\w*)(?:\.[A-Za-z_]\w*)*\s*\Z")
_VARIABLE = lazy(r"\$?\{?\$?([A-Za-z_]\w*)(?:\.(?:Encode|toString|String)\(\))?\}?\Z")
_QUERY_NAME = lazy(r"[a-z][a-z0-9_]*\Z")
_MAP_KEY = re.compile(r"\s*\[?\s*(?:(['\"])([\w.-]+)\1|([A-Za-z_]\w*))\s*\]?\s*(?:=>|:|=)(?!=)\s*")
_NESTED_QUERY = frozenset(("query", "params", "searchParams", "qs", "query_params", "queryParams"))
_SHORTHAND_KEY = lazy(r"([A-Za-z_$][\w$]*)\s*(?=[,}])")
# What may hold a mapping: `{`, `@{`, `dict(`, `[`, `url.Values{`, `new Dictionary<..>{`,
# `new { ... }` (C#'s anonymous objects), `new URLSearchParams({`, `urlencode({`,
# `http_build_query([`.
_MAPPING_START = lazy(
    r"(?:(?:new\s+)?[\w.]*(?:URLSearchParams|urlencode|http_build_query)\(\s*"
    r"|new\s+[\w.]+(?:<[^;{}()]*>)?\s*(?:\(\s*\))?\s*|new\s*(?=\{)|url\.Values"
    r"|map\[\s*string\s*\]\s*(?:\[\s*\]\s*)?string\s*)?"
    r"(@\{|\{|dict\(|\[|array\()"
)
_NUMBER = re.compile(r"-?\d+(?:\.\d+)?\b")
_FORMAT_SLOT = lazy(r"\{(\d*)\}|%[sdv]")
_JOIN_AFTER = lazy(r"[ \t]*(?:\+|\.\.?(?![\w.])|<>|\|\|)[ \t]*")
_EXPRESSION = lazy(r"[^\s,;)\]}]*")
_VERB = lazy(r"%[sv]")
_FORMAT_CALLS = frozenset(("format", "sprintf", "printf"))
_ENCODED_VARIABLE = lazy(r"\$?([A-Za-z_]\w*)(?:\s*\.\s*(?:Encode|toString|String)\s*\(\s*\))?")
_COMMA = re.compile(r"\s*,\s*")
_BRACES = re.compile(r"^\$?\{|\}$")
_PLAIN_VARIABLE = lazy(r"\$?[A-Za-z_]\w*")


def call_query(source: Source, info: CallInfo) -> list[QueryValue]:
    """The query values the call sends besides its URL's own, as the call stage located them."""
    found = info.query
    if info.query_expr >= 0 or info.query_kwargs:  # an own helper's query argument
        found = list(found)
        if info.query_expr >= 0:
            found.extend(query_at(source, info.query_expr))
        found.extend(value_at(source, name, pos) for name, pos in info.query_kwargs)
        return found
    if not found:
        if info.query_args is not None:
            found = mapping_query(source, *info.query_args)
        elif info.query_mapping >= 0:
            found = parse_mapping(source, info.query_mapping)
        elif info.query_variable is not None:
            found = mapping_of_variable(source, *info.query_variable)
    if info.chain:
        found = found + chain_query(source, info)
    if info.query_assigned >= 0:
        found = found + assigned_query(source, info.query_assigned)
    if not found:
        found = source.dialect.call_query(source, info)
    if not found and info.fallback is not None:
        return call_query(source, info.fallback)
    return found


def assigned_query(source: Source, pos: int) -> list[QueryValue]:
    """The query assigned to a URL apart (`u.RawQuery = url.Values{...}.Encode()`,
    `u.RawQuery = q.Encode()`, `url.search = "a=1&b=2"`)."""
    text = source.text
    j = source.lit_starting(pos)
    if j is not None:
        chain = chain_from(source, j)
        flat, offs, owner = flatten(chain.parts)
        return parse_query_string(flat, offs, owner, chain.parts, 0, len(flat))
    found = query_at(source, pos)
    if found:
        return found
    var = _ENCODED_VARIABLE.match(text, pos)
    return mapping_of_variable(source, var.group(1), pos) if var is not None else []


def chain_query(source: Source, info: CallInfo) -> list[QueryValue]:
    """Query setters of the call's method chain: `.SetQueryParam("limit", "50")`,
    `.AddQueryParameter("filter", ...)`, `.SetQueryParams(new { filter = ... })`."""
    roles = table(source.dialect.name).chain_roles
    found: list[QueryValue] = []
    for link in info.chain:
        role = roles.get(link.name.lower())
        if link.opener < 0 or role not in ("query", "query-map"):
            continue
        start = source.skip_space(link.opener + 1)
        if role == "query":
            j = source.lit_starting(start)
            if j is None:
                continue
            name = source.lits[j].raw
            comma = _COMMA.match(source.text, source.lits[j].end)
            if comma is not None and _QUERY_NAME.match(name):
                found.append(value_at(source, name, comma.end()))
            continue
        opener = _MAPPING_START.match(source.text, start, link.closer)
        if opener is not None:
            found.extend(parse_mapping(source, opener.end() - 1))
        elif (m := _PLAIN_VARIABLE.match(source.text, start, link.closer)) is not None:
            found.extend(mapping_of_variable(source, m.group(), link.opener))
    return found


def url_query(
    source: Source, flat: str, offs: list[int], owner: list[int], parts: list[Part], hit: PathHit
) -> list[QueryValue]:
    """The values of the URL's `?...` part, variables resolved to what they were assigned."""
    if hit.end >= len(flat) or flat[hit.end] != "?":
        return []
    found = parse_query_string(flat, offs, owner, parts, hit.end + 1, hit.query_end)
    if found and found[-1].value == "" and hit.query_end == len(flat) and flat.endswith("="):
        found[-1] = _joined_value(source, found[-1], parts[-1])
    for k, query in enumerate(found):
        if query.value is None and query.span is not None:
            expression = source.text[query.span.start : query.span.end]
            resolved = value_of_variable(source, query.name, expression, query.span.start)
            if resolved is None and _FORMAT_SLOT.fullmatch(expression):
                resolved = _format_argument(source, query.name, query.span.start)
            if resolved is not None:
                found[k] = resolved
    rest = flat[hit.end + 1 : hit.query_end]
    if rest == PARAM:  # `?${params}`, "?" + q.Encode(): the query built apart
        param = parts[owner[hit.end + 1]]
        m = None if _VERB.fullmatch(param.text) else _VARIABLE.search(param.text)
        if m:
            found.extend(mapping_of_variable(source, m.group(1), param.start))
            if not found:
                found.extend(setter_query(source, param.start, param.start, var=m.group(1)))
        elif _VERB.fullmatch(param.text):
            found.extend(_formatted_query(source, parts, param))
    return found


def _format_argument(source: Source, name: str, slot: int) -> QueryValue | None:
    """The literal a template's slot is filled with: `'{0}/groups?limit={1}' -f $api, 10000`,
    `"...?limit={}".format(n)`, `String.format("...?limit=%d", 5000)`, `fmt.Sprintf(...)`."""
    text = source.text
    token = source.token_at(slot)
    if token is None:
        return None
    template = text[token[0] : slot]
    written = _FORMAT_SLOT.match(text, slot)
    numbered = written.group(1) if written is not None else None
    index = int(numbered) if numbered else len(_FORMAT_SLOT.findall(template))
    pos = -1
    closer = -1
    after = re.compile(r"[ \t]*(?:-f\b|\.format\(|%[ \t]*\(?)[ \t]*", re.I).match(text, token[1])
    if after is not None:
        pos = after.end()
        opener = source.enclosing_opener(pos, 400)
        line_end = text.find("\n", pos)
        closer = source.matching_closer(opener) if opener >= 0 else -1
        if closer < 0 or (line_end >= 0 and closer > line_end and text[opener] != "("):
            closer = line_end if line_end >= 0 else source.endpos
    else:
        opener = source.enclosing_opener(token[0], 400)
        m = callee_before(text, max(source.pos, opener - 80), opener) if opener >= 0 else None
        if m is None or MEMBER_SPACED.split(m.group(1))[-1].lower() not in _FORMAT_CALLS:
            return None
        closer = source.matching_closer(opener)
        pos = argument_end(source, token[1], closer) + 1
    for _ in range(index):
        if pos >= closer:
            return None
        pos = argument_end(source, pos, closer) + 1
    if pos >= closer:
        return None
    value = value_at(source, name, source.skip_space(pos))
    return value if value.value is not None else None


def _joined_value(source: Source, query: QueryValue, last: Part) -> QueryValue:
    """A URL ending in `?filter=` continues in what is joined after it
    (`"...?filter=" + [uri]::EscapeDataString('x')`): that value, or a placeholder,
    never an empty one."""
    token = source.token_at(last.end - 1) if last.end > 0 else None
    m = _JOIN_AFTER.match(source.text, token[1] if token else last.end)
    if m is None:
        return query
    return value_at(source, query.name, m.end())


def _formatted_query(source: Source, parts: list[Part], param: Part) -> list[QueryValue]:
    """The query a format call puts in for `%s` (`format("%s/x?%s", base, join("&", [...]))`)."""
    opener = source.enclosing_opener(parts[0].start, 400)
    if opener < 0 or source.text[opener] != "(":
        return []
    m = callee_before(source.text, max(source.pos, opener - 80), opener)
    if m is None or MEMBER_SPACED.split(m.group(1))[-1].lower() not in _FORMAT_CALLS:
        return []
    k = 1 + sum(
        1 for p in parts if p.is_param and _VERB.fullmatch(p.text) and p.start < param.start
    )
    pos = opener + 1
    closer = source.matching_closer(opener)
    for _ in range(k):
        pos = argument_end(source, pos, closer) + 1
        if pos >= closer:
            return []
    value = resolve_at(source, pos)
    if not value:
        return []
    flat, offs, owner = flatten(value)
    return parse_query_string(flat, offs, owner, value, 0, len(flat))


def query_at(source: Source, pos: int) -> list[QueryValue]:
    """The query mapping an expression holds: a mapping literal, or a variable assigned one."""
    text = source.text
    m = _MAPPING_START.match(text, pos, min(source.endpos, pos + 200))
    if m is not None:
        return parse_mapping(source, m.end() - 1)
    var = _PLAIN_VARIABLE.match(text, pos)
    if var is not None:
        return mapping_of_variable(source, var.group().lstrip("$"), pos)
    return []


def mapping_query(source: Source, opener: int, closer: int) -> list[QueryValue]:
    """Query mappings among a call's arguments (between its brackets)."""
    text = source.text
    found: list[QueryValue] = []
    for m in _QUERY_CONTAINER.finditer(text, opener, closer):
        if source.token_at(m.start(1)) is None:
            found.extend(parse_mapping(source, m.start(1) + len(m.group(1)) - 1))
    for m in _SEARCH_PARAMS.finditer(text, opener, closer):
        found.extend(parse_mapping(source, m.end() - 1))
    if not found:
        ref = _QUERY_REF.search(text, opener, closer)
        if ref:
            found.extend(mapping_of_variable(source, ref.group(1), opener))
    if not found:
        found.extend(setter_query(source, opener, closer))
    return found


def mapping_of_variable(source: Source, var: str, before: int) -> list[QueryValue]:
    """The mapping last assigned to `var` before `before`, with what is added to it since.

    Additions are setters (`q.Set("filter", ...)`, `query.Add(...)`) and subscript
    assignments (`params["sort"] = ...`, `$q['sort'] = ...`) between the assignment
    and the use, so a mapping built for one call never leaks into the next.
    """
    text = source.text
    lo = max(source.pos, before - 4000)
    flags = re.I if source.dialect.name == "powershell" else 0
    pattern = re.compile(r"(?<![\w$])\$?" + re.escape(var) + r"\s*(?::=|=)(?!=)\s*", flags)
    last = None
    for m in pattern.finditer(text, lo, before):
        if source.token_at(m.start()) is None and _MAPPING_START.match(text, m.end()):
            last = m
    if last is None:
        return []
    opened = _MAPPING_START.match(text, last.end())
    assert opened is not None
    values = parse_mapping(source, opened.end() - 1)
    values += _subscripts(source, var, last.end(), before)
    return values + setter_query(source, last.start(), before, var=var)


def _subscripts(source: Source, var: str, lo: int, hi: int) -> list[QueryValue]:
    """`var["name"] = value` and `$var.name = value` assignments in text[lo:hi]."""
    text = source.text
    flags = re.I if source.dialect.name == "powershell" else 0
    pattern = re.compile(
        r"(?<![\w$])\$?"
        + re.escape(var)
        + r"(?:\[\s*(['\"])([\w.-]+)\1\s*\]|\.([A-Za-z_]\w*))\s*=(?!=)\s*",
        flags,
    )
    found = []
    for m in pattern.finditer(text, lo, hi):
        if source.token_at(m.start()) is None:
            found.append(value_at(source, m.group(2) or m.group(3), m.end()))
    return found


def setter_query(source: Source, lo: int, hi: int, var: str | None = None) -> list[QueryValue]:
    """`q.Set("filter", ...)`, `params.append('limit', 100)` shortly before the call."""
    text = source.text
    start = lo
    for _ in range(12):
        prev = text.rfind("\n", source.pos, start - 1)
        if prev < 0:
            start = source.pos
            break
        start = prev
    found: list[QueryValue] = []
    used = text[lo:hi]
    for m in _SETTER.finditer(text, start, hi):
        receiver = _RECEIVER.search(text, max(source.pos, m.start() - 80), m.start())
        while receiver is not None and receiver.start() > 0 and text[receiver.start() - 1] == ".":
            receiver = _RECEIVER.search(text, max(source.pos, m.start() - 80), receiver.start() - 1)
        if receiver is None:
            continue
        if var is not None and receiver.group(1) != var:
            continue
        if var is None and not re.search(
            r"(?<![\w.])" + re.escape(receiver.group(1)) + r"\b", used
        ):
            continue
        if source.token_at(m.start()) is not None:
            continue
        j = source.lit_starting(m.end())
        if j is None:
            continue
        name = source.lits[j].raw
        if not _QUERY_NAME.match(name):
            continue
        comma = _COMMA.match(text, source.lits[j].end)
        if comma is None:
            continue
        found.append(value_at(source, name, comma.end()))
    return found


def parse_mapping(source: Source, opener: int) -> list[QueryValue]:
    """Entries `key: value` / `key = value` / `'key' => value` of one mapping literal."""
    text = source.text
    if text[opener] not in "({[":
        return []
    closer = source.matching_closer(opener)
    if closer < 0:
        return []
    return entries(source, opener + 1, closer)


def entries(source: Source, pos: int, closer: int) -> list[QueryValue]:
    """Entries `key: value` / `key = value` / `'key' => value` from `pos` to `closer`."""
    text = source.text
    found: list[QueryValue] = []
    while pos < closer:
        pos = source.skip_gap(pos)  # comments between entries are no entries
        if pos >= closer:
            break
        m = _MAP_KEY.match(text, pos, closer)
        if m is not None:
            name = m.group(2) or m.group(3)
            value = source.skip_gap(m.end())
            if (
                text[value] in "{("
                and source.lit_starting(value) is None
                # `{ filter: ... }`, not `{"x"}`
                and _MAP_KEY.match(text, source.skip_gap(value + 1), closer)
            ):
                # a mapping inside: openapi-fetch's `params: { query: {...}, path: {...} }`
                if name in _NESTED_QUERY:
                    found.extend(parse_mapping(source, value))
            else:
                found.append(value_at(source, name, value))
            pos = value
        elif source.dialect.shorthand_keys and (
            short := _SHORTHAND_KEY.match(text, pos, closer + 1)
        ):
            found.append(
                value_at(source, short.group(1), pos)
            )  # `{ filter }`: the variable's value
            pos = short.end(1)
        # skip to the next entry separator at depth 0
        depth = 0
        while pos < closer:
            token = source.token_at(pos)
            if token is not None and pos >= token[0]:
                pos = token[1]
                continue
            ch = text[pos]
            if ch in OPENERS:
                depth += 1
            elif ch in CLOSERS:
                depth -= 1
            elif depth == 0 and ch in ",;\n":
                pos += 1
                break
            pos += 1
    return found


def value_at(source: Source, name: str, pos: int) -> QueryValue:
    """The value of query `name` written at `pos`: a literal, a number, or what an expression holds."""
    text = source.text
    j = source.lit_starting(pos)
    if j is None:
        m = _NUMBER.match(text, pos)
        if m:
            return QueryValue(name, m.group(), Span(m.start(), m.end()))
        if text[pos : pos + 1] in ("{", "["):  # Go's url.Values{"filter": {"..."}}: the first
            inner = source.skip_space(pos + 1)
            if source.lit_starting(inner) is not None or _NUMBER.match(text, inner):
                return value_at(source, name, inner)
        parts = resolve_at(source, pos)
        if parts is None or all(p.is_param for p in parts):
            # Not known: the expression still says where the parameter is written, which
            # is where a finding on its name points (`q.Set("take", strconv.Itoa(n))`).
            m = _EXPRESSION.match(text, pos)
            return QueryValue(name, None, Span(pos, m.end()) if m and m.end() > pos else None)
        return value_from_parts(name, parts, parts[0].start, parts[-1].end, decode=False)
    chain = chain_from(source, j)
    parts = resolve_parts(source, chain.parts, 0)
    return value_from_parts(name, parts, chain.start, chain.end, decode=False)


def value_of_variable(source: Source, name: str, expression: str, before: int) -> QueryValue | None:
    """What an interpolated query value holds (`?filter=${f}`, `{quote(flt)}`), where known."""
    from apispec.lint.details.resolve import resolve_text

    parts = resolve_text(source, expression, before, 0)
    if parts is None or all(p.is_param for p in parts):
        return None
    return value_from_parts(name, parts, parts[0].start, parts[-1].end, decode=False)


_TEMPLATE_VARIABLE = lazy(r"\{([A-Za-z_][\w.-]*)\}\Z")


def template_values(
    source: Source, query: list[QueryValue], parts: list[Part], info: CallInfo
) -> list[QueryValue]:
    """URI template variables filled from the call's last arguments (Spring's varargs).

    `rest.getForObject(base + "/devices?filter={f}&limit={n}", List.class, flt, 500)`,
    `web.get().uri("/x?filter={f}", flt)`: the template's variables, in the order they
    first appear, take the call's last arguments in order.
    """
    if info.opener < 0 or info.closer <= info.opener:
        return query
    variables: list[str] = []
    for part in parts:
        m = _TEMPLATE_VARIABLE.match(part.text) if part.is_param else None
        if m is not None and m.group(1) not in variables:
            variables.append(m.group(1))
    if not variables:
        return query
    arguments = []
    pos = info.opener + 1
    while pos < info.closer:
        end = argument_end(source, pos, info.closer)
        arguments.append(source.skip_space(pos))
        pos = end + 1
    if len(arguments) <= len(variables):
        return query  # no path argument before them: not the varargs form
    at = dict(zip(variables, arguments[-len(variables) :], strict=True))
    filled: list[QueryValue] = []
    for q in query:
        text = source.text[q.span.start : q.span.end] if q.span is not None else ""
        m = _TEMPLATE_VARIABLE.match(text)
        if q.value is None and m is not None and m.group(1) in at:
            filled.append(value_at(source, q.name, at[m.group(1)]))
        else:
            filled.append(q)
    return filled
