"""Mock server speed with 100,000 objects: filtered, sorted lists before and after the indexes.

    python benchmarks/mock.py [--objects 100000] [--requests 200] [--concurrency 8]

Prints, each next to a baseline measured in the same run:

1. tree generation time (target: under 2 s for 100,000 objects);
2. filter evaluation rate in objects/second: apispec's compiled filter over
   the whole tree, against a hand-written Python predicate doing the same test;
3. for the *baseline* server (the path before issue 15: every record tested,
   natural-order sort keys, all on the event loop) and the *indexed* server
   (`apispec mock` as shipped): latency p50/p99 of the filtered, sorted list
   request one at a time, each with a new filter text so no cached result
   answers it (target: p99 < 50 ms), and its requests/second and latency
   under `--concurrency` loopback clients (target: twice the baseline's
   requests/second);
4. for both servers, `GET /settings/public` latency while another client's
   slow filter (900 `!=` conditions, which no index narrows) is evaluated
   (issue 11: under 1 s; the baseline answers only when the filter is done).

Each server runs in its own process on 127.0.0.1 (the baseline is the same
code with MockState.index_of and MockState.off_loop replaced in its process),
so the load generator does not share its interpreter; the load is bounded by
a request count and a time limit.
"""

from __future__ import annotations

import argparse
import asyncio
import re
import subprocess
import sys
import threading
import time
from collections.abc import Callable

import httpx

from apispec.mock.data import generate_tree
from apispec.mock.selection import compiled_filter
from apispec.registry.load import load_registry

FILTER = 'status = down and basic.tags contains "ping" or favorite = true'
LIST_PATH = "/experimental/sensors"
PARAMS = {"filter": FILTER, "sort_by": "-name", "limit": 100}
SLOW_FILTER = " and ".join(f'basic.host != "10.9.{n}.1"' for n in range(900))
TIME_LIMIT = 60.0
# The baseline server: no indexes, filtering and sorting on the event loop.
BASELINE = """
import sys
from apispec.mock.context import MockState
async def _on_the_loop(self, work):
    return work()
MockState.index_of = lambda self, records: None
MockState.off_loop = _on_the_loop
from apispec.cli import main
sys.exit(main(sys.argv[1:]))
"""


def hand_written(record: dict) -> bool:
    return (record["status"] == "down" and "ping" in record["basic.tags"]) or record[
        "favorite"
    ] is True


def measure_generation(objects: int) -> float:
    registry = load_registry()
    start = time.perf_counter()
    generate_tree(registry, objects, 0)
    return time.perf_counter() - start


def measure_filter(objects: int) -> tuple[float, float, int]:
    tree = generate_tree(load_registry(), objects, 0)
    records = list(tree.records.values())
    flt = compiled_filter(FILTER)
    rounds = 5
    start = time.perf_counter()
    for _ in range(rounds):
        selected = flt.select(records)
    engine = rounds * len(records) / (time.perf_counter() - start)
    start = time.perf_counter()
    for _ in range(rounds):
        expected = [r for r in records if hand_written(r)]
    baseline = rounds * len(records) / (time.perf_counter() - start)
    assert selected == expected, "the engine and the hand-written predicate disagree"
    return engine, baseline, len(selected)


def start_server(objects: int, baseline: bool) -> tuple[subprocess.Popen, str]:
    program = ["-c", BASELINE] if baseline else ["-m", "apispec"]
    command = [sys.executable, *program, "mock", "--port", "0", "--objects", str(objects)]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    assert process.stdout is not None
    first = process.stdout.readline()
    match = re.search(r"(http://127\.0\.0\.1:\d+/api/v2)", first)
    if match is None:
        process.kill()
        raise SystemExit(f"the mock did not start: {first!r}")
    return process, match[1]


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def fresh(n: int) -> dict:
    """The benchmark request with a filter text of its own, so no cached result can answer it."""
    return {**PARAMS, "filter": f'{FILTER} and name != "bench-{n}"'}


def sequential(
    client: httpx.Client, path: str, params: Callable[[int], dict | None], count: int
) -> list[float]:
    times = []
    deadline = time.monotonic() + TIME_LIMIT
    for n in range(count):
        start = time.perf_counter()
        answer = client.get(path, params=params(n))
        times.append(time.perf_counter() - start)
        answer.raise_for_status()
        if time.monotonic() > deadline:
            break
    return times


async def concurrent(
    api: str, token: str, count: int, concurrency: int, params: Callable[[int], dict]
) -> tuple[int, float, list[float]]:
    """Requests done, seconds taken, and each request's latency, under `concurrency` clients."""
    headers = {"Authorization": f"Bearer {token}"}
    done = 0
    latencies: list[float] = []
    deadline = time.monotonic() + TIME_LIMIT
    async with httpx.AsyncClient(base_url=api, headers=headers, timeout=60) as client:

        async def worker() -> None:
            nonlocal done
            while done < count and time.monotonic() < deadline:
                done += 1
                sent = time.perf_counter()
                answer = await client.get(LIST_PATH, params=params(done))
                latencies.append(time.perf_counter() - sent)
                answer.raise_for_status()

        start = time.perf_counter()
        await asyncio.gather(*(worker() for _ in range(concurrency)))
        return done, time.perf_counter() - start, latencies


