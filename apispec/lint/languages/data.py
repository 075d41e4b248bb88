"""YAML and JSON files: Ansible `uri` tasks, Postman collections, OpenAPI files, notebooks.

In data files the "call" is a mapping: the URL and its `method` are sibling
keys (Ansible, Postman's request object), or an OpenAPI path key holds one
child per method. Jupyter notebooks are JSON whose code cells are scanned as
Python, with every position mapped back into the notebook file.
"""

from __future__ import annotations

import re
from dataclasses import replace

from apispec.lint.languages.common import (
    CallInfo,
    Chain,
    Dialect,
    Extractor,
    Lit,
    Source,
    split_interpolations,
)
from apispec.lint.reference import QueryValue, Reference, Segment, Span

_HOLES = re.compile(r"\{\{[^}\n]*\}\}|\{[^{}\n]*\}|\$\{[^}\n]*\}|(?<=/):[A-Za-z_]\w*")
_VERB_KEYS = ("get", "post", "put", "patch", "delete", "head", "options")
_YAML_METHOD = re.compile(r"^[ \t]*-?[ \t]*['\"]?method['\"]?[ \t]*:[ \t]*['\"]?([A-Za-z]+)", re.M)
_JSON_METHOD = re.compile(r"\"method\"\s*:\s*\"([A-Za-z]+)\"")


class YamlDialect(Dialect):
    name = "yaml"
    token_re = re.compile(
        r"(?P<c>(?<!\S)\#[^\n]*)"
        r"|(?P<dq>\"(?:[^\"\\\n]|\\.)*\")"
        r"|(?P<sq>'(?:[^'\n]|'')*')"
        r"|(?P<key>(?<![^\s-])/[^\s:#'\"]*(?=:(?:[ \t]|$)))"
        r"|(?P<plain>(?<=[:-][ \t])(?![\s|>'\"\[{&*!#])[^\n]*?(?=[ \t]+\#|[ \t]*$))",
        re.M,
    )
    concat_re = None

    def literal(self, m: re.Match[str]) -> Lit | None:
        body = m.group()
        kind = m.lastgroup
        if kind in ("dq", "sq"):
            start, content = m.start() + 1, body[1:-1]
        else:
            start, content = m.start(), body
        style = {"dq": "backslash", "sq": "double'"}.get(kind or "", "none")
        lit = Lit(m.start(), m.end(), split_interpolations(content, start, _HOLES, style))
        return lit

    def command_context(self, source: Source, chain: Chain) -> CallInfo | None:
        text = source.text
        line_start = text.rfind("\n", source.pos, chain.start) + 1
        key_line = text[line_start : chain.start]
        if not key_line.strip(" -") and re.match(
            r"['\"]?:[ \t]*(?:#.*)?$", text[chain.end : chain.end + 80].split("\n")[0]
        ):
            return CallInfo(methods=_yaml_children(text, line_start, source.endpos))
        indent = len(key_line) - len(key_line.lstrip(" -"))
        lo, hi = _yaml_block(text, line_start, indent, source.pos, source.endpos)
        info = CallInfo(window=(lo, hi))
        for m in _YAML_METHOD.finditer(text, lo, hi):
            line_indent = len(m.group()) - len(m.group().lstrip(" -"))
            if line_indent == indent and m.group(1).upper() in _VERBS_UPPER:
                info.method = m.group(1).upper()
                break
        return info

    def extractor(self, source: Source, known: frozenset[str], language: str) -> Extractor:
        return DataExtractor(source, known, language)


_VERBS_UPPER = frozenset(v.upper() for v in _VERB_KEYS)


def _yaml_block(
    text: str, line_start: int, indent: int, floor: int, ceiling: int
) -> tuple[int, int]:
    """The lines around `line_start` indented at least `indent` (one mapping)."""
    lo = line_start
    while lo > floor:
        prev = text.rfind("\n", floor, lo - 1) + 1
        line = text[prev : lo - 1]
        if line.strip() and len(line) - len(line.lstrip(" ")) < indent:
            break
        if line.lstrip().startswith("- ") and len(line) - len(line.lstrip(" ")) + 2 <= indent:
            lo = prev
            break
        lo = prev
    hi = text.find("\n", line_start, ceiling)
    hi = ceiling if hi < 0 else hi
    while hi < ceiling:
        nxt = text.find("\n", hi + 1, ceiling)
        nxt = ceiling if nxt < 0 else nxt
        line = text[hi + 1 : nxt]
        stripped = line.lstrip(" ")
        if stripped and (
            len(line) - len(stripped) < indent
            or (stripped.startswith("- ") and len(line) - len(stripped) <= indent - 2)
        ):
            break
        hi = nxt
    return lo, hi


def _yaml_children(text: str, line_start: int, ceiling: int) -> tuple[str, ...]:
    line_end = text.find("\n", line_start, ceiling)
    line = text[line_start : line_end if line_end >= 0 else ceiling]
    indent = len(line) - len(line.lstrip(" "))
    methods: list[str] = []
    pos = line_end
    while 0 <= pos < ceiling:
        nxt = text.find("\n", pos + 1, ceiling)
        nxt = ceiling if nxt < 0 else nxt
        child = text[pos + 1 : nxt]
        stripped = child.lstrip(" ")
        if stripped and len(child) - len(stripped) <= indent:
            break
        key = stripped.split(":", 1)[0].strip("'\"")
        if key in _VERB_KEYS and key.upper() not in methods:
            methods.append(key.upper())
        pos = nxt if nxt < ceiling else -1
    return tuple(methods)


