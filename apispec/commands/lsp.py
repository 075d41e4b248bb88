"""`apispec lsp`: the language server, for editors (docs/editors.md).

pygls and lsprotocol come with the optional extra `apispec-v2[lsp]`; they are
imported here only, when this command runs, because their import alone costs
more than `apispec lint` or `apispec filter check` may take to start.
"""

from __future__ import annotations

import argparse
import importlib.util

from apispec.support.exceptions import UsageError

INSTALL_HINT = (
    "apispec lsp needs the extra 'lsp': pip install 'apispec-v2[lsp] @ git+https://github.com/apispec-v2/apispec'"
    " (or pip install '.[lsp]' in a clone)"
)
_EXTRA = {"pygls", "lsprotocol", "cattrs", "attrs"}  # the extra and what it brings


def _port(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a port number, not {text!r}") from None
    if not 1 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"port must be between 1 and 65535, not {value}")
    return value


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser(
        "lsp",
        help="run the language server (diagnostics, completion, hover, fixes) for editors",
        description="Serve the Language Server Protocol on standard input and output, or on "
        "a TCP port. Editors start it themselves; see docs/editors.md.",
    )
    parser.add_argument(
        "--stdio", action="store_true", help="talk on standard input/output (the default)"
    )
    parser.add_argument("--tcp", type=_port, metavar="PORT", help="listen on a TCP port instead")
    parser.add_argument("--host", default="127.0.0.1", help="address for --tcp (default: loopback)")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    if args.stdio and args.tcp is not None:
        raise UsageError("--stdio and --tcp exclude each other")
    if any(importlib.util.find_spec(name) is None for name in ("pygls", "lsprotocol")):
        raise UsageError(INSTALL_HINT)
    early = None
    if args.tcp is None:  # the handshake and first diagnostics while pygls is not loaded yet
        from apispec.lsp.early import first_second

        early = first_second()
    try:
        from apispec.lsp.server import run as serve
    except ImportError as exc:
        if (exc.name or "").partition(".")[0] in _EXTRA:
            raise UsageError(INSTALL_HINT) from None
        raise

    serve(tcp=args.tcp, host=args.host, early=early)
    return 0
