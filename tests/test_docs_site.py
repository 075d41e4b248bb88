"""The generated reference: every release in both formats, right badges, links that resolve."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
import yaml

from apispec.generate.docs_site import anchor, render_site
from apispec.generate.release_status import Badge, badge_in
from apispec.generate.templating import md_code, md_text
from apispec.registry.load import load_registry
from apispec.registry.model import Registry

REPO = Path(__file__).resolve().parent.parent
REGENERATE = "apispec docs --all-releases --format md -o docs/reference"
MD_ROW = re.compile(r"^\| \[[^\]]*\]\(#([^)]+)\) \|.*? \| \*\*([a-z]+)\*\* \|", re.MULTILINE)
MD_LINK = re.compile(r"\]\(([^)\s]+)\)")
MD_ANCHOR = re.compile(r'<a id="([^"]+)"></a>')


class _Page(HTMLParser):
    """Ids, hrefs, endpoint rows (id -> badges) and script/src uses of one HTML page."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.ids: set[str] = set()
        self.hrefs: list[str] = []
        self.rows: dict[str, list[str]] = {}
        self.scripts = 0
        self.sources: list[str] = []
        self.feed(text)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if a.get("id"):
            assert a["id"] not in self.ids, f"duplicate id {a['id']}"
            self.ids.add(a["id"])
        if a.get("href") is not None:
            self.hrefs.append(a["href"])
        if a.get("src") is not None:
            self.sources.append(a["src"])
        if tag == "script":
            self.scripts += 1
        if tag == "section" and a.get("data-badge"):
            self.rows.setdefault(a["id"], []).append(a["data-badge"])


@pytest.fixture(scope="module")
def sites(registry: Registry) -> dict[str, dict[str, str]]:
    return {fmt: render_site(registry, fmt, all_releases=True) for fmt in ("md", "html")}


def _rows(fmt: str, text: str) -> dict[str, list[str]]:
    if fmt == "html":
        return _Page(text).rows
    rows: dict[str, list[str]] = {}
    for ident, badge in MD_ROW.findall(text):
        rows.setdefault(ident, []).append(badge)
    return rows


@pytest.mark.parametrize("fmt", ["md", "html"])
def test_every_release_lists_each_endpoint_once_with_its_badge(
    registry: Registry, sites: dict[str, dict[str, str]], fmt: str
) -> None:
    page = {"md": "README.md", "html": "index.html"}[fmt]
    releases = {page} | {f"{r}/{page}" for r in registry.release_list}
    assert releases <= set(sites[fmt])
    assert all(p.startswith("migrate/") for p in set(sites[fmt]) - releases)
    for release in registry.release_list:
        rows = _rows(fmt, sites[fmt][f"{release}/{page}"])
        expected = {
            anchor(e): str(badge)
            for e in registry.endpoints
            if (badge := badge_in(registry, e, release)) is not None
        }
        assert rows == {k: [v] for k, v in expected.items()}, release
        available = {anchor(e) for e in registry.endpoints_in(release)}
        assert {k for k, v in rows.items() if v != [Badge.REMOVED]} == available


def test_badges_follow_the_release(registry: Registry) -> None:
    first = registry.first_release
    removed_at_start = [e for e in registry.endpoints if e.removed_in == first]
    assert {e.path for e in removed_at_start} == {
        "/experimental/devices/{id}/settings",
        "/experimental/sensors/{id}/settings",
    }
    for endpoint in removed_at_start:
        assert badge_in(registry, endpoint, first) is Badge.REMOVED
    later = next(e for e in registry.endpoints if e.since and e.since > first)
    assert badge_in(registry, later, first) is None
    assert badge_in(registry, later, later.since) is Badge(str(later.maturity))


def _resolve(source: str, href: str) -> tuple[str, str]:
    """The page (relative to the site root) and fragment that a link on `source` names."""
    parts = urlsplit(href)
    assert not parts.scheme and not parts.netloc, f"{source}: external link {href}"
    target = source if not parts.path else f"{Path(source).parent}/{unquote(parts.path)}"
    return _normalise(target), parts.fragment


