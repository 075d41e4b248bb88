"""`registry diff` reports: text for the terminal, Markdown for pull requests, JSON for tools."""

from __future__ import annotations

import json
from typing import Any

from apispec.registry.diff import Diff, EndpointFacts, View


def render(diff: Diff, fmt: str) -> str:
    if fmt == "json":
        return json.dumps(diff.as_dict(), indent=2) + "\n"
    if fmt == "markdown":
        return markdown(diff)
    return text(diff)


def _value(value: Any) -> str:
    if value is None:
        return "(none)"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return ", ".join(value) or "(none)"
    return str(value)


def _changes(changes: dict[str, tuple[Any, Any]]) -> str:
    return "; ".join(f"{name}: {_value(a)} -> {_value(b)}" for name, (a, b) in changes.items())


def _lifecycle(e: EndpointFacts) -> str:
    parts = [str(e.facts.get("maturity", "?"))]
    for name in ("since", "deprecated_in", "removed_in"):
        if e.facts.get(name):
            parts.append(f"{name.replace('_', ' ')} {e.facts[name]}")
    return ", ".join(parts)


def _enum(entry: dict[str, Any]) -> str:
    parts = [f"+ {v}" for v in entry["added"]] + [f"- {v}" for v in entry["removed"]]
    complete = entry["complete"]
    if complete["from"] != complete["to"]:
        parts.append("now complete" if complete["to"] else "no longer complete")
    return ", ".join(parts)


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'s' * (count != 1)}"


def _counts(diff: Diff) -> str:
    if not diff.different:
        return "no differences"
    parts = [
        f"{_plural(len(diff.added), 'endpoint')} added",
        f"{len(diff.removed)} removed",
        f"{len(diff.changed)} changed",
        f"{_plural(len(diff.enums), 'enumeration')} changed",
    ]
    if diff.releases_added or diff.releases_removed:
        parts.append(f"{_plural(len(diff.releases_added), 'release')} added")
        parts.append(f"{len(diff.releases_removed)} removed")
    return ", ".join(parts)


def _sides(diff: Diff) -> tuple[str, str]:
    """Each side's label with the release it speaks of: "(both at release R)" only when
    that is true of both, else a registry side says which release it was taken at (a
    document's label names its own)."""
    a, b = diff.release_of(diff.a), diff.release_of(diff.b)
    if a is not None and b is not None and a.text == b.text:
        return diff.a.label, f"{diff.b.label} (both at release {a})"

    def label(view: View) -> str:
        at = diff.release_of(view)
        return f"{view.label} at release {at}" if view.registry is not None and at else view.label

    return label(diff.a), label(diff.b)


def _heading(diff: Diff) -> list[str]:
    a, b = _sides(diff)
    return [f"--- {a}", f"+++ {b}"]


def text(diff: Diff) -> str:
    lines = _heading(diff)
    sections: list[tuple[str, list[str]]] = [
        ("Releases added", [f"  + {r}" for r in diff.releases_added]),
        ("Releases removed", [f"  - {r}" for r in diff.releases_removed]),
        (
            "Endpoints added",
            [
                f"  + {e.method} {e.path}  {_lifecycle(e)}"
                + (f"  [{e.origin}]" if e.origin else "")
                for e in diff.added
            ],
        ),
        ("Endpoints removed", [f"  - {e.method} {e.path}  {_lifecycle(e)}" for e in diff.removed]),
        (
            "Endpoints changed",
            [f"  ~ {e.method} {e.path}  {_changes(c)}" for e, c in diff.changed],
        ),
        ("Enumeration values", [f"  ~ {x['property']}  {_enum(x)}" for x in diff.enums]),
    ]
    for title, rows in sections:
        if rows:
            lines += ["", f"{title} ({len(rows)})", *rows]
    lines += ["", _counts(diff)]
    return "\n".join(lines) + "\n"


def _cell(value: str) -> str:
    """Table cell text: pipes escaped, code spans for paths."""
    return value.replace("\\", "\\\\").replace("|", "\\|")


def markdown(diff: Diff) -> str:
    a, b = _sides(diff)
    lines = [
        "# Registry diff",
        "",
        f"- **A:** {_cell(a)}",
        f"- **B:** {_cell(b)}",
        "",
        f"**{_counts(diff)[:1].upper()}{_counts(diff)[1:]}.**",
    ]

    def table(title: str, header: tuple[str, ...], rows: list[tuple[str, ...]]) -> None:
        if not rows:
            return
        lines.extend(["", f"## {title} ({len(rows)})", ""])
        lines.append("| " + " | ".join(header) + " |")
        lines.append("|" + "---|" * len(header))
        lines.extend("| " + " | ".join(_cell(c) for c in row) + " |" for row in rows)

    table("Releases added", ("Release",), [(r,) for r in diff.releases_added])
    table("Releases removed", ("Release",), [(r,) for r in diff.releases_removed])
    table(
        "Endpoints added",
        ("Method", "Path", "Maturity", "Source"),
        [(e.method, f"`{e.path}`", _lifecycle(e), e.origin or "") for e in diff.added],
    )
    table(
        "Endpoints removed",
        ("Method", "Path", "Maturity"),
        [(e.method, f"`{e.path}`", _lifecycle(e)) for e in diff.removed],
    )
    table(
        "Endpoints changed",
        ("Method", "Path", "Change"),
        [(e.method, f"`{e.path}`", _changes(c)) for e, c in diff.changed],
    )
    table(
        "Enumeration values",
        ("Property", "Change"),
        [(f"`{x['property']}`", _enum(x)) for x in diff.enums],
    )
    return "\n".join(lines) + "\n"
