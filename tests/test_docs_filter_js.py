"""The browser's filter checker says what `apispec filter check` says, filter for filter.

The reference docs check the try-it panel's filter in the page with
`templates/docs/html/filter.js`, driving the LALR tables the Python checker
caches. Node runs that file on the same filters as `apispec.filters.check`,
and every diagnostic (code, severity, message, hint, range) must be equal.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from importlib.resources import files
from pathlib import Path

import pytest

from apispec.filters import check
from apispec.filters.export import browser_data
from apispec.registry.model import Registry

FILTERS = [
    # valid, and the spec's examples
    "status = up",
    "type = sensor and status = down or favorite = true",
    'basic.tags contains "ping"',
    'parentid = "2048"',
    "not(status = up)",
    'children id = "2048"',
    'name in ["a", "b"]',
    "(status = up or status = down) and primary = true",
    "status=up",
    # FLT002-FLT006 from the catalog
    'tags contains "linux"',
    "parentId = 2048",
    'parent.id = "1"',
    "type_raw = sensor",
    'ancestors.id = "5"',
    'status = "up"',
    "status = Down",
    "status = warningx",
    "favorite = 1",
    'favorite = "true"',
    "name = HQ",
    'basic.tags = "linux"',
    'id contains "1"',
    'id in ["1", "2"]',
    'id in ["1"]',
    "status in [up]",
    'name in "a"',
    'name = ["a"]',
    "primary = true",
    "status < up",
    'name matches "x"',
    "parentid in [2490]",
    # FLT001 and its hints
    "status eq down",
    "parentId eq 2048",
    "type=sensor;status=down",
    "status = up AND type = sensor",
    "status = up OR type = sensor",
    "NOT(status = up)",
    "not status = up",
    'not name in ["a", "b"]',
    "status == up",
    "status <> up",
    "name = 'HQ'",
    "name = 'HQ",
    "status = up && type = sensor",
    "status = up || type = sensor",
    'name in ["a", "b",]',
    "name in []",
    "(status = up or status = down",
    "((status = up)",
    "status = up)",
    'name = "HQ',
    'name = "a\\b"',
    "status = and",
    "status",
    "",
    "   ",
    "status =",
    "= up",
    "status up",
    "name = HQ office building and status = up",
    '"status" = up',
    "status = up and children type = sensor",
    "status: up",
    "name = @sub(x)",
    "!(status = up)",
    "status = up, type = sensor",
    "status = up\u00a0and type = sensor",
    "status = \u201cup\u201d",
    "name = \u2018x\u2019",
    "status = up #",
    "status = up and",
    "status = up or (",
    "[status = up]",
    "status = up and not",
    "status in [up, down",
    "status = up AND type = sensor OR favorite = TRUE",
    "Status = up",
    "name = \u00e9",
    "status = up\n and type = sensor\n and foo = 1",
]
ENDPOINTS = [None, "/experimental/channels", "/experimental/devices"]


def _node() -> str:
    found = shutil.which("node") or shutil.which("nodejs")
    if found:
        return found
    if os.environ.get("CI"):
        pytest.fail("node is not installed; CI must install Debian's nodejs package")
    pytest.skip("node is not installed (apt-get install nodejs); required when CI is set")


DRIVER = """
const api = require(process.argv[2]);
const input = JSON.parse(require("fs").readFileSync(0, "utf8"));
api.init(input.data);
const out = input.cases.map(([text, endpoint]) => api.check(text, endpoint));
process.stdout.write(JSON.stringify(out));
"""


def test_javascript_checker_agrees_with_python(registry: Registry, tmp_path: Path) -> None:
    node = _node()
    script = files("apispec.generate") / "templates" / "docs" / "html" / "filter.js"
    driver = tmp_path / "driver.js"
    driver.write_text(DRIVER, encoding="utf-8")
    cases = [(text, endpoint) for text in FILTERS for endpoint in ENDPOINTS]
    payload = json.dumps({"data": browser_data(registry), "cases": cases})
    result = subprocess.run(
        [node, str(driver), str(script)],
        input=payload,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    got = json.loads(result.stdout)
    fields = ("code", "severity", "message", "hint", "start", "end")
    differ = []
    for (text, endpoint), js in zip(cases, got, strict=True):
        want = [{k: d.as_dict(text)[k] for k in fields} for d in check(text, endpoint, registry)]
        have = [{k: d[k] for k in fields} for d in js]
        if want != have:
            differ.append((text, endpoint, want, have))
    assert not differ, "\n".join(f"{t!r} on {e}:\n  py {w}\n  js {h}" for t, e, w, h in differ[:5])
    flagged = sum(bool(d) for d in got)
    assert flagged > len(cases) // 2, "the list must exercise the diagnostics"
