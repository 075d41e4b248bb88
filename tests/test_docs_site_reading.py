"""A release page read at a desk in headless Chromium: nothing clipped at 1,280, 1,400 and
1,920 px, whole paths and their maturity in the sidebar, a "hide deprecated" switch, a
search over the words the page shows, and operation bodies drawn only when wanted."""

from __future__ import annotations

import json
import re

import pytest

from apispec.generate.docs_site import anchor
from apispec.generate.release_status import Badge, badge_in
from tests.test_docs_site_browser import BUILD, VISIBLE_OPS, Browser, browser, site_url
from tests.test_docs_tryit_browser import _wait

__all__ = ["browser", "site_url"]  # the fixtures this module borrows

# Every element whose content is wider than its box, except code (which scrolls inside
# its own box, as in Redoc) and form fields (which scroll their value).
CLIPPED = """[...document.querySelectorAll('body *')].filter(el =>
    !el.closest('pre, noscript, input, textarea')
    && (el.offsetParent !== null || getComputedStyle(el).position === 'fixed')
    && el.clientWidth > 0 && el.scrollWidth > el.clientWidth + 1
  ).map(el => `${el.tagName.toLowerCase()}.${el.className} in #${(el.closest('[id]') || {}).id}:`
    + ` ${el.scrollWidth} > ${el.clientWidth}: ${el.textContent.trim().slice(0, 60)}`)"""
# The text an operation shows, without its code samples, examples, try-it form, release
# switcher, facts list, headings and the note every operation has.
SHOWN_TEXT = """(s => { const c = s.cloneNode(true);
  c.querySelectorAll('.samples, pre, details.tryit, .switcher, dl.facts, h4, th, p.common')
    .forEach(n => n.remove());
  return c.textContent; })"""


def _search(browser: Browser, text: str) -> list[str]:
    browser.evaluate(
        "(b => { b.value = " + json.dumps(text) + "; b.dispatchEvent(new Event('input')); })"
        "(document.getElementById('search'))"
    )
    return sorted(browser.evaluate(f"{VISIBLE_OPS}.map(r => r.id)"))


@pytest.mark.parametrize("width", [1280, 1400, 1920])
def test_nothing_is_clipped_at_desk_widths(
    browser: Browser, site_url: str, registry, width: int
) -> None:
    release = registry.default_release[0]
    browser.viewport(width, 1000)
    browser.open("about:blank")
    browser.open(f"{site_url}/{release}/index.html")
    browser.evaluate(
        "window.apispecDocs && window.apispecDocs.renderAll();"
        "document.querySelectorAll('details.tryit').forEach(d => d.open = true)"
    )
    # a try-it answer with a long URL: the request goes to a closed loopback port
    devices = anchor(registry.endpoint("GET", "/experimental/devices"))
    panel = f"document.querySelector('#{devices} details.tryit')"
    browser.evaluate(
        "document.getElementById('tryit-base').value = 'http://127.0.0.1:9/api/v2';"
        f"const f = {panel}.querySelector('.filter-input');"
        f"f.value = 'name = \"{'x' * 200}\"'; f.dispatchEvent(new Event('input'));"
        f"{panel}.querySelector('button[type=submit]').click()"
    )
    assert _wait(browser, f"{panel}.dataset.state == 'failed'"), "the request was not tried"
    assert browser.evaluate(CLIPPED) == []
    BUILD.mkdir(exist_ok=True)
    browser.evaluate(f"document.getElementById('{devices}').scrollIntoView()")
    browser.screenshot(BUILD / f"docs-screenshot-{width}.png")


def test_sidebar_shows_whole_paths_their_maturity_and_hides_deprecated(
    browser: Browser, site_url: str, registry
) -> None:
    release = registry.default_release[0]
    browser.viewport(1280, 900)
    browser.open(f"{site_url}/{release}/index.html")
    entries = browser.evaluate(
        "[...document.querySelectorAll('#sidebar a.side-op')].map(a => [a.getAttribute('href'),"
        " a.textContent.replace(/\\s+/g, ' ').trim(), a.scrollWidth <= a.clientWidth])"
    )
    listed = {
        anchor(e): (e, badge)
        for e in registry.endpoints
        if (badge := badge_in(registry, e, release)) is not None
    }
    assert len(entries) == len(listed)
    for href, text, fits in entries:
        endpoint, badge = listed[href[1:]]
        mark = "" if badge is Badge.STABLE else f" {badge}"
        assert text == f"{endpoint.method} {endpoint.path}{mark}", text
        assert fits, f"{text}: cut short"
    retired = {a for a, (_, b) in listed.items() if b in (Badge.DEPRECATED, Badge.REMOVED)}
    assert retired
    browser.evaluate("document.getElementById('hide-deprecated').click()")
    shown = set(browser.evaluate(f"{VISIBLE_OPS}.map(r => r.id)"))
    assert shown == set(listed) - retired
    side = browser.evaluate(
        "[...document.querySelectorAll('#sidebar a.side-op')]"
        ".filter(a => a.offsetParent !== null).map(a => a.getAttribute('href').slice(1))"
    )
    assert set(side) == shown
    status = browser.evaluate("document.getElementById('search-status').textContent")
    assert status.startswith(f"{len(shown)} of {len(listed)} shown"), status
    browser.evaluate("document.getElementById('hide-deprecated').click()")
    assert len(browser.evaluate(f"{VISIBLE_OPS}.map(r => r.id)")) == len(listed)


