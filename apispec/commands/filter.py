"""`apispec filter check|fix|fmt|explain|complete`: the filter language from the shell.

Exit codes: 0 when no filter has an error (after fixing, for `fix`), 1 when
one has, 2 for usage errors.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from typing import Any

from apispec.commands import add_format_option, add_registry_option


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser(
        "filter",
        help="check, format, explain and complete filter strings",
        description="The filter language of the `filter` query parameter, from the shell: "
        "check a filter against the registry's properties, repair it, print it in canonical "
        "form, explain its precedence, or list completions. See docs/filters.md.",
    )
    inner = parser.add_subparsers(
        dest="filter_command",
        metavar="ACTION",
        required=True,
        help="`apispec filter ACTION --help` explains each",
    )

    def filters(p: argparse.ArgumentParser) -> None:
        p.add_argument("filters", nargs="*", metavar="FILTER", help="filter strings (quote them)")
        p.add_argument(
            "--stdin",
            action="store_true",
            help="read one filter per line from standard input (spaces at either end count)",
        )

    check = inner.add_parser("check", help="report syntax, property, operator and type errors")
    filters(check)
    check.add_argument(
        "--endpoint",
        metavar="ENDPOINT",
        help="the endpoint the filter is meant for: a path (/experimental/channels), "
        "'GET /experimental/channels', an /api/v2 path or a full URL",
    )
    add_format_option(
        check,
        ["text", "json"],
        default="text",
        help="text (default): compiler-style lines with a caret; json: one record per filter",
    )
    add_registry_option(check, help="check against the registry in DIR")
    check.set_defaults(handler=run_check)

    fix = inner.add_parser(
        "fix", help="apply the safe fixes and print each filter repaired, one per line"
    )
    filters(fix)
    fix.add_argument(
        "--unsafe-fixes",
        action="store_true",
        help="also apply the fixes that guess (a did-you-mean property or value)",
    )
    fix.add_argument("--endpoint", metavar="ENDPOINT", help="the endpoint, as for `check`")
    add_registry_option(fix, help="fix against the registry in DIR")
    fix.set_defaults(handler=run_fix)

    fmt = inner.add_parser("fmt", help="print filters in canonical form")
    filters(fmt)
    fmt.set_defaults(handler=run_fmt)

    explain = inner.add_parser(
        "explain", help="print the tree of a filter with explicit precedence"
    )
    filters(explain)
    explain.set_defaults(handler=run_explain)

    complete = inner.add_parser("complete", help="list completions at a cursor position")
    complete.add_argument(
        "filter", metavar="FILTER", help="the filter text typed so far (quote it)"
    )
    complete.add_argument(
        "--cursor", type=int, metavar="N", help="0-based character offset (default: the end)"
    )
    add_format_option(
        complete,
        ["text", "json"],
        default="text",
        help="text (default): label, kind and detail per line, tab-separated; json: a list",
    )
    add_registry_option(complete, help="complete from the registry in DIR")
    complete.set_defaults(handler=run_complete)


Source = tuple[str, int, str]  # (name, line of the filter's first line, filter)


def _inputs(args: argparse.Namespace) -> list[Source]:
    """The filters in input order, named `<filter N>` or `<stdin>` with their line."""
    from apispec.support.exceptions import UsageError

    found = [(f"<filter {i}>", 1, text) for i, text in enumerate(args.filters, 1)]
    for name, _, text in found:
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:  # undecodable bytes in argv arrive as lone surrogates
            raise UsageError(f"{name[1:-1]} is not valid UTF-8 text") from None
    if args.stdin:
        lines = _read_stdin().split("\n")
        if lines and lines[-1] == "":
            lines.pop()  # the newline that ends the last line
        found += [("<stdin>", i, line.removesuffix("\r")) for i, line in enumerate(lines, 1)]
    if not found:
        raise UsageError("no filter given: pass FILTER arguments or --stdin")
    return found


def _read_stdin() -> str:
    """Standard input as UTF-8 (a leading byte order mark is dropped); anything else is a usage error."""
    from apispec.support.exceptions import UsageError

    stream = getattr(sys.stdin, "buffer", None)
    if stream is None:  # a text stream without bytes underneath (tests, embedding)
        return sys.stdin.read()
    data: bytes = stream.read()
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise UsageError(
            f"standard input is not UTF-8 text: byte 0x{data[exc.start]:02x} on line {line} "
            f"(byte offset {exc.start})"
        ) from None


SHOWN = 120  # longer lines are shown as a window around the range


def _window(line: str, start: int, end: int) -> tuple[str, int, int]:
    """The part of a long line around [start, end), with `...` where it was cut."""
    if len(line) <= SHOWN:
        return line, start, end
    left = max(0, start - SHOWN // 3)
    right = min(len(line), left + SHOWN)
    lead = "..." if left else ""
    shown = lead + line[left:right] + ("..." if right < len(line) else "")
    shift = len(lead) - left
    return shown, start + shift, min(end, right) + shift


def render(source: Source, diagnostics: Sequence[Any]) -> str:
    """Compiler-style report: location, message, the line with a caret line, hint."""
    name, first_line, text = source
    out: list[str] = []
    for d in diagnostics:
        line, column = d.line_column(text)
        out.append(f"{name}:{line + first_line - 1}:{column}: {d.severity} {d.code}: {d.message}")
        line_text = text.split("\n")[line - 1]
        start = column - 1
        end = min(d.end - (d.start - start), len(line_text)) if d.end > d.start else start + 1
        line_text, start, end = _window(line_text, start, end)
        lead = "".join(ch if ch == "\t" else " " for ch in line_text[:start])
        out.append(f"    {line_text}")
        out.append(f"    {lead}{'^' * max(end - start, 1)}")
        if d.hint:
            out.append(f"    hint: {d.hint}")
    return "\n".join(out)


def _registry(args: argparse.Namespace) -> Any:
    """The registry named by --registry/--overlay; None for the bundled one (its cached
    catalog spares loading the model)."""
    if args.registry is None and not args.overlay:
        return None
    from apispec.commands import registry_from

    return registry_from(args)


def run_check(args: argparse.Namespace) -> int:
    from apispec.filters.catalog import resolve
    from apispec.filters.check import check, endpoint_kind

    inputs = _inputs(args)
    registry = _registry(args)
    if args.endpoint is not None:
        endpoint_kind(resolve(registry), args.endpoint)  # a usage error, once, before any output
    results = [(source, check(source[2], args.endpoint, registry)) for source in inputs]
    invalid = sum(any(d.is_error for d in ds) for _, ds in results)
    if args.format == "json":
        payload = [
            {
                "filter": text,
                "valid": not any(d.is_error for d in ds),
                "diagnostics": [d.as_dict(text) for d in ds],
            }
            for (_, _, text), ds in results
        ]
        print(json.dumps(payload, indent=2, ensure_ascii=False))
    else:
        for source, ds in results:
            if ds:
                print(render(source, ds))
        errors = sum(d.is_error for _, ds in results for d in ds)
        warnings = sum(not d.is_error for _, ds in results for d in ds)
        count = len(results)
        print(
            f"{count} filter{'s' * (count != 1)} checked: {count - invalid} valid, {invalid} invalid "
            f"({errors} error{'s' * (errors != 1)}, {warnings} warning{'s' * (warnings != 1)})"
        )
    return 1 if invalid else 0


def run_fix(args: argparse.Namespace) -> int:
    """Repaired filters on stdout, in input order; what is left wrong on stderr."""
    from apispec.filters.catalog import resolve
    from apispec.filters.check import endpoint_kind
    from apispec.filters.fix import apply_fixes

    inputs = _inputs(args)
    registry = _registry(args)
    if args.endpoint is not None:
        endpoint_kind(resolve(registry), args.endpoint)
    status = 0
    for name, line, text in inputs:
        fixed = apply_fixes(
            text, unsafe=args.unsafe_fixes, endpoint=args.endpoint, registry=registry
        )
        print(fixed.text)
        if fixed.diagnostics:
            print(render((name, line, fixed.text), fixed.diagnostics), file=sys.stderr)
        if not fixed.valid:
            status = 1
    return status


def _print_each(args: argparse.Namespace, show: Callable[[Any], str]) -> int:
    """Print `show(tree)` for each filter; report broken ones on stderr and exit 1."""
    from apispec.filters.parse import parse

    status = 0
    for source in _inputs(args):
        result = parse(source[2])
        shown = None if result.tree is None else show(result.tree)
        if shown is None:
            print(render(source, result.diagnostics), file=sys.stderr)
            status = 1
            continue
        print(shown)
    return status


def run_fmt(args: argparse.Namespace) -> int:
    from apispec.filters.format import format_tree

    return _print_each(args, format_tree)


def run_explain(args: argparse.Namespace) -> int:
    from apispec.filters.format import format_tree, outline, parenthesized

    def explain(tree: Any) -> str:
        return "\n".join(
            [
                f"filter:     {format_tree(tree)}",
                f"precedence: {parenthesized(tree)}",
                outline(tree),
            ]
        )

    return _print_each(args, explain)


def run_complete(args: argparse.Namespace) -> int:
    from apispec.filters.complete import complete
    from apispec.support.exceptions import UsageError

    text = args.filter
    cursor = len(text) if args.cursor is None else args.cursor
    if not 0 <= cursor <= len(text):
        raise UsageError(f"--cursor {cursor} is outside the filter (0 to {len(text)})")
    found = complete(text, cursor, _registry(args))
    if args.format == "json":
        print(json.dumps([c.as_dict() for c in found], indent=2, ensure_ascii=False))
    else:
        for c in found:
            print(f"{c.label}\t{c.kind}\t{c.detail}")
    return 0
