"""`apispec traffic` throughput in lines per second, against `wc -l` on the same file.

Writes one log per format into a temporary directory (an nginx combined log of
--lines lines by default: 1,000,000 lines, about 150 MB, with realistic
User-Agents and a few dozen endpoints, a tenth of the lines not API v2; the
same requests as JSON lines), then times, in the same run, `wc -l FILE` (the
floor: reading and counting the bytes) and `apispec traffic FILE --format json`
as a user runs it (a new process, start-up included). Printed: wall and CPU
seconds, lines per second and MB per second for each, and how many times slower
than `wc -l` apispec is, with the load average (on a shared machine the CPU
figures are the steadier ones).

Usage: python benchmarks/traffic.py [--lines 1000000]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PYTHON = sys.executable
AGENTS = (
    "backup.ps1/1.0",
    "python-requests/2.31.0",
    "curl/8.5.0",
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/120.0 Safari/537.36",
    "Go-http-client/1.1",
    "PRTG-Exporter/0.9 (+https://example.com/exporter)",
)
TARGETS = (
    "/api/v2/sensors/{n}/overview",
    "/api/v2/experimental/sensors?filter=status%20%3D%20down&limit=500",
    "/api/v2/experimental/devices/{n}",
    "/api/v2/devices?limit=100&offset={n}",
    "/api/v2/groups/{n}",
    "/api/v2/experimental/sensors/{n}/channels",
    "/api/v2/settings/public",
    "/api/v2/session",
    "/api/v2/experimental/timeseries/{n}/live",
    "/static/app.{n}.js",
)


def write_logs(directory: Path, lines: int, seed: int = 5) -> dict[str, Path]:
    rng = random.Random(seed)
    combined = directory / "access.log"
    jsonl = directory / "access.jsonl"
    with combined.open("w") as log, jsonl.open("w") as records:
        for i in range(lines):
            target = rng.choice(TARGETS).format(n=rng.randint(1000, 99999))
            agent = rng.choice(AGENTS)
            address = f"10.{i % 7}.{i % 13}.{i % 251}"
            method = "POST" if target == "/api/v2/session" else "GET"
            second = i // 50
            stamp = f"10/Oct/2024:{(second // 3600) % 24:02d}:{(second // 60) % 60:02d}:{second % 60:02d} +0200"
            log.write(
                f'{address} - - [{stamp}] "{method} {target} HTTP/1.1" 200 {rng.randint(80, 9000)} '
                f'"https://portal.example/dashboard" "{agent}"\n'
            )
            records.write(
                json.dumps(
                    {
                        "time": 1_728_561_336 + second,
                        "remote_addr": address,
                        "request_method": method,
                        "request_uri": target,
                        "status": 200,
                        "http_user_agent": agent,
                    }
                )
                + "\n"
            )
    return {"combined": combined, "jsonl": jsonl}


def timed(command: list[str]) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the child): on a shared machine CPU time is the steadier."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=1_000_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as temp:
        logs = write_logs(Path(temp), args.lines)
        print(
            f"apispec traffic on {args.lines:,} lines; load average {os.getloadavg()[0]:.2f} "
            f"on {os.cpu_count()} cores"
        )
        for name, path in logs.items():
            megabytes = path.stat().st_size / 1e6
            wc, wc_cpu = min(timed(["wc", "-l", str(path)]) for _ in range(3))
            apispec, apispec_cpu = timed(
                [PYTHON, "-m", "apispec", "traffic", str(path), "--format", "json", "-q",
                 "--fail-on", "never", "-o", os.devnull]
            )  # fmt: skip
            print(f"  {name} ({megabytes:.0f} MB)")
            for label, wall, cpu in (
                ("wc -l", wc, wc_cpu),
                ("apispec traffic", apispec, apispec_cpu),
            ):
                print(
                    f"    {label + ':':17}{wall:7.2f} s wall {args.lines / wall:12,.0f} lines/s "
                    f"{megabytes / wall:6.0f} MB/s;  {cpu:6.2f} s CPU "
                    f"{args.lines / max(cpu, 1e-3):12,.0f} lines/s"
                )
            print(f"    apispec traffic / wc -l: {apispec / wc:.0f}x (wall)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
