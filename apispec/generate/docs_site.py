"""The reference docs per release, as Markdown or as a self-contained HTML site.

Layout of the output directory (docs/reference-docs.md):

- one release: DIR/PAGE, the page of that release;
- all releases: DIR/PAGE (landing page: releases in order and the
  endpoint-by-release availability matrix) and DIR/<release>/PAGE;

where PAGE is README.md (so a Git host shows it for the folder) or index.html.
Every fact comes from the registry model; the templates only arrange it.
"""

from __future__ import annotations

import itertools
import os
import posixpath
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from apispec.generate.docs_operations import Components, OperationDocs
from apispec.generate.release_status import Badge, badge_in, first_available
from apispec.registry.model import Endpoint, Registry
from apispec.registry.releases import Release
from apispec.support.exceptions import UsageError

FORMATS = ("md", "html")
PAGE = {"md": "README.md", "html": "index.html"}
# HTTP's own meaning of these statuses (unauthenticated, not permitted); their
# conditions and error codes come from the registry.
AUTH_STATUSES = (401, 403)
# Where the try-it panel sends requests until the reader changes it: `apispec mock`'s default.
TRYIT_BASE = "http://127.0.0.1:8080/api/v2"
_NOT_ANCHOR = re.compile(r"[^a-z0-9_-]+")


def anchor(endpoint: Endpoint) -> str:
    """The stable fragment id of an endpoint: its operation id, made URL-safe."""
    return _NOT_ANCHOR.sub("-", endpoint.operation_id.lower())


def tag_anchor(tag: str) -> str:
    return "tag-" + _NOT_ANCHOR.sub("-", tag.lower()).strip("-")


@dataclass(frozen=True)
class Row:
    """One endpoint on one release page: its state there and its operation docs."""

    endpoint: Endpoint
    badge: Badge
    anchor: str
    successor_text: str | None
    successor_href: str | None
    successor_remark: str | None
    op: OperationDocs
    releases: tuple[tuple[Release, Badge | None, str | None], ...]

    @property
    def search_text(self) -> str:
        return f"{self.op.search_text} {self.badge}"


@dataclass(frozen=True)
class TagGroup:
    tag: str
    anchor: str
    rows: tuple[Row, ...]


class Site:
    """Which pages exist and how one page links to another."""

    def __init__(self, registry: Registry, fmt: str, releases: Sequence[Release], landing: bool):
        if fmt not in FORMATS:
            raise UsageError(f"unknown format {fmt!r}; choose one of {', '.join(FORMATS)}")
        self.registry = registry
        self.fmt = fmt
        self.page = PAGE[fmt]
        self.releases = tuple(releases)
        self.landing = landing
        self.components = Components(registry)
        self._ops: dict[tuple[str, str], OperationDocs] = {}

    def op(self, endpoint: Endpoint) -> OperationDocs:
        """The operation docs of an endpoint, built once for every page that shows it."""
        if endpoint.key not in self._ops:
            self._ops[endpoint.key] = OperationDocs(self.registry, endpoint, self.components)
        return self._ops[endpoint.key]

    def switcher(
        self, endpoint: Endpoint, source: Release | None
    ) -> tuple[tuple[Release, Badge | None, str | None], ...]:
        """The endpoint in every release: its badge there, and a link when that page exists."""
        out = []
        for release in self.registry.release_list:
            badge = badge_in(self.registry, endpoint, release)
            href = None
            if badge is not None and self.has_page(release):
                href = self.href(source, release, anchor(endpoint))
            out.append((release, badge, href))
        return tuple(out)

    def page_path(self, release: Release | None) -> str:
        """Path of a page relative to the output directory (None: the landing page)."""
        if release is None or not self.landing:
            return self.page
        return f"{release.text}/{self.page}"

    def href(self, source: Release | None, target: Release | None, fragment: str = "") -> str:
        frag = f"#{fragment}" if fragment else ""
        if source == target or (not self.landing and target in self.releases):
            return frag or self.page
        if source is None:
            return self.page_path(target) + frag
        return "../" + self.page_path(target) + frag

    def has_page(self, release: Release) -> bool:
        return any(r.text == release.text for r in self.releases)

    # -- migration guides (with --all-releases) ---------------------------------------

    def migration_pairs(self) -> list[tuple[Release, Release]]:
        """Each release to the next one, and each release to the newest (not level ones)."""
        if not self.landing:
            return []
        order = list(self.releases)
        pairs = list(itertools.pairwise(order))
        pairs += [(a, order[-1]) for a in order[:-1]]
        return [p for p in dict.fromkeys(pairs) if not p[0].level_with(p[1])]

    def migration_path(self, start: Release, end: Release) -> str:
        return f"migrate/{start.text}-to-{end.text}/{self.page}"

    def relative(self, source_page: str, target_page: str, fragment: str = "") -> str:
        """A link from one page of the site to another (paths relative to the site root)."""
        frag = f"#{fragment}" if fragment else ""
        if source_page == target_page:
            return frag or posixpath.basename(target_page)
        start = posixpath.dirname(source_page) or "."
        return posixpath.relpath(target_page, start) + frag

    def migrations_href(self, release: Release | None) -> str | None:
        if not self.migration_pairs():
            return None
        return self.relative(self.page_path(release), self.page_path(None), "migrations")


