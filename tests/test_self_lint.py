"""The repository lints itself: `apispec lint` in its root, with the [tool.apispec]
configuration of its pyproject.toml, exits 0 (CI runs the same from the wheel)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).parent.parent


def test_the_repository_lints_clean_with_its_own_configuration() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "apispec", "lint", "--format", "json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    report = json.loads(done.stdout)
    errors = [f for f in report["findings"] if f["severity"] == "error"]
    assert done.returncode == 0, errors or done.stderr
    assert report["summary"]["files"] > 100  # the configuration excludes some, not everything
    assert not any(f["path"].startswith(("examples/", "tests/")) for f in report["findings"])
