"""`apispec changelog [FROM] TO`: what changed, and the migration guide, between releases."""

from __future__ import annotations

import argparse

from apispec.commands import (
    add_format_option,
    add_output_option,
    add_registry_option,
    registry_from,
)
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
    add_format_option(
        parser,
        ["markdown", "json"],
        default="markdown",
        help="markdown (default): the changelog and migration guide to read; json: the same "
        "facts for scripts",
    )
    add_output_option(parser, help="write the changelog to FILE (default: standard output)")
    add_registry_option(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from apispec.commands import chosen_release, write_output
    from apispec.generate.changelog import build_changelog, render_markdown

    start, end = (None, args.start) if args.end is None else (args.start, args.end)
    registry = registry_from(args)
    end = chosen_release(registry, end, "TO").text
    changelog = build_changelog(registry, start, end)
    text = changelog.to_json() + "\n" if args.format == "json" else render_markdown(changelog)
    write_output(args.output, text)
    return EXIT_OK
