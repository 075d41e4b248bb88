"""API009 authorization-without-bearer: an Authorization header the server will refuse."""

from __future__ import annotations

import re

from apispec.lint.finding import Applicability, Edit, Finding, Fix, Severity
from apispec.lint.reference import Span
from apispec.lint.rules.context import Call
from apispec.lint.rules.meta import Rule

META = Rule(
    "API009",
    "authorization-without-bearer",
    Severity.ERROR,
    "The `Authorization` header lacks the required `Bearer ` prefix.",
    """
Tokens and API keys are sent as `Authorization: Bearer <token>`; the prefix is
required and the server answers 401 without it.
""",
    "$headers = @{ Authorization = $apiKey }",
    use_instead='$headers = @{ Authorization = "Bearer $apiKey" }',
    fix="safe: `Bearer ` written at the start of the header's string (unsafe when it "
    "starts with an interpolation)",
    fix_safety="""
`--fix` writes `Bearer ` at the start of the string that holds the header
(`"abc123"` -> `"Bearer abc123"`, `-H "Authorization: $TOKEN"` -> `-H
"Authorization: Bearer $TOKEN"`). It is safe when the string starts with literal
text, and unsafe when it starts with an interpolation (`f"{token}"`), which might
already hold the prefix. A header given another scheme (`"Basic " + creds`) or as a
bare variable gets no fix: the server wants a token, not those credentials, and a
variable may hold anything.
""",
)

# A string's opening: a prefix (f, r, b, $, @, $@) and its quote, not a triple quote
# or a here-string (the value would start on a later line).
_OPENING = re.compile(r"""(?:[fFrRbBuU]{1,2}|\$@?|@\$?)?(["'`])(?!\1)(?![\r\n])""")
# The end of a string's opening right before a span that starts at its content (the
# syntax tree gives the text inside the quotes), not a triple quote's.
_OPENED = re.compile(r"""(?<![\"'`])["'`]\Z""")
# Text right before a value written inside the header's own string (curl's -H).
_IN_HEADER = re.compile(r"authorization:\s*\Z", re.IGNORECASE)
_OTHER_SCHEME = re.compile(r"[A-Za-z][\w-]*\s")  # `Basic `, `Token `: another scheme


def check(call: Call, header: tuple[str, str, Span | None]) -> Finding | None:
    name, value, span = header
    if name.lower() != "authorization" or value is None:
        return None
    if value.strip()[:7].lower() == "bearer ":
        return None
    message = "Authorization header without the required 'Bearer ' prefix: send 'Bearer <token>'"
    fix = _bearer(call.file.text, value, span) if span is not None else None
    return call.at(META, message, span=span, fix=fix)


def _bearer(text: str, value: str, span: Span) -> Fix | None:
    """`Bearer ` inserted where the header's string starts, when the code writes one."""
    if _OTHER_SCHEME.match(value):
        return None
    line_start = text.rfind("\n", 0, span.start) + 1
    if _IN_HEADER.search(text, line_start, span.start):
        at = span.start
    else:
        opening = _OPENING.match(text, span.start, span.end)
        if opening is not None:
            at = opening.end()
        elif _OPENED.search(text, max(0, span.start - 3), span.start):
            at = span.start
        else:
            return None  # a bare variable: no string to write the prefix into
    applicability = Applicability.UNSAFE if value.startswith("{}") else Applicability.SAFE
    return Fix("write 'Bearer ' before the token", applicability, (Edit(at, at, "Bearer "),))
