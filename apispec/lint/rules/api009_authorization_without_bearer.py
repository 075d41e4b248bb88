"""API009 authorization-without-bearer: an Authorization header the server will refuse."""

from __future__ import annotations

from apispec.lint.finding import Finding, Severity
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
)


def check(call: Call, header: tuple[str, str, Span | None]) -> Finding | None:
    name, value, span = header
    if name.lower() != "authorization" or value is None:
        return None
    if value.strip()[:7].lower() == "bearer ":
        return None
    message = "Authorization header without the required 'Bearer ' prefix: send 'Bearer <token>'"
    return call.at(META, message, span=span)
