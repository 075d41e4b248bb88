"""How fast `apispec lint` scans a large tree, first run and re-run, against ripgrep and semgrep.

Generates corpora of 10,000 files (about 1,000,000 lines each) in a temporary
directory, in two shapes each: `sparse` (0.1 % of the lines are API v2 calls,
25 to a file, in 0.4 % of the files) and `dense` (2 %, in 8 % of the files), and
their `-spread` twins, with the same call lines spread over 10x more files (2
or 3 to a file, as real monorepos have them). On each, in one run of this
script, with warm file caches and the commands taken in turn every round (A B C
A B C, so a machine whose speed drifts slows all alike):

- `apispec lint --no-cache DIR -j 1` and with all cores (JSON report): first runs;
- `apispec lint DIR` with its cache filled by one earlier run: the re-run of an
  unchanged tree (the cache in a temporary directory, never the user's);
- with `--baseline DIR`, the same three with another checkout's apispec (run as
  `python -m apispec` with PYTHONPATH=DIR, from a copy, so its own code is
  used): "before" and "after" from one run, with the after/before ratios;
- `rg -c 'api/v2|/experimental/' DIR`: the floor, reading plus one regex;
- semgrep with one equivalent rule (a generic pattern-regex), once, when it is
  on PATH or `--semgrep` names it.

Printed per corpus: medians of wall and CPU time (user + system of every
process of the run), the median of the round-by-round ratios to ripgrep, peak
memory (the sum over the run's processes, and the largest one, sampled every
10 ms), and the machine's load before and after. apispec's bytecode is
compiled first, as an installed package has it. Before anything is timed,
every apispec command's JSON report is compared with the first one's: a
difference stops the script.

Usage: python benchmarks/lint.py [--files N] [--repeat R] [--corpora NAME,...]
                                 [--semgrep PATH] [--baseline DIR] [--keep DIR]
Targets (issue 26): re-run <= 2x ripgrep on every corpus; first run <= 5x
ripgrep on `sparse` (the project's shape); no first run slower than the
baseline's; apispec >= 15x faster than semgrep.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

LINES_PER_FILE = 100
CALL_FILE_SHARE = 0.08
CALLS_PER_CALL_FILE = 25
# (name, share of files that call the API, calls per such file in 100 lines)
CORPORA = {
    "sparse": (0.004, 25),
    "sparse-spread": (0.04, 2.5),
    "dense": (0.08, 25),
    "dense-spread": (0.8, 2.5),
}
FIRST_TARGET = {"sparse": 5.0}  # first run / ripgrep, all cores
RERUN_TARGET = 2.0
SEMGREP_TARGET = 15.0
PATTERN = "api/v2|/experimental/"

FILLER = {
    ".py": [
        "def handler_{n}(event, context):",
        "    total = sum(item['size'] for item in event.get('items', []))",
        "    logger.info('processed %d items', total)",
        "    return {{'status': 200, 'body': json.dumps({{'total': total}})}}",
        "# keep the cache warm between invocations of worker {n}",
        "",
    ],
    ".js": [
        "export function render{n}(props) {{",
        "  const rows = props.items.map((item) => `<li>${{item.name}}</li>`);",
        "  return `<ul class=\"list-{n}\">${{rows.join('')}}</ul>`;",
        "}}",
        "// layout helpers for panel {n}",
        "",
    ],
    ".ps1": [
        "function Get-Report{n} {{",
        "    param([string]$Path = 'C:\\reports\\{n}.csv')",
        "    Import-Csv -Path $Path | Where-Object {{ $_.Status -eq 'Open' }}",
        "}}",
        "# report job {n}",
        "",
    ],
    ".go": [
        "func process{n}(ctx context.Context, in <-chan Item) error {{",
        "\tfor item := range in {{ if err := store(ctx, item); err != nil {{ return err }} }}",
        "\treturn nil",
        "}}",
        "// pipeline stage {n}",
        "",
    ],
    ".sh": [
        "for f in /var/log/app-{n}/*.log; do",
        '  gzip -9 "$f" && mv "$f.gz" /archive/',
        "done",
        "# rotate logs of service {n}",
        "",
    ],
}

CALLS = {
    ".py": [
        "r = requests.get(f\"{{BASE}}/experimental/devices\", headers=AUTH, params={{'limit': {n}}})",
        'r = requests.get(f"{{BASE}}/sensors/{{sid}}/overview", headers=AUTH)',
        "r = requests.get(f\"{{BASE}}/experimental/sensors\", params={{'filter': 'status = down'}}, headers=AUTH)",
        'r = requests.delete(f"{{BASE}}/experimental/devices/{{dev}}", headers=AUTH)',
    ],
    ".js": [
        "const r{n} = await fetch(`${{api}}/experimental/groups?limit={n}`, auth);",
        "const s{n} = await fetch(`${{api}}/sensors/${{id}}`, auth);",
        "const d{n} = await fetch(`${{api}}/devices/${{id}}/overview`, auth);",
    ],
    ".ps1": [
        '$r = Invoke-RestMethod -Uri "$base/api/v2/experimental/probes" -Headers $h',
        '$s = Invoke-RestMethod -Uri "$base/api/v2/sensors/$id/overview" -Headers $h',
    ],
    ".go": [
        '\treq{n}, _ := http.NewRequest("GET", base+"/api/v2/experimental/channels", nil)',
        '\treq{n}, _ := http.NewRequest("GET", fmt.Sprintf("%s/api/v2/devices/%d", base, id), nil)',
    ],
    ".sh": [
        'curl -s -H "Authorization: Bearer $TOKEN" "$BASE/api/v2/experimental/devices?limit={n}"',
        'curl -s -H "Authorization: Bearer $TOKEN" "$BASE/api/v2/sensors/$ID/overview"',
    ],
}

HEADERS = {
    ".py": 'import requests\nBASE = "https://monitor.example.com:1616/api/v2"\nAUTH = {"Authorization": "Bearer " + TOKEN}\n',
    ".js": 'const api = "https://monitor.example.com:1616/api/v2";\nconst auth = { headers: { Authorization: `Bearer ${token}` } };\n',
    ".ps1": '$base = "https://monitor.example.com:1616"\n$h = @{ Authorization = "Bearer $token" }\n',
    ".go": 'package client\n\nconst base = "https://monitor.example.com:1616"\n',
    ".sh": "#!/bin/sh\nBASE=https://monitor.example.com:1616\n",
}


def generate(
    root: Path,
    files: int,
    call_file_share: float = CALL_FILE_SHARE,
    seed: int = 7,
    calls_per_file: float = CALLS_PER_CALL_FILE,
) -> tuple[int, int, int]:
    """Write the corpus; (files, lines, call lines).

    `calls_per_file` may be fractional (2.5: half the calling files have 2
    calls, half 3), so that a spread shape keeps a compact shape's call lines.
    """
    rng = random.Random(seed)
    extensions = list(FILLER)
    total_lines = calls = 0
    for i in range(files):
        ext = extensions[i % len(extensions)]
        directory = root / f"pkg{i % 100:02}" / f"mod{(i // 100) % 10}"
        directory.mkdir(parents=True, exist_ok=True)
        lines: list[str] = []
        with_calls = rng.random() < call_file_share
        if with_calls:
            lines.extend(HEADERS[ext].splitlines())
        filler = FILLER[ext]
        count = int(calls_per_file)
        if with_calls and calls_per_file % 1:  # never drawn for a whole count: same corpus
            count += rng.random() < calls_per_file % 1
        call_lines = set(rng.sample(range(LINES_PER_FILE), count)) if with_calls else set()
        while len(lines) < LINES_PER_FILE:
            n = len(lines)
            if n in call_lines:
                lines.append(rng.choice(CALLS[ext]).format(n=n))
                calls += 1
            else:
                lines.append(filler[n % len(filler)].format(n=n))
        (directory / f"file{i:05}{ext}").write_text("\n".join(lines) + "\n")
        total_lines += len(lines)
    return files, total_lines, calls


@dataclass
class Run:
    wall: float
    cpu: float  # user + system of the process and every process it waited for
    tree: int  # peak resident bytes of all its processes together (sampled; 0: unknown)
    largest: int  # peak resident bytes of its largest single process (sampled)
    stdout: str


_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


def _resident(pid: int) -> tuple[int, int]:
    """(sum, largest) resident bytes of a process and its descendants now (Linux /proc).

    Sampled, because the kernel's own peak (ru_maxrss) of a child started from
    Python counts the Python process it was forked from.
    """
    total = largest = 0
    stack = [pid]
    while stack:
        current = stack.pop()
        try:
            with open(f"/proc/{current}/statm") as statm:
                resident = int(statm.read().split()[1]) * _PAGE
            total += resident
            largest = max(largest, resident)
            for task in os.listdir(f"/proc/{current}/task"):
                with open(f"/proc/{current}/task/{task}/children") as children:
                    stack.extend(int(c) for c in children.read().split())
        except (OSError, ValueError):
            continue
    return total, largest


def run(command: list[str], env: dict[str, str] | None = None) -> Run:
    """One run of `command`, its output read in full; times from the kernel's accounting."""
    start = time.perf_counter()
    process = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env
    )
    peak = [0, 0]
    done = threading.Event()

    def sample() -> None:
        while not done.wait(0.01):
            total, largest = _resident(process.pid)
            peak[0], peak[1] = max(peak[0], total), max(peak[1], largest)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    assert process.stdout is not None
    stdout = process.stdout.read()
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    done.set()
    sampler.join()
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode not in (0, 1):
        raise SystemExit(f"{command[0]} failed (exit {process.returncode}): {' '.join(command)}")
    return Run(wall, usage.ru_utime + usage.ru_stime, peak[0], peak[1], stdout)


