"""The GitHub Action (action.yml) run as the runner runs it (issue 23, point 2).

The lint step's own `run` line is executed by bash with the variables GitHub
sets (GITHUB_OUTPUT, GITHUB_STEP_SUMMARY, GITHUB_WORKSPACE, RUNNER_TEMP,
GITHUB_ACTION_PATH) and the `env` the composite maps from the inputs, the
`${{ inputs.* }}` expressions replaced as the runner replaces them. Only the
install step is not run (it would pip-install this checkout from the network):
RUNNER_TEMP's venv is this interpreter.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).parent.parent
ACTION = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))
CLIENT = (
    "import requests\n"
    'BASE = "https://prtg.example.com:1616/api/v2"\n'
    'requests.get(f"{BASE}/devices", headers={"Authorization": "Bearer x"})\n'
)


def _step(step_id: str) -> dict:
    return next(s for s in ACTION["runs"]["steps"] if s.get("id") == step_id)


def _expand(text: str, inputs: dict[str, str]) -> str:
    """`${{ inputs.NAME }}` as the runner expands it: the input's value, else its default."""

    def value(m: re.Match[str]) -> str:
        name = m.group(1)
        return inputs.get(name, ACTION["inputs"][name].get("default", ""))

    return re.sub(r"\$\{\{\s*inputs\.([\w-]+)\s*\}\}", value, text)


def _outputs(path: Path) -> dict[str, str]:
    """`$GITHUB_OUTPUT` read as the runner reads it: `name=value` or `name<<DELIM` blocks."""
    found: dict[str, str] = {}
    lines = iter(path.read_text(encoding="utf-8").splitlines())
    for line in lines:
        if "<<" in line:
            name, delimiter = line.split("<<", 1)
            value = []
            for inner in lines:
                if inner == delimiter:
                    break
                value.append(inner)
            found[name] = "\n".join(value)
        elif "=" in line:
            name, value_text = line.split("=", 1)
            found[name] = value_text
    return found


@pytest.fixture
def runner(tmp_path: Path):
    """Run the action's lint step in a workspace; (exit code, log, outputs, summary)."""
    workspace = tmp_path / "workspace"
    workspace.mkdir()
    temp = tmp_path / "runner-temp"
    (temp / "apispec-action" / "bin").mkdir(parents=True)
    python = temp / "apispec-action" / "bin" / "python"  # this test's interpreter and install
    python.write_text(f'#!/bin/sh\nexec "{sys.executable}" "$@"\n')
    python.chmod(0o755)

    def run(**inputs: str):
        output, summary = tmp_path / "output", tmp_path / "summary.md"
        output.write_text("")
        summary.write_text("")
        step = _step("lint")
        env = {
            **os.environ,
            "GITHUB_ACTIONS": "true",
            "GITHUB_WORKSPACE": str(workspace),
            "GITHUB_OUTPUT": str(output),
            "GITHUB_STEP_SUMMARY": str(summary),
            "GITHUB_ACTION_PATH": str(ROOT),
            "RUNNER_TEMP": str(temp),
            **{k: _expand(str(v), inputs) for k, v in step["env"].items()},
        }
        done = subprocess.run(
            ["bash", "-e", "-c", _expand(step["run"], inputs)],
            cwd=workspace,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        return done.returncode, done.stdout + done.stderr, _outputs(output), summary.read_text()

    run.workspace = workspace  # type: ignore[attr-defined]
    return run


def test_every_input_reaches_the_step_and_every_output_comes_from_it() -> None:
    step = _step("lint")
    for name, spec in ACTION["inputs"].items():
        assert spec.get("description"), name
        key = f"INPUT_{name.upper().replace('-', '_')}"
        assert step["env"].get(key) == f"${{{{ inputs.{name} }}}}", name
    assert len(step["env"]) == len(ACTION["inputs"])
    assert "inputs." not in step["run"]  # inputs reach the step as env, never as code
    for name, spec in ACTION["outputs"].items():
        assert spec["value"] == f"${{{{ steps.lint.outputs.{name} }}}}", name
    assert ACTION["runs"]["using"] == "composite"
    install = ACTION["runs"]["steps"][0]["run"]
    assert '"$GITHUB_ACTION_PATH"' in install  # the action's own commit, never a registry


def test_a_deprecated_call_fails_with_sarif_annotations_summary_and_counts(runner) -> None:
    (runner.workspace / "client.py").write_text(CLIENT)
    code, log, outputs, summary = runner()
    assert code == 1, log
    assert "client.py:3:22: API002 [warning]" in log  # the full report in the log
    assert "::warning file=client.py,line=3,col=22," in log  # an annotation
    sarif = json.loads((runner.workspace / "apispec.sarif").read_text())
    (result,) = sarif["runs"][0]["results"]
    assert result["ruleId"] == "API002"
    location = result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
    assert location == "client.py"  # relative to the workspace, as code scanning wants
    assert summary.startswith("## apispec lint\n")
    assert "| warning | [API002 deprecated-endpoint]" in summary
    assert outputs == {
        "findings": "1",
        "errors": "0",
        "warnings": "1",
        "info": "0",
        "files": "1",
        "sarif-file": "apispec.sarif",
        "exit-code": "1",
    }


def test_inputs_choose_target_fail_level_format_and_outputs(runner) -> None:
    (runner.workspace / "src").mkdir()
    (runner.workspace / "src" / "client.py").write_text(CLIENT)
    (runner.workspace / "other.py").write_text(CLIENT)
    code, log, outputs, summary = runner(
        paths="src",
        target="24.3.100, 25.x.122",
        **{"fail-on": "error", "format": "md", "sarif-file": "", "annotations": "false"},
    )
    assert code == 0, log  # a warning passes at fail-on error
    assert log.startswith("## apispec lint\n")  # `md` is markdown, as everywhere
    assert "::warning" not in log
    assert "24.3.100, 25.x.122" in log
    assert not (runner.workspace / "apispec.sarif").exists()
    assert outputs["files"] == "1" and outputs["exit-code"] == "0"
    assert outputs["sarif-file"] == ""
    assert summary.count("## apispec lint") == 1


def test_a_usage_error_is_one_error_annotation_and_exit_2(runner) -> None:
    (runner.workspace / "client.py").write_text(CLIENT)
    code, log, outputs, summary = runner(target="24.3.999")
    assert code == 2
    assert log.startswith("::error title=apispec::unknown release '24.3.999'")
    assert log.count("\n") == 1
    assert outputs == {"exit-code": "2"}
    assert summary == ""


def test_a_path_that_does_not_exist_fails_with_an_error_annotation(runner) -> None:
    code, log, outputs, _ = runner(paths="nope/")
    assert code == 2
    assert "::error title=apispec::nope: skipped: no such file or directory" in log
    assert outputs["files"] == "0"