class JsonDialect(Dialect):
    name = "json"
    token_re = re.compile(r"(?P<dq>\"(?:[^\"\\\n]|\\.)*\")")
    concat_re = None

    def literal(self, m: re.Match[str]) -> Lit | None:
        start = m.start() + 1
        return Lit(
            m.start(), m.end(), split_interpolations(m.group()[1:-1], start, _HOLES, "backslash")
        )

    def command_context(self, source: Source, chain: Chain) -> CallInfo | None:
        text = source.text
        after = re.compile(r"\s*:\s*\{").match(text, chain.end)
        if after is not None:  # an OpenAPI path key: one child per method
            opener = after.end() - 1
            closer = source.matching_closer(opener, 200000)
            methods = []
            for m in re.finditer(
                r"\"(get|post|put|patch|delete|head|options)\"\s*:", text[opener:closer]
            ):
                if (
                    m.group(1).upper() not in methods
                    and _depth(source, opener, opener + m.start()) == 1
                ):
                    methods.append(m.group(1).upper())
            return CallInfo(methods=tuple(methods))
        info = CallInfo()
        at = chain.start
        for _ in range(3):
            opener = source.enclosing_opener(at, 20000)
            if opener < 0:
                break
            closer = source.matching_closer(opener, 40000)
            if text[opener] == "{":
                m = _JSON_METHOD.search(text, opener, closer)
                if m:
                    info.method = m.group(1).upper()
                    info.window = (opener, closer)
                    break
            at = opener
        return info

    def extractor(self, source: Source, known: frozenset[str], language: str) -> Extractor:
        return DataExtractor(source, known, language)


def _depth(source: Source, opener: int, pos: int) -> int:
    depth = 0
    i = opener
    text = source.text
    while i < pos:
        token = source.token_at(i)
        if token is not None and i > token[0] - 1 and i >= token[0]:
            i = token[1]
            continue
        if text[i] in "{[":
            depth += 1
        elif text[i] in "}]":
            depth -= 1
        i += 1
    return depth


class DataExtractor(Extractor):
    """Expands an OpenAPI path key into one reference per method under it."""

    def run(self) -> list[Reference]:
        refs: list[Reference] = []
        for ref in super().run():
            methods = ref.extra.get("methods") or ()
            if methods:
                refs.extend(replace(ref, method=m, extra=dict(ref.extra)) for m in methods)  # type: ignore[union-attr]
            else:
                refs.append(ref)
        return refs


def _yaml(text: str, known: frozenset[str], pos: int, endpos: int) -> list[Reference]:
    source = Source(text, _YAML, pos, endpos)
    return DataExtractor(source, known, "yaml").run()


def _json(text: str, known: frozenset[str], pos: int, endpos: int) -> list[Reference]:
    source = Source(text, _JSON, pos, endpos)
    return DataExtractor(source, known, "json").run()


def _notebook(text: str, known: frozenset[str], pos: int, endpos: int) -> list[Reference]:
    """Code cells decoded from the notebook JSON, scanned as Python, mapped back."""
    from apispec.lint.extract import extract_region
    from apispec.lint.languages.common import unescape

    source = Source(text, _JSON, pos, endpos)
    code: list[str] = []
    offsets: list[int] = []
    lits = source.lits
    i = 0
    while i < len(lits):
        lit = lits[i]
        if lit.raw == "source" and text[lit.end : lit.end + 10].lstrip(" :\n\t").startswith("["):
            opener = text.index("[", lit.end)
            closer = source.matching_closer(opener, 10_000_000)
            j = i + 1
            while j < len(lits) and lits[j].start < closer:
                raw = text[lits[j].start + 1 : lits[j].end - 1]
                decoded, offs = unescape(raw, lits[j].start + 1, "backslash")
                code.append(decoded)
                offsets.extend(
                    offs if offs is not None else range(lits[j].start + 1, lits[j].end - 1)
                )
                j += 1
            code.append("\n")
            offsets.append(lits[j - 1].end if j > i + 1 else lit.end)
            i = j
            continue
        i += 1
    if not code:
        return []
    decoded_text = "".join(code)
    refs = extract_region(decoded_text, "python", known, 0, len(decoded_text))
    return [_remap(ref, offsets, text) for ref in refs]


def _remap(ref: Reference, offsets: list[int], text: str) -> Reference:
    def at(k: int) -> int:
        if k < len(offsets):
            return offsets[k]
        return offsets[-1] + 1

    def span(s: Span | None) -> Span | None:
        return (
            None
            if s is None
            else Span(at(s.start), at(s.end - 1) + 1 if s.end > s.start else at(s.start))
        )

    def position(offset: int) -> tuple[int, int]:
        line = text.count("\n", 0, offset) + 1
        return line, offset - (text.rfind("\n", 0, offset) + 1) + 1

    new_span = span(ref.span) or ref.span
    query = []
    for q in ref.query:
        if q.span is None:
            query.append(q)
            continue
        if q.offset_map is not None:
            omap = tuple(at(k) for k in q.offset_map)
        elif q.value is not None:
            omap = tuple(at(q.span.start + k) for k in range(len(q.value)))
        else:
            omap = None
        query.append(QueryValue(q.name, q.value, span(q.span), q.placeholder_spans, omap))
    line, column = position(new_span.start)
    end_line, end_column = position(new_span.end)
    return replace(
        ref,
        span=new_span,
        segments=tuple(Segment(s.text, s.is_param, span(s.span)) for s in ref.segments),
        query=tuple(query),
        headers=tuple((n, v, span(s)) for n, v, s in ref.headers),
        line=line,
        column=column,
        end_line=end_line,
        end_column=end_column,
        language="notebook",
    )


_YAML = YamlDialect()
_JSON = JsonDialect()
HANDLERS = {"yaml": _yaml, "json": _json, "notebook": _notebook}
