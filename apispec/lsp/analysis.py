"""Lint one document's text for one profile: what the CLI would report for that file.

An Analyzer belongs to one worker thread (the linter's Checker keeps per-file
state), and caches a Checker per profile so the registry is loaded and the
rules are set up once, not per keystroke.
"""

from __future__ import annotations

from dataclasses import dataclass

from apispec.exceptions import ApispecError
from apispec.lsp import adapter
from apispec.lsp.documents import Document
from apispec.lsp.maturity import default_release
from apispec.lsp.settings import Profile


@dataclass(frozen=True)
class Result:
    """The findings of one document version, or why it was not linted."""

    findings: tuple[adapter.Finding, ...]
    skipped: str | None = None
    problems: tuple[str, ...] = ()  # settings the profile could not use, one line each


class Analyzer:
    def __init__(self) -> None:
        self._checkers: dict[tuple[object, ...], tuple[adapter.Checker, tuple[str, ...]]] = {}

    def forget(self) -> None:
        self._checkers.clear()

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

    def lint(self, doc: Document, profile: Profile) -> Result:
        checker, problems = self.checker(profile)
        reason = doc.not_linted(profile.config.max_file_size)
        if reason is not None:
            return Result((), reason, problems)
        findings, reason = adapter.lint_document(checker, doc.text, doc.lint_name)
        return Result(tuple(findings), reason, problems)
