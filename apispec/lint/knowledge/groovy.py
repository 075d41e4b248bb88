"""Groovy and Jenkinsfiles: the JVM's clients (knowledge/jvm.py) and Jenkins' HTTP steps.

`httpRequest url: u, httpMode: 'POST', customHeaders: [[name: k, value: v]]` (the HTTP
Request plugin) is a request; `new URL(u).text` reads one (GET). A pipeline's `sh` and
`powershell` steps are shell and PowerShell code (lower/groovy.scm's regions).
"""

from __future__ import annotations

from apispec.lint.knowledge import Client
from apispec.lint.knowledge.jvm import rows

KNOWLEDGE = rows(
    "groovy",
    clients=(
        Client("", ("httpRequest",), (0, "url"), (-1, "httpMode"), headers=(-1, "customHeaders")),
        Client("object:java.url", ("getText", "openStream", "withReader"), chain=True),
    ),
    transforms={".join": "join_items"},
)
