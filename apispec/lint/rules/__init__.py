"""The linter's codes table: every rule, its status, and when the engine runs it.

One module per rule (`api002_deprecated_endpoint.py`) holds the rule's
documentation record (`META`), its messages and its check, side by side; this
table is the one place that lists them all, as ruff's `codes.rs` does. The
engine runs the enabled rules of each hook in table order:

- `call`: once per call found, after its path is matched to the registry;
- `endpoint`: per endpoint the call may mean and per target release; the first
  rule whose `applies()` holds owns the pair (removed beats not-yet-available
  beats deprecated beats experimental), so a call gets one such finding per target;
- `query`: per query value of the call; the first rule whose `applies()` holds
  owns the value;
- `header`: per header the call sends;
- `file`: once per file, after its calls;
- `suppression`: after inline suppressions are applied.
"""

from __future__ import annotations

from enum import StrEnum
from types import ModuleType
from typing import NamedTuple

from apispec.lint.rules import (
    api001_removed_endpoint,
    api002_deprecated_endpoint,
    api003_experimental_endpoint,
    api004_unknown_path,
    api005_not_yet_available,
    api006_invalid_filter,
    api007_method_not_defined,
    api008_limit_too_large,
    api009_authorization_without_bearer,
    api010_literal_credentials,
    api011_unknown_query_parameter,
    api012_unused_suppression,
)
from apispec.lint.rules.meta import DOCS_URL, Rule
from apispec.support.exceptions import UsageError, did_you_mean

__all__ = ["BY_CODE", "CODES", "DOCS_URL", "RULES", "Hook", "Rule", "Status", "rule"]


class Hook(StrEnum):
    CALL = "call"
    ENDPOINT = "endpoint"
    QUERY = "query"
    HEADER = "header"
    FILE = "file"
    SUPPRESSION = "suppression"


class Status(StrEnum):
    STABLE = "stable"
    DEPRECATED = "deprecated"
    REMOVED = "removed"


class Code(NamedTuple):
    """One row of the table: a code, the module that implements it, its status and hook."""

    code: str
    module: ModuleType
    status: Status
    hook: Hook

    @property
    def rule(self) -> Rule:
        meta: Rule = self.module.META
        return meta


CODES: tuple[Code, ...] = (
    Code("API001", api001_removed_endpoint, Status.STABLE, Hook.ENDPOINT),
    Code("API002", api002_deprecated_endpoint, Status.STABLE, Hook.ENDPOINT),
    Code("API003", api003_experimental_endpoint, Status.STABLE, Hook.ENDPOINT),
    Code("API004", api004_unknown_path, Status.STABLE, Hook.CALL),
    Code("API005", api005_not_yet_available, Status.STABLE, Hook.ENDPOINT),
    Code("API006", api006_invalid_filter, Status.STABLE, Hook.QUERY),
    Code("API007", api007_method_not_defined, Status.STABLE, Hook.CALL),
    Code("API008", api008_limit_too_large, Status.STABLE, Hook.QUERY),
    Code("API009", api009_authorization_without_bearer, Status.STABLE, Hook.HEADER),
    Code("API010", api010_literal_credentials, Status.STABLE, Hook.FILE),
    Code("API011", api011_unknown_query_parameter, Status.STABLE, Hook.QUERY),
    Code("API012", api012_unused_suppression, Status.STABLE, Hook.SUPPRESSION),
)
# The order in which rules of one hook are tried, where the first applicable one wins.
_PRECEDENCE = ("API001", "API005", "API002", "API003", "API006", "API008", "API011")

RULES: tuple[Rule, ...] = tuple(row.rule for row in CODES)
BY_CODE: dict[str, Rule] = {rule.code: rule for rule in RULES}


def in_hook(hook: Hook) -> list[Code]:
    """The rows of one hook, in the order the engine runs them."""
    rows = [row for row in CODES if row.hook is hook]
    return sorted(rows, key=lambda r: _PRECEDENCE.index(r.code) if r.code in _PRECEDENCE else 0)


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
