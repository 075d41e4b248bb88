"""Score the linter against hand-labelled fixture sets: recall, method, rules, precision.

Each set is a tree of client code (`root` in the expectations file) linted as
one repository, as a user's CI would (calls listed by `apispec lint
--show-calls`, through the same two passes as the findings), and a YAML file under
tests/fixtures/lint-expected/ that lists every API v2 call (line, method,
path) and every finding (line, code) a perfect linter reports there. The
labels describe the code, not today's linter, so a miss shows up as a number
below 100 % rather than as a changed pin. Used by tests/test_lint_accuracy.py
(thresholds) and benchmarks/accuracy.py (tables).
"""

from __future__ import annotations

import contextlib
import json
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from apispec.lint.run import LintRequest, execute

ROOT = Path(__file__).resolve().parent.parent
EXPECTED_DIR = ROOT / "tests" / "fixtures" / "lint-expected"


@dataclass(frozen=True)
class Call:
    file: str  # relative to the set's root, POSIX separators
    line: int
    method: str | None
    path: str  # relative to /api/v2, parameters as `{}`


@dataclass(frozen=True)
class Report:
    file: str
    line: int
    code: str


@dataclass
class LabelledSet:
    name: str
    root: Path
    target: str
    languages: dict[str, str]  # file -> language
    calls: list[Call]
    findings: list[Report]
    exclude: list[str] = field(default_factory=list)


@dataclass
class Observed:
    calls: list[Call]
    findings: list[Report]


# Sets written blind and scored once before any tuning: their figures are floors a change
# must not fall under, and nothing prints what they hold (no misses, no per-file output)
BLIND = {"holdout4": {"recall": 0.92, "methods": 0.99, "rules": 0.83, "false": 0.02}}


def sets() -> list[str]:
    """Names of every labelled set (one YAML file each)."""
    return sorted(p.stem for p in EXPECTED_DIR.glob("*.yaml"))


def load(name: str) -> LabelledSet:
    data = yaml.safe_load((EXPECTED_DIR / f"{name}.yaml").read_text(encoding="utf-8"))
    # A set's code lives in tests/fixtures/lint/<name>/ unless the file names its root.
    root = ROOT / data.get("root", f"tests/fixtures/lint/{name}")
    calls: list[Call] = []
    findings: list[Report] = []
    languages: dict[str, str] = {}
    for file, entry in data["files"].items():
        languages[file] = entry["language"]
        for c in entry.get("calls") or ():
            calls.append(Call(file, int(c["line"]), c.get("method"), c["path"]))
        for f in entry.get("findings") or ():
            findings.append(Report(file, int(f["line"]), f["code"]))
    exclude = list(data.get("exclude") or []) + _nested_sets(name, root)
    return LabelledSet(name, root, str(data["target"]), languages, calls, findings, exclude)


def _nested_sets(name: str, root: Path) -> list[str]:
    """The other sets' trees inside this set's tree: each is labelled on its own, not here."""
    nested = []
    for other in sets():
        if other == name:
            continue
        data = yaml.safe_load((EXPECTED_DIR / f"{other}.yaml").read_text(encoding="utf-8"))
        inner = ROOT / data.get("root", f"tests/fixtures/lint/{other}")
        if inner != root and inner.is_relative_to(root):
            nested.append(inner.relative_to(root).as_posix())
    return nested


def observe(labelled: LabelledSet) -> Observed:
    """What `apispec lint` finds in the set, with no configuration but the target.

    Linted as a user lints their repository: from the set's root, paths relative to it,
    so that where the fixtures sit in this project (under `tests/`) says nothing about
    them (every file there would otherwise count as a test file)."""
    with tempfile.TemporaryDirectory() as tmp, contextlib.chdir(labelled.root):
        config = Path(tmp) / ".apispec.toml"
        config.write_text("", encoding="utf-8")
        request = LintRequest(
            paths=[Path(".")],
            targets=[labelled.target],
            config=config,
            exclude=labelled.exclude,
            fail_on="never",
            jobs=1,
            show_calls=True,
        )
        outcome = execute(request)
    findings = [
        Report(_relative(f.path, labelled.root), f.line, f.code) for f in outcome.result.findings
    ]
    calls = [
        Call(_relative(c.path, labelled.root), c.line, c.method, c.call.replace("{id}", "{}"))
        for c in outcome.result.calls
    ]
    return Observed(calls, findings)


