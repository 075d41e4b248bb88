"""The generated parts of docs/linter.md and docs/cli.md: rule pages and real output.

Every sample is what `apispec lint` prints today for a small client script (or
for `examples/`), run through the CLI, so the pages cannot drift from the tool;
tests/test_lint_docs.py fails when a committed page differs. Regenerate after
changing a rule, a message, a reporter or the examples:

    python -m apispec.docgen.lint
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import shlex
import sys
import tempfile
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path

from apispec.lint.rules import BY_CODE, rules_markdown

ROOT = Path(__file__).resolve().parent.parent.parent
COMMAND = "python -m apispec.docgen.lint"

# The client every sample lints: one call per kind of finding people meet first.
DEMO_NAME = "client.py"
DEMO = """\
import os

import requests

BASE = "https://prtg.example.com:1616/api/v2"
AUTH = {"Authorization": f"Bearer {os.environ['PRTG_TOKEN']}"}


def sensor(sensor_id):
    return requests.get(f"{BASE}/sensors/{sensor_id}/overview", headers=AUTH)


def down_devices():
    query = {"filter": "status eq down", "limit": 500}
    return requests.get(f"{BASE}/experimental/devices", params=query, headers=AUTH)


def settings(sensor_id):
    return requests.get(f"{BASE}/experimental/sensors/{sensor_id}/settings", headers=AUTH)


def creatable_types(parent_id):
    return requests.get(f"{BASE}/experimental/objects/{parent_id}/types", headers=AUTH)