def _row(site: Site, endpoint: Endpoint, release: Release, badge: Badge) -> Row:
    registry = site.registry
    succ = endpoint.successor
    target = registry.successor_of(endpoint)
    href = remark = None
    if target is not None:
        if registry.available_in(target, release):
            href = site.href(release, release, anchor(target))
        else:
            since = first_available(registry, target)
            if since is None:
                remark = "not available in any named release"
            else:
                remark = f"not available in {release}; available from {since}"
                if site.has_page(since):
                    href = site.href(release, since, anchor(target))
    return Row(
        endpoint,
        badge,
        anchor(endpoint),
        succ.text if succ else None,
        href,
        remark,
        site.op(endpoint),
        site.switcher(endpoint, release),
    )


def release_context(site: Site, release: Release) -> dict[str, Any]:
    """Everything one release page shows, computed once for both formats."""
    registry = site.registry
    groups: dict[str, list[Row]] = {tag: [] for tag in registry.tags()}
    removed: list[Row] = []
    for endpoint in registry.endpoints:
        badge = badge_in(registry, endpoint, release)
        if badge is None:
            continue
        row = _row(site, endpoint, release, badge)
        (removed if badge is Badge.REMOVED else groups[endpoint.tag]).append(row)
    tag_groups = [
        TagGroup(tag, tag_anchor(tag), tuple(rows)) for tag, rows in groups.items() if rows
    ]
    available = [row for group in tag_groups for row in group.rows]
    order = registry.release_list
    index = order.index(release)
    info = next(i for i in registry.releases if i.release.text == release.text)
    return {
        "registry": registry,
        "release": release,
        "changes": _changes(site, release),
        "release_notes": info.notes,
        "groups": tag_groups,
        "removed": removed,
        "counts": {
            b: sum(r.badge is b for r in available) for b in Badge if b is not Badge.REMOVED
        },
        "available_count": len(available),
        "list_count": sum(r.endpoint.is_list for r in available),
        "no_auth": [r for r in available if not r.endpoint.auth],
        "auth_statuses": [s for s in registry.http_statuses if s.status in AUTH_STATUSES],
        "auth_codes": [c for c in registry.error_codes if c.status in AUTH_STATUSES],
        "level_pairs": [
            (a, b) for i, a in enumerate(order) for b in order[i + 1 :] if a.level_with(b)
        ],
        "release_infos": sorted(registry.releases, key=lambda i: order.index(i.release)),
        "previous": order[index - 1] if site.landing and index > 0 else None,
        "next": order[index + 1] if site.landing and index + 1 < len(order) else None,
        "landing_href": site.href(release, None) if site.landing else None,
        "href": lambda target, fragment="": site.href(release, target, fragment),
        "badges": list(Badge),
        "filter_data": _filter_data(registry) if site.fmt == "html" else None,
        "tryit_base": TRYIT_BASE,
        "migration_href": site.migrations_href(release) if site.landing else None,
    }


