"""What a rule sees: the run (registry, targets), the file, and one call in it.

Rules never reach into the engine: everything they read is here, and a
finding is made through `Call.at` or `FileContext.at`, which fill in the
position from the reference or a span inside it.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import NamedTuple

from apispec.lint.finding import Finding, Fix, Severity
from apispec.lint.lines import Lines
from apispec.lint.match import Match
from apispec.lint.reference import Reference, Span
from apispec.lint.rules.meta import Rule
from apispec.registry.model import NONE_PLANNED, Endpoint, Registry
from apispec.registry.releases import Release


class RunContext:
    """The registry and target releases of a run, with what rules compute once per run."""

    def __init__(
        self, registry: Registry, targets: tuple[Release, ...], codes: frozenset[str]
    ) -> None:
        self.registry = registry
        self.targets = targets
        self.codes = codes  # every rule code there is (API012 names unknown ones)
        self.max_limit = registry.limit("max_objects_per_response")
        self.query_names = tuple(q.name for q in registry.query_parameters)
        self._notes: dict[tuple[tuple[str, str], str], str] = {}  # (endpoint, target): note
        # Endpoints the registry names as the successor of a deprecated one: the way
        # forward API002 points to, which API003 does not report a second time.
        self.successors = frozenset(
            s.key for s in map(registry.successor_of, registry.endpoints) if s is not None
        )

    def successor_note(self, ep: Endpoint, target: Release) -> str:
        """`; use GET /x`, `; no successor planned`, ...: what a message says about the successor."""
        key = (ep.key, target.text)
        note = self._notes.get(key)
        if note is None:
            note = self._notes[key] = self._note(ep, target)
        return note

    def _note(self, ep: Endpoint, target: Release) -> str:
        succ = ep.successor
        if succ is None:
            return ""
        if not succ.is_endpoint:
            return "; no successor planned" if succ.text == NONE_PLANNED else f"; successor: {succ}"
        successor = self.registry.successor_of(ep)
        if successor is not None and not self.registry.available_in(successor, target):
            when = f" (it appears in {successor.since})" if successor.since else ""
            return f"; its successor {succ} is not yet available{when}"
        if successor is not None and successor.is_experimental_path:
            return f"; use {succ} (experimental: there is no stable successor yet)"
        return f"; use {succ}"


class FileContext:
    """One file being linted: its text, where it is, and the calls extraction found."""

    __slots__ = ("filter_fixes", "fixes", "lines", "path", "references", "root", "run", "text")

    def __init__(
        self, run: RunContext, text: str, path: str, lines: Lines, root: Path | None = None
    ) -> None:
        self.run = run
        self.text = text
        self.path = path
        self.root = root  # the project's root (the configuration's directory), if known
        self.lines = lines
        self.references: list[Reference] = []
        self.fixes: dict[tuple[int, tuple[str, str]], Fix | None] = {}  # API002's, per call
        # API006's, verified for the whole file at the first one asked for (filter_fixes.py)
        self.filter_fixes: dict[tuple[int, str, int, int], Fix] | None = None

    def project_path(self) -> str:
        """The file's path inside the project: relative to its root when below it, else as
        shown. What the file is (a test file) is said by the project's own directories, never
        by those the project sits in (`/home/ci/tests/checkout/client.py`)."""
        if self.root is None:
            return self.path
        absolute = Path(self.path) if os.path.isabs(self.path) else Path.cwd() / self.path
        try:
            return absolute.resolve().relative_to(self.root).as_posix()
        except (ValueError, OSError):
            return self.path

    def at(self, rule: Rule, span: Span, message: str) -> Finding:
        """A finding of `rule` at `span` of the file."""
        line, column = self.lines.position(span.start)
        end_line, end_column = self.lines.position(span.end)
        return Finding(
            self.path, line, column, end_line, end_column, rule.code, rule.severity, message
        )


class Call(NamedTuple):
    """One call extraction found, and what the registry says about its path."""

    file: FileContext
    ref: Reference
    found: Match
    chosen: list[Endpoint]  # the endpoints the call may mean (one, or every method of the path)

    @property
    def run(self) -> RunContext:
        return self.file.run

    @property
    def shown_path(self) -> str:
        """The call's path for messages: a template when it matched, else `{id}` per parameter."""
        if self.found.template is not None:
            return self.found.template
        return "/" + "/".join("{id}" if s.is_param else s.text for s in self.ref.segments)

    def at(
        self,
        rule: Rule,
        message: str,
        *,
        severity: Severity | None = None,
        span: Span | None = None,
        endpoint: tuple[str, str] | None = None,
        target: str | None = None,
        fix: Fix | None = None,
    ) -> Finding:
        """A finding of `rule` on the call's path, or at `span` inside the call."""
        ref = self.ref
        if span is None:
            line, column, end_line, end_column = ref.line, ref.column, ref.end_line, ref.end_column
        else:
            lines = self.file.lines
            line, column = lines.position(span.start)
            end_line, end_column = lines.position(span.end)
        return Finding(
            self.file.path,
            line,
            column,
            end_line,
            end_column,
            rule.code,
            severity or rule.severity,
            message,
            endpoint,
            target,
            fix,
        )
