"""Credentials and API keys written literally in source (rule API010).

A script that logs in with `POST /session` or sends `Authorization: Bearer`
needs a secret; the linter flags the ones typed into the file instead of read
from the environment or a secret store. Only literal values count: a value
that is a variable, an interpolation, an environment lookup or an obvious
placeholder (`<token>`, `changeme`, `xxxx`) is left alone.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from apispec.lint.reference import Span


class Secret(NamedTuple):
    """One literal secret: where its value stands and what kind it is."""

    span: Span
    kind: str  # "password", "API key", "bearer token", "credentials in URL", ...


_KIND_BY_NAME = (
    (re.compile(r"pass(?:word|wd)?|pwd", re.I), "password"),
    (re.compile(r"api[_-]?key|apikey|api[_-]?token|apitoken", re.I), "API key"),
    (re.compile(r"secret", re.I), "secret"),
    (re.compile(r"token|bearer", re.I), "token"),
)
# name = "value", "name": "value", name => 'value', -Password 'value', $name = "value"
_ASSIGNED = re.compile(
    r"""(?P<name>[A-Za-z_$@-]*(?:pass(?:word|wd)?|pwd|api[_-]?key|apikey|api[_-]?token|apitoken|secret|token)[A-Za-z_]*)
        ['"]?\s*(?::=|=>|=|:|\s)\s*
        (?P<q>['"])(?P<value>[^'"\n]{4,200})(?P=q)""",
    re.I | re.X,
)
_BEARER = re.compile(r"\bBearer\s+(?P<value>[A-Za-z0-9._~+/=-]{16,})")
_URL_USERINFO = re.compile(
    r"\b[a-z][a-z0-9+.-]*://(?P<user>[^\s:/@'\"$]+):(?P<value>[^\s@/'\"$]+)@"
)
_CURL_USER = re.compile(
    r"(?:\s-u\s*|\s--user[=\s]\s*)(['\"]?)(?P<user>[^\s:'\"$]+):(?P<value>[^\s'\"$]+)\1"
)
_PLACEHOLDER = re.compile(
    r"^(?:<.*>|\{.*\}|\$.*|%.*%|x+|\*+|\.+|changeme|change[_-]?me|password|secret|token|"
    r"your[_-].*|example.*|dummy|test|none|null|redacted|placeholder|replace.*|todo)$",
    re.I,
)
_INTERPOLATED = re.compile(r"\$\{|\$\(|\{\{|#\{|%s|\{[\w.]*\}|\$[A-Za-z_]")
_HEADER_NAMES = re.compile(r"authorization|x-api-key|csrf|content-type", re.I)


def find_secrets(text: str, filename: str = "") -> list[Secret]:
    """Literal secrets in `text`, in file order; `filename` is accepted for symmetry."""
    del filename
    found: dict[int, Secret] = {}
    for m in _ASSIGNED.finditer(text):
        value = m.group("value")
        name = m.group("name")
        if _HEADER_NAMES.search(name) or not _literal(value):
            continue
        if name.lower().rstrip("_") in ("token_url", "tokenurl") or value.startswith(("http", "/")):
            continue
        found.setdefault(
            m.start("value"), Secret(Span(m.start("value"), m.end("value")), _kind(name))
        )
    for pattern, kind in (
        (_BEARER, "bearer token"),
        (_URL_USERINFO, "credentials in URL"),
        (_CURL_USER, "credentials"),
    ):
        for m in pattern.finditer(text):
            value = m.group("value")
            if _literal(value):
                found.setdefault(
                    m.start("value"), Secret(Span(m.start("value"), m.end("value")), kind)
                )
    return [found[k] for k in sorted(found)]


def _literal(value: str) -> bool:
    value = value.strip()
    if len(value) < 4 or _PLACEHOLDER.match(value) or _INTERPOLATED.search(value):
        return False
    if len(set(value)) <= 2:
        return False
    return " " not in value or len(value) > 40


def _kind(name: str) -> str:
    for pattern, kind in _KIND_BY_NAME:
        if pattern.search(name):
            return kind
    return "secret"
