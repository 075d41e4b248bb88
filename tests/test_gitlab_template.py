"""The GitLab CI template (apispec.gitlab-ci.yml) run as a runner runs it (issue 23, point 2).

The job's `script` runs in bash with `set -eo pipefail`, as GitLab's shell
executor does, with the template's variables (and a user's overrides) in the
environment. `before_script` (pip install from the repository) is not run: the
`apispec` on PATH is this checkout's.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).parent.parent
JOB = yaml.safe_load((ROOT / "apispec.gitlab-ci.yml").read_text(encoding="utf-8"))["apispec-lint"]
CLIENT = (
    "import requests\n"
    'BASE = "https://prtg.example.com:1616/api/v2"\n'
    'requests.get(f"{BASE}/devices", headers={"Authorization": "Bearer x"})\n'
)


def _run_job(project: Path, **variables: str) -> subprocess.CompletedProcess[str]:
    script = "\n".join(["set -eo pipefail", *JOB["script"]])
    env = {
        **os.environ,
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
        **{k: str(v) for k, v in JOB["variables"].items()},
        **variables,
    }
    return subprocess.run(
        ["bash", "-c", script], cwd=project, env=env, capture_output=True, text=True, timeout=120
    )


def test_the_job_writes_a_code_quality_report_and_fails_on_a_deprecated_call(
    tmp_path: Path,
) -> None:
    (tmp_path / "client.py").write_text(CLIENT)
    done = _run_job(tmp_path)
    assert done.returncode == 1, done.stderr
    assert "client.py:3:22: API002 [warning]" in done.stdout  # the report in the job log
    report = json.loads((tmp_path / "gl-code-quality-report.json").read_text())
    assert [(i["check_name"], i["severity"], i["location"]["path"]) for i in report] == [
        ("API002", "minor", "client.py")
    ]
    assert JOB["artifacts"]["reports"]["codequality"] == "$APISPEC_REPORT"
    assert JOB["artifacts"]["when"] == "always"  # the report is kept when the job fails


def test_variables_choose_paths_target_and_fail_level(tmp_path: Path) -> None:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "client.py").write_text(CLIENT)
    (tmp_path / "other.py").write_text(CLIENT)
    done = _run_job(
        tmp_path, APISPEC_PATHS="src", APISPEC_TARGET="24.3.100,25.x.122", APISPEC_FAIL_ON="error"
    )
    assert done.returncode == 0, done.stderr
    assert "Checked 1 file against 24.3.100, 25.x.122." in done.stdout
    report = json.loads((tmp_path / "gl-code-quality-report.json").read_text())
    assert {i["location"]["path"] for i in report} == {"src/client.py"}


def test_the_install_line_names_the_repository_at_a_ref() -> None:
    (install,) = JOB["before_script"]
    assert '"git+${APISPEC_REPOSITORY}@${APISPEC_REF}"' in install