def _normalise(path: str) -> str:
    parts: list[str] = []
    for piece in path.split("/"):
        if piece == "..":
            assert parts, f"link leaves the site: {path}"
            parts.pop()
        elif piece not in ("", "."):
            parts.append(piece)
    return "/".join(parts)


@pytest.mark.parametrize("fmt", ["md", "html"])
def test_every_link_resolves_to_a_page_and_anchor(
    sites: dict[str, dict[str, str]], fmt: str
) -> None:
    pages = sites[fmt]
    if fmt == "html":
        parsed = {name: _Page(text) for name, text in pages.items()}
        ids = {name: p.ids for name, p in parsed.items()}
        links = {name: p.hrefs for name, p in parsed.items()}
    else:
        ids = {}
        for name, text in pages.items():
            anchors = MD_ANCHOR.findall(text)
            assert len(anchors) == len(set(anchors)), f"{name}: duplicate anchors"
            ids[name] = set(anchors)
        links = {name: MD_LINK.findall(text) for name, text in pages.items()}
    walked = 0
    for source, hrefs in links.items():
        for href in hrefs:
            target, fragment = _resolve(source, href)
            assert target in pages, f"{source}: {href} -> missing page {target}"
            if fragment:
                assert fragment in ids[target], f"{source}: {href} -> no anchor #{fragment}"
            walked += 1
    assert walked > 1000


def test_successor_links_point_at_the_successor(
    registry: Registry, sites: dict[str, dict[str, str]]
) -> None:
    release = registry.newest_release
    text = sites["md"][f"{release}/README.md"]
    for endpoint in registry.endpoints_in(release):
        successor = registry.successor_of(endpoint)
        if successor is None:
            continue
        line = next(row for row in text.splitlines() if row.startswith(f"| [{endpoint}]("))
        assert f"]({f'#{anchor(successor)}'})" in line


def test_html_is_self_contained(sites: dict[str, dict[str, str]]) -> None:
    for name, text in sites["html"].items():
        page = _Page(text)
        assert page.sources == [], f"{name} loads {page.sources}"
        assert page.scripts in (2, 5), (
            f"{name}: theme, site, and on release pages the filter data, checker and try-it"
        )
        assert not re.search(r"@import|url\(", text), name
        # URLs appear only as text (code samples), never as something the page loads or links
        assert not [h for h in page.hrefs if re.match(r"[a-z][a-z0-9+.-]*:", h, re.I)], name
        assert '<meta name="viewport"' in text
        assert "prefers-color-scheme: dark" in text


def test_single_release_pages(registry: Registry, cli, tmp_path: Path) -> None:
    for fmt, page in (("md", "README.md"), ("html", "index.html")):
        for release in registry.release_list:
            out = tmp_path / fmt / release.text
            result = cli("docs", "--release", release.text, "--format", fmt, "-o", str(out))
            assert result.code == 0, result.err
            assert [p.name for p in out.iterdir()] == [page], "one release: no migration pages"
            rows = _rows(fmt, (out / page).read_text())
            assert set(rows) == {
                anchor(e) for e in registry.endpoints if badge_in(registry, e, release)
            }
    default = tmp_path / "default"
    result = cli("docs", "-o", str(default))
    assert result.code == 0 and "release 25.x.122 (default: the newest concrete" in result.err
    assert f"release {registry.newest_concrete_release}" in (default / "README.md").read_text()


def test_usage_errors_are_one_line(cli, tmp_path: Path) -> None:
    result = cli("docs", "--release", "25.x.12", "-o", str(tmp_path))
    assert result.code == 2
    assert result.err.count("\n") == 1 and "did you mean 25.x.122?" in result.err
    assert cli("docs", "--release", "24.3.100", "--all-releases", "-o", str(tmp_path)).code == 2
    blocker = tmp_path / "file"
    blocker.write_text("")
    result = cli("docs", "-o", str(blocker))
    assert result.code == 2 and "not a directory" in result.err