def rounds(
    commands: dict[str, tuple[list[str], dict[str, str]]], repeat: int
) -> dict[str, list[Run]]:
    """Each command in turn, `repeat` rounds, after one warm-up round."""
    for command, env in commands.values():
        run(command, env)
    runs: dict[str, list[Run]] = {name: [] for name in commands}
    for _ in range(repeat):
        for name, (command, env) in commands.items():
            runs[name].append(run(command, env))
    return runs


def median(runs: list[Run], figure: str) -> float:
    return statistics.median(getattr(r, figure) for r in runs)


def ratio(a: list[Run], b: list[Run], figure: str) -> float:
    """The median of the run-by-run ratios: robust to a machine whose speed drifts."""
    return statistics.median(
        getattr(x, figure) / max(getattr(y, figure), 1e-6) for x, y in zip(a, b, strict=True)
    )


def verdict(value: float, target: float, at_most: bool = True) -> str:
    met = value <= target if at_most else value >= target
    return f"target {'<=' if at_most else '>='} {target:g}x: {'met' if met else 'MISSED'}"


def mib(n: int) -> str:
    return f"{n / 2**20:.0f} MiB" if n else "n/a"


def row(name: str, runs: list[Run]) -> str:
    return (
        f"  {name:<28} {median(runs, 'wall'):6.2f} s wall {median(runs, 'cpu'):6.2f} s CPU   "
        f"peak {mib(max(r.tree for r in runs))} all processes "
        f"({mib(max(r.largest for r in runs))} the largest)"
    )


