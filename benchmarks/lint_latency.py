"""How long linting one file takes in a process that is already running: an editor's latency.

The language server keeps a Checker with the registry loaded and lints a
document on every change; a CLI run pays start-up once for many files. This
times what is left per file: `lint_in_budget(checker, text, name)` (what the
language server calls) on a generated 2,000-line Python file, about 2 % of
its lines API v2 calls (the shapes of benchmarks/lint.py's dense corpus),
after a warm-up, with one line edited before each round so no round lints
exactly the text of the round before.

Printed: median, 90th percentile and maximum, wall and CPU time per lint,
over --repeat rounds; the findings; and the load of the machine.

Usage: python benchmarks/lint_latency.py [--lines N] [--repeat R]
Target (issue 15): at most 30 ms per 2,000-line file.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
from lint import CALLS, FILLER, HEADERS  # the lint benchmark's Python shapes

TARGET_MS = 30.0


def generate(lines: int, seed: int = 7) -> list[str]:
    rng = random.Random(seed)
    out = HEADERS[".py"].splitlines()
    while len(out) < lines:
        n = len(out)
        if rng.random() < 0.02:
            out.append(rng.choice(CALLS[".py"]).format(n=n))
        else:
            out.append(FILLER[".py"][n % len(FILLER[".py"])].format(n=n))
    return out


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=50)
    args = parser.parse_args()

    from apispec.lint.config import Config
    from apispec.lint.engine import Checker, Options, lint_in_budget
    from apispec.registry.load import load_registry

    registry = load_registry()
    checker = Checker(registry, Options(Config(), (registry.newest_release.text,)))
    lines = generate(args.lines)
    edited = len(lines) // 2
    calls = sum(1 for line in lines if "requests." in line)
    for _ in range(5):  # warm: modules imported, regular expressions compiled
        result = lint_in_budget(checker, "\n".join(lines) + "\n", "client.py")
    walls, cpus = _rounds(checker, lines, edited, args.repeat, lint_in_budget)
    # an editor: the document's tree is kept, each edit re-parsed incrementally
    from apispec.lint.extract.parse import keep_trees

    keep_trees()
    lint_in_budget(checker, "\n".join(lines) + "\n", "client.py")
    _, edit_cpus = _rounds(checker, lines, edited, args.repeat, lint_in_budget)
    text = "\n".join(lines) + "\n"
    result = lint_in_budget(checker, text, "client.py")
    if result.skipped is not None:
        raise SystemExit(f"the file was skipped: {result.skipped.reason}")
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"one {args.lines}-line Python file ({len(text) / 1000:.0f} kB, {calls} API v2 calls, "
        f"{len(result.findings)} findings), {args.repeat} rounds, Python {sys.version.split()[0]}, "
        f"load average {load:.2f} on {os.cpu_count()} cores"
    )
    for name, values in (("wall", walls), ("CPU", cpus)):
        print(
            f"  {name:>4}: median {statistics.median(values):5.1f} ms, "
            f"p90 {percentile(values, 0.9):5.1f} ms, max {max(values):5.1f} ms"
        )
    print(
        f"  edit: median {statistics.median(edit_cpus):5.1f} ms CPU per re-lint with the "
        f"document's tree kept (the language server), p90 {percentile(edit_cpus, 0.9):5.1f} ms"
    )
    median = statistics.median(cpus)
    verdict = "met" if median <= TARGET_MS else "MISSED"
    print(f"  target: at most {TARGET_MS:g} ms per file (median CPU): {verdict}")
    return 0


def _rounds(
    checker: Any, lines: list[str], edited: int, repeat: int, lint: Any
) -> tuple[list[float], list[float]]:
    """Lint the file `repeat` times, one line changed each time: (wall ms, CPU ms)."""
    walls, cpus = [], []
    for round_ in range(repeat):
        lines[edited] = f"# edited in round {round_}"
        text = "\n".join(lines) + "\n"
        cpu, wall = time.process_time(), time.perf_counter()
        lint(checker, text, "client.py")
        walls.append(1000 * (time.perf_counter() - wall))
        cpus.append(1000 * (time.process_time() - cpu))
    return walls, cpus


if __name__ == "__main__":
    sys.exit(main())