def _filter_data(registry: Registry) -> dict[str, Any]:
    from apispec.filters.export import browser_data

    return browser_data(registry)


def _changes(site: Site, release: Release) -> dict[str, Any]:
    """What this release changed against the last release that orders before it.

    Every endpoint named here is on the page (available, or removed), so the
    lists link to rows of the same page.
    """
    from apispec.generate.changelog import build_changelog

    registry = site.registry
    older = [r for r in registry.release_list if r < release]
    base = older[-1] if older else None
    log = build_changelog(registry, base.text if base else None, release.text)
    kinds: dict[str, list[Endpoint]] = {"appeared": [], "deprecated": [], "removed": []}
    for rc in log.releases:
        kinds["appeared"] += [e for e in rc.appeared if e.key not in log.unrecorded_since]
        kinds["deprecated"] += rc.deprecated
        kinds["removed"] += rc.removed
    pair = (base, release)
    return {
        "base": base,
        "migration_href": site.relative(site.page_path(release), site.migration_path(*pair))
        if base is not None and pair in site.migration_pairs()
        else None,
        "kinds": {k: [(e, anchor(e)) for e in v] for k, v in kinds.items()},
        "command": f"apispec changelog {base} {release}"
        if base
        else f"apispec changelog {release}",
    }


def landing_context(site: Site) -> dict[str, Any]:
    """The landing page: releases in order and which endpoint each one has."""
    registry = site.registry
    matrix = []
    for endpoint in registry.endpoints:
        cells = []
        for release in registry.release_list:
            badge = badge_in(registry, endpoint, release)
            href = site.href(None, release, anchor(endpoint)) if badge is not None else None
            cells.append((release, badge, href))
        matrix.append((endpoint, cells))
    return {
        "registry": registry,
        "releases": site.releases,
        "release_notes": {i.release.text: i.notes for i in registry.releases},
        "matrix": matrix,
        "href": lambda target, fragment="": site.href(None, target, fragment),
        "counts": {r.text: len(registry.endpoints_in(r)) for r in registry.release_list},
        "badges": list(Badge),
        "migrations": [
            (a, b, site.relative(site.page_path(None), site.migration_path(a, b)))
            for a, b in site.migration_pairs()
        ],
    }


@dataclass(frozen=True)
class Migration:
    """One endpoint a client on the older release may call that the newer one deprecates or removes."""

    endpoint: Endpoint
    change: str
    release: Release | None
    successor: Endpoint | None
    verdict: str
    remarks: tuple[str, ...]


def _migrations(registry: Registry, start: Release, end: Release) -> list[Migration]:
    """Every endpoint callable in `start` whose state in `end` is deprecated or removed.

    Wider than the changelog's migration list, which covers only what changed
    after `start`: an endpoint already deprecated in `start` still has to be
    replaced before the client can count on `end`.
    """
    steps = []
    for endpoint in registry.endpoints_in(start):
        then = badge_in(registry, endpoint, end)
        if then not in (Badge.DEPRECATED, Badge.REMOVED):
            continue
        remarks = []
        if badge_in(registry, endpoint, start) is Badge.DEPRECATED:
            remarks.append(f"already deprecated in {start}")
        successor = registry.successor_of(endpoint)
        if successor is not None and not registry.available_in(successor, end):
            since = first_available(registry, successor)
            remarks.append(
                f"successor {successor} is not available in {end}"
                + (f"; it is available from {since}" if since else "")
            )
        removed = then is Badge.REMOVED
        steps.append(
            Migration(
                endpoint,
                "removed" if removed else "deprecated",
                endpoint.removed_in if removed else endpoint.deprecated_in,
                successor,
                endpoint.successor.text if endpoint.successor else "none given",
                tuple(remarks),
            )
        )
    return sorted(steps, key=lambda m: (m.change != "removed", m.endpoint.path, m.endpoint.method))


