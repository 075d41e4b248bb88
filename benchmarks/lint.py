"""How fast `apispec lint` scans a large tree, against ripgrep and semgrep in the same run.

Generates a corpus of 10,000 files (about 1,000,000 lines; about 2 % of the
lines are API v2 calls, in 8 % of the files) in a temporary directory, then
times, each the median of --repeat runs, with warm file caches:

- `apispec lint DIR` (all cores, JSON report to /dev/null),
- `rg -c 'api/v2|/experimental/' DIR` (the floor: reading plus a regex),
- semgrep with one equivalent rule (a generic pattern-regex), when it is
  installed or `--semgrep` names a semgrep executable.

Usage: python benchmarks/lint.py [--files N] [--repeat R] [--call-files PERCENT]
                                 [--semgrep PATH] [--keep DIR]
Targets (issue 5): apispec <= 5x ripgrep's time, and >= 10x faster than semgrep.
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

LINES_PER_FILE = 100
CALL_FILE_SHARE = 0.08
CALLS_PER_CALL_FILE = 25

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
    root: Path, files: int, call_file_share: float = CALL_FILE_SHARE, seed: int = 7
) -> tuple[int, int, int]:
    """Write the corpus; (files, lines, call lines)."""
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
        call_lines = (
            set(rng.sample(range(LINES_PER_FILE), CALLS_PER_CALL_FILE)) if with_calls else set()
        )
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


def timed(command: list[str], repeat: int) -> tuple[float, float, subprocess.CompletedProcess[str]]:
    """Median wall time and median CPU time (user + system, all processes) of `repeat` runs.

    CPU time is printed beside wall time because it does not grow when other work
    shares the machine; on an idle machine wall time is the figure that counts.
    """
    times = []
    cpu = []
    proc = None
    for _ in range(repeat):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        proc = subprocess.run(command, capture_output=True, text=True, check=False)
        times.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    assert proc is not None
    return statistics.median(times), statistics.median(cpu), proc


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--semgrep", help="semgrep executable (default: semgrep on PATH)")
    parser.add_argument("--keep", type=Path, help="generate into DIR and keep it")
    parser.add_argument(
        "--call-files",
        type=float,
        default=100 * CALL_FILE_SHARE,
        metavar="PERCENT",
        help="share of files that call the API (default 8: about 2 %% of all lines)",
    )
    args = parser.parse_args()

    root = args.keep or Path(tempfile.mkdtemp(prefix="apispec-lint-bench-"))
    root.mkdir(parents=True, exist_ok=True)
    try:
        files, lines, calls = generate(root, args.files, args.call_files / 100)
        size = sum(p.stat().st_size for p in root.rglob("*") if p.is_file())
        print(
            f"corpus: {files} files, {lines} lines ({calls} API v2 call lines, "
            f"{100 * calls / lines:.1f} %), {size / 1e6:.1f} MB in {root}"
        )

        apispec = [
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
        lint_time, lint_cpu, proc = timed(apispec, args.repeat)
        if proc.returncode != 0:
            print(proc.stderr, file=sys.stderr)
            return 1
        summary = json.loads(proc.stdout)["summary"]
        print(
            f"apispec lint: {lint_time:.2f} s wall ({lint_cpu:.2f} s CPU), "
            f"{size / 1e6 / lint_time:.1f} MB/s, "
            f"{summary['findings']} findings {summary['by_rule']}"
        )

        rg = shutil.which("rg")
        if rg is None:
            print("ripgrep: not installed (apt-get install ripgrep)")
        else:
            rg_time, rg_cpu, proc = timed(
                [rg, "-c", "api/v2|/experimental/", str(root)], args.repeat
            )
            matched = sum(int(line.rsplit(":", 1)[1]) for line in proc.stdout.splitlines())
            print(
                f"ripgrep:      {rg_time:.2f} s wall ({rg_cpu:.2f} s CPU), "
                f"{size / 1e6 / rg_time:.1f} MB/s, "
                f"{matched} matching lines"
            )
            print(
                f"apispec / ripgrep time: {lint_time / rg_time:.1f}x wall, "
                f"{lint_cpu / rg_cpu:.1f}x CPU (target <= 5x)"
            )

        semgrep = args.semgrep or shutil.which("semgrep")
        if semgrep is None:
            print("semgrep: not installed (pip install semgrep in a separate venv, pass --semgrep)")
        else:
            rule = root.parent / f"{root.name}-semgrep.yaml"
            rule.write_text(
                "rules:\n"
                "  - id: api-v2-call\n"
                "    languages: [generic]\n"
                "    severity: WARNING\n"
                "    message: API v2 call\n"
                "    pattern-regex: 'api/v2|/experimental/'\n"
            )
            command = [
                semgrep,
                "scan",
                "--config",
                str(rule),
                "--metrics",
                "off",
                "--quiet",
                "--json",
                "--disable-version-check",
                str(root),
            ]
            sg_time, sg_cpu, proc = timed(command, 1)
            rule.unlink()
            found = len(json.loads(proc.stdout or "{}").get("results", []))
            print(
                f"semgrep:      {sg_time:.2f} s wall ({sg_cpu:.2f} s CPU), {found} results (1 run)"
            )
            print(
                f"semgrep / apispec time: {sg_time / lint_time:.1f}x wall, "
                f"{sg_cpu / lint_cpu:.1f}x CPU (target >= 10x)"
            )
    finally:
        if args.keep is None:
            shutil.rmtree(root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