def beside_a_slow_filter(api: str, token: str) -> tuple[float, float, float]:
    """p50 and max of GET /settings/public while a slow filter runs, and how long that ran."""
    slow: dict[str, float] = {}

    def run_slow() -> None:
        start = time.perf_counter()
        httpx.get(
            f"{api}/experimental/objects",
            params={"filter": SLOW_FILTER, "limit": 1},
            headers={"Authorization": f"Bearer {token}"},
            timeout=120,
        )
        slow["elapsed"] = time.perf_counter() - start

    thread = threading.Thread(target=run_slow)
    thread.start()
    time.sleep(0.3)
    timings = []
    with httpx.Client(base_url=api, timeout=120) as other:
        while thread.is_alive() and len(timings) < 50:
            start = time.perf_counter()
            other.get("/settings/public").raise_for_status()
            timings.append(time.perf_counter() - start)
            time.sleep(0.05)
    thread.join()
    return percentile(timings, 0.5), max(timings), slow["elapsed"]


def measure_server(args: argparse.Namespace, baseline: bool) -> dict[str, float]:
    process, api = start_server(args.objects, baseline)
    try:
        with httpx.Client(base_url=api, timeout=60) as client:
            token = client.post(
                "/session", json={"username": "prtgadmin", "password": "prtgadmin"}
            ).json()["token"]
            client.headers["Authorization"] = f"Bearer {token}"
            total = int(client.get(LIST_PATH, params=PARAMS).headers["X-Total-Count"])
            sequential(client, LIST_PATH, fresh, 5)  # warm-up: connections, code paths, indexes
            listed = sequential(client, LIST_PATH, lambda n: fresh(100 + n), args.requests // 2)
        done, elapsed, loaded = asyncio.run(
            concurrent(api, token, args.requests, args.concurrency, lambda n: fresh(10_000 + n))
        )
        s50, smax, slow = beside_a_slow_filter(api, token)
    finally:
        process.terminate()
        process.wait(timeout=60)
    return {
        "total": total,
        "p50": percentile(listed, 0.5) * 1000,
        "p99": percentile(listed, 0.99) * 1000,
        "count": len(listed),
        "rate": done / elapsed,
        "loaded_p50": percentile(loaded, 0.5) * 1000,
        "loaded_p99": percentile(loaded, 0.99) * 1000,
        "settings_p50": s50 * 1000,
        "settings_max": smax * 1000,
        "slow": slow,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--objects", type=int, default=100_000)
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--concurrency", type=int, default=8)
    args = parser.parse_args()

    generation = measure_generation(args.objects)
    print(f"tree generation: {args.objects} objects in {generation:.2f} s (target < 2 s)")

    engine, baseline, selected = measure_filter(args.objects)
    print(
        f"filter evaluation: {engine:,.0f} objects/s with apispec.filters "
        f"vs {baseline:,.0f} objects/s hand-written ({engine / baseline:.2f}x); "
        f"{selected} of {args.objects} selected by {FILTER!r}"
    )

    before = measure_server(args, baseline=True)
    after = measure_server(args, baseline=False)
    print(
        f"GET {LIST_PATH} filter + sort_by=-name + limit=100 ({after['total']} matches), "
        f"each with a new filter text, {after['count']} sequential requests:"
    )
    for name, m in (("baseline (unindexed, on the loop)", before), ("indexed", after)):
        print(f"  {name:34} p50 {m['p50']:6.1f} ms  p99 {m['p99']:6.1f} ms")
    print(
        f"  p99 {before['p99'] / after['p99']:.1f}x faster (target: p99 < 50 ms: "
        f"{'met' if after['p99'] < 50 else 'missed'})"
    )
    print(f"the same request under {args.concurrency} concurrent loopback clients:")
    for name, m in (("baseline (unindexed, on the loop)", before), ("indexed", after)):
        print(
            f"  {name:34} {m['rate']:6.1f} requests/s, each answered in "
            f"p50 {m['loaded_p50']:.1f} ms, p99 {m['loaded_p99']:.1f} ms"
        )
    ratio = after["rate"] / before["rate"]
    print(f"  {ratio:.1f}x the throughput (target 2x: {'met' if ratio >= 2 else 'missed'})")
    print("GET /settings/public while a 900-condition filter runs over the objects:")
    for name, m in (("baseline (unindexed, on the loop)", before), ("indexed", after)):
        print(
            f"  {name:34} p50 {m['settings_p50']:7.1f} ms  max {m['settings_max']:7.1f} ms "
            f"(the slow filter took {m['slow']:.1f} s)"
        )


if __name__ == "__main__":
    main()
