"""`apispec rule CODE` / `apispec rule --all`: the linter rules' documentation."""

from __future__ import annotations

import argparse


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("rule", help="explain a linter rule (or all of them)")
    p.add_argument("code", nargs="?", help="rule code, for example API002")
    p.add_argument("--all", action="store_true", help="print every rule")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from apispec.exceptions import UsageError
    from apispec.lint.rules import rule, rules_markdown

    if args.all:
        print(rules_markdown(), end="")
    elif args.code:
        print(rule(args.code).page(), end="")
    else:
        raise UsageError("name a rule code (for example `apispec rule API002`) or use --all")
    return 0