def _relative(shown: str, root: Path) -> str:
    path = Path(shown)
    absolute = path if path.is_absolute() else root / path  # shown relative to the root
    try:
        return absolute.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return path.as_posix()


@dataclass
class Scores:
    calls: int = 0  # labelled calls
    found: int = 0  # labelled calls the linter found (same file, line and path)
    method_right: int = 0  # of those, with the labelled method (or none shown for a GET)
    extra_calls: int = 0  # calls the linter found that are not labelled
    expected: int = 0  # labelled findings
    hit: int = 0  # labelled findings reported (same file, line and code)
    reported: int = 0  # findings the linter reported
    false: int = 0  # reported findings not labelled
    misses: list[str] = field(default_factory=list)

    @property
    def recall(self) -> float:
        return self.found / self.calls if self.calls else 1.0

    @property
    def method_accuracy(self) -> float:
        return self.method_right / self.found if self.found else 1.0

    @property
    def rules_right(self) -> float:
        return self.hit / self.expected if self.expected else 1.0

    @property
    def false_rate(self) -> float:
        return self.false / self.reported if self.reported else 0.0

    def add(self, other: Scores) -> None:
        for name in ("calls", "found", "method_right", "extra_calls"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        for name in ("expected", "hit", "reported", "false"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.misses.extend(other.misses)


def score(labelled: LabelledSet, observed: Observed) -> dict[str, Scores]:
    """Scores per language, plus the key `all` for the whole set."""
    per: dict[str, Scores] = {}

    def of(file: str) -> Scores:
        return per.setdefault(labelled.languages.get(file, "unlabelled"), Scores())

    found_at = Counter((c.file, c.line, c.path) for c in observed.calls)
    methods: dict[tuple[str, int, str], list[str | None]] = {}
    for c in observed.calls:
        methods.setdefault((c.file, c.line, c.path), []).append(c.method)
    for call in labelled.calls:
        s = of(call.file)
        s.calls += 1
        key = (call.file, call.line, call.path)
        if found_at[key]:
            found_at[key] -= 1
            s.found += 1
            shown = methods[key]
            if call.method in shown or (call.method == "GET" and None in shown):
                s.method_right += 1
            else:
                s.misses.append(f"{call.file}:{call.line}: method {shown} for {call}")
        else:
            s.misses.append(f"{call.file}:{call.line}: missed call {call.method} {call.path}")
    for key, left in found_at.items():
        if left > 0:
            of(key[0]).extra_calls += left
            of(key[0]).misses.append(f"{key[0]}:{key[1]}: extra call {key[2]}")
    wanted = Counter(labelled.findings)
    got = Counter(observed.findings)
    for report, n in wanted.items():
        s = of(report.file)
        s.expected += n
        s.hit += min(n, got[report])
        if got[report] < n:
            s.misses.append(f"{report.file}:{report.line}: missed {report.code}")
    for report, n in got.items():
        s = of(report.file)
        s.reported += n
        extra = n - min(n, wanted[report])
        s.false += extra
        if extra:
            s.misses.append(f"{report.file}:{report.line}: false {report.code}")
    total = Scores()
    for s in per.values():
        total.add(s)
    per["all"] = total
    return per


def table(rows: dict[str, Scores]) -> str:
    """A fixed-width table: one row per language, the set's total last."""
    head = f"{'language':<12} {'calls':>5} {'found':>7} {'method':>7} {'rules':>7} {'false':>7}"
    lines = [head, "-" * len(head)]
    for name in [*sorted(k for k in rows if k != "all"), "all"]:
        s = rows[name]
        lines.append(
            f"{name:<12} {s.calls:>5} {s.recall:>7.1%} {s.method_accuracy:>7.1%} "
            f"{s.rules_right:>7.1%} {s.false_rate:>7.1%}"
        )
    return "\n".join(lines)


def as_json(rows: dict[str, Scores]) -> str:
    return json.dumps(
        {
            k: {
                "calls": s.calls,
                "recall": s.recall,
                "method": s.method_accuracy,
                "rules_right": s.rules_right,
                "false_rate": s.false_rate,
            }
            for k, s in rows.items()
        },
        indent=2,
    )
