"""`apispec rule CODE` / `apispec rule --all`: the linter rules' documentation."""

from __future__ import annotations

import argparse


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "rule",
        help="explain a linter rule or a filter diagnostic (or all rules)",
        description="Print the documentation page of a lint rule, by code (API002) or name "
        "(deprecated-endpoint), or of a filter diagnostic code (FLT003).",
    )
    p.add_argument("code", nargs="?", help="rule code or name, for example API002 or FLT003")
    p.add_argument("--all", action="store_true", help="print every lint rule")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from apispec.support.exceptions import UsageError

    if args.all:
        from apispec.lint.rules import rules_markdown

        print(rules_markdown(), end="")
    elif args.code:
        print(page(args.code), end="")
    else:
        raise UsageError("name a rule code (for example `apispec rule API002`) or use --all")
    return 0


def page(word: str) -> str:
    """The page a code or a rule name asks for; a did-you-mean over codes and names otherwise."""
    from apispec.filters.diagnostics import CODES as FILTER_CODES
    from apispec.filters.pages import page as filter_page
    from apispec.lint.rules import BY_CODE
    from apispec.support.exceptions import UsageError, did_you_mean

    code = word.strip().upper()
    if code in BY_CODE:
        return BY_CODE[code].page()
    if code in FILTER_CODES:
        return filter_page(code)
    by_name = {rule.name: rule for rule in BY_CODE.values()}
    name = word.strip().lower()
    if name in by_name:
        return by_name[name].page()
    known = [*BY_CODE, *FILTER_CODES]
    hint = _renumbered(code, known) or did_you_mean(code, known) or did_you_mean(name, by_name)
    raise UsageError(f"unknown rule {word!r}{hint}; `apispec rule --all` lists the rules")


def _renumbered(code: str, known: list[str]) -> str:
    """`API02` or `api2` means API002: the same number written with fewer digits."""
    import re

    match = re.fullmatch(r"([A-Z]+)0*([0-9]{1,3})", code)
    if match is None:
        return ""
    candidate = f"{match[1]}{int(match[2]):03}"
    return f" (did you mean {candidate}?)" if candidate in known else ""
