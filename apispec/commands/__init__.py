"""One module per `apispec` subcommand; see apispec.cli.COMMANDS."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from apispec.registry.model import Registry
    from apispec.registry.releases import Release


def add_registry_option(
    parser: argparse.ArgumentParser,
    help: str = "use the registry in DIR instead of the bundled one",
) -> None:
    """`--registry DIR` and `--overlay DIR`, spelled the same by every command that reads
    the registry."""
    parser.add_argument("--registry", type=Path, metavar="DIR", help=help)
    parser.add_argument(
        "--overlay",
        type=Path,
        action="append",
        default=[],
        metavar="DIR",
        help="apply the overlay in DIR on top of the registry (repeatable; later ones win; "
        "see docs/registry.md)",
    )


def add_format_option(
    parser: argparse.ArgumentParser,
    choices: Sequence[str],
    help: str,
    default: str | None = None,
) -> None:
    """`--format NAME`: the canonical names in help, the aliases of
    `apispec.support.formats` accepted too (`md` for `markdown`)."""
    from apispec.support.formats import canonical_format

    parser.add_argument(
        "--format", type=canonical_format, choices=choices, default=default, help=help
    )


def output_path(value: str) -> Path | None:
    """`-o FILE`, where `-` is standard output (None); `./-` names a file called `-`."""
    return None if value == "-" else Path(value)


def add_output_option(
    parser: argparse.ArgumentParser,
    help: str,
    metavar: str = "FILE",
    required: bool = False,
) -> None:
    """`-o/--output FILE`, spelled the same by every command that writes a report:
    written atomically; `-` (and no -o, unless required) is standard output."""
    parser.add_argument(
        "-o",
        "--output",
        type=output_path,
        metavar=metavar,
        required=required,
        help=f"{help}; - writes to standard output",
    )


def write_output(output: Path | None, text: str) -> None:
    """A report to the file `-o` named (atomically, as every file apispec writes), or to
    standard output."""
    if output is None:
        sys.stdout.write(text)
        return
    from apispec.support.outputs import write_atomic

    write_atomic(output, text)


def chosen_release(registry: Registry, named: str | None, how: str = "--release R") -> Release:
    """The release named, or the default with a note on standard error saying which and why.

    The note goes to standard error so that a document on standard output stays
    exactly the document; nobody is left guessing which release it describes.
    """
    if named:
        return registry.release(named)
    release, why = registry.default_release
    print(
        f"apispec: note: release {release} (default: {why}; pass {how} for another)",
        file=sys.stderr,
    )
    return release


def registry_from(args: argparse.Namespace) -> Registry:
    """The registry `--registry` and `--overlay` name (default: the bundled one)."""
    from apispec.registry.load import load_registry

    return load_registry(args.registry, tuple(args.overlay))


def release_list(value: str) -> list[str]:
    """`--target 24.3.100,25.x.122`: one or more releases, never none."""
    releases = [r.strip() for r in value.split(",") if r.strip()]
    if not releases:
        raise argparse.ArgumentTypeError("expected a release such as 25.x.122")
    return releases
