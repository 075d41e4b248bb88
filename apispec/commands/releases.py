"""`apispec releases`: the releases the registry knows, in order."""

from __future__ import annotations

import argparse
import json
from typing import Any

from apispec.commands import add_format_option, add_registry_option, registry_from
from apispec.support.exceptions import EXIT_OK


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser("releases", help="list the releases the registry knows, oldest first")
    add_format_option(
        parser,
        ["table", "json"],
        default="table",
        help="table (default): endpoints available and added per release; json: the same "
        "with whether each is a placeholder",
    )
    add_registry_option(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from apispec.support.text_table import render_table

    registry = registry_from(args)
    notes = {info.release.text: info.notes for info in registry.releases}
    rows: list[dict[str, Any]] = []
    for release in registry.release_list:
        endpoints = registry.endpoints_in(release)
        added = [e for e in registry.endpoints if e.since == release]
        rows.append(
            {
                "release": release.text,
                "placeholder": release.is_placeholder,
                "available": len(endpoints),
                "added": len(added),
                "notes": list(notes.get(release.text, ())),
            }
        )
    if args.format == "json":
        print(json.dumps(rows, indent=2))
        return EXIT_OK
    print(
        render_table(
            ("RELEASE", "AVAILABLE", "ADDED", "NOTES"),
            [(r["release"], r["available"], r["added"], " ".join(r["notes"])) for r in rows],
        )
    )
    return EXIT_OK