def migration_context(site: Site, start: Release, end: Release) -> dict[str, Any]:
    """What a client on `start` changes to run on `end`, with before and after samples."""
    from apispec.generate.changelog import build_changelog

    registry = site.registry
    here = site.migration_path(start, end)
    log = build_changelog(registry, start.text, end.text)

    def on(release: Release, endpoint: Endpoint) -> str:
        return site.relative(here, site.page_path(release), anchor(endpoint))

    steps = []
    for m in _migrations(registry, start, end):
        successor = m.successor
        in_end = successor is not None and registry.available_in(successor, end)
        steps.append(
            {
                "migration": m,
                "before_href": on(start, m.endpoint),
                "successor_href": on(end, successor) if successor is not None and in_end else None,
                "before": site.op(m.endpoint).samples,
                "after": site.op(successor).samples if successor is not None else (),
                "anchor": "migrate-" + anchor(m.endpoint),
            }
        )
    appeared = [
        (e, on(end, e)) for e in registry.endpoints_in(end) if not registry.available_in(e, start)
    ]
    return {
        "start": start,
        "end": end,
        "steps": steps,
        "appeared": appeared,
        "releases": [
            (rc.release, site.relative(here, site.page_path(rc.release), "changes"))
            for rc in log.releases
        ],
        "command": f"apispec changelog {start} {end}",
        "start_href": site.relative(here, site.page_path(start)),
        "end_href": site.relative(here, site.page_path(end)),
        "landing_href": site.relative(here, site.page_path(None), "migrations"),
    }


def _render(fmt: str, template: str, context: dict[str, Any]) -> str:
    from apispec.generate.templating import html_environment, markdown_environment

    env = markdown_environment() if fmt == "md" else html_environment()
    return env.get_template(f"docs/{fmt}/{template}.{fmt}.j2").render(context)


def render_site(
    registry: Registry, fmt: str, release: str | None = None, all_releases: bool = False
) -> dict[str, str]:
    """Relative path -> page text; one release (default: the newest concrete one) or all."""
    if all_releases:
        site = Site(registry, fmt, registry.release_list, landing=True)
    else:
        chosen = registry.release(release) if release else registry.default_release[0]
        site = Site(registry, fmt, (chosen,), landing=False)
    pages = {
        site.page_path(rel): _render(fmt, "release", release_context(site, rel))
        for rel in site.releases
    }
    if site.landing:
        pages[site.page_path(None)] = _render(fmt, "landing", landing_context(site))
        for start, end in site.migration_pairs():
            context = migration_context(site, start, end)
            pages[site.migration_path(start, end)] = _render(fmt, "migration", context)
    return pages


def write_site(pages: dict[str, str], out: Path) -> tuple[list[Path], list[str]]:
    """Write the pages under `out`, creating folders: (files written, one-line errors).

    Each page is written atomically; a page that cannot be written is reported
    and the others are still written.
    """
    from apispec.support.outputs import WriteError, write_atomic

    written, errors = [], []
    root = os.path.realpath(out)
    for relative, text in pages.items():
        target = out / relative
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            errors.append(f"{target}: cannot write: {exc.strerror or exc}")
            continue
        folder = os.path.realpath(target.parent)
        if folder != root and not folder.startswith(root + os.sep):
            errors.append(f"{target}: cannot write: its folder is a symlink out of {out}")
            continue
        try:
            write_atomic(target, text, generated=True)
        except WriteError as exc:
            errors.append(str(exc))
            continue
        written.append(target)
    return written, errors
