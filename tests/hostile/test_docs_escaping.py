"""Registry text carrying markup stays text in every generated page (issue 11, point 5).

A registry is data a pull request can change, and a Markdown renderer with raw
HTML enabled (GitHub, MkDocs, markdown-it with `html=True`) turns anything
that looks like markup into live HTML. A poisoned copy of the registry puts
hostile strings in every kind of text field; each Markdown page is rendered
with markdown-it-py (`html=True`, tables on) and each HTML page parsed, and
the result must hold no element, attribute or link the templates did not
write, and show every hostile string as the literal text it is.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
import yaml
from markdown_it import MarkdownIt

from apispec.generate.docs_site import render_site
from apispec.registry.load import load_registry
from apispec.registry.model import Registry

HOSTILE = (
    # an unbalanced backtick that would pair with the template's next code span
    "list `devices <img src=x onerror=alert(1)>",
    # a backslash before an escaped bracket: the escape is undone, the link is live
    r"see \[docs](javascript:alert(2)) now",
    "<script>alert(3)</script> & <b>bold</b>",
    "</noscript><img src=x onerror=alert(5)>",  # operation bodies are held in <noscript>
    "[x](javascript:alert(4)) ![i](http://evil.example/p.png) <http://evil.example>",
    "*em* _u_ ~~s~~ a|b &lt;script&gt; &#60;",
    "ends with a backslash \\",
)
# Registry text may use backtick code spans on purpose: they stay code, shown literally.
CODE = ("a ``code `<i>span</i>`` here", "code `<i>span</i>")
LEADING = ("# heading", "- item", "1. item", "> quote", "+ plus", "=== setext")
# What the templates write themselves; anything else came from the registry.
TAGS = {
    "html", "head", "body", "meta", "title", "style", "script", "header", "nav", "main",
    "footer", "section", "div", "span", "p", "a", "ul", "ol", "li", "table", "thead",
    "tbody", "tr", "th", "td", "h1", "h2", "h3", "h4", "code", "pre", "strong", "em",
    "blockquote", "br", "wbr", "input", "button", "label", "select", "option", "details",
    "summary", "textarea", "form", "aside", "output", "dl", "dt", "dd", "small", "kbd",
    "hr", "fieldset", "legend", "mark", "noscript",
}  # fmt: skip


def poison(directory: Path) -> Registry:
    """Hostile text in every free-text field kind the pages show."""
    texts = iter((*HOSTILE, CODE[0]) * 20)
    lead = iter(LEADING * 20)

    def edit(name: str, change) -> None:  # type: ignore[no-untyped-def]
        path = directory / name
        doc = yaml.safe_load(path.read_text(encoding="utf-8"))
        change(doc)
        path.write_text(yaml.safe_dump(doc, sort_keys=False, allow_unicode=True), "utf-8")

    def endpoints(doc: dict) -> None:  # type: ignore[type-arg]
        for entry in doc["endpoints"][:12]:
            entry["summary"] = next(texts)
            entry["notes"] = [next(lead) + " " + next(texts), next(texts)]

    def releases(doc: dict) -> None:  # type: ignore[type-arg]
        for entry in doc["releases"]:
            entry["notes"] = [next(lead) + " " + next(texts)]

    def filters(doc: dict) -> None:  # type: ignore[type-arg]
        for entry in doc["properties"]:
            entry["notes"] = [next(texts)]
        for entry in doc["operators"]:
            entry["meaning"] = next(texts)
        for entry in doc["relationships"]:
            entry["meaning"] = next(texts)

    def errors(doc: dict) -> None:  # type: ignore[type-arg]
        for entry in doc["http_statuses"]:
            entry["condition"] = next(texts)
        for entry in doc["error_codes"]:
            entry["meaning"] = next(texts)

    def limits(doc: dict) -> None:  # type: ignore[type-arg]
        for entry in doc["limits"]:
            entry["notes"] = next(texts)
            entry["applies_to"] = next(texts)
        for entry in doc["pagination_headers"]:
            entry["content"] = next(texts)
        for entry in doc["query_parameters"]:
            entry["rule"] = next(texts)

    edit("endpoints.yaml", endpoints)
    edit("releases.yaml", releases)
    edit("filters.yaml", filters)
    edit("errors.yaml", errors)
    edit("limits.yaml", limits)
    return load_registry(directory)


class Rendered(HTMLParser):
    """Tags, attributes, links and the text of a page (script and style bodies left out)."""

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: set[str] = set()
        self.handlers: list[str] = []
        self.links: list[str] = []
        self.images: list[str] = []
        self.chunks: list[str] = []
        self._skip = 0
        self.feed(text)
        self.close()
        self.text = re.sub(r"\s+", " ", "".join(self.chunks))

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.add(tag)
        self.handlers += [name for name, _ in attrs if name.startswith("on")]
        self.links += [v or "" for name, v in attrs if name in ("href", "src", "action")]
        if tag == "img":
            self.images.append(dict(attrs).get("src") or "")
        if tag in ("script", "style"):
            self._skip += 1

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style"):
            self._skip -= 1

    def handle_data(self, data: str) -> None:
        if not self._skip:
            self.chunks.append(data)


def _markdown() -> MarkdownIt:
    return MarkdownIt("commonmark", {"html": True}).enable(["table", "strikethrough"])


def _assert_inert(name: str, page: Rendered) -> None:
    assert page.tags <= TAGS, f"{name}: markup from the registry: {page.tags - TAGS}"
    assert not page.handlers, f"{name}: event handler attributes {page.handlers}"
    assert not page.images, f"{name}: images {page.images}"
    for link in page.links:
        assert not re.match(r"\s*[a-z][a-z0-9+.-]*:", link, re.I), f"{name}: live link {link!r}"


@pytest.fixture(scope="module")
def poisoned(tmp_path_factory: pytest.TempPathFactory) -> Registry:
    from apispec.registry.files import default_directory

    target = tmp_path_factory.mktemp("poisoned") / "registry"
    import shutil

    shutil.copytree(default_directory(), target)
    return poison(target)


def _every_template(pages: dict[str, str], registry: Registry) -> dict[str, str]:
    """The landing page, the first and newest release pages and a migration guide.

    Each template is rendered with all the registry's text (a release page
    shows every free-text field), so rendering every page adds only time.
    """
    first, newest = registry.first_release, registry.newest_release
    page = next(iter(pages)).rsplit("/", 1)[-1]
    names = [page, f"{first}/{page}", f"{newest}/{page}", f"migrate/{first}-to-{newest}/{page}"]
    return {name: pages[name] for name in names}


def test_markdown_pages_render_registry_text_as_text(poisoned: Registry) -> None:
    md = _markdown()
    pages = _every_template(render_site(poisoned, "md", all_releases=True), poisoned)
    shown = ""
    for name, text in pages.items():
        page = Rendered(md.render(text))
        _assert_inert(name, page)
        shown += page.text
    for hostile in (*HOSTILE, *LEADING):
        assert hostile in shown, f"not shown literally: {hostile!r}"
    assert CODE[1] in shown


def test_html_pages_render_registry_text_as_text(poisoned: Registry) -> None:
    pages = render_site(poisoned, "html", all_releases=True)
    shown = ""
    for name, text in pages.items():
        page = Rendered(text)
        _assert_inert(name, page)
        shown += page.text
    for hostile in (*HOSTILE, *LEADING):
        assert hostile in shown, f"not shown literally: {hostile!r}"
    assert CODE[1] in shown


def test_changelog_markdown_renders_registry_text_as_text(poisoned: Registry) -> None:
    from apispec.generate.changelog import build_changelog, render_markdown

    releases = poisoned.release_list
    text = render_markdown(build_changelog(poisoned, None, releases[-1].text))
    page = Rendered(_markdown().render(text))
    _assert_inert("changelog", page)
    assert HOSTILE[0] in page.text
