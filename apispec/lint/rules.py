"""The linter's rules: codes, default severities and the metadata their docs come from.

`apispec rule CODE`, the SARIF rule descriptions and docs/linter.md are all
rendered from these records, so a rule's documentation cannot drift from it.
"""

from __future__ import annotations

from dataclasses import dataclass

from apispec.exceptions import UsageError, did_you_mean
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
    fix: str = "none"  # "none", "safe" or "safe or unsafe (see above)"
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
        return "\n".join(
            [
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
            ]
        )


RULES: tuple[Rule, ...] = (
    Rule(
        "API001",
        "removed-endpoint",
        Severity.ERROR,
        "The endpoint has been removed in the target release.",
        """
The registry names a release from which the endpoint is gone (its `removed_in`).
A server of that release or newer answers the call with an error. The message
names the removal release and the successor, if any: call that instead.
""",
        'requests.get(f"{base}/experimental/sensors/{sid}/settings", headers=auth)',
        per_target=True,
    ),
    Rule(
        "API002",
        "deprecated-endpoint",
        Severity.WARNING,
        "The endpoint is deprecated in the target release.",
        """
Deprecated endpoints are unsupported and will be removed. The message names the
release that deprecated the endpoint, the release that removes it (or that none is
named yet) and its successor: an endpoint, `none planned` or `to be decided`. When
the successor is not yet available in the target release, the message says so:
keep the old call until you upgrade.

`--fix` rewrites the path to the successor when the successor is a path with the
same method, keeping the original interpolations and quoting. The fix is safe when
the successor is stable (`/sensors/{id}/overview` -> `/sensors/{id}`) and unsafe
when it is experimental (`/devices` -> `/experimental/devices`: the payload may
differ), so it applies only with `--unsafe-fixes`. Successors `none planned` and
`to be decided` are never touched.
""",
        'Invoke-RestMethod -Uri "$base/api/v2/sensors/$id/overview" -Headers $h',
        fix="safe when the successor is stable, unsafe when it is experimental",
        per_target=True,
    ),
    Rule(
        "API003",
        "experimental-endpoint",
        Severity.WARNING,
        "The endpoint is experimental and may change incompatibly between releases.",
        """
Endpoints under `/experimental` are not covered by the stability promise: their
paths, parameters and payloads may change in any release. Pin the server release
your script is tested against, or suppress the finding where you accept the risk
(`# apispec: ignore[API003]`).
""",
        "fetch(`${api}/experimental/devices?limit=100`)",
        per_target=True,
    ),
    Rule(
        "API004",
        "unknown-path",
        Severity.WARNING,
        "The API v2 path is not in the registry.",
        """
The path does not match any endpoint the registry knows. Where a registry path is
a close match (a likely typo) the message offers it and the finding is a warning;
otherwise it is reported as info. It is never an error by default: the spec says its
list of stable endpoints is incomplete, and real servers answer paths it does not
name (`/health`, `/version`, `/devices/{id}/scan`, ...).
""",
        'curl -H "Authorization: Bearer $TOKEN" "https://mon:1616/api/v2/experimental/device"',
    ),
    Rule(
        "API005",
        "not-yet-available",
        Severity.ERROR,
        "The endpoint does not exist yet in the target release.",
        """
The endpoint first appears in a later release than the target (its `since`). A
server of the target release answers 404. Upgrade the server, or pass the release
your server runs with `--target` to see what your code may use.
""",
        'client.post(f"experimental/devices/{dev}/metascan")  # needs 25.x.112',
        per_target=True,
    ),
    Rule(
        "API006",
        "invalid-filter",
        Severity.ERROR,
        "The `filter` query value is not a valid filter expression.",
        """
The filter is checked with the same checker as `apispec filter check`: grammar,
property names, operators allowed per property and value types. The message carries
the checker's code and message, and the column points at the offending part inside
the file. An interpolation inside the filter counts as a value of unknown content, so
`parentid = "{sid}"` is fine while `parentid = ${id}` (an unquoted id where text is
required) is reported. The server answers an invalid filter with 400 `INVALID_FILTER`.
""",
        'params = {"filter": "status eq Down"}',
    ),
    Rule(
        "API007",
        "method-not-defined",
        Severity.ERROR,
        "The HTTP method is not defined for this path.",
        """
The path is known but not with this method, for example `POST
/experimental/sensors/{id}`. The message lists the methods the path has.
""",
        'requests.post(f"{base}/experimental/sensors/{sid}", json=body)',
    ),
    Rule(
        "API008",
        "limit-too-large",
        Severity.WARNING,
        "The `limit` query value is above the maximum objects per response.",
        """
The server never returns more than the registry's maximum objects per response, so a
larger `limit` silently returns fewer objects than asked for. Page with `offset`
instead.
""",
        'params={"limit": 5000}',
    ),
    Rule(
        "API009",
        "authorization-without-bearer",
        Severity.ERROR,
        "The `Authorization` header lacks the required `Bearer ` prefix.",
        """
Tokens and API keys are sent as `Authorization: Bearer <token>`; the prefix is
required and the server answers 401 without it.
""",
        "$headers = @{ Authorization = $apiKey }",
    ),
    Rule(
        "API010",
        "literal-credentials",
        Severity.WARNING,
        "Credentials or an API key are written literally in the source.",
        """
A literal password, bearer token or API key in a script ends up in version control
and in logs. Read it from the environment or a secret store instead.
""",
        'headers = {"Authorization": "Bearer 3f9a0c2e7b1d4e8f"}',
    ),
    Rule(
        "API011",
        "unknown-query-parameter",
        Severity.WARNING,
        "The list endpoint has no such query parameter.",
        """
List endpoints take `limit`, `offset`, `include`, `filter` and `sort_by` (the
registry's common query parameters). Parameters from other APIs or from the old v1
API (`take`, `sort`, `includes`, `filter_objid`) are ignored by the server, so the
call silently does something else than intended. The message suggests the parameter
you probably meant.
""",
        'requests.get(f"{base}/experimental/sensors", params={"take": 50})',
    ),
    Rule(
        "API012",
        "unused-suppression",
        Severity.WARNING,
        "A suppression comment suppresses nothing.",
        """
An `apispec: ignore` or `apispec: ignore[CODE,...]` comment on a line without a
matching finding, or a code in the list that is not reported there. Remove it, so
that it does not hide a future finding by accident.
""",
        "r = requests.get(url)  # apispec: ignore[API003]",
    ),
)

BY_CODE: dict[str, Rule] = {rule.code: rule for rule in RULES}


def rule(code: str) -> Rule:
    """The rule with this code (any case); a UsageError with a did-you-mean otherwise."""
    found = BY_CODE.get(code.upper())
    if found is None:
        raise UsageError(f"unknown rule {code!r}{did_you_mean(code.upper(), BY_CODE)}")
    return found


def expand_codes(codes: list[str] | tuple[str, ...], where: str) -> set[str]:
    """Rule codes and prefixes (`API00`, `ALL`) as a set of codes; unknown ones are errors."""
    result: set[str] = set()
    for raw in codes:
        code = raw.strip().upper()
        if code == "ALL":
            result.update(BY_CODE)
            continue
        matched = {c for c in BY_CODE if c.startswith(code)} if code else set()
        if not matched:
            raise UsageError(f"{where}: unknown rule {raw!r}{did_you_mean(code, BY_CODE)}")
        result.update(matched)
    return result


def rules_markdown() -> str:
    """Every rule's page, in code order: the rules section of docs/linter.md."""
    return "\n".join(r.page() for r in RULES)
