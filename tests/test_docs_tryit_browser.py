"""The try-it panel in headless Chromium against a real `apispec mock --cors` process.

The page is opened from file://, as a reader opens a generated site; it logs
in through the panel of `POST /session` (the token lands in the shared token
field), lists devices with a filter through the panel of
`GET /experimental/devices` and shows the mock's answer. An invalid filter is
flagged in the page by the JavaScript checker and never sent.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from apispec.generate.docs_site import anchor, render_site, write_site
from tests.test_docs_site_browser import BUILD, DESK, Browser, _chromium

CREDENTIALS = {"username": "prtgadmin", "password": "prtgadmin"}


@pytest.fixture(scope="module")
def mock_api() -> Iterator[str]:
    process = subprocess.Popen(
        [sys.executable, "-m", "apispec", "mock", "--cors", "--port", "0", "--objects", "300"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        assert process.stdout is not None
        url = None
        deadline = time.monotonic() + 30
        while url is None and time.monotonic() < deadline:
            line = process.stdout.readline()
            if not line:
                break
            found = re.search(r" at (http://\S+/api/v2)$", line.strip())
            url = found.group(1) if found else None
        assert url, "the mock did not print its URL"
        yield url
    finally:
        process.terminate()
        process.wait(timeout=10)


@pytest.fixture(scope="module")
def page(registry, tmp_path_factory: pytest.TempPathFactory) -> str:
    root = tmp_path_factory.mktemp("tryit-site")
    write_site(render_site(registry, "html"), root)
    return (root / "index.html").as_uri()


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Browser]:
    chrome = Browser(_chromium(), tmp_path_factory.mktemp("chromium-tryit"))
    chrome.page("Page.enable")
    chrome.page("Network.enable")
    yield chrome
    chrome.close()


def _wait(browser: Browser, expression: str, timeout: float = 10.0) -> object:
    deadline = time.monotonic() + timeout
    while True:
        value = browser.evaluate(expression)
        if value or time.monotonic() > deadline:
            return value
        time.sleep(0.05)


def _panel(op_id: str) -> str:
    return f"document.querySelector('#{op_id} details.tryit')"


def _go(browser: Browser, op_id: str) -> None:
    """Follow the operation's sidebar link, as a reader does: its body is drawn on arrival."""
    browser.evaluate(f"document.querySelector('#sidebar a[href=\"#{op_id}\"]').click()")
    assert _wait(browser, f"{_panel(op_id)} !== null"), f"{op_id}: no try-it panel"


def _requests_to(browser: Browser, url: str) -> list[str]:
    return [
        e["params"]["request"]["url"]
        for e in browser.events
        if e.get("method") == "Network.requestWillBeSent"
        and e["params"]["request"]["url"].startswith(url)
    ]


def _set(browser: Browser, selector: str, value: str) -> None:
    browser.evaluate(
        f"(() => {{ const el = {selector}; el.value = {json.dumps(value)};"
        " el.dispatchEvent(new Event('input')); el.dispatchEvent(new Event('change')); })()"
    )


def test_try_it_logs_in_lists_devices_and_flags_a_bad_filter(
    browser: Browser, page: str, mock_api: str, registry
) -> None:
    session = anchor(registry.endpoint("POST", "/session"))
    devices = anchor(registry.endpoint("GET", "/experimental/devices"))
    browser.viewport(*DESK)
    browser.open(page)
    _set(browser, "document.getElementById('tryit-base')", mock_api)

    # log in through the panel of POST /session: the token fills the shared field
    _go(browser, session)
    browser.evaluate(f"{_panel(session)}.open = true")
    _set(browser, f"{_panel(session)}.querySelector('textarea')", json.dumps(CREDENTIALS))
    browser.evaluate(f"{_panel(session)}.querySelector('button[type=submit]').click()")
    state = _wait(browser, f"{_panel(session)}.dataset.state == 'answered'")
    assert state, browser.evaluate(f"{_panel(session)}.querySelector('.tryit-status').textContent")
    assert browser.evaluate(f"{_panel(session)}.dataset.status") == "200"
    token = browser.evaluate("document.getElementById('tryit-token').value")
    assert len(token) > 8

    # an invalid filter is flagged as it is typed, and the request is not sent
    panel = _panel(devices)
    _go(browser, devices)
    browser.evaluate(f"{panel}.open = true")
    sent_before = len(_requests_to(browser, mock_api))
    _set(browser, f"{panel}.querySelector('.filter-input')", 'status = "down"')
    flagged = browser.evaluate(f"{panel}.querySelector('.filter-check').textContent")
    assert flagged.startswith("FLT004 error at column 10: `status` takes an enumeration value")
    assert browser.evaluate(f"{panel}.querySelector('.filter-input').classList.contains('invalid')")
    browser.evaluate(f"{panel}.querySelector('button[type=submit]').click()")
    assert browser.evaluate(f"{panel}.dataset.state") == "blocked"
    time.sleep(0.2)
    assert len(_requests_to(browser, mock_api)) == sent_before, "a flagged filter is never sent"

    # a valid filter: the mock's answer is rendered, status, headers and body
    _set(browser, f"{panel}.querySelector('.filter-input')", "status = down")
    assert browser.evaluate(f"{panel}.querySelector('.filter-check').textContent") == "valid filter"
    _set(browser, f"{panel}.querySelector('input[name=\"query:limit\"]')", "5")
    browser.evaluate(f"{panel}.querySelector('button[type=submit]').click()")
    assert _wait(browser, f"{panel}.dataset.state == 'answered'")
    assert browser.evaluate(f"{panel}.dataset.status") == "200"
    status = browser.evaluate(f"{panel}.querySelector('.tryit-status').textContent")
    assert status.startswith("200 OK  GET " + mock_api + "/experimental/devices?")
    headers = browser.evaluate(f"{panel}.querySelector('.tryit-headers').textContent")
    assert re.search(r"^x-total-count: \d+$", headers, re.M), headers
    body = json.loads(browser.evaluate(f"{panel}.querySelector('.tryit-body').textContent"))
    assert 0 < len(body) <= 5 and all(item["status"] == "down" for item in body)
    sent = _requests_to(browser, mock_api)[-1]
    assert "filter=status%20%3D%20down" in sent and "limit=5" in sent
    BUILD.mkdir(exist_ok=True)
    browser.evaluate(f"document.getElementById('{devices}').scrollIntoView()")
    browser.screenshot(BUILD / "docs-screenshot-tryit.png")
    assert Path(BUILD / "docs-screenshot-tryit.png").stat().st_size > 0
