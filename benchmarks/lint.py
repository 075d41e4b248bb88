"""How fast `apispec lint` scans a large tree, first run and re-run, against ripgrep and semgrep.

Generates two corpora of 10,000 files (about 1,000,000 lines each) in a
temporary directory: a sparse one (0.1 % of the lines are API v2 calls, in
0.4 % of the files) and a dense one (2 %, in 8 % of the files). On each, in
one run of this script, with warm file caches and runs interleaved (A B A B,
so a machine whose speed drifts slows both alike):

- `apispec lint --no-cache DIR` (all cores, JSON report): the first run;
- `apispec lint DIR` with its cache filled by one earlier run: the re-run of
  an unchanged tree (the cache in a temporary directory, never the user's);
- `rg -c 'api/v2|/experimental/' DIR`: the floor, reading plus one regex;
- semgrep with one equivalent rule (a generic pattern-regex), once, when it
  is on PATH or `--semgrep` names it.

Printed per corpus: medians of wall and CPU time (user + system of every
process of the run), the median of the run-by-run ratios to ripgrep, peak
memory (the sum over the run's processes, and the largest one, sampled every
10 ms), and microseconds of CPU per API call line of the corpus.
apispec's bytecode is compiled first, as an installed package has it.

Usage: python benchmarks/lint.py [--files N] [--repeat R] [--semgrep PATH] [--keep DIR]
Targets (issue 15): first run <= 4x ripgrep (sparse), <= 10x (dense); re-run
<= 3x ripgrep on both; apispec >= 15x faster than semgrep.
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
# (name, share of files that call the API): 25 calls in 100 lines per such file
CORPORA = (("sparse", 0.004), ("dense", 0.08))
TARGETS = {"sparse": 4.0, "dense": 10.0}  # first run / ripgrep
RERUN_TARGET = 3.0
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


def interleaved(
    a: list[str], b: list[str], repeat: int, env: dict[str, str]
) -> tuple[list[Run], list[Run]]:
    """A and B in turn, `repeat` times each, after one warm-up of each."""
    run(a, env), run(b, env)
    runs_a, runs_b = [], []
    for _ in range(repeat):
        runs_a.append(run(a, env))
        runs_b.append(run(b, env))
    return runs_a, runs_b


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
        f"  {name:<22} {median(runs, 'wall'):6.2f} s wall {median(runs, 'cpu'):6.2f} s CPU   "
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


def bench_corpus(
    name: str, root: Path, calls: int, repeat: int, semgrep: str | None, rg: str | None
) -> float:
    """Time one corpus and print its figures; the CPU seconds of a first run."""
    cache_dir = Path(tempfile.mkdtemp(prefix="apispec-lint-cache-"))
    env = {**os.environ, "APISPEC_CACHE_DIR": str(cache_dir)}
    env.pop("APISPEC_NO_CACHE", None)
    lint = [
        sys.executable,
        "-m",
        "apispec",
        "lint",
        str(root),
        "--format",
        "json",
        "--fail-on",
        "never",
    ]
    grep = [rg or "rg", "-c", PATTERN, str(root)]
    print(f"  before: {load()}")
    try:
        first, rg_runs = interleaved([*lint, "--no-cache"], grep, repeat, env)
        # Fill the cache. A status taken within 2 s of a file's last change is not trusted
        # (apispec.lint.cache.RACY_NS): an unchanged tree is one untouched for longer.
        newest = max(p.stat().st_mtime for p in root.rglob("*"))
        time.sleep(max(0.0, newest + 2.5 - time.time()))
        run(lint, env)
        again, rg_again = interleaved(lint, grep, repeat, env)
        if first[-1].stdout != again[-1].stdout:
            raise SystemExit("the re-run's report differs from the first run's")
    finally:
        shutil.rmtree(cache_dir, ignore_errors=True)
    summary = json.loads(first[-1].stdout)["summary"]
    print(f"  apispec found {summary['findings']} findings {summary['by_rule']}")
    print(row("apispec --no-cache", first))
    print(row("apispec, cached re-run", again))
    print(row("ripgrep", rg_runs + rg_again))
    first_ratio = ratio(first, rg_runs, "wall")
    print(
        f"  first run / ripgrep: {first_ratio:.1f}x wall, {ratio(first, rg_runs, 'cpu'):.1f}x CPU"
        f" ({verdict(first_ratio, TARGETS[name])}, wall)"
    )
    again_ratio = ratio(again, rg_again, "wall")
    print(
        f"  re-run / ripgrep:    {again_ratio:.1f}x wall, {ratio(again, rg_again, 'cpu'):.1f}x CPU"
        f" ({verdict(again_ratio, RERUN_TARGET)}, wall)"
    )
    cpu = median(first, "cpu")
    print(f"  CPU per API call line of the corpus (first run): {1e6 * cpu / max(calls, 1):.0f} µs")
    if semgrep:
        rule = root.parent / f"{root.name}-semgrep.yaml"
        rule.write_text(
            "rules:\n  - id: api-v2-call\n    languages: [generic]\n    severity: WARNING\n"
            f"    message: API v2 call\n    pattern-regex: '{PATTERN}'\n"
        )
        command = [semgrep, "scan", "--config", str(rule), "--metrics", "off", "--quiet", "--json"]
        command += ["--disable-version-check", "--jobs", str(os.cpu_count() or 1), str(root)]
        sg = run(command, env)
        rule.unlink()
        found = len(json.loads(sg.stdout or "{}").get("results", []))
        times = sg.wall / median(first, "wall")
        print(
            f"  semgrep (1 run): {sg.wall:.2f} s wall {sg.cpu:.2f} s CPU, {found} results; "
            f"semgrep / apispec first run: {times:.1f}x wall, {sg.cpu / cpu:.1f}x CPU "
            f"({verdict(times, SEMGREP_TARGET, at_most=False)}, wall)"
        )
    print(f"  after: {load()}")
    return cpu


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--semgrep", help="semgrep executable (default: semgrep on PATH)")
    parser.add_argument(
        "--keep", type=Path, help="generate into DIR (reused when there) and keep it"
    )
    args = parser.parse_args()

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
    print(
        f"Python {sys.version.split()[0]}, {os.cpu_count()} cores; ripgrep: {rg or 'not installed'}; semgrep: {semgrep or 'not installed'}"
    )
    cpu = {}
    calls = {}
    try:
        for name, share in CORPORA:
            root = base / name
            counts = base / f"{name}.json"  # a kept corpus is reused with its counts
            if not (args.keep and counts.is_file()):
                shutil.rmtree(root, ignore_errors=True)
                root.mkdir(parents=True)
                counts.write_text(json.dumps(generate(root, args.files, share)))
            files, lines, calls[name] = json.loads(counts.read_text())
            size = sum(p.stat().st_size for p in root.rglob("*") if p.is_file())
            print(
                f"\n{name}: {files} files, {lines} lines, {calls[name]} API v2 call lines "
                f"({100 * calls[name] / max(lines, 1):.2f} %), {size / 1e6:.1f} MB"
            )
            if rg is None:
                print("  ripgrep: not installed (apt-get install ripgrep): nothing to compare with")
                continue
            cpu[name] = bench_corpus(name, root, calls[name], args.repeat, semgrep, rg)
        if len(cpu) == 2:
            marginal = (cpu["dense"] - cpu["sparse"]) / max(calls["dense"] - calls["sparse"], 1)
            print(
                f"\nCPU per additional call line (dense - sparse, first runs): {1e6 * marginal:.0f} µs"
            )
    finally:
        if args.keep is None:
            shutil.rmtree(base, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
