"""The per-operation reference in the generated pages, read through a parser, never grepped.

Each operation's section must show what its OpenAPI operation says
(parameters, headers, statuses, samples), deprecated endpoints must link to
their successor's section, and the Markdown must carry the same tables and
samples for a static site generator.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from html.parser import HTMLParser

import pytest
from markdown_it import MarkdownIt

from apispec.generate.docs_site import anchor, render_site
from apispec.generate.openapi import build_document
from apispec.registry.model import Endpoint, Maturity, Registry

VOID = {"meta", "br", "wbr", "input", "hr", "img", "link"}


@dataclass
class Node:
    tag: str
    attrs: dict[str, str]
    children: list[Node] = field(default_factory=list)
    parent: Node | None = None
    data: list[str] = field(default_factory=list)

    @property
    def text(self) -> str:
        return "".join(self.data) + "".join(c.text for c in self.children)

    def walk(self):  # type: ignore[no-untyped-def]
        yield self
        for child in self.children:
            yield from child.walk()

    def find_all(self, tag: str | None = None, **attrs: str) -> list[Node]:
        def fits(n: Node) -> bool:
            return (tag is None or n.tag == tag) and all(
                (v in n.attrs.get(k.rstrip("_"), "").split()) if k == "class_"
                else n.attrs.get(k) == v
                for k, v in attrs.items()
            )  # fmt: skip

        return [n for n in self.walk() if fits(n)]

    def find(self, tag: str, **attrs: str) -> Node:
        found = self.find_all(tag, **attrs)
        assert found, f"no <{tag} {attrs}>"
        return found[0]


class Tree(HTMLParser):
    """A plain element tree (text kept in document order inside each element)."""

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Node("#root", {})
        self._at = self.root
        self.feed(text)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        node = Node(tag, {k: v or "" for k, v in attrs}, parent=self._at)
        self._at.children.append(node)
        if tag not in VOID:
            self._at = node

    def handle_endtag(self, tag: str) -> None:
        at: Node | None = self._at
        while at is not None and at.tag != tag:
            at = at.parent
        if at is not None and at.parent is not None:
            self._at = at.parent

    def handle_data(self, data: str) -> None:
        holder = Node("#text", {}, parent=self._at, data=[data])
        self._at.children.append(holder)


@pytest.fixture(scope="module")
def newest(registry: Registry) -> Node:
    pages = render_site(registry, "html", all_releases=True)
    return Tree(pages[f"{registry.newest_release}/index.html"]).root


def _section(page: Node, endpoint: Endpoint) -> Node:
    return page.find("section", id=anchor(endpoint))


def test_list_operation_shows_parameters_headers_and_a_curl_sample(
    registry: Registry, newest: Node
) -> None:
    section = _section(newest, registry.endpoint("GET", "/experimental/devices"))
    params = {
        row.attrs["data-param"]: row for row in section.find_all("tr") if "data-param" in row.attrs
    }
    assert {"limit", "offset", "filter", "sort_by"} <= set(params)
    limit_cells = [c.text for c in params["limit"].find_all("td")]
    assert "max 3000" in limit_cells[3] and limit_cells[2] == "integer"
    success = section.find("div", class_="response")
    assert success.attrs["data-status"] == "200"
    headers = [c.text for c in success.find("p", class_="headers").find_all("code")]
    assert {"X-Total-Count", "X-Result-Count", "Link"} <= set(headers)
    curl = section.find(
        "div", id=f"{anchor(registry.endpoint('GET', '/experimental/devices'))}-curl"
    )
    code = curl.find("code").text
    assert code.startswith("curl -sS ") and "/api/v2/experimental/devices?limit=" in code
    links = [a.attrs["href"] for a in section.find("p", class_="filterable").find_all("a")]
    assert "#prop-basic-tags" in links and all(
        newest.find_all(id=h[1:]) for h in links if h != "#filter"
    )


def test_creating_endpoint_shows_204_with_location(registry: Registry, newest: Node) -> None:
    creating = [
        e
        for e in registry.endpoints_in(registry.newest_release)
        if e.creates and e.method == "POST"
    ]
    assert creating
    for endpoint in creating:
        success = _section(newest, endpoint).find("div", class_="response")
        assert success.attrs["data-status"] == "204", endpoint
        headers = [c.text for c in success.find("p", class_="headers").find_all("code")]
        assert "Location" in headers, endpoint
        chips = [c.text for c in _section(newest, endpoint).find_all("span", class_="chip")]
        assert "creates" in chips


def test_deprecated_endpoint_banner_links_to_its_successor_section(
    registry: Registry, newest: Node
) -> None:
    release = registry.newest_release
    deprecated = [
        e
        for e in registry.endpoints_in(release)
        if e.maturity is Maturity.DEPRECATED and registry.successor_of(e) is not None
    ]
    assert deprecated
    for endpoint in deprecated:
        banner = _section(newest, endpoint).find("div", class_="banner")
        assert "b-deprecated" in banner.attrs["class"]
        assert banner.text.strip().startswith("Deprecated")
        link = banner.find("a", class_="successor")
        successor = registry.successor_of(endpoint)
        assert link.attrs["href"] == f"#{anchor(successor)}"
        target = newest.find_all(id=anchor(successor))
        assert target and target[0].tag == "section", f"{endpoint}: no section for {successor}"


def test_samples_on_the_page_are_the_openapi_documents(registry: Registry, newest: Node) -> None:
    doc = build_document(registry, registry.newest_release)
    keys = {"Shell": "curl", "Python": "python", "PowerShell": "powershell"}
    by_id = {n.attrs["id"]: n for n in newest.walk() if "id" in n.attrs}
    compared = 0
    for endpoint in registry.endpoints_in(registry.newest_release):
        operation = doc["paths"][endpoint.path][endpoint.method.lower()]
        for sample in operation["x-codeSamples"]:
            panel = by_id[f"{anchor(endpoint)}-{keys[sample['lang']]}"]
            assert panel.find("code").text == sample["source"]
            compared += 1
    assert compared == 3 * len(registry.endpoints_in(registry.newest_release))


def test_release_switcher_and_unavailable_releases(registry: Registry, newest: Node) -> None:
    later = next(e for e in registry.endpoints if e.since and e.since > registry.first_release)
    switcher = _section(newest, later).find("div", class_="switcher")
    missing = [s.text for s in switcher.find_all("span", class_="na")]
    assert f"{registry.first_release}: not available" in missing
    linked = [a.attrs["href"] for a in switcher.find_all("a")]
    assert f"../{later.since}/index.html#{anchor(later)}" in linked


def test_markdown_carries_parameters_responses_and_samples(registry: Registry) -> None:
    pages = render_site(registry, "md", all_releases=True)
    html = (
        MarkdownIt("commonmark")
        .enable("table")
        .render(pages[f"{registry.newest_release}/README.md"])
    )
    page = Tree(html).root
    tables = page.find_all("table")
    headings = [[th.text for th in t.find_all("th")] for t in tables]
    assert ["Parameter", "In", "Type", "Limits", "Description"] in headings
    assert ["Status", "Description", "Headers", "Body"] in headings
    fences = {c.attrs.get("class", "") for c in page.find_all("code") if c.attrs.get("class")}
    assert {"language-bash", "language-python", "language-powershell", "language-http"} <= fences
    anchors = {n.attrs["id"] for n in page.walk() if n.tag == "a" and "id" in n.attrs}
    assert anchor(registry.endpoint("GET", "/experimental/devices")) in anchors


def test_migration_guides_have_before_and_after(registry: Registry) -> None:
    pages = render_site(registry, "html", all_releases=True)
    first, newest = registry.first_release, registry.newest_release
    page = Tree(pages[f"migrate/{first}-to-{newest}/index.html"]).root
    sections = page.find_all("section", class_="migration")
    assert sections
    with_successor = [s for s in sections if "Use " in s.find("p").text]
    assert with_successor
    for section in with_successor:
        before, after = section.find("div", class_="before-after").find_all("div")[:2]
        assert "curl" in before.text and "curl" in after.text
    changelog_links = [
        a.attrs["href"] for a in page.find_all("a") if a.attrs.get("href", "").endswith("#changes")
    ]
    assert changelog_links, "the guide links the changelog of each release"
    landing = Tree(pages["index.html"]).root
    guides = [a.attrs["href"] for a in landing.find("ul", class_="migrations").find_all("a")]
    assert f"migrate/{first}-to-{newest}/index.html" in guides


def test_docs_command_reports_the_page_weight(cli, tmp_path) -> None:  # type: ignore[no-untyped-def]
    result = cli("docs", "--format", "html", "-o", str(tmp_path))
    assert result.code == 0, result.err
    size = (tmp_path / "index.html").stat().st_size
    assert f"{size / 1024:,.0f} KB in all" in result.out and "largest index.html" in result.out
