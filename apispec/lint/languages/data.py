"""YAML and JSON files: Ansible `uri` tasks, Postman collections, OpenAPI files.

In data files the "call" is a mapping: the URL and its `method` are sibling
keys (Ansible, Postman's request object), or an OpenAPI path key holds one
child per method (one reference per method). Notebooks are JSON too; their
code cells are found in languages/embedded.py.
"""

from __future__ import annotations

import re

from apispec.lint.calls.assemble import CallInfo
from apispec.lint.candidates import Chain
from apispec.lint.languages.dialect import Dialect
from apispec.lint.scan import Lit, Source, split_interpolations

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
