"""One module per `apispec` subcommand; see apispec.cli.COMMANDS."""

from __future__ import annotations

import argparse
from pathlib import Path


def add_registry_option(
    parser: argparse.ArgumentParser,
    help: str = "use the registry in DIR instead of the bundled one",
) -> None:
    """`--registry DIR`, spelled the same by every command that reads the registry."""
    parser.add_argument("--registry", type=Path, metavar="DIR", help=help)
