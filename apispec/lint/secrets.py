"""Credentials and API keys written literally in source (rule API010).

A script that logs in with `POST /session` or sends `Authorization: Bearer`
needs a secret; the linter flags the ones typed into the file instead of read
from the environment or a secret store. Only literal values count: a value
that is a variable, an interpolation, an environment lookup or an obvious
placeholder (`<token>`, `changeme`, `xxxx`) is left alone.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import NamedTuple

from apispec.lint.patterns import lazy
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
# name = "value", "name": "value", name => 'value', -Password 'value', $name = "value";
# and the fallback of an environment lookup: ENV.fetch('PRTG_PASSWORD', 'value'),
# getOrDefault("API_KEY", "value"), getenv("TOKEN") ?: "value", env.TOKEN || "value"
_ASSIGNED = re.compile(
    r"""(?<![A-Za-z_$@-])(?P<name>[A-Za-z_$@-]*(?:pass(?:word|wd)?|pwd|api[_-]?key|apikey|api[_-]?token|apitoken|secret|token)[A-Za-z_]*)
        (?:['"]\s*,|['"]?\s*[)\]]?\s*(?:\?:|\|\||\?\?)|['"]?\s*(?::=|=>|=|:|\s))\s*
        (?P<q>['"])(?P<value>[^'"\n]{4,200})(?P=q)
        (?!\s*(?:\+|\.\s*[$\w'"]))  # "mock-token-" + name is no literal value
        (?!\s*:(?!:))  # `"key": "token", "value": ...`: a string before `:` is a key""",
    re.I | re.X,
)
# Every name _ASSIGNED accepts contains one of these (lower case); searching for
# them with str.find first is ten times faster than letting the regex try every
# position of a file.
_NAME_PARTS = ("pass", "pwd", "key", "secret", "token")
_NAME_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_$@-")
# Patterns start with a literal where they can (`Bearer`, `://`): the regex
# engine then jumps between occurrences instead of trying every position.
_BEARER = re.compile(r"Bearer(?<!\wBearer)\s+(?P<value>[A-Za-z0-9._~+/=-]{16,})")
_URL_USERINFO = re.compile(r"://(?P<user>[^\s:/@'\"$]+):(?P<value>[^\s@/'\"$]+)@")
_SCHEME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789+.-")
_WORD_CHAR = lazy(r"\w")
_CURL_USER = re.compile(
    r"(?:\s-u\s*|\s--user[=\s]\s*)(['\"]?)(?P<user>[^\s:'\"$]+):(?P<value>[^\s'\"$]+)\1"
)
_PLACEHOLDER = re.compile(
    r"^(?:<.*>|\{.*\}|\$.*|%.*%|x+|\*+|\.+|changeme|change[_-]?me|password|secret|token|"
    r"your[_-].*|example.*|dummy|test|none|null|redacted|placeholder|replace.*|todo)$",
    re.I,
)
_INTERPOLATED = lazy(r"\$\{|\$\(|\{\{|#\{|%s|\{[\w.]*\}|\$[A-Za-z_]")
# Test files (by path) and the dummy values tests use: not credentials anyone leaked.
_TEST_FILE = lazy(
    r"(?:^|[/\\])(?:tests?|__tests__|specs?|testdata)[/\\]|(?:^|[/\\])test_[^/\\]*\Z"
    r"|_(?:test|spec)\.\w+\Z|\.(?:test|spec)\.\w+\Z|Tests?\.(?:cs|java|kt|ps1)\Z",
    re.I,
)
_DUMMY = lazy(r"test|fake|dummy|mock|stub|sample|example|wrong|invalid|bogus|dev\b", re.I)
_DUMMY_LENGTH = 12  # a shorter value in a test file is a placeholder, not a credential
_HEADER_NAMES = re.compile(r"authorization|x-api-key|csrf|content-type", re.I)
_SECRET_NAME = lazy(r"pass(?:word|wd)?|pwd|api[_-]?key|apikey|api[_-]?token|secret|token", re.I)
# The default of an environment lookup: os.environ.get("PRTG_TOKEN", "3c1f..."),
# os.getenv("KEY", "..."), process.env.PRTG_TOKEN ?? "...", $env:PRTG_TOKEN ?? '...'.
# (Quotes may be escaped: a notebook's code is a JSON string.)
_ENV_DEFAULT = re.compile(
    r"""(?:\b(?:os\.environ\.get|os\.getenv|getenv|Getenv)\(\s*\\?(?P<q1>['"])(?P<name>[\w.-]+)"""
    r"""\\?(?P=q1)\s*,\s*|(?:process\.env\.|\$env:)(?P<name2>\w+)\s*(?:\?\?|\|\|)\s*)"""
    r"""\\?(?P<q>['"])(?P<value>[^'"\\\n]{4,200})\\?(?P=q)"""
)
# A name/value record (Postman collection and environment variables, key-value lists in
# JSON or YAML): `{"key": "prtgToken", "value": "9f2c..."}`, the name under `key`/`name`.
_KEY_VALUE = re.compile(
    r"""(?P<q0>['"]?)(?:key|name)(?P=q0)\s*:\s*(?P<q1>['"])(?P<name>[\w.-]{1,80})(?P=q1)\s*,?\s*"""
    r"""(?P<q2>['"]?)value(?P=q2)\s*:\s*(?P<q>['"])(?P<value>[^'"\\\n]{4,200})(?P=q)"""
)
# A Terraform variable whose name says secret, with a literal default.
_HCL_DEFAULT = re.compile(
    r'\bvariable\s+"(?P<name>[\w-]+)"\s*\{[^{}]*?\bdefault\s*=\s*"(?P<value>[^"\n$]{4,200})"'
)


def find_secrets(text: str, filename: str | Callable[[], str] = "") -> list[Secret]:
    """Literal secrets in `text`, in file order; in a test file (by `filename`) dummy values
    (`Bearer test-token`, `fake-key`, short ones) are left alone.

    `filename` may be a function giving it: finding a file's place in its project costs
    system calls, and it is asked only of a file that holds a secret, as few do.
    """
    found: dict[int, Secret] = {}
    for m in _assignments(text):
        value = m.group("value")
        name = m.group("name")
        if _HEADER_NAMES.search(name) or not _literal(value):
            continue
        if name.lower().rstrip("_") in ("token_url", "tokenurl") or value.startswith(("http", "/")):
            continue
        found.setdefault(
            m.start("value"), Secret(Span(m.start("value"), m.end("value")), _kind(name))
        )
    for pattern, needed in (
        (_ENV_DEFAULT, "env"),
        (_ENV_DEFAULT, "getenv"),
        (_HCL_DEFAULT, "default"),
        (_KEY_VALUE, "value"),
    ):
        if needed not in text:
            continue
        for m in pattern.finditer(text):  # a literal fallback of a secret read from elsewhere
            name = m.group("name") or m.group("name2") or ""
            value = m.group("value")
            if _SECRET_NAME.search(name) and _literal(value) and not value.startswith("http"):
                found.setdefault(
                    m.start("value"), Secret(Span(m.start("value"), m.end("value")), _kind(name))
                )
    for pattern, kind, needed in (
        (_BEARER, "bearer token", "Bearer"),
        (_URL_USERINFO, "credentials in URL", "@"),
        (_CURL_USER, "credentials", "-u"),
    ):
        if needed not in text:
            continue
        for m in pattern.finditer(text):
            value = m.group("value")
            if pattern is _URL_USERINFO and not _after_scheme(text, m.start()):
                continue
            if _literal(value):
                found.setdefault(
                    m.start("value"), Secret(Span(m.start("value"), m.end("value")), kind)
                )
    shown = filename() if found and callable(filename) else filename
    if found and isinstance(shown, str) and _TEST_FILE.search(shown):
        found = {
            k: secret
            for k, secret in found.items()
            if not _dummy(text[secret.span.start : secret.span.end])
        }
    return [found[k] for k in sorted(found)]


def _dummy(value: str) -> bool:
    return len(value) < _DUMMY_LENGTH or _DUMMY.search(value) is not None


def _assignments(text: str) -> list[re.Match[str]]:
    """What `_ASSIGNED.finditer(text)` finds, trying the pattern only at names that can match."""
    lowered = text.lower()
    if len(lowered) != len(text):  # a character whose lower case is longer: offsets differ
        return list(_ASSIGNED.finditer(text))
    starts: set[int] = set()
    for part in _NAME_PARTS:
        i = lowered.find(part)
        while i >= 0:
            start = i
            while start > 0 and text[start - 1] in _NAME_CHARS:
                start -= 1
            starts.add(start)
            i = lowered.find(part, i + len(part))
    matches = []
    end = 0
    for start in sorted(starts):
        if start < end:
            continue  # inside the previous match, as finditer would skip it
        m = _ASSIGNED.match(text, start)
        if m is not None:
            matches.append(m)
            end = m.end()
    return matches


def _after_scheme(text: str, colon: int) -> bool:
    """Whether a URL scheme (`https`, `svn+ssh`: a lower-case letter at a word start,
    then letters, digits, `+`, `.`, `-`) ends at `colon`."""
    start = colon
    found = False
    while start > 0 and text[start - 1] in _SCHEME_CHARS:
        start -= 1
        if text[start].islower() and (start == 0 or not _WORD_CHAR.match(text, start - 1)):
            found = True
    return found


def _literal(value: str) -> bool:
    value = value.strip()
    if len(value) < 4 or _PLACEHOLDER.match(value) or _INTERPOLATED.search(value):
        return False
    if value[0] in "+.,)" or value[-1] in "(+":
        return False  # code between two strings (`"x=" + os.Getenv("T")`), not a value
    if len(set(value)) <= 2:
        return False
    return " " not in value or len(value) > 40


def _kind(name: str) -> str:
    for pattern, kind in _KIND_BY_NAME:
        if pattern.search(name):
            return kind
    return "secret"
