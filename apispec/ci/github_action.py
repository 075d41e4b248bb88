"""The step of the GitHub Action (`action.yml` at the repository root).

One lint run, reported every way GitHub shows findings: the report in the log,
annotations on the pull request (workflow commands), a SARIF file for code
scanning, a Markdown job summary (`$GITHUB_STEP_SUMMARY`) and the counts as step
outputs (`$GITHUB_OUTPUT`). Linting once and rendering four times keeps the
views in agreement and costs one run.

The action passes its inputs as `INPUT_*` environment variables (a composite
action maps them itself, `INPUT_FAIL_ON` for `fail-on`); the run exits as
`apispec lint` does: 0, 1 for findings at the fail level, 2 for a usage or input
error, 3 for a bug. Run it by hand with the same variables to see what the action
does:

    INPUT_PATHS=src INPUT_TARGET=25.x.122 GITHUB_STEP_SUMMARY=/tmp/summary.md \\
        python -m apispec.ci.github_action
"""

from __future__ import annotations

import os
import secrets
import shlex
import sys
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from apispec.lint.finding import FAIL_LEVELS
from apispec.lint.report import FORMATS, render
from apispec.lint.report.view import View
from apispec.lint.run import LintRequest, Outcome, execute
from apispec.support.exceptions import EXIT_INTERNAL, EXIT_USAGE, ApispecError, UsageError
from apispec.support.formats import canonical_format
from apispec.support.outputs import write_atomic


@dataclass(frozen=True)
class Inputs:
    """The action's inputs, read from `INPUT_<NAME>` (upper case, `-` written `_`, a name
    a shell can also set), as action.yml maps them."""

    paths: list[str]
    targets: list[str]
    config: str | None
    fail_on: str | None
    format: str
    sarif_file: str | None
    annotations: bool
    summary: bool

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> Inputs:
        def get(name: str, default: str = "") -> str:
            return env.get(f"INPUT_{name.upper().replace('-', '_')}", default).strip()

        fmt = canonical_format(get("format", "full") or "full")
        if fmt not in FORMATS:
            raise UsageError(
                f"input format: unknown format {fmt!r}; use one of {', '.join(FORMATS)}"
            )
        fail_on = get("fail-on") or None
        if fail_on is not None and fail_on not in FAIL_LEVELS:
            raise UsageError(f"input fail-on: use one of {', '.join(FAIL_LEVELS)}, not {fail_on!r}")
        return cls(
            paths=shlex.split(get("paths", ".")) or ["."],
            targets=[t.strip() for t in get("target").replace("\n", ",").split(",") if t.strip()],
            config=get("config") or None,
            fail_on=fail_on,
            format=fmt,
            sarif_file=get("sarif-file", "apispec.sarif") or None,
            annotations=_flag(get("annotations", "true"), "annotations"),
            summary=_flag(get("summary", "true"), "summary"),
        )


def _flag(value: str, name: str) -> bool:
    if value.lower() in ("true", "yes", "1", ""):
        return True
    if value.lower() in ("false", "no", "0"):
        return False
    raise UsageError(f"input {name}: use true or false, not {value!r}")


def main(env: Mapping[str, str] | None = None, out: TextIO | None = None) -> int:
    """Run the action's step; its exit code is the lint's."""
    env = os.environ if env is None else env
    out = sys.stdout if out is None else out
    try:
        inputs = Inputs.from_env(env)
        outcome = execute(
            LintRequest(
                paths=[Path(p) for p in inputs.paths],
                targets=inputs.targets,
                config=Path(inputs.config) if inputs.config else None,
                fail_on=inputs.fail_on,
            )
        )
    except ApispecError as exc:
        out.write(f"::error title=apispec::{_data(str(exc))}\n")
        _outputs(env, {"exit-code": str(exc.exit_code)})
        return exc.exit_code
    except Exception as exc:  # a bug: one line and exit 3, as `apispec lint` says it
        out.write(f"::error title=apispec::internal error: {_data(repr(exc))}\n")
        _outputs(env, {"exit-code": str(EXIT_INTERNAL)})
        return EXIT_INTERNAL
    return _report(inputs, outcome, env, out)


def _report(inputs: Inputs, outcome: Outcome, env: Mapping[str, str], out: TextIO) -> int:
    result = outcome.result
    for message in outcome.warnings:
        out.write(f"::warning title=apispec::{_data(message)}\n")
    for message in outcome.errors:
        out.write(f"::error title=apispec::{_data(message)}\n")
    for skipped in result.skipped:
        if skipped.internal:
            out.write(
                f"::error title=apispec::internal error: {_data(skipped.path)}: "
                f"{_data(skipped.reason)}\n"
            )
    out.write(render(inputs.format, result, View(color=bool(env.get("FORCE_COLOR")))))
    if inputs.annotations:
        out.write(render("github", result))
    code = outcome.exit_code
    if inputs.sarif_file:
        try:
            write_atomic(Path(inputs.sarif_file), render("sarif", result))
        except ApispecError as exc:
            out.write(f"::error title=apispec::{_data(str(exc))}\n")
            code = max(code, EXIT_USAGE)
    summary_path = env.get("GITHUB_STEP_SUMMARY")
    if inputs.summary and summary_path:
        with open(summary_path, "a", encoding="utf-8") as summary:
            summary.write(render("markdown", result) + "\n")
    severities = Counter(str(f.severity) for f in result.findings)
    _outputs(
        env,
        {
            "findings": str(len(result.findings)),
            "errors": str(severities["error"]),
            "warnings": str(severities["warning"]),
            "info": str(severities["info"]),
            "files": str(result.files),
            "sarif-file": inputs.sarif_file or "",
            "exit-code": str(code),
        },
    )
    return code


def _data(text: str) -> str:
    """A workflow command's message: one line (GitHub decodes %0A back to line breaks)."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _outputs(env: Mapping[str, str], values: dict[str, str]) -> None:
    """Step outputs for later steps (`steps.ID.outputs.NAME`), in `$GITHUB_OUTPUT`'s
    multi-line form, so no value can end one output and start another."""
    path = env.get("GITHUB_OUTPUT")
    if not path:
        return
    with open(path, "a", encoding="utf-8") as file:
        for name, value in values.items():
            delimiter = f"apispec_{secrets.token_hex(8)}"
            file.write(f"{name}<<{delimiter}\n{value}\n{delimiter}\n")


if __name__ == "__main__":
    sys.exit(main())