def load() -> str:
    try:
        with open("/proc/loadavg") as f:
            one, five = f.read().split()[:2]
        return f"load average {one} (1 min), {five} (5 min) on {os.cpu_count()} cores"
    except OSError:
        return f"{os.cpu_count()} cores"


@dataclass
class Apispec:
    """One apispec to time: ours, or a baseline checkout's."""

    label: str  # "" for ours, "before " for the baseline
    python_path: str | None  # PYTHONPATH for a baseline checkout

    def command(self, root: Path, *extra: str) -> list[str]:
        report = ["--format", "json", "--fail-on", "never"]
        return [sys.executable, "-m", "apispec", "lint", str(root), *report, *extra]

    def env(self, cache_dir: Path) -> dict[str, str]:
        env = {**os.environ, "APISPEC_CACHE_DIR": str(cache_dir)}
        env.pop("APISPEC_NO_CACHE", None)
        env.pop("PYTHONPATH", None)
        if self.python_path:
            env["PYTHONPATH"] = self.python_path
        return env


def bench_corpus(
    name: str,
    root: Path,
    calls: int,
    repeat: int,
    semgrep: str | None,
    rg: str,
    apispecs: list[Apispec],
) -> None:
    """Time one corpus and print its figures."""
    print(f"  before: {load()}")
    caches = {a.label: Path(tempfile.mkdtemp(prefix="apispec-lint-cache-")) for a in apispecs}
    grep = [rg, "-c", PATTERN, str(root)]
    try:
        first: dict[str, tuple[list[str], dict[str, str]]] = {}
        for a in apispecs:
            env = a.env(caches[a.label])
            first[f"{a.label}first run, -j 1"] = (a.command(root, "--no-cache", "-j", "1"), env)
            first[f"{a.label}first run"] = (a.command(root, "--no-cache"), env)
        first["ripgrep"] = (grep, dict(os.environ))
        reports = {
            label: run(*command).stdout for label, command in first.items() if label != "ripgrep"
        }
        _same_reports(reports)
        runs = rounds(first, repeat)
        # Fill the caches. A status taken within 2 s of a file's last change is not trusted
        # (apispec.lint.cache.RACY_NS): an unchanged tree is one untouched for longer.
        newest = max(p.stat().st_mtime for p in root.rglob("*"))
        time.sleep(max(0.0, newest + 2.5 - time.time()))
        again: dict[str, tuple[list[str], dict[str, str]]] = {}
        for a in apispecs:
            command, env = a.command(root), a.env(caches[a.label])
            run(command, env)
            again[f"{a.label}re-run"] = (command, env)
        again["ripgrep (re-run rounds)"] = (grep, dict(os.environ))
        rerun = rounds(again, repeat)
        for a in apispecs:
            if rerun[f"{a.label}re-run"][-1].stdout != reports[f"{a.label}first run"]:
                raise SystemExit(f"{a.label}re-run: the report differs from the first run's")
    finally:
        for directory in caches.values():
            shutil.rmtree(directory, ignore_errors=True)
    summary = json.loads(next(iter(reports.values())))["summary"]
    print(f"  apispec found {summary['findings']} findings {summary['by_rule']}")
    for label, timed in (*runs.items(), *rerun.items()):
        print(row(label, timed))
    rg_first, rg_again = runs["ripgrep"], rerun["ripgrep (re-run rounds)"]
    for a in apispecs:
        for label, timed, floor in (
            (f"{a.label}first run, -j 1", runs[f"{a.label}first run, -j 1"], rg_first),
            (f"{a.label}first run", runs[f"{a.label}first run"], rg_first),
            (f"{a.label}re-run", rerun[f"{a.label}re-run"], rg_again),
        ):
            wall = ratio(timed, floor, "wall")
            target = RERUN_TARGET if "re-run" in label else FIRST_TARGET.get(name)
            if label == f"{a.label}first run, -j 1" or a.label:
                target = None  # the targets are the default run's, of this apispec
            note = f" ({verdict(wall, target)}, wall)" if target else ""
            print(
                f"  {label + ' / ripgrep:':<38} {wall:5.1f}x wall, "
                f"{ratio(timed, floor, 'cpu'):5.1f}x CPU{note}"
            )
    if len(apispecs) == 2:
        before = apispecs[1].label
        for label, timed in (*runs.items(), *rerun.items()):
            if label.startswith(before) or label.startswith("ripgrep"):
                continue
            old = (runs | rerun)[before + label]
            print(
                f"  {label + ' / before:':<38} {ratio(timed, old, 'wall'):5.2f}x wall, "
                f"{ratio(timed, old, 'cpu'):5.2f}x CPU"
            )
    cpu = median(runs["first run"], "cpu")
    print(f"  CPU per API call line of the corpus (first run): {1e6 * cpu / max(calls, 1):.0f} µs")
    if semgrep:
        rule = root.parent / f"{root.name}-semgrep.yaml"
        rule.write_text(
            "rules:\n  - id: api-v2-call\n    languages: [generic]\n    severity: WARNING\n"
            f"    message: API v2 call\n    pattern-regex: '{PATTERN}'\n"
        )
        command = [semgrep, "scan", "--config", str(rule), "--metrics", "off", "--quiet", "--json"]
        command += ["--disable-version-check", "--jobs", str(os.cpu_count() or 1), str(root)]
        sg = run(command, dict(os.environ))
        rule.unlink()
        found = len(json.loads(sg.stdout or "{}").get("results", []))
        times = sg.wall / median(runs["first run"], "wall")
        print(
            f"  semgrep (1 run): {sg.wall:.2f} s wall {sg.cpu:.2f} s CPU, {found} results; "
            f"semgrep / apispec first run: {times:.1f}x wall, {sg.cpu / cpu:.1f}x CPU "
            f"({verdict(times, SEMGREP_TARGET, at_most=False)}, wall)"
        )
    print(f"  after: {load()}")


