"""Filter parse+check throughput against Lark's Earley parser on the same grammar.

    python benchmarks/filters.py [--seconds 1.0]

Each measurement runs on one core for about `--seconds`, repeats three times
and keeps the best rate. Prints filters/second for:

1. `apispec.filters.check` (parse and check against the registry) on a fixed
   set of realistic filters (typical length about 60 characters, the ones
   scripts send; some carry a mistake, so the error path counts too);
2. the naive baseline: Lark's Earley parser on `grammar/filter.lark`,
   parsing only (no check), the same filters;
3. Lark's LALR parser on the same grammar (parse only), for scale;
4. `check` of one ~60-character valid filter, the issue's 8,000/s target.

Then the ratio of (1) to (2); the target is at least 10x.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

import lark

from apispec.filters import check
from apispec.filters.grammar import grammar_text, lark_parser

# What scripts send (REAL-WORLD usage), valid and with the usual slips.
FILTERS = [
    'type = sensor and status = down or favorite = true and kind = "x"',
    'basic.tags contains "ping" and status != up and parentid = "2048"',
    'name in ["core-sw-01", "core-sw-02", "edge-fw-01"] and status = up',
    'descendants id = "2048" and not(status = up or status = paused)',
    'basic.host = "10.0.0.1" or basic.hostv6 = "fe80::1" and favorite=true',
    '(status = down or status = warning) and basic.parenttags contains "x"',
    'children parentid = "4096" and type = channel and primary = true',
    'ancestors id = "2048" and kind != "probe" and favorite = false',
    'status = "down" and basic.tags contains "linux" or name = "HQ router"',
    'type=sensor;status=down and basic.tags contains "ping" or favorite=1',
    'status eq down and name in ["db-01", "db-02"] or kind = "device"',
    'not(basic.tags contains "test") and status = up and favorite = true',
]
ONE = 'type = sensor and status = down or basic.tags contains "ping"'


def rate(run: Callable[[str], object], texts: list[str], seconds: float) -> float:
    """Best of three: filters per second of `run` over `texts`, repeated for `seconds`."""
    best = 0.0
    for _ in range(3):
        done = 0
        start = time.perf_counter()
        deadline = start + seconds
        while time.perf_counter() < deadline:
            for text in texts:
                run(text)
            done += len(texts)
        best = max(best, done / (time.perf_counter() - start))
    return best


def earley_parser() -> Callable[[str], object]:
    parser = lark.Lark(grammar_text(), parser="earley", lexer="dynamic")

    def parse(text: str) -> object:
        try:
            return parser.parse(text)
        except lark.exceptions.LarkError:
            return None

    return parse


def lalr_parse(text: str) -> object:
    try:
        return lark_parser().parse(text)
    except lark.exceptions.LarkError:
        return None


def main() -> None:
    options = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    options.add_argument("--seconds", type=float, default=1.0, help="per measurement")
    seconds = options.parse_args().seconds

    lengths = [len(f) for f in FILTERS]
    print(
        f"{len(FILTERS)} filters, {min(lengths)}-{max(lengths)} characters "
        f"(median {statistics.median(lengths):.0f}); one filter of {len(ONE)} characters"
    )
    for text in FILTERS:  # warm every cache (tables, catalog, Lark) before timing
        check(text)
        lalr_parse(text)
    earley = earley_parser()

    ours = rate(check, FILTERS, seconds)
    baseline = rate(earley, FILTERS, seconds)
    lalr = rate(lalr_parse, FILTERS, seconds)
    single = rate(check, [ONE], seconds)
    print(f"apispec check (parse+check):   {ours:>9,.0f} filters/s")
    print(f"Lark Earley (parse only):      {baseline:>9,.0f} filters/s   baseline")
    print(f"Lark LALR (parse only):        {lalr:>9,.0f} filters/s")
    print(f"apispec check, one filter:     {single:>9,.0f} filters/s   target >= 8,000")
    print(f"ratio apispec / Earley:        {ours / baseline:>9.1f}x          target >= 10x")


if __name__ == "__main__":
    main()
