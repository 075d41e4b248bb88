"""The latency `apispec proxy` adds: the same requests straight to the upstream and through it.

`apispec mock` serves as the upstream and `apispec proxy` stands in front of it,
each in its own process on 127.0.0.1; --clients threads (default 8) each keep
one connection to the upstream and one to the proxy and, in the same run, send
--requests requests to each, alternating, so both series see the same load on
the machine. Two requests are timed: `GET /settings/public` (a few bytes,
nothing to judge but the path) and a deprecated endpoint with a filter and a
query parameter the rules check (`GET /sensors/{id}/overview?...`, judged,
answered with Deprecation, Link and Apispec-Finding headers).

Printed per request: p50 and p99 latency straight and through the proxy, and
the difference (what the proxy adds), in milliseconds, with the load average;
and the CPU time the mock and the proxy spend per request (from /proc), which a
busy machine disturbs less than latency.

Usage: python benchmarks/proxy.py [--clients 8] [--requests 200]
"""

from __future__ import annotations

import argparse
import os
import re
import signal
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx

PYTHON = sys.executable


def _start(args: list[str], stream: str, pattern: str) -> tuple[subprocess.Popen, str]:
    process = subprocess.Popen(
        [PYTHON, "-m", "apispec", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    source = process.stdout if stream == "stdout" else process.stderr
    assert source is not None
    for _ in range(20):
        found = re.search(pattern, source.readline())
        if found:
            return process, found[1]
    process.kill()
    raise SystemExit(f"apispec {args[0]} did not start")


def _cpu_seconds(pid: int) -> float:
    """User and system CPU seconds of a process so far (Linux /proc), 0 elsewhere."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--requests", type=int, default=200, help="per client and per route")
    args = parser.parse_args()

    mock, upstream = _start(
        ["mock", "--port", "0", "--objects", "2000"], "stdout", r"at (http://\S+)/api/v2$"
    )
    proxy, through = _start(
        ["proxy", "--upstream", upstream, "--port", "0"], "stderr", r"^apispec proxy: (\S+) -> "
    )
    try:
        token = httpx.post(
            f"{upstream}/api/v2/session",
            json={"username": "prtgadmin", "password": "prtgadmin"},
            timeout=30,
        ).json()["token"]
        auth = {"Authorization": f"Bearer {token}"}
        sid = httpx.get(f"{upstream}/api/v2/experimental/sensors?limit=1", headers=auth).json()[0][
            "id"
        ]
        paths = {
            "GET /settings/public": "/api/v2/settings/public",
            "GET /sensors/{id}/overview (judged)": f"/api/v2/sensors/{sid}/overview"
            "?filter=status%20%3D%20up&take=5",
        }
        timings: dict[tuple[str, str], list[float]] = {
            (name, way): [] for name in paths for way in ("straight", "through")
        }
        lock = threading.Lock()

        def client() -> None:
            mine: dict[tuple[str, str], list[float]] = {key: [] for key in timings}
            with (
                httpx.Client(headers=auth, timeout=60) as straight,
                httpx.Client(headers=auth, timeout=60) as proxied,
            ):
                for name, path in paths.items():
                    for _ in range(3):  # warm the connections and the proxy's cache
                        straight.get(upstream + path)
                        proxied.get(through + path)
                    for _ in range(args.requests):
                        for way, session, base in (
                            ("straight", straight, upstream),
                            ("through", proxied, through),
                        ):
                            started = time.perf_counter()
                            session.get(base + path)
                            mine[(name, way)].append((time.perf_counter() - started) * 1000)
            with lock:
                for key, values in mine.items():
                    timings[key].extend(values)

        threads = [threading.Thread(target=client) for _ in range(args.clients)]
        cpu_before = _cpu_seconds(mock.pid), _cpu_seconds(proxy.pid)
        started = time.perf_counter()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        elapsed = time.perf_counter() - started
        cpu_after = _cpu_seconds(mock.pid), _cpu_seconds(proxy.pid)
    finally:
        for process in (proxy, mock):
            process.send_signal(signal.SIGINT)
            process.communicate(timeout=30)

    print(
        f"apispec proxy, {args.clients} clients x {args.requests} requests per route and way, "
        f"{elapsed:.1f} s; load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores"
    )
    # the mock answers both ways (straight and through the proxy); the proxy one way
    answered = args.clients * (args.requests + 3) * len(paths)
    mock_ms = (cpu_after[0] - cpu_before[0]) * 1000 / (2 * answered)
    proxy_ms = (cpu_after[1] - cpu_before[1]) * 1000 / answered
    print(
        f"  CPU per request (steadier than latency on a shared machine): the mock {mock_ms:.2f} ms,"
        f" the proxy {proxy_ms:.2f} ms"
    )
    for name in paths:
        straight, proxied = timings[(name, "straight")], timings[(name, "through")]
        p50s, p99s = _percentile(straight, 0.5), _percentile(straight, 0.99)
        p50p, p99p = _percentile(proxied, 0.5), _percentile(proxied, 0.99)
        print(f"  {name}")
        print(f"    straight to the mock: p50 {p50s:7.2f} ms  p99 {p99s:7.2f} ms")
        print(f"    through the proxy:    p50 {p50p:7.2f} ms  p99 {p99p:7.2f} ms")
        print(
            f"    added by the proxy:   p50 {p50p - p50s:+7.2f} ms  p99 {p99p - p99s:+7.2f} ms"
            f"  (mean {statistics.fmean(proxied) - statistics.fmean(straight):+.2f} ms)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
