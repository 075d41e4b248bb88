"""`apispec mcp-tools`: the MCP tool catalog of a release, one tool per endpoint."""

from __future__ import annotations

import argparse
import json

from apispec.commands import (
    add_format_option,
    add_output_option,
    add_registry_option,
    registry_from,
)
from apispec.support.exceptions import EXIT_OK


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser(
        "mcp-tools",
        help="list the MCP tools of a release (one per endpoint)",
        description="The MCP tool catalog of every endpoint available in a release "
        "(default: the newest concrete one), grouped by tag.",
    )
    parser.add_argument(
        "--release", metavar="R", help="release to describe (default: the newest concrete one)"
    )
    add_format_option(
        parser,
        ["text", "json"],
        default="text",
        help="text (default): a table per tag; json: the list of MCP Tool objects",
    )
    add_output_option(parser, help="write the catalog to FILE (default: standard output)")
    add_registry_option(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from apispec.commands import chosen_release, write_output
    from apispec.generate.mcp_catalog import build_catalog
    from apispec.support.text_table import render_table

    registry = registry_from(args)
    release = chosen_release(registry, args.release)
    catalog = build_catalog(registry, release)
    if args.format == "json":
        tools = [entry.tool for entry in catalog]
        write_output(args.output, json.dumps(tools, indent=2, ensure_ascii=False) + "\n")
        return EXIT_OK
    tags: dict[str, list[tuple[str, ...]]] = {}
    for entry in catalog:
        hints = entry.tool["annotations"]
        kind = (
            "read-only"
            if hints["readOnlyHint"]
            else "destructive"
            if hints.get("destructiveHint")
            else "writes"
        )
        tags.setdefault(entry.endpoint.tag, []).append(
            (entry.name, str(entry.endpoint), str(entry.endpoint.maturity), kind)
        )
    lines = []
    for tag, rows in tags.items():
        lines += [
            f"{tag} ({len(rows)})",
            render_table(("TOOL", "ENDPOINT", "MATURITY", "EFFECT"), rows),
            "",
        ]
    lines.append(f"{len(catalog)} tool{'' if len(catalog) == 1 else 's'} for release {release}")
    write_output(args.output, "\n".join(lines) + "\n")
    return EXIT_OK
