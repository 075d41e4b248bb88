"""The language server's only door into the linter, the filter checker and the registry.

Every other module of `apispec.lsp` talks LSP and calls these functions, so
that a change inside `apispec.lint` (its stages, its fix records) is a change
to this file alone. Nothing here knows about LSP: offsets are 0-based
character offsets into the document text, lines and columns as the linter
reports them (1-based, code points).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from apispec.filters import complete as complete_filter
from apispec.filters.tokens import tokenize as filter_tokens
from apispec.lint.cache import Stamp, content_hash, stamp, walked
from apispec.lint.config import Config, find_config, load_config, parse_severity, parse_size
from apispec.lint.discover import decode, discover, read_bytes, read_text
from apispec.lint.engine import Checker, Options, lint_in_budget
from apispec.lint.extract import extract_references, language_of
from apispec.lint.finding import Applicability, Finding, Severity
from apispec.lint.helpers import Helper, HelperTable
from apispec.lint.match import match
from apispec.lint.prefilter import worth_decoding
from apispec.lint.repository import Repository
from apispec.lint.rules import BY_CODE, expand_codes
from apispec.lint.suppression_comment import suppression_edit
from apispec.registry.load import load_registry
from apispec.registry.model import Endpoint, Registry
from apispec.support.exceptions import ApispecError
from apispec.support.inputs import load_toml, read_input_text

__all__ = [
    "ApispecError",
    "CallSite",
    "Checker",
    "Config",
    "Finding",
    "FixPlan",
    "Helper",
    "HelperTable",
    "Repository",
    "Severity",
    "Stamp",
    "call_sites",
    "complete_filter",
    "config_keys",
    "expand_codes",
    "file_helpers",
    "filter_tokens",
    "find_config",
    "fix_plan",
    "language_of",
    "lint_document",
    "load_config",
    "load_registry",
    "make_checker",
    "parse_severity",
    "parse_size",
    "read_document",
    "read_file",
    "registry_for",
    "rule_url",
    "suppression",
    "workspace_candidates",
    "workspace_files",
]

DEPRECATED_CODES = frozenset({"API001", "API002"})  # findings about endpoints going away


# -- rules ---------------------------------------------------------------------


def rule_url(code: str) -> str | None:
    """Where the rule's documentation lives (what `apispec rule CODE` prints)."""
    rule = BY_CODE.get(code)
    return rule.help_uri if rule else None


# -- configuration and linting -------------------------------------------------


def config_keys(path: Path) -> frozenset[str]:
    """The keys a configuration file sets, so that client settings fill only the rest.

    Called after `load_config` read the same file without error.
    """
    document = load_toml(read_input_text(path), str(path))
    table = (
        document.get("tool", {}).get("apispec", {}) if path.name == "pyproject.toml" else document
    )
    return frozenset(table)


def make_checker(
    config: Config,
    targets: tuple[str, ...],
    registry_dir: Path | None,
    overlays: tuple[Path, ...] = (),
    helpers: HelperTable | None = None,
) -> Checker:
    """A linter for one configuration, as `apispec lint` would build it (registry loaded once);
    `helpers`: the workspace's helper table, as the CLI's second pass over a tree has it."""
    registry = load_registry(registry_dir, overlays)
    return Checker(registry, Options(config, targets, registry_dir, overlays, helpers))


def registry_for(
    registry_dir: Path | None, overlays: tuple[Path, ...]
) -> tuple[Registry, Path | None, tuple[Path, ...], str | None]:
    """The registry with its overlays, as loaded, and None; when that fails, the bundled
    registry and why (an editor keeps linting with the spec's facts, and says so)."""
    try:
        return load_registry(registry_dir, overlays), registry_dir, overlays, None
    except (ApispecError, OSError) as exc:  # the message names the file or directory
        return load_registry(None), None, (), f"{exc}; using the bundled registry"


def keep_trees() -> None:
    """Keep each open document's syntax tree between lints: an edit re-parses only what it
    touched (tree-sitter's incremental parse)."""
    from apispec.lint.extract.parse import keep_trees as keep

    keep()