@pytest.mark.parametrize(
    "query", ["move", "INVALID_FILTER", "Location", "sort_by", "Wait-For", "parenttags"]
)
def test_search_matches_words_of_everything_shown(
    browser: Browser, site_url: str, registry, query: str
) -> None:
    """A word typed matches the beginnings of words the operation shows (codes, headers,
    parameters, fields): exactly the operations whose text has it, found before their
    bodies are drawn."""
    release = registry.default_release[0]
    browser.viewport(1280, 900)
    browser.open("about:blank")
    browser.open(f"{site_url}/{release}/index.html")
    found = _search(browser, query)
    drawn = browser.evaluate("document.querySelectorAll('div.op-body').length")
    browser.evaluate("window.apispecDocs && window.apispecDocs.renderAll()")
    texts = browser.evaluate(
        "Object.fromEntries([...document.querySelectorAll('section.op')]"
        f".map(s => [s.id, {SHOWN_TEXT}(s)]))"
    )
    word = re.compile(rf"(?<![^\W]){re.escape(query.lower())}")
    expected = sorted(i for i, text in texts.items() if word.search(text.lower()))
    assert expected, f"{query}: the page shows it nowhere"
    assert found == expected
    assert drawn < len(texts), "the search ran over operations whose bodies were not drawn"
    if query == "move":
        assert any(re.search(r"\bremoved?\b", t, re.I) for i, t in texts.items() if i not in found)


def test_a_path_with_its_prefix_is_found_as_written(
    browser: Browser, site_url: str, registry
) -> None:
    release = registry.default_release[0]
    browser.viewport(1280, 900)
    browser.open(f"{site_url}/{release}/index.html")
    having = [
        e
        for e in registry.endpoints
        if "/experimental/devices/{id}" in e.path and badge_in(registry, e, release)
    ]
    assert _search(browser, "/api/v2/experimental/devices/{id}") == sorted(map(anchor, having))
    posts = sorted(anchor(e) for e in having if e.method == "POST")
    assert posts and _search(browser, "POST /experimental/devices/{id}") == posts


def test_bodies_are_drawn_on_demand_and_all_there_without_script(
    browser: Browser, site_url: str, registry
) -> None:
    release = registry.default_release[0]
    operations = [e for e in registry.endpoints if badge_in(registry, e, release) is not None]
    browser.viewport(1280, 900)
    browser.open("about:blank")
    browser.open(f"{site_url}/{release}/index.html")
    elements = browser.evaluate("document.getElementsByTagName('*').length")
    drawn = browser.evaluate("document.querySelectorAll('div.op-body').length")
    assert elements < 5000, f"{elements} elements at load"
    assert drawn < len(operations) // 4

    # a link to an operation draws its body, with its samples and try-it panel
    target = anchor(registry.endpoint("POST", "/session"))
    browser.evaluate(f"document.querySelector('#sidebar a[href=\"#{target}\"]').click()")
    assert _wait(browser, f"document.querySelector('#{target} details.tryit') !== null")
    assert browser.evaluate(f"document.querySelectorAll('#{target} .sample').length") == 3
    top = browser.evaluate(f"document.getElementById('{target}').getBoundingClientRect().top")
    assert 0 <= top < 120

    # printing draws every body
    browser.page("Emulation.setEmulatedMedia", media="print")
    try:
        assert _wait(
            browser,
            f"document.querySelectorAll('div.op-body').length == {len(operations)}",
        )
    finally:
        browser.page("Emulation.setEmulatedMedia", media="")

    # without script, every body is part of the page
    browser.page("Emulation.setScriptExecutionDisabled", value=True)
    try:
        browser.open("about:blank")
        browser.open(f"{site_url}/{release}/index.html")
        grids = browser.evaluate("document.querySelectorAll('section.op .op-grid').length")
    finally:
        browser.page("Emulation.setScriptExecutionDisabled", value=False)
    assert grids == len(operations)
