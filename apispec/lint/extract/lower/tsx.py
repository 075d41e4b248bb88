"""TSX: TypeScript with JSX, read by the TypeScript lowering and query file."""

from __future__ import annotations

from apispec.lint.extract.lower.typescript import TypeScriptLowering

LOWERING = TypeScriptLowering
