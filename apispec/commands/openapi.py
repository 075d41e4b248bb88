"""`apispec openapi`: the OpenAPI 3.1 document of a release, or `--check FILE`."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from apispec.commands import (
    add_format_option,
    add_output_option,
    add_registry_option,
    registry_from,
)
from apispec.support.exceptions import EXIT_FINDINGS, EXIT_OK, UsageError


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser(
        "openapi",
        help="generate the OpenAPI 3.1 document of a release, or check an OpenAPI file",
        description="Print the OpenAPI 3.1.0 document of every endpoint available in a "
        "release (default: the newest concrete one), or validate FILE with --check.",
    )
    parser.add_argument(
        "--release", metavar="R", help="release to describe (default: the newest concrete one)"
    )
    add_format_option(
        parser,
        ["json", "yaml"],
        help="output format (default: from the -o file's suffix, else yaml)",
    )
    add_output_option(parser, help="write the document to FILE (default: standard output)")
    add_registry_option(parser)
    parser.add_argument(
        "--check",
        type=Path,
        metavar="FILE",
        help="validate FILE (YAML or JSON) with openapi-spec-validator; prints FILE:LINE: message",
    )
    parser.add_argument(
        "--allow-external-refs",
        action="store_true",
        help="with --check: follow $refs to relative files below FILE's directory (never URLs)",
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    if args.allow_external_refs and args.check is None:
        raise UsageError("--allow-external-refs applies to --check FILE only")
    if args.check is not None:
        given = [f"--{n}" for n in ("release", "format", "output") if getattr(args, n)]
        if given:
            raise UsageError(f"--check takes no {', '.join(given)}")
        return _check(args.check, args.allow_external_refs)
    from apispec.commands import chosen_release
    from apispec.generate.openapi import build_document
    from apispec.generate.openapi.render import render

    registry = registry_from(args)
    document = build_document(registry, chosen_release(registry, args.release))
    fmt = args.format
    if fmt is None:
        suffix = args.output.suffix.lower() if args.output else ""
        fmt = "json" if suffix == ".json" else "yaml"
    text = render(document, fmt)
    if args.output is None:
        sys.stdout.write(text)
        return EXIT_OK
    from apispec.support.outputs import write_atomic

    write_atomic(args.output, text)
    operations = sum(len(item) for item in document["paths"].values())
    print(
        f"wrote {args.output}: OpenAPI {document['openapi']}, release "
        f"{document['info']['version']}, {operations} operations",
        file=sys.stderr,
    )
    return EXIT_OK


def _check(path: Path, allow_external_refs: bool) -> int:
    from apispec.generate.openapi.check import check_file

    findings = check_file(path, allow_external_refs)
    for finding in findings:
        print(finding)
    if findings:
        count = len(findings)
        print(f"{path}: {count} finding{'s' if count != 1 else ''}", file=sys.stderr)
        return EXIT_FINDINGS
    print(f"{path}: valid", file=sys.stderr)
    return EXIT_OK
