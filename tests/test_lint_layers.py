"""The linter's stages import only earlier stages (the contract in pyproject.toml)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).parent.parent


def test_lint_modules_keep_their_layers() -> None:
    """`lint-imports` checks the layers contract: no import cycles, no stage reaching up."""
    command = shutil.which("lint-imports", path=str(Path(sys.executable).parent))
    assert command is not None, "import-linter is a test dependency (pip install -e '.[test]')"
    done = subprocess.run(
        [command, "--no-logo", "--no-cache"], cwd=ROOT, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Contracts: 1 kept, 0 broken." in done.stdout
