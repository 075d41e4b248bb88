"""`apispec registry list|show|check`: read and verify the endpoint registry."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import TYPE_CHECKING

from apispec.commands import (
    add_format_option,
    add_output_option,
    add_registry_option,
    registry_from,
)
from apispec.support.exceptions import (
    EXIT_FINDINGS,
    EXIT_OK,
    RegistryError,
    UsageError,
    did_you_mean,
)

if TYPE_CHECKING:
    from apispec.registry.model import Endpoint, Registry


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from apispec.registry.model import Maturity  # the run loads the model anyway

    parser = sub.add_parser(
        "registry",
        help="list, show and check the endpoint registry",
        description="Read the endpoint registry every other command derives from: list and "
        "show endpoints, check the registry and its overlays, import a server's own OpenAPI "
        "description as an overlay, and compare registries. See docs/registry.md.",
    )
    inner = parser.add_subparsers(
        dest="registry_command",
        metavar="ACTION",
        required=True,
        help="`apispec registry ACTION --help` explains each",
    )

    lister = inner.add_parser("list", help="list endpoints")
    add_registry_option(lister)
    lister.add_argument(
        "--maturity", choices=[m.value for m in Maturity], help="only endpoints of this maturity"
    )
    lister.add_argument("--release", metavar="R", help="only endpoints available in release R")
    lister.add_argument("--tag", metavar="T", help="only endpoints with tag T (any case)")
    add_format_option(
        lister,
        ["table", "json"],
        default="table",
        help="table (default): one line per endpoint; json: every field of each endpoint",
    )
    lister.set_defaults(handler=run_list)

    show = inner.add_parser(
        "show",
        help="show an endpoint with every field (a path alone: each of its methods)",
        description="Show an endpoint, named as anywhere else: `registry show GET "
        "/devices/{id}` (or as one argument, as the linter writes it), a path alone for "
        "every method it has (`registry show /devices/{id}`), or a URL or /api/v2 path "
        "from a script (`registry show https://host:1616/api/v2/devices/42`).",
    )
    add_registry_option(show)
    show.add_argument(
        "endpoint",
        nargs="+",
        metavar="ENDPOINT",
        help="[METHOD] PATH: a registry path, an /api/v2 path or a full URL",
    )
    add_format_option(
        show,
        ["text", "json"],
        default="text",
        help="text (default): one field per line; json: the fields as an object",
    )
    show.set_defaults(handler=run_show)

    check = inner.add_parser("check", help="validate schema and cross-references")
    add_registry_option(check)
    check.set_defaults(handler=run_check)

    importer = inner.add_parser(
        "import",
        help="import a server's own OpenAPI description as an overlay",
        description="Read the OpenAPI 3.x description a server serves (a file, a directory of "
        "files with relative $refs, or an http(s) URL such as https://HOST/api/v2/oas/) and "
        "write an overlay: what the registry lacks or states otherwise. See docs/registry.md.",
    )
    importer.add_argument("source", metavar="SOURCE", help="file, directory or http(s) URL")
    importer.add_argument(
        "--output", "-o", type=Path, required=True, metavar="DIR", help="overlay directory to write"
    )
    importer.add_argument(
        "--header",
        action="append",
        default=[],
        metavar="'NAME: VALUE'",
        help="HTTP header for URL sources, e.g. 'Authorization: Bearer ...' (repeatable; "
        "never written or printed)",
    )
    importer.add_argument(
        "--release", metavar="R", help="release the server runs (default: from info.version)"
    )
    add_registry_option(
        importer, help="compare with the registry in DIR instead of the bundled one"
    )
    importer.set_defaults(handler=run_import)

    differ = inner.add_parser(
        "diff",
        help="compare registries, overlays and OpenAPI documents",
        description="Show what B states differently from A: endpoints added, removed, changed "
        "in maturity or lifecycle, enumeration values. Each operand is a registry directory, "
        "an overlay directory (applied to the registry), an OpenAPI file or directory, or an "
        "http(s) URL. With only B, A is the registry (bundled, or --registry and --overlay).",
    )
    differ.add_argument("operands", nargs="+", metavar="A B", help="[A] B")
    add_format_option(
        differ,
        ["text", "markdown", "json"],
        default="text",
        help="text (default); markdown: for a pull request or job summary; json: for scripts",
    )
    add_output_option(differ, help="write the comparison to FILE (default: standard output)")
    differ.add_argument(
        "--exit-code", action="store_true", help="exit 1 when there are differences"
    )
    differ.add_argument("--release", metavar="R", help="compare what each side offers in release R")
    differ.add_argument(
        "--header",
        action="append",
        default=[],
        metavar="'NAME: VALUE'",
        help="HTTP header for URL operands (repeatable; never printed)",
    )
    add_registry_option(differ, help="the registry overlays apply to (default: the bundled one)")
    differ.set_defaults(handler=run_diff)


def run_list(args: argparse.Namespace) -> int:
    from apispec.support.text_table import render_table

    registry = registry_from(args)
    endpoints = list(registry.endpoints)
    if args.release:
        release = registry.release(args.release)
        endpoints = [e for e in endpoints if registry.available_in(e, release)]
    if args.maturity:
        endpoints = [e for e in endpoints if e.maturity == args.maturity]
    if args.tag:
        tags = {t.casefold(): t for t in registry.tags()}
        tag = tags.get(args.tag.casefold())
        if tag is None:
            raise UsageError(f"unknown tag {args.tag!r}{did_you_mean(args.tag, tags.values())}")
        endpoints = [e for e in endpoints if e.tag == tag]
    if args.format == "json":
        print(json.dumps([e.as_dict() for e in endpoints], indent=2))
        return EXIT_OK
    rows = [
        (e.method, e.path, e.maturity, e.since, e.deprecated_in, e.removed_in, e.successor)
        for e in endpoints
    ]
    headers = ("METHOD", "PATH", "MATURITY", "SINCE", "DEPRECATED", "REMOVED", "SUCCESSOR")
    print(render_table(headers, rows))
    print(f"\n{_plural(len(rows), 'endpoint')}")
    return EXIT_OK


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def run_show(args: argparse.Namespace) -> int:
    from apispec.registry.endpoint_names import match_template, parse_endpoint

    registry = registry_from(args)
    named = parse_endpoint(" ".join(args.endpoint))
    paths = sorted({e.path for e in registry.endpoints})
    path = match_template(named.path, paths) or named.path
    if named.method is not None:
        endpoints = [registry.endpoint(named.method, path)]
    else:
        endpoints = [e for e in registry.endpoints if e.path == path]
        if not endpoints:
            raise UsageError(f"unknown path {path!r}{did_you_mean(path, paths)}")
    shown = [_shown(registry, endpoint) for endpoint in endpoints]
    if args.format == "json":  # one object for METHOD PATH, a list for a path's methods
        print(json.dumps(shown[0] if named.method else shown, indent=2))
        return EXIT_OK
    print("\n\n".join(_fields(data) for data in shown))
    return EXIT_OK


def _shown(registry: Registry, endpoint: Endpoint) -> dict[str, object]:
    """Every field of the endpoint, and the releases that have it."""
    data = endpoint.as_dict()
    data["available_in"] = [
        r.text for r in registry.release_list if registry.available_in(endpoint, r)
    ]
    return data


def _fields(data: dict[str, object]) -> str:
    width = max(len(k) for k in data)
    lines = []
    for key, value in data.items():
        if isinstance(value, list):
            value = ", ".join(map(str, value)) or "-"
        elif isinstance(value, dict):
            value = ", ".join(f"{k}: {v}" for k, v in value.items() if v is not None) or "-"
        lines.append(f"{key.ljust(width)}  {'-' if value is None else value}")
    return "\n".join(lines)


def run_check(args: argparse.Namespace) -> int:
    from apispec.registry.check import check_source
    from apispec.registry.files import read_registry

    try:
        source = read_registry(args.registry, with_lines=True)
        if args.overlay:
            from apispec.registry.overlays import check_overlays

            merged, findings, _ = check_overlays(source, args.overlay)
            document = (merged or source).document
        else:
            findings = check_source(source)
            document = source.document
    except RegistryError as exc:
        print(f"{exc}")
        return EXIT_FINDINGS
    for finding in findings:
        print(finding)
    errors = sum(f.severity == "error" for f in findings)
    warnings = len(findings) - errors
    endpoints = len(document.get("endpoints") or ())
    verdict = "FAILED" if errors else "ok"
    overlays = f" with {len(args.overlay)} overlay{'s' * (len(args.overlay) != 1)}"
    print(
        f"registry{overlays if args.overlay else ''} {verdict}: {_plural(endpoints, 'endpoint')}, "
        f"{_plural(errors, 'error')}, {_plural(warnings, 'warning')}"
    )
    return EXIT_FINDINGS if errors else EXIT_OK


def run_import(args: argparse.Namespace) -> int:
    import sys

    from apispec.registry.importer.run import import_overlay
    from apispec.registry.importer.sources import parse_headers

    headers = parse_headers(args.header)
    registry = registry_from(args)
    imported = import_overlay(args.source, args.output, registry, headers, args.release)
    for note in imported.description.notes:
        print(f"apispec: note: {note}", file=sys.stderr)
    release = imported.description.release
    if release < registry.first_release:
        print(
            f"apispec: warning: release {release} (from info.version "
            f"{imported.description.version!r}) orders before every release the registry "
            "knows; pass --release R if that is not the server's release",
            file=sys.stderr,
        )
    print(imported.summary())
    return EXIT_OK


def run_diff(args: argparse.Namespace) -> int:
    from apispec.commands import write_output
    from apispec.registry.diff import diff_operands
    from apispec.registry.diff_render import render
    from apispec.registry.importer.sources import parse_headers

    if len(args.operands) > 2:
        raise UsageError("registry diff takes one or two operands: [A] B")
    a, b = (None, *args.operands) if len(args.operands) == 1 else args.operands
    diff = diff_operands(a, b, registry_from(args), parse_headers(args.header), args.release)
    write_output(args.output, render(diff, args.format))
    return EXIT_FINDINGS if args.exit_code and diff.different else EXIT_OK
