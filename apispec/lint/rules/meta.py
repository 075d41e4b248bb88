"""What every rule declares about itself: the record its documentation is rendered from.

`apispec rule CODE`, the SARIF rule descriptions and the rules section of
docs/linter.md all come from these records (one per rule module), so a rule's
documentation cannot drift from its code.
"""

from __future__ import annotations

from dataclasses import dataclass

from apispec.lint.finding import Severity

# Where the rendered rule pages live; SARIF's helpUri points at the rule's anchor.
DOCS_URL = "https://github.com/apispec-v2/apispec/blob/main/docs/linter.md"


@dataclass(frozen=True)
class Rule:
    code: str
    name: str
    severity: Severity
    summary: str  # one line: what the rule reports
    explanation: str  # why it matters and what to do, markdown paragraphs
    example: str  # a line of client code the rule reports
    use_instead: str  # the same line written so that the rule is satisfied
    fix: str = "none"  # what --fix does, in a few words
    fix_safety: str = ""  # when the fix is safe, unsafe or display-only (markdown)
    per_target: bool = False  # evaluated once per --target release

    @property
    def anchor(self) -> str:
        return f"{self.code.lower()}-{self.name}"

    @property
    def help_uri(self) -> str:
        return f"{DOCS_URL}#{self.anchor}"

    def page(self) -> str:
        """The rule's documentation page (markdown), as `apispec rule CODE` prints it."""
        facts = [
            f"Default severity: {self.severity}",
            "Depends on the target release: " + ("yes" if self.per_target else "no"),
            f"Fix: {self.fix}",
        ]
        lines = [
            f"### {self.code} {self.name}",
            "",
            self.summary,
            "",
            *(f"- {fact}" for fact in facts),
            "",
            self.explanation.strip(),
            "",
            "Reported, for example:",
            "",
            "```",
            self.example,
            "```",
            "",
            "Use instead:",
            "",
            "```",
            self.use_instead,
            "```",
            "",
        ]
        if self.fix_safety:
            lines += ["Fix safety: " + self.fix_safety.strip(), ""]
        return "\n".join(lines)
