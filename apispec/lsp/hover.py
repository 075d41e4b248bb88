"""Hover: what the registry says about the API v2 path, or the filter property, under the cursor.

Returns Markdown and the line columns it covers; the server wraps it in LSP.
"""

from __future__ import annotations

from dataclasses import dataclass

from apispec.lsp import adapter, context
from apispec.lsp.maturity import status
from apispec.registry.model import Endpoint, Registry
from apispec.registry.releases import Release

# Where the generated reference pages live: docs/reference/<release>/README.md.
REFERENCE_URL = (
    "https://github.com/apispec-v2/apispec/blob/main/docs/reference/{release}/README.md#{anchor}"
)


@dataclass(frozen=True)
class Hover:
    markdown: str
    start: int  # line columns
    end: int


def hover(line: str, column: int, registry: Registry, target: Release) -> Hover | None:
    region = context.filter_region(line, column)
    if region is not None:
        return _property_hover(region, column, registry)
    found = context.whole_path(line, column)
    if found is None:
        return None
    path, start, end = found
    endpoints = endpoints_at(path, registry)
    if not endpoints:
        return None
    return Hover(describe(endpoints, registry, target), start, end)


def endpoints_at(path: str, registry: Registry) -> list[Endpoint]:
    """The registry endpoints whose path template matches `path` as written."""
    written = [s for s in path.split("/") if s]
    if written and written[0] == "api" and written[1:2] == ["v2"]:
        written = written[2:]
    found = []
    for endpoint in registry.endpoints:
        segments = endpoint.path.strip("/").split("/")
        if len(segments) == len(written) and all(
            context.is_param(w) if s.startswith("{") else w == s
            for w, s in zip(written, segments, strict=True)
        ):
            found.append(endpoint)
    if not found:
        return []
    # A literal segment beats a parameter: /devices/templates, not /devices/{id}.
    best = min(_params(e) for e in found)
    return [e for e in found if _params(e) == best]


def _params(endpoint: Endpoint) -> int:
    return endpoint.path.count("{")


def describe(endpoints: list[Endpoint], registry: Registry, target: Release) -> str:
    """Methods, maturity in the target, lifecycle releases, successor, operation ids, docs."""
    path = endpoints[0].path
    parts = [f"**{path}** (API v2, in {target})", ""]
    for endpoint in endpoints:
        state = status(endpoint, registry, target)
        parts.append(f"**{endpoint.method}** · {state.word}: {endpoint.summary}")
        parts.append(f"- in {target}: {state.detail}")
        lifecycle = [
            f"{word} {release}"
            for word, release in (
                ("since", endpoint.since),
                ("deprecated in", endpoint.deprecated_in),
                ("removed in", endpoint.removed_in),
            )
            if release is not None
        ]
        if lifecycle:
            parts.append("- lifecycle: " + ", ".join(lifecycle))
        if endpoint.successor is not None:
            parts.append(f"- successor: {endpoint.successor}")
        parts.append(f"- operation id: `{endpoint.operation_id}`")
        parts.extend(f"- note: {note}" for note in endpoint.notes)
        parts.append(f"- [reference]({reference_url(endpoint, registry, target)})")
        parts.append("")
    return "\n".join(parts).rstrip() + "\n"


def reference_url(endpoint: Endpoint, registry: Registry, target: Release) -> str:
    """The endpoint on the reference page of the target, or of its last release with it."""
    from apispec.generate.docs_site import anchor

    release = target
    if not registry.available_in(endpoint, target):
        listed = [r for r in registry.release_list if registry.available_in(endpoint, r)]
        release = listed[-1] if listed else target
    return REFERENCE_URL.format(release=release.text, anchor=anchor(endpoint))


def _property_hover(region: context.Region, column: int, registry: Registry) -> Hover | None:
    index = region.index(column)
    tokens, _ = adapter.filter_tokens(region.text)
    token = next((t for t in tokens if t.start_pos <= index <= t.end_pos), None)
    if token is None or token.type != "NAME":
        return None
    prop = registry.property(token.value)
    if prop is None:
        return None
    kind = f"{prop.type} (several values)" if prop.multi_valued else prop.type
    lines = [
        f"**{prop.name}**: filter property, {kind}",
        "",
        "- operators: " + ", ".join(f"`{op}`" for op in prop.operators),
    ]
    if prop.values:
        lines.append("- known values: " + ", ".join(f"`{v}`" for v in prop.values))
    assumed = [v for v in prop.known_values if v not in prop.values]
    if assumed:
        shown = ", ".join(f"`{v}`" for v in assumed)
        lines.append(f"- assumed beyond the spec: {shown} ({prop.assumed_from})")
    if prop.applies_to:
        lines.append("- applies to: " + ", ".join(prop.applies_to))
    lines.extend(f"- {note}" for note in prop.notes)
    return Hover(
        "\n".join(lines) + "\n", region.column(token.start_pos), region.column(token.end_pos)
    )