def forget_tree(name: str) -> None:
    """A closed document's tree is dropped."""
    from apispec.lint.extract import parse

    if parse.TREES is not None:
        parse.TREES.forget(name)


def lint_document(
    checker: Checker, text: str, name: str
) -> tuple[list[Finding], str | None, list[Helper]]:
    """(findings, None, the API helpers the text defines), or ((), why it was not linted, ()):
    over the time budget (`file-timeout`, CPU time of the lint thread) or an internal
    error, as `apispec lint` reports such a file."""
    result = lint_in_budget(checker, text, name)
    if result.skipped is not None:
        return [], result.skipped.reason.removeprefix("not linted: "), []
    return result.findings, None, result.helpers


def file_helpers(checker: Checker, data: bytes, name: str) -> list[Helper]:
    """The API helpers a file's bytes define, as the first pass of `apispec lint` learns them
    (bytes the prefilter rejects, binary ones and a file over its budget define none)."""
    text, _reason = decode(data, checker.worth_decoding)
    if text is None:
        return []
    return lint_in_budget(checker, text, name).helpers


def read_file(path: str, max_size: int) -> tuple[bytes, Stamp | None, bytes] | None:
    """(bytes, status, content hash) of a file within the size limit; None: unreadable or larger."""
    data, info, _reason = read_bytes(path, max_size)
    if data is None or info is None:
        return None
    return data, stamp(info), content_hash(data)


def read_document(path: str, max_size: int) -> tuple[str | None, str | None]:
    """(text, None); (None, reason) when the CLI would skip it; (None, None): nothing to lint."""
    return read_text(path, max_size, worth_decoding)


def workspace_candidates(folder: Path, config: Config) -> dict[str, Stamp]:
    """The files `apispec lint FOLDER` would lint, each with its status as the walk saw it."""
    candidates, _skipped = discover(
        [folder],
        excludes=config.exclude,
        respect_gitignore=config.respect_gitignore,
        max_size=config.max_file_size,
    )
    return {c.path: walked(c) for c in candidates}


def workspace_files(folder: Path, config: Config) -> list[str]:
    """The files `apispec lint FOLDER` would lint (honouring .gitignore and excludes)."""
    candidates, _skipped = discover(
        [folder],
        excludes=config.exclude,
        respect_gitignore=config.respect_gitignore,
        max_size=config.max_file_size,
    )
    return [c.path for c in candidates]


@dataclass(frozen=True)
class FixPlan:
    """A repair in file offsets: what an editor offers as a quick fix."""

    title: str
    applicability: Applicability
    edits: tuple[tuple[int, int, str], ...]  # (start, end, content), file offsets


def fix_plan(finding: Finding) -> FixPlan | None:
    """The linter's fix of a finding (API002's successor, API006's filter fix-it), if any."""
    fix = finding.fix
    if fix is None:
        return None
    edits = tuple((e.start, e.end, e.content) for e in fix.edits)
    return FixPlan(fix.message, fix.applicability, edits)


# -- calls and their endpoints (inlay hints) -----------------------------------


@dataclass(frozen=True)
class CallSite:
    """An API v2 path in the file and the registry endpoints it may call."""

    start: int
    end: int  # file offset just after the path text
    method: str | None
    endpoints: tuple[Endpoint, ...]


def call_sites(text: str, path: str, registry: Registry) -> list[CallSite]:
    sites = []
    for reference in extract_references(text, path, registry):
        found = match(registry, reference)
        if found.endpoint is not None:
            endpoints: tuple[Endpoint, ...] = (found.endpoint,)
        elif found.template is not None and reference.method is None:
            endpoints = tuple(e for e in found.endpoints if e.method == "GET") or found.endpoints
        else:
            continue
        sites.append(
            CallSite(reference.span.start, reference.span.end, reference.method, endpoints)
        )
    return sites


# -- suppressions ----------------------------------------------------------------


def suppression(text: str, line: int, code: str, path: str) -> tuple[int, str] | None:
    """(offset, text to insert) that suppresses `code` on `line` (1-based), or None."""
    edit = suppression_edit(text, line, code, path)
    return None if edit is None else (edit.offset, edit.content)
