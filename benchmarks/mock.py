"""Mock server speed with 100,000 objects: a filtered, sorted list request, and filter evaluation.

    python benchmarks/mock.py [--objects 100000] [--requests 200] [--concurrency 8]

Prints, each next to a baseline measured in the same run:

1. tree generation time (target: under 2 s for 100,000 objects);
2. filter evaluation rate in objects/second: apispec's compiled filter over
   the whole tree, against a hand-written Python predicate doing the same test;
3. latency p50/p99 of the filtered, sorted list request, one request at a
   time, against GET /settings/public (the mock's fixed per-request cost);
4. requests/second of the same request under a concurrent loopback load,
   against GET /settings/public under the same load.

The server runs in its own process (`apispec mock --port 0`) on 127.0.0.1, so
the load generator does not share its interpreter; the load is bounded by a
request count and a time limit.
"""

from __future__ import annotations

import argparse
import asyncio
import re
import subprocess
import sys
import time
from collections.abc import Callable

import httpx

from apispec.mock.data import generate_tree
from apispec.mock.selection import compiled_filter
from apispec.model import load_registry

FILTER = 'status = down and basic.tags contains "ping" or favorite = true'
LIST_PATH = "/experimental/sensors"
PARAMS = {"filter": FILTER, "sort_by": "-name", "limit": 100}
TIME_LIMIT = 60.0


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


def start_server(objects: int) -> tuple[subprocess.Popen, str]:
    command = [sys.executable, "-m", "apispec", "mock", "--port", "0", "--objects", str(objects)]
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
    api: str,
    token: str,
    count: int,
    concurrency: int,
    path: str,
    params: Callable[[int], dict | None],
) -> tuple[int, float]:
    headers = {"Authorization": f"Bearer {token}"}
    done = 0
    deadline = time.monotonic() + TIME_LIMIT
    async with httpx.AsyncClient(base_url=api, headers=headers, timeout=60) as client:

        async def worker() -> None:
            nonlocal done
            while done < count and time.monotonic() < deadline:
                done += 1
                answer = await client.get(path, params=params(done))
                answer.raise_for_status()

        start = time.perf_counter()
        await asyncio.gather(*(worker() for _ in range(concurrency)))
        return done, time.perf_counter() - start


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

    process, api = start_server(args.objects)
    try:
        with httpx.Client(base_url=api, timeout=60) as client:
            token = client.post(
                "/session", json={"username": "prtgadmin", "password": "prtgadmin"}
            ).json()["token"]
            client.headers["Authorization"] = f"Bearer {token}"
            check = client.get(LIST_PATH, params=PARAMS)
            total = check.headers["X-Total-Count"]
            sequential(client, LIST_PATH, fresh, 5)  # warm-up: connections, code paths
            floor = sequential(client, "/settings/public", lambda n: None, 200)
            listed = sequential(client, LIST_PATH, lambda n: fresh(100 + n), args.requests // 2)
            pages = sequential(
                client, LIST_PATH, lambda n: {**PARAMS, "offset": n * 100 % 2000}, 100
            )
        p50, p99 = percentile(listed, 0.5) * 1000, percentile(listed, 0.99) * 1000
        f50 = percentile(floor, 0.5) * 1000
        g50 = percentile(pages, 0.5) * 1000
        print(
            f"GET {LIST_PATH} filter + sort_by=-name + limit=100 ({total} matches among the sensors), "
            f"each with a new filter text: p50 {p50:.1f} ms, p99 {p99:.1f} ms over {len(listed)} "
            f"sequential requests; baseline GET /settings/public p50 {f50:.2f} ms ({p50 / f50:.0f}x)"
        )
        print(f"paging through the same filtered, sorted list (result reused): p50 {g50:.1f} ms")
        done, elapsed = asyncio.run(
            concurrent(
                api,
                token,
                args.requests,
                args.concurrency,
                LIST_PATH,
                lambda n: fresh(10_000 + n),
            )
        )
        base_done, base_elapsed = asyncio.run(
            concurrent(
                api,
                token,
                args.requests * 5,
                args.concurrency,
                "/settings/public",
                lambda n: None,
            )
        )
        rate, base_rate = done / elapsed, base_done / base_elapsed
        print(
            f"under load ({args.concurrency} concurrent loopback clients): {rate:.1f} requests/s "
            f"({done} requests in {elapsed:.1f} s; {rate * p50 / 1000:.2f}x the sequential rate "
            f"{1000 / p50:.1f}/s); baseline GET /settings/public {base_rate:.0f} requests/s "
            f"({base_rate / rate:.0f}x)"
        )
    finally:
        process.terminate()
        process.wait(timeout=15)


if __name__ == "__main__":
    main()
