"""Lint one document's text for one profile: what the CLI would report for that file.

An Analyzer belongs to one worker thread (the linter's Checker keeps per-file
state), and caches a Checker per profile so the registry is loaded and the
rules are set up once, not per keystroke. A document that calls a helper
another workspace file defines is linted again with the workspace's helper
table, as `apispec lint FOLDER`'s second pass does (apispec.lsp.helper_index).
"""

from __future__ import annotations

from dataclasses import dataclass

from apispec.lsp import adapter
from apispec.lsp.documents import Document
from apispec.lsp.maturity import default_release
from apispec.lsp.settings import Profile
from apispec.support.exceptions import ApispecError


@dataclass(frozen=True)
class Result:
    """The findings of one document version, or why it was not linted."""

    findings: tuple[adapter.Finding, ...]
    skipped: str | None = None
    problems: tuple[str, ...] = ()  # settings the profile could not use, one line each
    helpers: tuple[adapter.Helper, ...] = ()  # the API helpers the text defines (first pass)
    dependency: bytes | None = None  # the digest of the helper table it was linted with


MEMO = 64  # first-pass results kept per thread (open documents, by version)


class Analyzer:
    def __init__(self) -> None:
        self._checkers: dict[tuple[object, ...], tuple[adapter.Checker, tuple[str, ...]]] = {}
        # per profile, the one Checker that knows the workspace's helpers, with their digest
        self._helped: dict[tuple[object, ...], tuple[bytes, adapter.Checker]] = {}
        # uri: (version, profile key, result) of a first pass, shared by learning and linting
        self._memo: dict[str, tuple[int, tuple[object, ...], Result]] = {}
        # uri: the name its text is linted as; that document's syntax tree is kept between
        # edits (an edit re-parses only what it touched) and dropped when it closes
        self._names: dict[str, str] = {}
        adapter.keep_trees()

    def forget(self) -> None:
        self._checkers.clear()
        self._helped.clear()
        self._memo.clear()

    def drop(self, uri: str) -> None:
        """The document is closed: its memo goes (else up to MEMO results of documents
        nobody has open any more stay in memory)."""
        self._memo.pop(uri, None)
        name = self._names.pop(uri, None)
        if name is not None:
            adapter.forget_tree(name)

    def checker(self, profile: Profile) -> tuple[adapter.Checker, tuple[str, ...]]:
        """The Checker of a profile, and the problems met while building it."""
        cached = self._checkers.get(profile.key)
        if cached is not None:
            return cached
        problems: list[str] = []
        registry, registry_dir, overlays, problem = adapter.registry_for(
            profile.registry_dir, profile.overlays
        )
        if problem is not None:
            problems.append(problem)
        targets: list[str] = []
        for target in profile.targets:
            try:
                targets.append(registry.release(target).text)
            except ApispecError as exc:
                where = profile.source or "settings"
                problems.append(f"{where}: target: {exc}")
        if not targets:
            targets.append(default_release(registry).text)
        checker = adapter.make_checker(
            profile.config, tuple(dict.fromkeys(targets)), registry_dir, overlays
        )
        self._checkers[profile.key] = (checker, tuple(problems))
        return checker, tuple(problems)

    def _helped_checker(
        self, profile: Profile, table: tuple[adapter.Repository, bytes]
    ) -> adapter.Checker:
        plain, _ = self.checker(profile)
        repository, digest = table
        known = self._helped.get(profile.key)
        if known is not None and known[0] == digest:
            return known[1]
        options = plain.options
        checker = adapter.make_checker(
            options.config,
            options.targets,
            options.registry_dir,
            options.overlays,
            repository.table,
        )
        self._helped[profile.key] = (digest, checker)
        return checker

    def lint(
        self,
        doc: Document,
        profile: Profile,
        table: tuple[adapter.Repository, bytes] | None = None,
    ) -> Result:
        """The first pass (`table` None: what the text defines, its findings if it calls no
        other file's helper), or the second, with the workspace's helper table."""
        memo = self._memo.get(doc.uri) if table is None and doc.version is not None else None
        if memo is not None and memo[:2] == (doc.version, profile.key):
            return memo[2]
        plain, problems = self.checker(profile)
        checker = plain if table is None else self._helped_checker(profile, table)
        reason = doc.not_linted(profile.config.max_file_size)
        if reason is not None:
            return Result((), reason, problems)
        self._names[doc.uri] = doc.lint_name
        findings, reason, helpers = adapter.lint_document(checker, doc.text, doc.lint_name)
        if table is not None:
            return Result(tuple(findings), reason, problems, (), table[1])
        result = Result(tuple(findings), reason, problems, tuple(helpers))
        if doc.version is not None:
            self._memo.pop(doc.uri, None)
            self._memo[doc.uri] = (doc.version, profile.key, result)
            if len(self._memo) > MEMO:
                del self._memo[next(iter(self._memo))]
        return result