def _poison(registry_copy: Path) -> Registry:
    path = registry_copy / "endpoints.yaml"
    doc = yaml.safe_load(path.read_text())
    first, second = doc["endpoints"][0], doc["endpoints"][1]
    first["summary"] = "list <script>alert('x')</script> probes & more"
    first["notes"] = ["<img src=x onerror=alert(1)> [click](javascript:alert(1)) | cell"]
    second["summary"] = "<b>bold</b> `<script>in code</script>`"
    path.write_text(yaml.safe_dump(doc, sort_keys=False, allow_unicode=True))
    return load_registry(registry_copy)


def test_registry_text_with_markup_renders_inert(registry_copy: Path) -> None:
    poisoned = _poison(registry_copy)
    html = render_site(poisoned, "html", all_releases=True)
    for name, text in html.items():
        page = _Page(text)
        assert page.scripts in (2, 5) and page.sources == [], name
        assert "<img" not in text and "<b>" not in text
    newest = html[f"{poisoned.newest_release}/index.html"]
    assert "list &lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; probes &amp; more" in newest
    assert "<code>&lt;script&gt;in code&lt;/script&gt;</code>" in newest

    md = render_site(poisoned, "md", all_releases=True)
    for name, text in md.items():
        prose = re.sub(r"`[^`]*`", "", text)  # code spans show their text literally
        assert "<script" not in prose and "<img" not in prose and "<b>" not in prose, name
        assert not re.search(r"(?<!\\)\]\(javascript:", text), "no live link"
    page = md[f"{poisoned.newest_release}/README.md"]
    assert "list &lt;script&gt;alert('x')&lt;/script&gt; probes &amp; more" in page
    assert r"\[click\](javascript:alert(1)) \| cell" in page
    assert "`<script>in code</script>`" in page, "code spans show the text literally"


def test_markdown_escaping_keeps_code_spans() -> None:
    assert md_text("a <b> & `x < y` [c]") == r"a &lt;b&gt; &amp; `x < y` \[c\]"
    assert md_text(md_code("a`b")) == "``a`b``"
    assert md_code("`x`") == "`` `x` ``"
    assert md_text(None) == ""


def test_committed_reference_is_current(cli, tmp_path: Path) -> None:
    committed = REPO / "docs" / "reference"
    fresh = tmp_path / "reference"
    assert cli(*REGENERATE.split()[1:-1], str(fresh)).code == 0
    want = {p.relative_to(fresh): p.read_text() for p in fresh.rglob("*") if p.is_file()}
    have = (
        {p.relative_to(committed): p.read_text() for p in committed.rglob("*") if p.is_file()}
        if committed.is_dir()
        else {}
    )
    stale = sorted(str(p) for p in want.keys() | have.keys() if want.get(p) != have.get(p))
    assert not stale, (
        f"docs/reference is stale ({', '.join(stale[:5])}{' ...' if len(stale) > 5 else ''}); "
        f"regenerate it from the repo root: rm -rf docs/reference && {REGENERATE}"
    )


def test_release_pages_name_their_changes(
    registry: Registry, sites: dict[str, dict[str, str]]
) -> None:
    def line(release: object, kind: str) -> str:
        text = sites["md"][f"{release}/README.md"]
        return next(row for row in text.splitlines() if row.startswith(f"- {kind} ("))

    for endpoint in registry.endpoints:
        link = f"(#{anchor(endpoint)})"
        if endpoint.since is not None:
            assert link in line(endpoint.since, "Appeared"), endpoint
        if endpoint.deprecated_in is not None:
            assert link in line(endpoint.deprecated_in, "Deprecated"), endpoint
        if endpoint.removed_in is not None:
            assert link in line(endpoint.removed_in, "Removed"), endpoint
    second = registry.release_list[1]
    assert line(second, "Removed") == "- Removed (0)"
