"""The linter's `limit` check on integers Python will not convert (issue 11, point 12)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_a_limit_of_4301_digits_is_above_the_maximum_not_a_crash(tmp_path: Path) -> None:
    huge = "9" * 4_301
    script = tmp_path / "client.py"
    script.write_text(
        "import requests\n"
        f'requests.get("https://mon/api/v2/experimental/devices?limit={huge}")\n'
        'requests.get("https://mon/api/v2/experimental/devices?limit=\u00b2")\n'  # a digit int() refuses
    )
    run = subprocess.run(
        [sys.executable, "-m", "apispec", "lint", "--format", "json", str(script)],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=120,
    )
    assert run.returncode == 1, run.stderr  # API008 is a warning: it fails by default
    assert "Traceback" not in run.stderr
    findings = json.loads(run.stdout)["findings"]
    limits = [f for f in findings if f["code"] == "API008"]
    assert [(f["line"], f["message"][:12]) for f in limits] == [(2, "limit=999999")]
    assert limits[0]["message"].endswith(
        "is above the maximum of 3000 objects per response; page with offset"
    )
