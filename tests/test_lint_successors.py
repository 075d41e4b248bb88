"""Following the linter's advice gives a clean run (issue 13 point 4, acceptance 3).

API002 names the successor of a deprecated endpoint; a script that calls every
successor the registry names must lint clean with the default settings. API003
is info by default and does not report an experimental successor a second time.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

from apispec.registry.model import Registry

BASE = 'BASE = "https://prtg.example.com:1616/api/v2"\n'


def apispec(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "apispec", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=60,
    )


def call(method: str, path: str) -> str:
    """A requests call of `method path`, each path parameter an interpolated variable."""
    url = re.sub(r"\{([a-z_]+)\}", r"{\1_value}", path)
    return f'requests.{method.lower()}(f"{{BASE}}{url}")\n'


def test_a_script_that_follows_every_successor_lints_clean(
    registry: Registry, tmp_path: Path
) -> None:
    successors = sorted(
        {s.key for s in map(registry.successor_of, registry.endpoints) if s is not None}
    )
    assert len(successors) >= 10  # stable and experimental ones
    assert any(path.startswith("/experimental/") for _, path in successors)
    (tmp_path / "migrated.py").write_text(BASE + "".join(call(*key) for key in successors))
    done = apispec("lint", "--format", "json", "migrated.py", cwd=tmp_path)
    report = json.loads(done.stdout)
    assert done.returncode == 0, report["findings"]
    assert report["findings"] == []  # not even an info: API002 already said "experimental"
    assert report["summary"]["targets"] == ["25.x.122"]


def test_the_advice_says_that_an_experimental_successor_is_experimental(
    tmp_path: Path,
) -> None:
    (tmp_path / "old.py").write_text(BASE + call("GET", "/devices"))
    done = apispec("lint", "--format", "concise", "--quiet", "old.py", cwd=tmp_path)
    assert done.stdout == (
        "old.py:2:22: API002 [warning] GET /devices is deprecated since 24.3.100 (no removal "
        "release named); use GET /experimental/devices (experimental: there is no stable "
        "successor yet)\n"
    )
    assert done.returncode == 1  # a warning: the deprecated call fails at the default fail level


def test_experimental_calls_are_info_and_can_be_made_to_fail(tmp_path: Path) -> None:
    (tmp_path / "exp.py").write_text(BASE + call("POST", "/experimental/devices/{id}/move"))
    shown = apispec("lint", "--format", "concise", "exp.py", cwd=tmp_path)
    assert shown.returncode == 0
    assert shown.stdout.startswith(
        "exp.py:2:23: API003 [info] POST /experimental/devices/{id}/move is experimental"
    )
    assert "Found 1 finding (1 info) in 1 file:" in shown.stdout
    (tmp_path / "pyproject.toml").write_text(
        '[tool.apispec.severity]\nAPI003 = "warning"\n'  # fails at the default fail level
    )
    raised = apispec("lint", "--format", "concise", "exp.py", cwd=tmp_path)
    assert raised.returncode == 1
    assert "exp.py:2:23: API003 [warning] POST /experimental/devices/{id}/move" in raised.stdout