def _same_reports(reports: dict[str, str]) -> None:
    """Every run of one apispec gives one report (else stop); say whether the baseline's
    is the same, byte for byte."""
    ours = {label: r for label, r in reports.items() if not label.startswith("before ")}
    theirs = {label: r for label, r in reports.items() if label.startswith("before ")}
    for group in (ours, theirs):
        if len(set(group.values())) > 1:
            raise SystemExit(f"the reports of {', '.join(group)} differ")
    if theirs:
        same = next(iter(ours.values())) == next(iter(theirs.values()))
        print(f"  reports, after and before: {'identical' if same else 'DIFFERENT'}")


def baseline_copy(checkout: Path, into: Path) -> str:
    """A copy of another checkout's package, compiled: what PYTHONPATH points at."""
    target = into / "baseline"
    shutil.copytree(
        checkout / "apispec", target / "apispec", ignore=shutil.ignore_patterns("__pycache__")
    )
    subprocess.run(
        [sys.executable, "-m", "compileall", "-q", str(target)],
        check=False,
        stdout=subprocess.DEVNULL,
    )
    return str(target)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument(
        "--corpora", default=",".join(CORPORA), help=f"comma list of {', '.join(CORPORA)}"
    )
    parser.add_argument("--semgrep", help="semgrep executable (default: semgrep on PATH)")
    parser.add_argument(
        "--baseline", type=Path, metavar="DIR", help="also time the apispec of this checkout"
    )
    parser.add_argument(
        "--keep", type=Path, help="generate into DIR (reused when there) and keep it"
    )
    args = parser.parse_args()
    names = [n for n in args.corpora.split(",") if n]
    unknown = [n for n in names if n not in CORPORA]
    if unknown:
        parser.error(f"unknown corpus {', '.join(unknown)}; choose from {', '.join(CORPORA)}")

    import apispec

    package = Path(apispec.__file__).parent
    subprocess.run(
        [sys.executable, "-m", "compileall", "-q", str(package)],
        check=False,
        stdout=subprocess.DEVNULL,
    )
    rg = shutil.which("rg")
    semgrep = args.semgrep or shutil.which("semgrep")
    base = args.keep or Path(tempfile.mkdtemp(prefix="apispec-lint-bench-"))
    work = Path(tempfile.mkdtemp(prefix="apispec-lint-work-"))
    os.chdir(work)  # `python -m apispec` puts the working directory first on sys.path
    apispecs = [Apispec("", None)]
    if args.baseline is not None:
        apispecs.append(Apispec("before ", baseline_copy(args.baseline.resolve(), work)))
    print(
        f"Python {sys.version.split()[0]}, {os.cpu_count()} cores; ripgrep: {rg or 'not installed'}; "
        f"semgrep: {semgrep or 'not installed'}; baseline: {args.baseline or 'none'}"
    )
    try:
        for name in names:
            share, per_file = CORPORA[name]
            root = base / name
            counts = base / f"{name}.json"  # a kept corpus is reused with its counts
            if not (args.keep and counts.is_file()):
                shutil.rmtree(root, ignore_errors=True)
                root.mkdir(parents=True)
                counts.write_text(
                    json.dumps(generate(root, args.files, share, calls_per_file=per_file))
                )
            files, lines, calls = json.loads(counts.read_text())
            size = sum(p.stat().st_size for p in root.rglob("*") if p.is_file())
            print(
                f"\n{name}: {files} files, {lines} lines, {calls} API v2 call lines "
                f"({100 * calls / max(lines, 1):.2f} %), {size / 1e6:.1f} MB"
            )
            if rg is None:
                print("  ripgrep: not installed (apt-get install ripgrep): nothing to compare with")
                continue
            bench_corpus(name, root, calls, args.repeat, semgrep, rg, apispecs)
    finally:
        shutil.rmtree(work, ignore_errors=True)
        if args.keep is None:
            shutil.rmtree(base, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
