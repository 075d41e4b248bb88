"""Markdown and HTML: only code is scanned - fenced blocks and <script> elements.

Prose never yields a reference, however much it looks like an endpoint; a
fenced block is scanned as the language its info string names (`python`,
`bash`, `powershell`, ...), and an unlabelled block as shell when it runs
curl, wget or httpie, else with the generic full-URL scanner.
"""

from __future__ import annotations

import re

from apispec.lint.reference import Reference

_FENCE = re.compile(
    r"^(?P<indent>[ \t]{0,3})(?P<fence>`{3,}|~{3,})[ \t]*(?P<info>[^\n`]*)\n"
    r"(?P<body>[\s\S]*?)^[ \t]{0,3}(?P=fence)[ \t]*$",
    re.M,
)
_SHELLISH = re.compile(r"^\s*(?:\$\s+)?(?:curl|wget|https?|xh)\s", re.M)
_SCRIPT = re.compile(r"<script\b[^>]*>(?P<body>[\s\S]*?)</script\s*>", re.I)


def extract(text: str, known: frozenset[str], pos: int, endpos: int) -> list[Reference]:
    from apispec.lint.extract import FENCE_LANGUAGES, extract_region

    refs: list[Reference] = []
    for m in _FENCE.finditer(text, pos, endpos):
        info = m.group("info").strip().split(" ", 1)[0].strip("{}.").lower()
        language = FENCE_LANGUAGES.get(info)
        if language is None:
            language = "shell" if _SHELLISH.search(m.group("body")) else "generic"
        refs.extend(extract_region(text, language, known, m.start("body"), m.end("body")))
    return refs


def extract_html(text: str, known: frozenset[str], pos: int, endpos: int) -> list[Reference]:
    from apispec.lint.extract import extract_region

    refs: list[Reference] = []
    for m in _SCRIPT.finditer(text, pos, endpos):
        refs.extend(extract_region(text, "javascript", known, m.start("body"), m.end("body")))
    return refs
