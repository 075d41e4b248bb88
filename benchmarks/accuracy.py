"""Print the linter's accuracy on every labelled fixture set, per language.

    python benchmarks/accuracy.py [--misses] [--json] [SET ...]

Calls found (recall), methods right, labelled rule codes reported, and the
share of reported findings that no label expects (false reports), per
language and per set; the thresholds tests/test_lint_accuracy.py enforces are
98 % / 100 % / 97 % / at most 2 %. `--misses` lists every missed call, missed
finding and false report, file:line first, to work from.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests import lint_accuracy as acc


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sets", nargs="*", help="labelled sets (default: all)")
    parser.add_argument("--misses", action="store_true", help="list every miss and false report")
    parser.add_argument("--json", action="store_true", help="figures as JSON")
    args = parser.parse_args()
    total = acc.Scores()
    for name in args.sets or acc.sets():
        labelled = acc.load(name)
        rows = acc.score(labelled, acc.observe(labelled))
        total.add(rows["all"])
        if args.json:
            print(acc.as_json(rows))
            continue
        print(f"\n== {name} ({labelled.root.relative_to(acc.ROOT)}, target {labelled.target})")
        print(acc.table(rows))
        if args.misses:
            for miss in rows["all"].misses:
                print("  " + miss)
    if not args.json:
        print(
            f"\nall sets: {total.calls} calls, found {total.recall:.1%}, "
            f"methods {total.method_accuracy:.1%}, rules right {total.rules_right:.1%}, "
            f"false reports {total.false_rate:.1%} ({total.false} of {total.reported})"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
