"""Every option, argument and command explains itself in `--help` (issue 23, point 6).

A new option added without help text fails here, naming the command and the option,
so `apispec COMMAND --help` never shows a bare `--format {md,json}`.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from collections.abc import Iterator

from apispec.cli import build_parser


def _parsers(
    parser: argparse.ArgumentParser, name: str = "apispec"
) -> Iterator[tuple[str, argparse.ArgumentParser]]:
    yield name, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub_name, sub in action.choices.items():
                yield from _parsers(sub, f"{name} {sub_name}")


def _undocumented(parser: argparse.ArgumentParser) -> list[str]:
    missing = []
    for action in parser._actions:
        shown = "/".join(action.option_strings) or action.metavar or action.dest
        if not action.help or action.help == argparse.SUPPRESS:
            missing.append(str(shown))
        if isinstance(action, argparse._SubParsersAction):
            helped = {choice.dest for choice in action._choices_actions if choice.help}
            missing += [f"{shown} {name}" for name in action.choices if name not in helped]
    return missing


def test_every_option_argument_and_subcommand_has_help() -> None:
    missing = {
        name: undocumented
        for name, parser in _parsers(build_parser())
        if (undocumented := _undocumented(parser))
    }
    assert missing == {}


def test_every_command_with_actions_has_a_description() -> None:
    groups = [
        name
        for name, parser in _parsers(build_parser())
        if any(isinstance(a, argparse._SubParsersAction) for a in parser._actions)
        and not parser.description
    ]
    assert groups == []


def test_the_help_of_a_group_describes_it_from_the_installed_command() -> None:
    for group, words in (("filter", "filter language"), ("registry", "endpoint registry")):
        done = subprocess.run(
            [sys.executable, "-m", "apispec", group, "--help"],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 0, done.stderr
        description = done.stdout.split("\n\n")[1]
        assert words in description, done.stdout
