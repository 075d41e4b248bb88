"""Rewriting linted files in place: `--fix`, `--diff` and `--add-suppressions`.

Each file is changed once, never over a change made meanwhile, and never
through a link that leads outside the paths given to the run (docs/cli.md,
"Safety rules"). What changes is the rewriter's: the fixes of the findings
(`Fixer`), or a suppression comment on each finding's line (`Suppressor`).
"""

from __future__ import annotations

import difflib
import os
from pathlib import Path

from apispec.lint.engine import Checker, LintResult, Options, lint_in_budget
from apispec.lint.finding import Finding, Skipped
from apispec.lint.fix import apply_fixes
from apispec.lint.suppression_comment import with_suppressions
from apispec.registry.load import load_registry
from apispec.support.exceptions import debug_traceback
from apispec.support.inputs import InputError

# Findings a suppression comment is never written for: a suppression of an unused
# suppression would only hide the stale comment it reports.
UNSUPPRESSED = frozenset({"API012"})


def unified(before: str, after: str, name: str) -> str:
    return "".join(
        difflib.unified_diff(
            before.splitlines(keepends=True),
            after.splitlines(keepends=True),
            f"a/{name}",
            f"b/{name}",
        )
    )


def _utf8(data: bytes) -> tuple[bytes, str] | None:
    """(BOM, text) of a UTF-8 file's bytes; None for any other encoding."""
    bom = data[:3] if data.startswith(b"\xef\xbb\xbf") else b""
    try:
        return bom, data[len(bom) :].decode("utf-8")
    except UnicodeDecodeError:
        return None


def _below(real: str, roots: list[str]) -> bool:
    return any(real == root or real.startswith(root.rstrip(os.sep) + os.sep) for root in roots)


def add_suppressions(
    text: str, findings: list[Finding], name: str, wanted: set[tuple[int, str]] | None = None
) -> tuple[str, int, list[Finding]]:
    """`text` with `apispec: ignore[CODE]` for the line of each finding (in `wanted`, as
    (line, code), when given): the new text, how many codes were added, and the findings
    no comment could be written for (JSON, a heredoc, a continued line)."""
    per_line: dict[int, set[str]] = {}
    for f in findings:
        if f.code not in UNSUPPRESSED and (wanted is None or (f.line, f.code) in wanted):
            per_line.setdefault(f.line, set()).add(f.code)
    text, added, lines = with_suppressions(text, per_line, name)
    refused = set(lines)
    return (
        text,
        added,
        _unique([f for f in findings if f.line in refused and f.code in per_line[f.line]]),
    )


def _unique(findings: list[Finding]) -> list[Finding]:
    seen: set[tuple[str, int, str]] = set()
    kept = []
    for f in findings:
        if (f.path, f.line, f.code) not in seen:
            seen.add((f.path, f.line, f.code))
            kept.append(f)
    return kept