"""

# Why each kind of finding is left in examples/: the examples are client scripts as
# people write them, mistakes included, to show what the linter reports. A rule that
# appears there without a reason here stops the generator: write one.
EXAMPLE_REASONS = {
    "API001": "a call to an endpoint the target release no longer has: the error a script "
    "meets after an upgrade (a real defect, left in to show it)",
    "API002": "deprecated endpoints, as older scripts call them; the message names the "
    "successor and `--fix` rewrites the ones with a path successor",
    "API003": "experimental endpoints with no stable alternative (moving, deleting, listing "
    "objects): `info`, shown and counted but never failing the run",
    "API004": "paths the registry does not know: typos (a warning with the likely path) "
    "and endpoints the spec does not list (info)",
    "API005": "an endpoint that exists only in a later, placeholder release (`25.x.1xx`): "
    "the default target is the newest concrete release, so the call is reported",
    "API006": "filter strings as people mistype them: OData `eq`, quoted enumerations, "
    "unknown properties, unquoted ids",
    "API007": "a method the path does not have",
    "API008": "a `limit` above the 3000 objects a response holds",
    "API009": "an `Authorization` header without `Bearer `",
    "API010": "a literal password in a script",
    "API011": "query parameters of other APIs (`take`, `sort`, `includes`)",
    "API012": "a suppression comment that suppresses nothing",
}


@contextlib.contextmanager
def _in(directory: Path) -> Iterator[None]:
    """Run with `directory` as the working directory and without colour from the caller's
    environment, so that paths and bytes are the same on every machine."""
    here = os.getcwd()
    saved = {k: os.environ.get(k) for k in ("NO_COLOR", "FORCE_COLOR")}
    os.environ["NO_COLOR"] = "1"
    os.environ.pop("FORCE_COLOR", None)
    os.chdir(directory)
    try:
        yield
    finally:
        os.chdir(here)
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


def _run(args: list[str]) -> tuple[int, str]:
    """What `apispec ARGS` prints on standard output, and its exit code."""
    from apispec.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(args)
        except SystemExit as exc:  # argparse's own exit: a sample that is wrong
            raise RuntimeError(f"apispec {shlex.join(args)}: {err.getvalue()}") from exc
    return code, out.getvalue()


def _sample(args: list[str], shorten: Callable[[str], str] | None = None) -> str:
    """`$ apispec lint ARGS`, what it prints (or an excerpt), and its exit code."""
    code, out = _run(["lint", *args])
    shown = shorten(out) if shorten else out
    return f"$ apispec lint {shlex.join(args)}\n{shown.rstrip()}\n(exit {code})"


def _fenced(text: str, language: str = "console") -> str:
    return f"```{language}\n{text}\n```"


def _first_sarif_result(out: str) -> str:
    run = json.loads(out)["runs"][0]
    first = run["results"][0]
    return (
        f"(an excerpt: the first of {len(run['results'])} results, indented; the "
        f"rules with their pages and the invocation are left out)\n{json.dumps(first, indent=2)}"
    )


def formats_part() -> str:
    """The real output of every format for the demo client."""
    parts = [
        f"Every sample lints this `{DEMO_NAME}` with the default settings:",
        "",
        _fenced(DEMO.rstrip(), "python"),
    ]
    with tempfile.TemporaryDirectory() as tmp, _in(Path(tmp)):
        Path(DEMO_NAME).write_text(DEMO, encoding="utf-8")
        samples = [
            ("full", "`full` (the default)", [DEMO_NAME], None),
            ("concise", "`concise`", ["--format", "concise", DEMO_NAME], None),
            (
                "targets",
                "several targets: each finding once, with the targets it concerns",
                ["--format", "concise", "--target", "24.3.100,25.x.122", DEMO_NAME],
                None,
            ),
            (
                "upgrade",
                "`--upgrade-from`: only what changes between two releases",
                ["--format", "concise", "--upgrade-from", "24.3.100", DEMO_NAME],
                None,
            ),
            ("json", "`json`", ["--format", "json", DEMO_NAME], None),
            ("sarif", "`sarif`", ["--format", "sarif", DEMO_NAME], _first_sarif_result),
            ("github", "`github`", ["--format", "github", DEMO_NAME], None),
            ("gitlab", "`gitlab`", ["--format", "gitlab", DEMO_NAME], None),
            ("junit", "`junit`", ["--format", "junit", DEMO_NAME], None),
            ("markdown", "`markdown`", ["--format", "markdown", DEMO_NAME], None),
            ("csv", "`csv`", ["--format", "csv", DEMO_NAME], None),
            ("statistics", "`--statistics`", ["--statistics", DEMO_NAME], None),
        ]
        for _name, title, args, shorten in samples:
            parts += ["", f"#### {title}", "", _fenced(_sample(args, shorten))]
    return "\n".join(parts) + "\n"


def examples_part() -> str:
    """Which findings `apispec lint examples/` reports, and why each kind remains."""
    with _in(ROOT):
        _, out = _run(["lint", "--format", "json", "--fail-on", "never", "examples/"])
        _, concise = _run(["lint", "--format", "concise", "--quiet", "examples/"])
        failing, _ = _run(["lint", "--format", "json", "examples/"])
    findings = json.loads(out)["findings"]
    missing = sorted({f["code"] for f in findings} - set(EXAMPLE_REASONS))
    if missing:
        raise SystemExit(
            f"apispec.docgen.lint: write a reason for {', '.join(missing)} on examples/"
        )
    per_rule: dict[str, Counter[str]] = {}
    for f in findings:
        per_rule.setdefault(f["code"], Counter())[f["severity"]] += 1
    target = json.loads(out)["summary"]["targets"][0]
    parts = [
        f"`apispec lint examples/` reports {len(findings)} findings on the default target, "
        f"{target} ({_counts(Counter(f['severity'] for f in findings))}); it exits "
        f"{failing} because of the errors and warnings, which a user must act on (the default "
        "fail level is `warning`); `info` findings never fail it.",
        "",
        "| Rule | Findings | Why it remains |",
        "|---|---|---|",
    ]
    for code in sorted(per_rule):
        counts = _counts(per_rule[code])
        rule = BY_CODE[code]
        parts.append(f"| `{code}` {rule.name} | {counts} | {EXAMPLE_REASONS[code]} |")
    parts += ["", "Every finding, as `apispec lint --format concise --quiet examples/` prints it:"]
    parts += ["", _fenced(concise.rstrip(), "text")]
    return "\n".join(parts) + "\n"


def _counts(severities: Counter[str]) -> str:
    """`2 errors, 1 warning, 3 info`: most severe first."""
    from apispec.lint.report.text import plural

    return ", ".join(
        plural(severities[s], s) if s != "info" else f"{severities[s]} info"
        for s in ("error", "warning", "info")
        if severities[s]
    )


def default_release_part() -> str:
    """What the commands that take a release say when they choose it themselves."""
    parts = []
    with tempfile.TemporaryDirectory() as tmp, _in(Path(tmp)):
        for args in (["openapi", "-o", "openapi.json"], ["mcp-tools", "--format", "json"]):
            err = io.StringIO()
            with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
                from apispec.cli import main

                main(args)
            parts.append(f"$ apispec {shlex.join(args)}\n{err.getvalue().rstrip()}")
    return _fenced("\n".join(parts)) + "\n"


# page -> [(part name, generator)]
PAGES: dict[str, list[tuple[str, Callable[[], str]]]] = {
    "docs/linter.md": [
        ("rules", rules_markdown),
        ("formats", formats_part),
        ("examples", examples_part),
    ],
    "docs/cli.md": [("default-release", default_release_part)],
}


def begin(name: str) -> str:
    if name == "rules":  # the marker `apispec rule --all` has always named
        return "<!-- rules:begin (generated by `apispec rule --all`; tests/test_lint_rules.py checks it) -->"
    return f"<!-- {name}:begin (generated by `{COMMAND}`; tests/test_lint_docs.py checks it) -->"


def end(name: str) -> str:
    return f"<!-- {name}:end -->"


def generated(page: str, name: str) -> str:
    """The text between a part's markers."""
    start = page.index(begin(name)) + len(begin(name))
    return page[start : page.index(end(name), start)].strip("\n") + "\n"


def update(path: Path, parts: list[tuple[str, Callable[[], str]]]) -> bool:
    """Rewrite the generated parts of `path`; True when it changed."""
    page = path.read_text(encoding="utf-8")
    new = page
    for name, make in parts:
        start = new.index(begin(name)) + len(begin(name))
        stop = new.index(end(name), start)
        new = new[:start] + "\n" + make() + new[stop:]
    if new == page:
        return False
    from apispec.support.outputs import write_atomic

    write_atomic(path, new)
    return True


if __name__ == "__main__":
    for page, parts in PAGES.items():
        changed = update(ROOT / page, parts)
        print(f"{page}: {'updated' if changed else 'up to date'}", file=sys.stderr)
