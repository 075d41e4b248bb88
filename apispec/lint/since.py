"""`--since GIT_REF`: keep only findings on lines changed since a git revision.

Changed lines come from `git diff -U0 REF` (working tree against the ref);
files git does not track yet count as changed throughout.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from apispec.lint.finding import Finding
from apispec.support.exceptions import UsageError

_HUNK = re.compile(r"^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@", re.MULTILINE)
_FILE = re.compile(r"^\+\+\+ (?:b/)?(.*)$", re.MULTILINE)


def _git(args: list[str], cwd: Path) -> str:
    try:
        proc = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=False)
    except FileNotFoundError:
        raise UsageError("--since needs git, which is not installed") from None
    if proc.returncode != 0:
        first = (proc.stderr.strip().splitlines() or ["git failed"])[0]
        raise UsageError(f"--since: {first}")
    return proc.stdout


def changed_lines(ref: str, cwd: Path | None = None) -> tuple[dict[Path, set[int]], set[Path]]:
    """({file: changed line numbers}, untracked files), absolute paths."""
    cwd = cwd or Path.cwd()
    top = Path(_git(["rev-parse", "--show-toplevel"], cwd).strip())
    try:
        _git(["rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}"], cwd)
    except UsageError:
        raise UsageError(f"--since: unknown git revision {ref!r}") from None
    diff = _git(["diff", "-U0", "--no-color", "--no-ext-diff", ref, "--"], top)
    changed: dict[Path, set[int]] = {}
    current: set[int] | None = None
    for line in diff.splitlines():
        file_match = _FILE.match(line)
        if file_match:
            name = file_match.group(1)
            current = (
                None if name == "/dev/null" else changed.setdefault((top / name).resolve(), set())
            )
            continue
        hunk = _HUNK.match(line)
        if hunk and current is not None:
            start, count = int(hunk.group(1)), int(hunk.group(2) or "1")
            current.update(range(start, start + count))
    untracked = {
        (top / name).resolve()
        for name in _git(["ls-files", "--others", "--exclude-standard"], top).splitlines()
    }
    return changed, untracked


def only_changed(findings: list[Finding], ref: str) -> list[Finding]:
    changed, untracked = changed_lines(ref)
    kept = []
    for f in findings:
        path = Path(f.path).resolve()
        if path in untracked or f.line in changed.get(path, ()):
            kept.append(f)
    return kept
