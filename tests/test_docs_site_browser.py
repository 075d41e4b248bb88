"""The generated HTML in a real headless Chromium: rows render, the search box filters them.

Chromium is driven over the DevTools protocol on a pipe (--remote-debugging-pipe:
commands on fd 3, answers on fd 4, NUL-separated JSON), so no browser download
and no websocket library is needed. Screenshots go to build/ for CI to keep.
"""

from __future__ import annotations

import base64
import contextlib
import functools
import http.server
import json
import os
import select
import shutil
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from apispec.generate.docs_site import anchor, render_site, write_site
from apispec.generate.release_status import badge_in

BUILD = Path(__file__).resolve().parent.parent / "build"
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
    "--hide-scrollbars",
    "--remote-debugging-pipe",
)
PHONE = (390, 844)
DESK = (1366, 900)


def _chromium() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found:
        return found
    if os.environ.get("CI"):
        pytest.fail("chromium is not installed; CI must install Debian's chromium package")
    pytest.skip("chromium is not installed (apt-get install chromium); required when CI is set")


class Browser:
    """A minimal DevTools client: one page, commands answered in order."""

    def __init__(self, executable: str, profile: Path) -> None:
        to_browser_r, self._to_browser = os.pipe()
        self._from_browser, from_browser_w = os.pipe()

        def wire() -> None:  # runs in the child: the pipe ends become fds 3 and 4
            os.dup2(to_browser_r, 3)
            os.dup2(from_browser_w, 4)

        self.proc = subprocess.Popen(
            [executable, *FLAGS, f"--user-data-dir={profile}", "about:blank"],
            preexec_fn=wire,
            close_fds=False,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        os.close(to_browser_r)
        os.close(from_browser_w)
        self._buffer = b""
        self._next_id = 0
        self.events: list[dict[str, Any]] = []
        target = self.call("Target.createTarget", url="about:blank")["targetId"]
        self.session = self.call("Target.attachToTarget", targetId=target, flatten=True)[
            "sessionId"
        ]

    def call(self, method: str, session: str | None = None, **params: Any) -> dict[str, Any]:
        self._next_id += 1
        message: dict[str, Any] = {"id": self._next_id, "method": method, "params": params}
        if session:
            message["sessionId"] = session
        os.write(self._to_browser, json.dumps(message).encode() + b"\0")
        while True:
            reply = self._read()
            if reply.get("id") == self._next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            self.events.append(reply)

    def page(self, method: str, **params: Any) -> dict[str, Any]:
        return self.call(method, self.session, **params)

    def _read(self, timeout: float = 20.0) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while b"\0" not in self._buffer:
            left = deadline - time.monotonic()
            ready, _, _ = select.select([self._from_browser], [], [], max(left, 0))
            if not ready:
                raise TimeoutError("chromium did not answer in time")
            chunk = os.read(self._from_browser, 1 << 16)
            if not chunk:
                raise RuntimeError("chromium closed the DevTools pipe")
            self._buffer += chunk
        raw, _, self._buffer = self._buffer.partition(b"\0")
        return json.loads(raw)

    def wait_event(self, method: str, timeout: float = 20.0) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            for i, event in enumerate(self.events):
                if event.get("method") == method:
                    return self.events.pop(i)
            if time.monotonic() > deadline:
                raise TimeoutError(f"no {method} event")
            self.events.append(self._read(max(deadline - time.monotonic(), 0.1)))

    def evaluate(self, expression: str) -> Any:
        result = self.page("Runtime.evaluate", expression=expression, returnByValue=True)
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def open(self, url: str) -> None:
        self.events.clear()
        self.page("Page.navigate", url=url)
        self.wait_event("Page.loadEventFired")

    def viewport(self, width: int, height: int) -> None:
        self.page(
            "Emulation.setDeviceMetricsOverride",
            width=width,
            height=height,
            deviceScaleFactor=1,
            mobile=width < 600,
        )

    def type_text(self, text: str) -> None:
        for char in text:
            self.page("Input.dispatchKeyEvent", type="keyDown", text=char, key=char)
            self.page("Input.dispatchKeyEvent", type="keyUp", key=char)

    def screenshot(self, path: Path) -> None:
        data = self.page("Page.captureScreenshot", format="png")["data"]
        path.write_bytes(base64.b64decode(data))

    def close(self) -> None:
        with contextlib.suppress(RuntimeError, TimeoutError, OSError):
            self.call("Browser.close")
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        os.close(self._to_browser)
        os.close(self._from_browser)


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def site_url(registry, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    root = tmp_path_factory.mktemp("site")
    write_site(render_site(registry, "html", all_releases=True), root)
    handler = functools.partial(_QuietHandler, directory=str(root))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Browser]:
    executable = _chromium()
    chrome = Browser(executable, tmp_path_factory.mktemp("chromium-profile"))
    chrome.page("Page.enable")
    chrome.page("Network.enable")
    yield chrome
    chrome.close()


VISIBLE_OPS = "[...document.querySelectorAll('section.op')].filter(r => r.offsetParent !== null)"
VISIBLE_ROWS = (
    "[...document.querySelectorAll('tr[data-search]')].filter(r => r.offsetParent !== null)"
)


def _external(browser: Browser, site_url: str) -> list[str]:
    return [
        e["params"]["request"]["url"]
        for e in browser.events
        if e.get("method") == "Network.requestWillBeSent"
        and not e["params"]["request"]["url"].startswith((site_url, "data:"))
    ]


def test_search_filters_and_highlights_operations(
    browser: Browser, site_url: str, registry
) -> None:
    release = registry.newest_release
    available = registry.endpoints_in(release)
    browser.viewport(*DESK)
    browser.open(f"{site_url}/{release}/index.html")

    ops = browser.evaluate(f"{VISIBLE_OPS}.map(r => r.id)")
    listed = [e for e in registry.endpoints if badge_in(registry, e, release) is not None]
    assert sorted(ops) == sorted(anchor(e) for e in listed)
    BUILD.mkdir(exist_ok=True)
    browser.screenshot(BUILD / "docs-screenshot.png")

    # A path that is a prefix of others: the search keeps exactly the operations that have it.
    probe = next(e for e in available if e.path.count("/") == 3 and e.is_experimental_path)
    expected = sorted(
        anchor(e)
        for e in registry.endpoints
        if probe.path in e.path and badge_in(registry, e, release) is not None
    )
    browser.evaluate("document.getElementById('search').focus()")
    browser.type_text(probe.path)
    shown = sorted(browser.evaluate(f"{VISIBLE_OPS}.map(r => r.id)"))
    assert shown == expected
    assert 0 < len(shown) < len(ops)
    status = browser.evaluate("document.getElementById('search-status').textContent")
    assert status.startswith(f"{len(shown)} of ")
    marks = browser.evaluate(
        "[...document.querySelectorAll('#sidebar mark')].filter(m => m.offsetParent !== null)"
        ".map(m => m.textContent)"
    )
    assert marks and all(m.lower() == probe.path.lower() for m in marks), marks
    hidden_groups = browser.evaluate(
        "[...document.querySelectorAll('[data-group]')].filter(g => g.hidden).length"
    )
    assert hidden_groups > 0, "tag sections without a matching operation are hidden"

    # operation ids and filter properties are searchable too
    browser.evaluate(
        "const b = document.getElementById('search'); b.value = 'basic.parenttags list_experimental';"
        "b.dispatchEvent(new Event('input'))"
    )
    found = browser.evaluate(f"{VISIBLE_OPS}.map(r => r.id)")
    assert found and all(i.startswith("list_experimental") for i in found), found

    browser.evaluate(
        "const c = document.getElementById('search'); c.value = '';"
        "c.dispatchEvent(new Event('input'))"
    )
    assert browser.evaluate(f"{VISIBLE_OPS}.length") == len(ops)
    assert _external(browser, site_url) == [], "the page must not load anything from elsewhere"


def test_deep_link_scroll_spy_and_print(browser: Browser, site_url: str, registry) -> None:
    release = registry.newest_release
    target = next(e for e in registry.endpoints_in(release) if e.path == "/experimental/devices")
    browser.viewport(*DESK)
    browser.open("about:blank")  # the same page with only a fragment fires no load event
    browser.open(f"{site_url}/{release}/index.html#{anchor(target)}")
    top = browser.evaluate(
        f"document.getElementById('{anchor(target)}').getBoundingClientRect().top"
    )
    assert 0 <= top < 120, "a deep link opens at its operation"
    deadline = time.monotonic() + 5
    active = None
    while time.monotonic() < deadline and active != f"#{anchor(target)}":
        time.sleep(0.05)
        active = browser.evaluate(
            "(document.querySelector('#sidebar a.active') || {getAttribute: () => null})"
            ".getAttribute('href')"
        )
    assert active == f"#{anchor(target)}", "the sidebar marks the operation in view"

    browser.page("Emulation.setEmulatedMedia", media="print")
    try:
        assert (
            browser.evaluate("getComputedStyle(document.getElementById('sidebar')).display")
            == "none"
        )
        hidden_samples = browser.evaluate(
            "[...document.querySelectorAll('.sample')].filter(s => getComputedStyle(s).display == 'none').length"
        )
        assert hidden_samples == 0, "print shows every language's sample"
        assert browser.evaluate(
            "[...document.querySelectorAll('details.tryit')].every(d => getComputedStyle(d).display == 'none')"
        )
    finally:
        browser.page("Emulation.setEmulatedMedia", media="")


def test_phone_layout_and_theme(browser: Browser, site_url: str, registry) -> None:
    browser.viewport(*PHONE)
    browser.open(f"{site_url}/{registry.newest_release}/index.html")
    overflow = browser.evaluate(
        "document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    assert overflow <= 0, "no sideways scrolling on a phone"
    BUILD.mkdir(exist_ok=True)
    browser.evaluate("document.getElementById('endpoints').scrollIntoView()")
    browser.screenshot(BUILD / "docs-screenshot-phone.png")

    background = "getComputedStyle(document.body).backgroundColor"
    browser.page(
        "Emulation.setEmulatedMedia", features=[{"name": "prefers-color-scheme", "value": "dark"}]
    )
    dark = browser.evaluate(background)
    browser.page(
        "Emulation.setEmulatedMedia", features=[{"name": "prefers-color-scheme", "value": "light"}]
    )
    light = browser.evaluate(background)
    assert dark != light, "the page follows prefers-color-scheme"
    browser.evaluate("document.getElementById('theme-toggle').click()")
    assert browser.evaluate("document.documentElement.dataset.theme") == "dark"
    assert browser.evaluate(background) == dark, "the toggle overrides the system theme"
    browser.evaluate("document.getElementById('theme-toggle').click()")
    assert browser.evaluate(background) == light


def test_landing_matrix_filters_and_keeps_its_first_column(
    browser: Browser, site_url: str, registry
) -> None:
    browser.viewport(*DESK)
    browser.open(f"{site_url}/index.html")
    assert browser.evaluate(f"{VISIBLE_ROWS}.length") == len(registry.endpoints)
    browser.evaluate("document.getElementById('search').focus()")
    browser.type_text("/experimental/autodiscoveryjobs")
    expected = sum("/experimental/autodiscoveryjobs" in e.path for e in registry.endpoints)
    assert browser.evaluate(f"{VISIBLE_ROWS}.length") == expected

    browser.viewport(*PHONE)
    browser.open(f"{site_url}/index.html")
    box = "document.querySelector('table.matrix').parentElement"
    first = "document.querySelector('table.matrix tbody td')"
    before = browser.evaluate(f"{first}.getBoundingClientRect().left")
    browser.evaluate(f"{box}.scrollLeft = 400")
    assert browser.evaluate(f"{box}.scrollLeft") > 0, "the matrix scrolls sideways on a phone"
    after = browser.evaluate(f"{first}.getBoundingClientRect().left")
    assert after == before, "the endpoint column stays frozen"
    browser.evaluate("document.getElementById('matrix').scrollIntoView()")
    browser.screenshot(BUILD / "docs-screenshot-phone-matrix.png")
