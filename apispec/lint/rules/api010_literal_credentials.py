"""API010 literal-credentials: a secret typed into a file that talks to the API."""

from __future__ import annotations

from collections.abc import Iterator

from apispec.lint.finding import Finding, Severity
from apispec.lint.rules.context import FileContext
from apispec.lint.rules.meta import Rule
from apispec.lint.secrets import find_secrets

META = Rule(
    "API010",
    "literal-credentials",
    Severity.WARNING,
    "Credentials or an API key are written literally in the source.",
    """
A literal password, bearer token or API key in a script ends up in version control
and in logs. Read it from the environment or a secret store instead.
""",
    'headers = {"Authorization": "Bearer 3f9a0c2e7b1d4e8f"}',
    use_instead='headers = {"Authorization": f"Bearer {os.environ[\'API_TOKEN\']}"}',
)


def check(file: FileContext) -> Iterator[Finding]:
    if not file.references:  # only files that call the API: elsewhere it is not ours to say
        return
    for secret in find_secrets(file.text, file.project_path):
        yield file.at(
            META,
            secret.span,
            f"{secret.kind} written literally in the source; "
            "read it from the environment or a secret store",
        )
