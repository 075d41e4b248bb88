"""`apispec docs`: the reference of one release or of all releases, as Markdown or HTML."""

from __future__ import annotations

import argparse
import sys

from apispec.commands import (
    add_format_option,
    add_output_option,
    add_registry_option,
    registry_from,
)
from apispec.support.exceptions import EXIT_OK, EXIT_USAGE

# the command's format names -> the generator's
_GENERATOR_FORMAT = {"markdown": "md", "html": "html"}


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser(
        "docs",
        help="generate the reference docs per release (Markdown or a static HTML site)",
        description="Generate the reference docs of one release (default: the newest concrete "
        "one) "
        "or of every release, from the registry. See docs/reference-docs.md.",
    )
    which = parser.add_mutually_exclusive_group()
    which.add_argument("--release", metavar="R", help="the release to document")
    which.add_argument(
        "--all-releases",
        action="store_true",
        help="one folder per release plus a landing page with the availability matrix",
    )
    add_format_option(
        parser,
        list(_GENERATOR_FORMAT),
        default="markdown",
        help="markdown (default): a README.md per release; html: a self-contained page per "
        "release with search and a try-it panel",
    )
    add_output_option(
        parser,
        metavar="DIR",
        required=True,
        help="folder to write the pages into (created if missing); with one release, - prints "
        "its one page instead",
    )
    add_registry_option(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from apispec.commands import chosen_release
    from apispec.generate.docs_site import render_site, write_site
    from apispec.support.exceptions import UsageError

    if args.output is None and args.all_releases:
        raise UsageError(
            "-o - prints one page: name one release, or give -o DIR for --all-releases"
        )
    if args.output is not None and args.output.exists() and not args.output.is_dir():
        raise UsageError(f"output {args.output} exists and is not a directory")
    registry = registry_from(args)
    release = None if args.all_releases else chosen_release(registry, args.release).text
    pages = render_site(registry, _GENERATOR_FORMAT[args.format], release, args.all_releases)
    if args.output is None:
        (page,) = pages.values()  # one release is one page
        sys.stdout.write(page)
        return EXIT_OK
    written, errors = write_site(pages, args.output)
    for message in errors:
        print(f"apispec: error: {message}", file=sys.stderr)
    sizes = {path: len(text.encode("utf-8")) for path, text in pages.items()}
    largest = max(sizes, key=sizes.__getitem__)
    print(
        f"wrote {len(written)} page{'s' if len(written) != 1 else ''} to {args.output}: "
        f"{_kb(sum(sizes.values()))} in all, largest {largest} ({_kb(sizes[largest])}); "
        "nothing else is loaded"
    )
    return EXIT_USAGE if errors else EXIT_OK


def _kb(size: int) -> str:
    return f"{size / 1024:,.0f} KB" if size < 10 * 1024 * 1024 else f"{size / 1024 / 1024:.1f} MB"
