"""The package's types hold: mypy, strict as pyproject's [tool.mypy] sets it, finds nothing.

A test, so that the README's test command catches a type error as CI does (.ci/run
runs mypy after ruff too). mypy keeps its cache in build/mypy-cache, so a run after
a small change checks only what the change touches.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).parent.parent
PACKAGE = ROOT / "apispec"

# `# type: ignore[code]  # why`: the code (mypy enforces it) and a reason after it
_IGNORE = re.compile(r"#\s*type:\s*ignore\b(?P<rest>.*)")
_EXPLAINED = re.compile(r"\[[a-z-]+(?:,\s*[a-z-]+)*\]\s+#\s*\S")


def test_mypy_finds_no_error_in_the_package() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "mypy"], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.startswith("Success: no issues found")


def test_every_type_ignore_names_its_code_and_says_why() -> None:
    unexplained = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in sorted(PACKAGE.rglob("*.py"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if (m := _IGNORE.search(line)) and not _EXPLAINED.match(m.group("rest"))
    ]
    assert unexplained == []
