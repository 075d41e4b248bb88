"""Java: the JVM's clients (knowledge/jvm.py) as Java calls them."""

from __future__ import annotations

from apispec.lint.knowledge.jvm import rows

KNOWLEDGE = rows("java")
