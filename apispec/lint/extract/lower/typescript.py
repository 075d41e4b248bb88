"""TypeScript: the JavaScript lowering, with TypeScript's query file (types, parameter properties)."""

from __future__ import annotations

from apispec.lint.extract.lower.javascript import JavaScriptLowering


class TypeScriptLowering(JavaScriptLowering):
    query_name = "typescript"


LOWERING = TypeScriptLowering
