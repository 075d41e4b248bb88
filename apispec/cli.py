"""The `apispec` command: one subcommand per consumer, each a thin shell.

Subcommands live in `apispec.commands.<name>`; each module registers its own
parser and imports its implementation only when run, so `apispec filter check`
does not pay for the mock server's imports.
"""

from __future__ import annotations

import argparse
import importlib
import re
import sys
from collections.abc import Sequence
from typing import NoReturn

from apispec.support.exceptions import (
    EXIT_INTERNAL,
    EXIT_TERMINATED,
    EXIT_USAGE,
    ApispecError,
    Terminated,
    debug_traceback,
    did_you_mean,
    internal_error_line,
    refused_path_line,
)
from apispec.support.printable import printable
from apispec.support.streams import OutputError, guarded_streams

# Modules under apispec/commands/, in the order `apispec --help` lists them.
COMMANDS = (
    "lint",
    "rule",
    "filter",
    "registry",
    "releases",
    "openapi",
    "mcp_tools",
    "docs",
    "changelog",
    "mock",
    "traffic",
    "proxy",
    "lsp",
)


class _Parser(argparse.ArgumentParser):
    """argparse with the project's one-line usage errors, a did-you-mean, and exit code 2."""

    # The subcommand a top-level error is about (argparse reports unknown options there).
    command: str | None = None

    def error(self, message: str) -> NoReturn:
        message = _with_suggestion(self, message)
        prog = f"{self.prog} {self.command}" if self.command else self.prog
        self.exit(EXIT_USAGE, f"apispec: error: {message} (see `{prog} --help`)\n")


_UNKNOWN = re.compile(r"unrecognized arguments: (.*)")
_CHOICE = re.compile(r"(.*invalid choice: '(.*?)') \(choose from (.*)\)", re.DOTALL)


def _with_suggestion(parser: argparse.ArgumentParser, message: str) -> str:
    """argparse's message with the closest valid option or choice (`--traget` -> `--target`)."""
    unknown = _UNKNOWN.fullmatch(message)
    if unknown:
        options = _option_strings(parser)
        for word in unknown[1].split():
            hint = did_you_mean(word.split("=")[0], options) if word.startswith("-") else ""
            if hint:
                return message + hint
        return message
    choice = _CHOICE.fullmatch(message)
    if choice:
        listed = re.findall(r"'([^']*)'", choice[3]) or [c.strip() for c in choice[3].split(",")]
        hint = did_you_mean(choice[2], listed)
        return f"{choice[1]}{hint}; choose from {', '.join(listed)}"
    return message


def _option_strings(parser: argparse.ArgumentParser) -> list[str]:
    """Every option string of the parser and the subcommand parsers built below it."""
    found: list[str] = []
    for action in parser._actions:
        found.extend(s for s in action.option_strings if s.startswith("--"))
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                found.extend(_option_strings(sub))
    return list(dict.fromkeys(found))


def _version() -> str:
    from apispec import __version__
    from apispec.registry.load import load_registry

    registry = load_registry()
    release, why = registry.default_release
    newest = registry.newest_release
    known = "" if newest == release else f"; it also knows {newest}, used only when named"
    return f"apispec {__version__} (default release {release}: {why}{known})"


class _VersionAction(argparse.Action):
    def __init__(self, option_strings: list[str], dest: str, **kwargs: object) -> None:
        super().__init__(option_strings, dest, nargs=0, help="print the version and exit")

    def __call__(self, parser: argparse.ArgumentParser, *args: object, **kwargs: object) -> None:
        print(_version())
        parser.exit()


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The whole command tree, or just the `only` subcommand's branch.

    Building all ten subcommand parsers costs tens of milliseconds of start-up;
    a run of one command needs only its own (help and errors still see all).
    """
    parser = _Parser(
        prog="apispec",
        description="Spec toolkit and compatibility linter for the Monitoring Service REST API v2.",
    )
    parser.add_argument("--version", action=_VersionAction)
    sub = parser.add_subparsers(
        dest="command",
        metavar="COMMAND",
        parser_class=_Parser,
        help="`apispec COMMAND --help` explains each",
    )
    for name in (only,) if only else COMMANDS:
        importlib.import_module(f"apispec.commands.{name}").register(sub)
    if only:
        parser.command = only.replace("_", "-")
    return parser


def _command_module(argv: Sequence[str]) -> str | None:
    """The module of the subcommand named first on the command line, if any."""
    if not argv or argv[0].startswith("-"):
        return None
    name = argv[0].replace("-", "_")
    return name if name in COMMANDS else None


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; its exit code follows docs/cli.md (0, 1, 2, or 3 for a bug)."""
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):  # text that cannot be encoded is escaped, not a crash
            stream.reconfigure(errors="backslashreplace")
    with guarded_streams():
        code = _run(argv)
        try:  # the report's last bytes: a full device may refuse only these
            sys.stdout.flush()
        except OutputError as exc:
            print(f"apispec: error: {exc}", file=sys.stderr)
            code = max(code, exc.exit_code) if code <= EXIT_INTERNAL else code
        except BrokenPipeError:
            pass
        return code


def _run(argv: Sequence[str] | None) -> int:
    try:
        argv = sys.argv[1:] if argv is None else list(argv)
        parser = build_parser(_command_module(argv))
        args = parser.parse_args(argv)
        if not getattr(args, "handler", None):
            parser.print_help()
            return EXIT_USAGE
        return int(args.handler(args) or 0)
    except SystemExit as exc:  # argparse's own exits (--help, --version, a usage error)
        return exc.code if isinstance(exc.code, int) else EXIT_USAGE if exc.code else 0
    except ApispecError as exc:
        print(f"apispec: error: {printable(str(exc))}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        print("apispec: interrupted", file=sys.stderr)
        return 130
    except Terminated:
        print("apispec: terminated (SIGTERM); worker processes stopped", file=sys.stderr)
        return EXIT_TERMINATED
    except BrokenPipeError:
        return 0
    except OSError as exc:  # the system refused a path (too long, a link loop, no space)
        line = refused_path_line(exc)
        if line is None:
            return _internal(exc)
        print(f"apispec: error: {printable(line)}", file=sys.stderr)
        return EXIT_USAGE
    except Exception as exc:  # a bug: one line and exit 3, never a traceback or exit 1
        return _internal(exc)


def _internal(exc: Exception) -> int:
    debug_traceback()
    print(internal_error_line(exc), file=sys.stderr)
    return EXIT_INTERNAL
