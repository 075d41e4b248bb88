"""Own API helpers: learnt per file and per repository, or named in the configuration (issue 12 point 1).

A script's helper prepends the API's base, so a relative path handed to it is a
call whatever its first segment (`/health`, `/version`); the helper's other
parameters say the method and the query.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from apispec.lint.config import ConfigError, load_config
from apispec.lint.extract import extract, extract_references
from apispec.lint.helpers import HelperTable
from apispec.lint.run import LintRequest, execute

PY_HELPER = """\
import requests
BASE = "https://prtg.corp.example:1616/api/v2"
S = requests.Session()

def _request(method, path, **kwargs):
    return S.request(method, f"{BASE}{path}", **kwargs)

def _get(path, **params):
    return _request("GET", path, params=params)

def paged(path, size=500, **params):
    return _get(path, limit=size, **params)
"""


def _calls(text: str, name: str, helpers: HelperTable | None = None) -> list[tuple]:
    return [
        (r.line, r.method, r.path, sorted((q.name, q.value) for q in r.query))
        for r in extract_references(text, name, None, helpers)
    ]


def test_a_python_helper_and_the_helpers_that_pass_its_path_on() -> None:
    uses = '_get("/version")\npaged("/experimental/groups", include="inheritance", take=5)\n'
    assert _calls(PY_HELPER + uses, "api.py") == [
        (13, "GET", "/version", []),
        # paged sends limit=size too: size's default, as the call leaves it out
        (
            14,
            "GET",
            "/experimental/groups",
            [("include", "inheritance"), ("limit", "500"), ("take", "5")],
        ),
    ]
    helpers = {h.name: h for h in extract(PY_HELPER, "api.py").helpers}
    assert set(helpers) == {"_request", "_get", "paged"}
    assert helpers["_request"].method == 0 and helpers["_request"].path == 1
    assert helpers["_get"].implied == "GET" and helpers["_get"].query_kwargs


@pytest.mark.parametrize(
    ("name", "text", "expected"),
    [
        (
            "Prtg.psm1",
            "$script:PrtgBase = 'https://prtg:1616/api/v2'\n"
            "function Invoke-PrtgApi {\n"
            "    param([Parameter(Position = 0)][string]$Path, [string]$Method = 'Get', [hashtable]$Query)\n"
            "    Invoke-RestMethod -Uri ($script:PrtgBase + $Path) -Method $Method -Body $Query\n"
            "}\n"
            "Invoke-PrtgApi -Path '/health'\n"
            "Invoke-PrtgApi '/objects/count' -Method Post -Query @{ sort = 'name' }\n",
            [(6, "GET", "/health", []), (7, "POST", "/objects/count", [("sort", "name")])],
        ),
        (
            "client.go",
            "package prtg\n"
            'const base = "https://prtg:1616/api/v2"\n'
            "func (c *Client) Do(ctx context.Context, method, path string) error {\n"
            "\treq, _ := http.NewRequestWithContext(ctx, method, base+path, nil)\n"
            "\treturn send(req)\n"
            "}\n"
            'func (c *Client) Ping(ctx context.Context) error { return c.Do(ctx, http.MethodGet, "/health") }\n',
            [(7, "GET", "/health", [])],
        ),
        (
            "api.ts",
            'const http = axios.create({ baseURL: "https://prtg:1616/api/v2" });\n'
            "export async function apiGet<T>(path: string, params?: Query): Promise<T> {\n"
            "  return (await http.get<T>(path, { params })).data;\n"
            "}\n"
            'export const summary = () => apiGet<Summary>("sensor-status-summary", { take: 5 });\n',
            [(5, "GET", "/sensor-status-summary", [("take", "5")])],
        ),
        (
            "lib.sh",
            'PRTG_API="https://${PRTG_HOST}:1616/api/v2"\n'
            "prtg_send() {\n"
            "  local method=$1 path=$2\n"
            '  curl -fsS -X "$method" "${PRTG_API}${path}"\n'
            "}\n"
            "prtg_send POST /devices/42/pause\n",
            [(6, "POST", "/devices/{}/pause", [])],
        ),
    ],
)
def test_helpers_in_each_language(name: str, text: str, expected: list[tuple]) -> None:
    assert _calls(text, name) == expected


def test_a_helper_of_another_product_is_no_helper_for_unknown_paths() -> None:
    """Its base does not name this API and the file has no evidence: `/pages` is not ours."""
    text = (
        'const apiBase = "https://status.example.com/api/v2";\n'
        "function send(method, path) { return fetch(apiBase + path, { method }); }\n"
        'send("PATCH", "/pages/1/components/2");\n'
    )
    assert extract_references(text, "status.js") == []


def test_the_repository_pass_uses_a_helper_another_file_defines(tmp_path: Path) -> None:
    (tmp_path / "prtg_api.py").write_text(PY_HELPER)
    (tmp_path / "report.py").write_text(  # no evidence of this API at all, but its helper
        "from prtg_api import _get\n\ndef status():\n    return _get('/sensor-status-summary')\n"
    )
    (tmp_path / "other.sh").write_text("_get /version\n")  # another language: not that helper
    outcome = execute(
        LintRequest(paths=[tmp_path], targets=["25.x.122"], fail_on="never", show_calls=True)
    )
    calls = [(Path(c.path).name, c.line, c.method, c.call) for c in outcome.result.calls]
    assert calls == [("report.py", 4, "GET", "/sensor-status-summary")]
    (finding,) = outcome.result.findings
    assert finding.code == "API004" and Path(finding.path).name == "report.py"


def test_the_helpers_setting_names_a_helper_no_rule_can_infer(tmp_path: Path) -> None:
    config = tmp_path / ".apispec.toml"
    config.write_text('helpers = ["Invoke-Monitor", "client.fetch_json"]\n')
    (tmp_path / "use.ps1").write_text("Invoke-Monitor -Path '/version'\n")
    (tmp_path / "use.py").write_text('client.fetch_json("/health")\nother.fetch_json("/nope")\n')
    outcome = execute(
        LintRequest(paths=[tmp_path], targets=["25.x.122"], config=config, show_calls=True)
    )
    assert [(Path(c.path).name, c.call) for c in outcome.result.calls] == [
        ("use.ps1", "/version"),
        ("use.py", "/health"),
    ]
    named = [(h.receiver, h.name, h.path) for h in load_config(config).helpers]
    assert named == [(None, "Invoke-Monitor", 0), ("client", "fetch_json", 0)]


@pytest.mark.parametrize("value", ['"Invoke-Monitor"', '["not a name"]', "[1]"])
def test_a_bad_helpers_setting_is_a_one_line_error(tmp_path: Path, value: str) -> None:
    config = tmp_path / ".apispec.toml"
    config.write_text(f"helpers = {value}\n")
    with pytest.raises(ConfigError, match=r"\.apispec\.toml: helpers(\[0\])?: "):
        load_config(config)


def test_show_calls_lists_what_the_linter_saw(tmp_path: Path) -> None:
    (tmp_path / "prtg_api.py").write_text(PY_HELPER + '_get("/experimental/devices")\n')
    run = [sys.executable, "-m", "apispec", "lint", "--show-calls", "--target", "25.x.122"]
    text = subprocess.run([*run, str(tmp_path)], capture_output=True, text=True, check=False)
    assert text.returncode == 0, text.stderr  # an inventory, not a verdict
    first, summary = text.stdout.splitlines()
    # why: the URL the helper builds (its base is read), not the relative path written
    assert first.endswith(
        "prtg_api.py:13:7: GET /experimental/devices -> /experimental/devices (experimental)"
        "  [/api/v2/experimental in URL]"
    )
    assert summary.startswith("1 call in 1 file")
    as_json = subprocess.run(
        [*run, "--format", "json", str(tmp_path)], capture_output=True, text=True, check=False
    )
    (call,) = json.loads(as_json.stdout)["calls"]
    assert call["endpoint"] == "/experimental/devices" and call["maturity"] == "experimental"
    sarif = subprocess.run(
        [*run, "--format", "sarif", str(tmp_path)], capture_output=True, text=True
    )
    assert sarif.returncode == 2 and sarif.stderr.count("\n") == 1


def test_show_calls_lists_the_calls_of_standard_input() -> None:
    source = 'r = requests.get("https://monitor.example.com:1616/api/v2/devices")\n'
    run = [sys.executable, "-m", "apispec", "lint", "--show-calls", "--target", "25.x.122"]
    text = subprocess.run(
        [*run, "--stdin-filename", "client.py", "-"],
        input=source,
        capture_output=True,
        text=True,
        check=False,
    )
    assert text.returncode == 0, text.stderr
    first, summary = text.stdout.splitlines()
    assert first.startswith("client.py:1:58: GET /devices -> /devices (deprecated)")
    assert summary.startswith("1 call in 1 file")
