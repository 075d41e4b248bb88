"""What changed between two releases, and what a client must change before upgrading.

A changelog covers the releases after FROM up to and including TO in release
order (DESIGN decision 1), listed in the registry's listing order. Without FROM it starts at the
first release, and endpoints whose `since` the spec does not give count as
present from that first release, because `available_in` treats them so.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from apispec.generate.release_status import first_available
from apispec.registry.model import Endpoint, Registry
from apispec.registry.releases import Release
from apispec.support.exceptions import UsageError


@dataclass(frozen=True)
class ReleaseChanges:
    """The endpoint changes that one release brought."""

    release: Release
    appeared: tuple[Endpoint, ...]
    deprecated: tuple[Endpoint, ...]
    removed: tuple[Endpoint, ...]

    @property
    def empty(self) -> bool:
        return not (self.appeared or self.deprecated or self.removed)


@dataclass(frozen=True)
class Migration:
    """One endpoint a client may still call that the range deprecates or removes."""

    endpoint: Endpoint
    deprecated: bool
    removed: bool
    release: Release
    successor: Endpoint | None
    successor_from: Release | None
    successor_in_target: bool
    remarks: tuple[str, ...]

    @property
    def change(self) -> str:
        if self.deprecated and self.removed:
            return "deprecated and removed"
        return "removed" if self.removed else "deprecated"

    @property
    def verdict(self) -> str:
        """The successor as the registry writes it: an endpoint, or one of two verdicts."""
        succ = self.endpoint.successor
        return succ.text if succ is not None else "none given"


@dataclass(frozen=True)
class Changelog:
    start: Release | None
    end: Release
    releases: tuple[ReleaseChanges, ...]
    migrations: tuple[Migration, ...]
    unrecorded_since: frozenset[tuple[str, str]]

    def as_dict(self) -> dict[str, Any]:
        """The JSON shape of `apispec changelog --format json` (docs/reference-docs.md)."""
        return {
            "from": _text(self.start),
            "to": self.end.text,
            "releases": [
                {
                    "release": rc.release.text,
                    "appeared": [self._entry(e) for e in rc.appeared],
                    "deprecated": [self._entry(e) for e in rc.deprecated],
                    "removed": [self._entry(e) for e in rc.removed],
                }
                for rc in self.releases
            ],
            "migration": [
                {
                    "method": m.endpoint.method,
                    "path": m.endpoint.path,
                    "change": m.change,
                    "release": m.release.text,
                    "successor": m.verdict,
                    "successor_available_in_to": m.successor_in_target
                    if m.successor is not None
                    else None,
                    "successor_available_from": _text(m.successor_from),
                    "remarks": list(m.remarks),
                }
                for m in self.migrations
            ],
        }

    def _entry(self, endpoint: Endpoint) -> dict[str, Any]:
        return {
            "method": endpoint.method,
            "path": endpoint.path,
            "summary": endpoint.summary,
            "since": _text(endpoint.since),
            "since_recorded": endpoint.key not in self.unrecorded_since,
            "deprecated_in": _text(endpoint.deprecated_in),
            "removed_in": _text(endpoint.removed_in),
            "successor": _text(endpoint.successor),
        }

    def to_json(self) -> str:
        return json.dumps(self.as_dict(), indent=2)


def _text(value: object | None) -> str | None:
    return None if value is None else str(value)


def resolve_range(
    registry: Registry, start: str | None, end: str
) -> tuple[Release | None, Release, tuple[Release, ...]]:
    """The releases after `start` up to and including `end`, in listing order.

    "After" and "up to" use the release order of `available_in`, so the
    changelog agrees with the per-release docs even for releases that order
    level (25.1.108 and 25.x.108): each includes the other.
    """
    last = registry.release(end)
    first = None if start is None else registry.release(start)
    if first is not None and first > last:
        raise UsageError(
            f"FROM {first} comes after TO {last} in release order; "
            f"write the older release first: apispec changelog {last} {first}"
        )
    span = tuple(r for r in registry.release_list if (first is None or r > first) and r <= last)
    return first, last, span


def build_changelog(registry: Registry, start: str | None, end: str) -> Changelog:
    first, last, span = resolve_range(registry, start, end)
    position = {r.text: i for i, r in enumerate(span)}

    def slot(release: Release | None) -> int | None:
        return None if release is None else position.get(release.text)

    unrecorded = frozenset(
        e.key
        for e in registry.endpoints
        if e.since is None and first is None and registry.available_in(e, span[0])
    )
    buckets: list[tuple[list[Endpoint], list[Endpoint], list[Endpoint]]] = [
        ([], [], []) for _ in span
    ]
    migrations: list[Migration] = []
    for endpoint in registry.endpoints:
        appeared = 0 if endpoint.key in unrecorded else slot(endpoint.since)
        deprecated = slot(endpoint.deprecated_in)
        removed = slot(endpoint.removed_in)
        if appeared is not None:
            buckets[appeared][0].append(endpoint)
        if deprecated is not None:
            buckets[deprecated][1].append(endpoint)
        if removed is not None:
            buckets[removed][2].append(endpoint)
        if deprecated is not None or removed is not None:
            latest = max(i for i in (deprecated, removed) if i is not None)
            migrations.append(
                _migration(registry, endpoint, deprecated, removed, span[latest], last)
            )
    changes = tuple(
        ReleaseChanges(rel, tuple(a), tuple(d), tuple(r))
        for rel, (a, d, r) in zip(span, buckets, strict=True)
    )
    migrations.sort(key=lambda m: position[m.release.text])
    return Changelog(first, last, changes, tuple(migrations), unrecorded)


def _migration(
    registry: Registry,
    endpoint: Endpoint,
    deprecated: int | None,
    removed: int | None,
    release: Release,
    target: Release,
) -> Migration:
    remarks: list[str] = []
    if (
        endpoint.since is not None
        and endpoint.deprecated_in is not None
        and endpoint.since.text == endpoint.deprecated_in.text
    ):
        remarks.append(f"appeared already deprecated in {endpoint.since}")
    if (
        endpoint.deprecated_in is not None
        and endpoint.removed_in is not None
        and endpoint.deprecated_in.text == endpoint.removed_in.text
    ):
        remarks.append(f"deprecated and removed in the same release, {endpoint.removed_in}")
    if first_available(registry, endpoint) is None:
        remarks.append("not callable in any release the registry names")
    successor = registry.successor_of(endpoint)
    successor_from = first_available(registry, successor) if successor else None
    in_target = successor is not None and registry.available_in(successor, target)
    if successor is not None and not in_target:
        if successor_from is None:
            remarks.append(f"successor {successor} is not available in any named release")
        else:
            remarks.append(
                f"successor {successor} is not yet available in {target}; "
                f"it is available from {successor_from}"
            )
    return Migration(
        endpoint=endpoint,
        deprecated=deprecated is not None,
        removed=removed is not None,
        release=release,
        successor=successor,
        successor_from=successor_from,
        successor_in_target=in_target,
        remarks=tuple(remarks),
    )


def render_markdown(changelog: Changelog) -> str:
    """The changelog and migration guide as Markdown, registry text made inert."""
    from apispec.generate.templating import markdown_environment

    template = markdown_environment().get_template("changelog/changelog.md.j2")
    return template.render(
        start=changelog.start,
        end=changelog.end,
        releases=changelog.releases,
        migrations=changelog.migrations,
        unrecorded=changelog.unrecorded_since,
        level=[r for r in changelog.releases if r.release.level_with(changelog.end)],
        totals={
            "appeared": sum(len(rc.appeared) for rc in changelog.releases),
            "deprecated": sum(len(rc.deprecated) for rc in changelog.releases),
            "removed": sum(len(rc.removed) for rc in changelog.releases),
        },
    )