class Fixer:
    """`--fix` and `--diff` over linted files: each file once, never a stale or partial write.

    A file reached under several names (a symlink and its target, hard links)
    is one file: its names are grouped by (device, inode) and it is fixed once.
    A symlink is written through only when its target lies below a path given
    to the run. The text is read once here, linted again so that the changes
    match exactly these bytes, and written with `write_atomic`, which refuses
    when the file changed since it was read.

    Both re-lints (before a change, and after it for the report) run as the run's
    own linting does: within the file's time budget, a crash caught. A file that
    fails either is left as it is or as written, reported as not checked (exit 3
    for a crash, 2 for the budget), and every other file is still done.
    """

    verb = "fix"  # `PATH: cannot fix: ...`
    not_done = "not fixed"  # `PATH: not fixed: a symlink to ...`

    def __init__(
        self,
        result: LintResult,
        options: Options,
        paths: list[Path],
        unsafe_fixes: bool = False,
        diff: bool = False,
    ) -> None:
        self.result = result
        self.options = options
        self.unsafe_fixes = unsafe_fixes
        self.diff = diff
        self.roots = [os.path.realpath(p) for p in paths]
        self.errors: list[str] = []
        self.warnings: list[str] = []
        self.changed = 0  # fixes applied, or suppressions added
        self.files = 0  # files written (or shown in the diff)
        self.other_encoding: list[str] = []  # files left alone: not UTF-8
        self._checker: Checker | None = None  # made on first use: one registry load a run

    def _lint(self, text: str, name: str) -> list[Finding] | None:
        """The findings of `text` as file `name`; None when it could not be checked, which
        is then in the report in place of the file's findings."""
        if self._checker is None:
            options = self.options
            self._checker = Checker(load_registry(options.registry_dir, options.overlays), options)
        linted = lint_in_budget(self._checker, text, name)
        if linted.skipped is None:
            return linted.findings
        self._not_checked(linted.skipped)
        return None

    def _not_checked(self, skipped: Skipped) -> None:
        result = self.result
        result.findings = [f for f in result.findings if f.path != skipped.path]
        result.skipped = [s for s in result.skipped if s.path != skipped.path] + [skipped]
        result.skipped.sort(key=lambda s: s.path)

    def wanted(self, finding: Finding) -> bool:
        return finding.fix is not None

    def change(self, text: str, findings: list[Finding], name: str) -> tuple[str, int]:
        """The file's new text and how many changes it holds."""
        return apply_fixes(text, findings, self.unsafe_fixes)

    def _files(self) -> list[tuple[str, list[str]]]:
        """(real path, display names) of each file to change, once per (device, inode)."""
        names = sorted({f.path for f in self.result.findings if self.wanted(f)})
        groups: dict[tuple[int, int], list[str]] = {}
        for shown in names:
            try:
                info = os.stat(shown)
            except OSError as exc:
                self.errors.append(f"{shown}: cannot {self.verb}: {exc.strerror or exc}")
                continue
            groups.setdefault((info.st_dev, info.st_ino), []).append(shown)
        files = []
        for shown_names in groups.values():
            reals = sorted({os.path.realpath(n) for n in shown_names})
            inside = [r for r in reals if _below(r, self.roots)]
            if not inside:
                self.warnings.append(
                    f"{shown_names[0]}: {self.not_done}: a symlink to {reals[0]}, "
                    "outside the paths given to apispec"
                )
                continue
            links = os.stat(inside[0]).st_nlink
            if links > len(inside):
                self.warnings.append(
                    f"{shown_names[0]}: {self.not_done}: the file has {links} hard links and only "
                    f"{len(inside)} of them are below the paths given to apispec"
                )
                continue
            files.append((inside[0], shown_names))
        return files

    def run(self) -> str:
        """Apply (or with `diff` show) the changes; the report is re-linted where files changed."""
        from apispec.support.outputs import WriteError, link_atomic, read_for_update, write_atomic

        diffs = []
        refreshed: dict[str, list[Finding]] = {}
        for real, names in self._files():
            shown = next((n for n in names if os.path.realpath(n) == os.path.abspath(n)), names[0])
            try:
                data, state = read_for_update(real, self.options.config.max_file_size)
            except (OSError, InputError) as exc:
                self.errors.append(f"{shown}: cannot {self.verb}: {getattr(exc, 'reason', exc)}")
                continue
            original = _utf8(data)
            if original is None:  # only UTF-8 files are rewritten: never change an encoding
                self.other_encoding.append(shown)
                continue
            bom, text = original
            findings = self._lint(text, shown)  # for exactly these bytes
            if findings is None:
                continue
            try:
                changed, count = self.change(text, findings, shown)
            except Exception as exc:  # one odd file must not end the run; it ends with exit 3
                debug_traceback()
                reason = f"{self.not_done}: internal error ({type(exc).__name__}: {exc})"
                self._not_checked(Skipped(shown, f"{reason}; please report it", internal=True))
                continue
            if not count:
                continue
            if self.diff:
                diffs.append(unified(text, changed, shown))
                continue
            try:
                write_atomic(real, bom + changed.encode("utf-8"), expected=state, name=shown)
                for other in {os.path.realpath(n) for n in names} - {real}:
                    if _below(other, self.roots):
                        link_atomic(real, other)  # hard links stay one file
            except WriteError as exc:
                self.errors.append(str(exc))
                continue
            self.changed += count
            self.files += 1
            for name in names:
                found = self._lint(changed, name)
                if found is not None:
                    refreshed[name] = found
        if refreshed:
            kept = [f for f in self.result.findings if f.path not in refreshed]
            kept.extend(f for found in refreshed.values() for f in found)
            self.result.findings = sorted(kept, key=lambda f: f.sort_key)
        return "".join(diffs)


class Suppressor(Fixer):
    """`--add-suppressions`: an `apispec: ignore[CODE]` comment on the line of each finding,
    in the comment syntax of the code there, as ruff's `--add-noqa` writes `# noqa`."""

    verb = "add suppressions to"
    not_done = "no suppressions added"

    def __init__(self, result: LintResult, options: Options, paths: list[Path]) -> None:
        super().__init__(result, options, paths)
        # (path, line, code) of the findings to suppress: what the run reports after
        # --select, --since and --baseline narrowed it
        self.targets = {(f.path, f.line, f.code) for f in result.findings}
        self.refused: list[Finding] = []

    def wanted(self, finding: Finding) -> bool:
        return finding.code not in UNSUPPRESSED

    def change(self, text: str, findings: list[Finding], name: str) -> tuple[str, int]:
        wanted = {(line, code) for path, line, code in self.targets if path == name}
        changed, added, refused = add_suppressions(text, findings, name, wanted)
        self.refused.extend(refused)
        return changed, added
