"""`apispec changelog [FROM] TO`: what changed, and the migration guide, between releases."""

from __future__ import annotations

import argparse

from apispec.commands import add_registry_option, registry_from
from apispec.support.exceptions import EXIT_OK


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser(
        "changelog",
        help="endpoints added, deprecated and removed between releases, with a migration guide",
        description="List what appeared, became deprecated and was removed in the releases "
        "after FROM up to and including TO (without FROM: from the first release; without "
        "TO: up to the newest concrete release), and what to call instead. See "
        "docs/reference-docs.md.",
    )
    parser.add_argument("start", nargs="?", metavar="FROM", help="exclusive; default: none")
    parser.add_argument(
        "end", nargs="?", metavar="TO", help="inclusive; default: the newest concrete release"
    )
    parser.add_argument("--format", choices=["md", "json"], default="md")
    add_registry_option(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from apispec.commands import chosen_release
    from apispec.generate.changelog import build_changelog, render_markdown

    start, end = (None, args.start) if args.end is None else (args.start, args.end)
    registry = registry_from(args)
    end = chosen_release(registry, end, "TO").text
    changelog = build_changelog(registry, start, end)
    print(changelog.to_json() if args.format == "json" else render_markdown(changelog), end="")
    if args.format == "json":
        print()
    return EXIT_OK
