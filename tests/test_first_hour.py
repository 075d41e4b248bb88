"""A new user's first hour (issue 23, points 1 to 11): each test does what that user did.

Every test runs the installed `apispec` command in a subprocess, in a fresh
directory, as a person types it, and checks what surprised them is gone. The
GitHub Action and the GitLab template (point 2) are run in
tests/test_github_action.py and tests/test_gitlab_template.py; the help of every
option (point 6) is walked in tests/test_cli_help.py.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import httpx
import pytest
import yaml

ROOT = Path(__file__).parent.parent
APISPEC = str(Path(sys.executable).parent / "apispec")  # the console script pip installed
BASE = 'BASE = "https://prtg.example.com:1616/api/v2"\n'
AUTH = 'AUTH = {"Authorization": "Bearer x"}\n'


def apispec(*args: str, cwd: Path, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "APISPEC_DEBUG")}
    return subprocess.run(
        [APISPEC, *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        env={**env, "NO_COLOR": "1"},
        input=stdin,
    )


def script(*calls: str) -> str:
    return "import requests\n" + BASE + AUTH + "".join(f"{c}\n" for c in calls)


# -- 1. the default fail level -------------------------------------------------------------


def test_1_a_deprecated_call_fails_ci_by_default_and_following_the_advice_passes(
    tmp_path: Path,
) -> None:
    (tmp_path / "old.py").write_text(script('requests.get(f"{BASE}/devices", headers=AUTH)'))
    deprecated = apispec("lint", "old.py", cwd=tmp_path)
    assert deprecated.returncode == 1, deprecated.stdout
    assert "API002 [warning] GET /devices is deprecated" in deprecated.stdout
    assert apispec("lint", "--fail-on", "error", "old.py", cwd=tmp_path).returncode == 0
    (tmp_path / "limits.py").write_text(
        script('requests.get(f"{BASE}/experimental/devices?limit=5000&take=3", headers=AUTH)')
    )
    assert apispec("lint", "limits.py", cwd=tmp_path).returncode == 1  # API008, API011
    (tmp_path / "new.py").write_text(
        script(
            'requests.get(f"{BASE}/experimental/devices", headers=AUTH)',  # the advice
            'requests.post(f"{BASE}/experimental/devices/{d}/move", headers=AUTH)',
        )
    )
    followed = apispec("lint", "new.py", cwd=tmp_path)
    assert followed.returncode == 0, followed.stdout  # experimental: info, passing
    assert "API003 [info] POST /experimental/devices/{id}/move" in followed.stdout
    helped = apispec("lint", "--help", cwd=tmp_path).stdout
    assert "(default: warning:" in " ".join(helped.split())


# -- 3. refs that exist, links a clone has ---------------------------------------------------

PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
CI_FILES = [ROOT / "action.yml", ROOT / "apispec.gitlab-ci.yml", ROOT / ".pre-commit-hooks.yaml"]


def _tags() -> set[str]:
    done = subprocess.run(
        ["git", "tag"], cwd=ROOT, capture_output=True, text=True, check=False, timeout=30
    )
    if done.returncode != 0:
        pytest.skip("not a git checkout: the tags cannot be listed")
    return set(done.stdout.split())


def test_3_every_pinned_ref_exists_and_every_link_is_in_a_clone() -> None:
    tags = _tags()
    for page in PAGES + CI_FILES:
        text = page.read_text(encoding="utf-8")
        named = re.findall(r"apispec(?:\.git)?@(v[\w.\-]+)", text)
        named += re.findall(r"^\s*rev:\s*['\"]?(v[\w.\-]+)", text, re.M)
        assert set(named) <= tags, f"{page.name} pins {sorted(set(named) - tags)}, not a tag"
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text):
            if re.match(r"[a-z]+:", target) or not re.search(r"[\w/]", target):
                continue  # a URL, or code such as `send[[]Object](...)`
            assert (page.parent / target).exists(), f"{page.name} links {target}"
            assert "build/" not in target, f"{page.name} links {target}, which CI builds"


# -- 4. one set of flags -------------------------------------------------------------------


def test_4_md_and_markdown_are_one_format_and_every_report_takes_o(tmp_path: Path) -> None:
    (tmp_path / "old.py").write_text(script('requests.get(f"{BASE}/devices", headers=AUTH)'))
    for name, command in (
        (["lint"], ["--fail-on", "never", "old.py"]),
        (["changelog"], ["24.3.100", "25.x.102"]),
        (["docs"], ["--release", "24.3.100", "-o", "-"]),
        (["registry", "diff"], [str(ROOT / "apispec" / "registry" / "data")]),
    ):
        md = apispec(*name, *command, "--format", "md", cwd=tmp_path)
        markdown = apispec(*name, *command, "--format", "markdown", cwd=tmp_path)
        assert md.returncode == markdown.returncode == 0, (name, md.stderr)
        assert md.stdout == markdown.stdout and md.stdout.lstrip().startswith(("#", "<!--"))
        helped = apispec(*name, "--help", cwd=tmp_path).stdout
        assert "markdown" in helped and not re.search(r"\bmd\b[,}]", helped), name
    for command in (
        ["lint", "--fail-on", "never", "old.py"],
        ["openapi", "--release", "24.3.100"],
        ["changelog", "24.3.100", "25.x.102"],
        ["mcp-tools", "--release", "24.3.100"],
        ["registry", "diff", str(ROOT / "apispec" / "registry" / "data")],
    ):
        printed = apispec(*command, cwd=tmp_path)
        dashed = apispec(*command, "-o", "-", cwd=tmp_path)
        written = apispec(*command, "-o", "report.out", cwd=tmp_path)
        assert printed.returncode == dashed.returncode == written.returncode == 0, command
        assert dashed.stdout == printed.stdout != ""
        assert (tmp_path / "report.out").read_text() == printed.stdout, command
        (tmp_path / "report.out").unlink()
    page = apispec("docs", "--release", "24.3.100", "-o", "-", cwd=tmp_path)
    assert page.stdout.count("# Monitoring API v2 reference, release 24.3.100") == 1
    assert not (tmp_path / "-").exists()


# -- 5. endpoints named as anywhere ---------------------------------------------------------


@pytest.mark.parametrize(
    "endpoint",
    [
        "GET /experimental/devices",
        "/api/v2/experimental/devices",
        "https://prtg.example.com:1616/api/v2/experimental/devices?limit=10",
        "experimental/devices/",
    ],
)
def test_5_filter_check_takes_the_endpoint_as_any_report_or_script_writes_it(
    tmp_path: Path, endpoint: str
) -> None:
    plain = apispec(
        "filter", "check", "--endpoint", "/experimental/devices", "primary = true", cwd=tmp_path
    )
    named = apispec("filter", "check", "--endpoint", endpoint, "primary = true", cwd=tmp_path)
    assert (named.returncode, named.stdout) == (plain.returncode, plain.stdout)
    assert "FLT006" in named.stdout  # `primary` applies to channels: the endpoint was read


def test_5_registry_show_takes_a_path_alone_or_a_url(tmp_path: Path) -> None:
    alone = apispec("registry", "show", "/devices", "--format", "json", cwd=tmp_path)
    assert alone.returncode == 0, alone.stderr
    assert [e["method"] for e in json.loads(alone.stdout)] == ["GET"]
    url = apispec("registry", "show", "https://h:1616/api/v2/devices/42", cwd=tmp_path)
    assert url.returncode == 0, url.stderr
    assert re.search(r"^path\s+/devices/\{id\}$", url.stdout, re.M)
    two = apispec("registry", "show", "get", "/api/v2/devices/{id}", cwd=tmp_path)
    assert two.stdout == url.stdout


# -- 6. help and version that say what the commands do --------------------------------------


def test_6_version_names_the_release_commands_use_and_fix_help_names_filters(
    tmp_path: Path,
) -> None:
    version = apispec("--version", cwd=tmp_path).stdout
    note = apispec("openapi", "-o", "x.json", cwd=tmp_path).stderr
    default = re.search(r"release (\S+) \(default", note)
    assert default, note
    assert f"default release {default[1]}" in version
    fix_help = " ".join(apispec("lint", "--help", cwd=tmp_path).stdout.split())
    assert re.search(r"--fix .*filter", fix_help)
    releases = " ".join(apispec("releases", "--help", cwd=tmp_path).stdout.split())
    assert "--format {table,json} table (default)" in releases  # help text, not a bare option
    package = json.loads((ROOT / "editors" / "vscode" / "package.json").read_text())
    setting = package["contributes"]["configuration"]["properties"]["apispec.target"]
    assert "newest concrete release" in setting["markdownDescription"]


# -- 7. a path that does not exist ----------------------------------------------------------


def test_7_a_missing_path_is_one_line_and_never_no_findings(tmp_path: Path) -> None:
    missing = apispec("lint", "nope/", cwd=tmp_path)
    assert missing.returncode == 2
    assert missing.stdout == ""
    assert missing.stderr.count("\n") == 1 and "nope" in missing.stderr
    assert "no such file or directory" in missing.stderr
    (tmp_path / "ok.py").write_text("x = 1\n")
    partly = apispec("lint", "ok.py", "nope.py", cwd=tmp_path)
    assert partly.returncode == 2
    assert "No findings." not in partly.stdout
    assert "1 named path was not checked" in partly.stdout


# -- 8. one method for a call ---------------------------------------------------------------


def test_8_show_calls_gives_the_method_the_findings_give(tmp_path: Path) -> None:
    (tmp_path / "sync.ps1").write_text(
        '$base = "https://prtg.example.com:1616/api/v2"\n'
        '$h = @{ Authorization = "Bearer $key" }\n'
        'Invoke-RestMethod -Uri "$base/devices" -Headers $h\n'
    )
    (tmp_path / "runbook.md").write_text(
        "# Runbook\n\n```sh\n"
        'curl -H "Authorization: Bearer $T" https://prtg.example.com:1616/api/v2/devices\n'
        "```\n"
    )
    calls = json.loads(
        apispec("lint", "--show-calls", "--format", "json", ".", cwd=tmp_path).stdout
    )
    report = json.loads(apispec("lint", "--format", "json", ".", cwd=tmp_path).stdout)
    found = {f["path"]: f["endpoint"]["method"] for f in report["findings"] if f["endpoint"]}
    assert found == {"runbook.md": "GET", "sync.ps1": "GET"}
    assert {c["path"]: c["method"] for c in calls["calls"]} == found
    text = apispec("lint", "--show-calls", ".", cwd=tmp_path).stdout
    assert ": - " not in text and text.count(": GET /devices -> /devices (deprecated)") == 2


# -- 9. messages that agree with themselves -------------------------------------------------


def test_9_upgrade_and_diff_name_the_releases_they_mean(tmp_path: Path) -> None:
    (tmp_path / "up.py").write_text(
        script('requests.post(f"{BASE}/experimental/groups/{g}/move", headers=AUTH)')
    )
    upgrade = apispec(
        "lint", "--upgrade-from", "24.3.100", "--format", "concise", "up.py", cwd=tmp_path
    )
    assert "becomes available in 25.x.110, on the way to 25.x.122" in upgrade.stdout
    assert "becomes available in 25.x.122" not in upgrade.stdout
    for release in ("24.3.100", "25.x.122"):
        apispec("openapi", "--release", release, "-o", f"{release}.yaml", cwd=tmp_path)
    diff = apispec("registry", "diff", "24.3.100.yaml", "25.x.122.yaml", cwd=tmp_path)
    head = diff.stdout.splitlines()[:2]
    assert head == [
        "--- 24.3.100.yaml (OpenAPI 24.3.100)",
        "+++ 25.x.122.yaml (OpenAPI 25.x.122)",
    ], diff.stdout[:300]


# -- 10. fixes where the answer is known ----------------------------------------------------


def test_10_fixes_for_sort_limit_and_bearer_and_contains_on_a_name_is_unsafe(
    tmp_path: Path,
) -> None:
    client = tmp_path / "client.py"
    client.write_text(
        "import requests\n"
        + BASE
        + 'requests.get(f"{BASE}/experimental/devices", headers={"Authorization": "abc123"},\n'
        + '             params={"sort": "name", "limit": 5000})\n'
        + 'requests.get(f"{BASE}/experimental/groups", headers={"Authorization": "Bearer x"},\n'
        + '             params={"filter": \'name contains "Berlin"\'})\n'
    )
    apispec("lint", "--fix", "client.py", cwd=tmp_path)
    safe = client.read_text()
    assert '"Authorization": "Bearer abc123"' in safe  # safe: literal text after it
    assert '"sort": "name"' in safe and '"limit": 5000' in safe  # unsafe ones wait
    assert 'name contains "Berlin"' in safe  # and so does this one now
    shown = apispec("lint", "--format", "concise", "client.py", cwd=tmp_path).stdout
    assert "(it matches the whole text, not a part of it)" in shown
    apispec("lint", "--fix", "--unsafe-fixes", "client.py", cwd=tmp_path)
    fixed = client.read_text()
    assert '"sort_by": "name"' in fixed and '"limit": 3000' in fixed
    assert 'name = \\"Berlin\\"' in fixed or 'name = "Berlin"' in fixed
    filtered = apispec("filter", "fix", 'name contains "Berlin"', cwd=tmp_path)
    assert filtered.stdout == 'name contains "Berlin"\n'


# -- 11. one list of type values ------------------------------------------------------------


def test_11_the_checker_the_fix_and_the_mock_agree_on_type_values(tmp_path: Path) -> None:
    assert apispec("filter", "check", "type = device", cwd=tmp_path).stdout.startswith(
        "1 filter checked: 1 valid, 0 invalid (0 errors, 0 warnings)"
    )
    (tmp_path / "inventory.py").write_text(
        script(
            'requests.get(f"{BASE}/experimental/objects", headers=AUTH, params={"filter": \'type = "device"\'})'
        )
    )
    apispec("lint", "--fix", "inventory.py", cwd=tmp_path)
    assert "'type = device'" in (tmp_path / "inventory.py").read_text()
    again = apispec("lint", "--format", "json", "inventory.py", cwd=tmp_path)
    assert [f["code"] for f in json.loads(again.stdout)["findings"]] == ["API003"]
    values = {
        line.split("\t")[0]
        for line in apispec("filter", "complete", "type = ", cwd=tmp_path).stdout.splitlines()
    }
    served = _mock_types(tmp_path)
    assert served and served <= values, (served, values)


def _mock_types(tmp_path: Path) -> set[str]:
    """The `type` of every object the mock serves, read over HTTP with a login."""
    process = subprocess.Popen(
        [APISPEC, "mock", "--port", "0", "--objects", "40"],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        url = re.search(r"at (http://127\.0\.0\.1:\d+/api/v2)", process.stdout.readline())
        assert url
        login = {"username": "prtgadmin", "password": "prtgadmin"}
        token = httpx.post(f"{url[1]}/session", json=login, timeout=10).json()["token"]
        answer = httpx.get(
            f"{url[1]}/experimental/objects",
            params={"limit": 3000},
            headers={"Authorization": f"Bearer {token}"},
            timeout=10,
        )
        assert answer.status_code == 200, answer.text
        return {o["type"] for o in answer.json()}
    finally:
        process.kill()
        process.communicate(timeout=15)


def test_11_registry_check_refuses_a_tree_kind_the_type_property_does_not_know(
    registry_copy: Path, tmp_path: Path
) -> None:
    filters = registry_copy / "filters.yaml"
    data = yaml.safe_load(filters.read_text())
    prop = next(p for p in data["properties"] if p["name"] == "type")
    prop["assumed"]["values"].remove("device")
    filters.write_text(yaml.safe_dump(data, sort_keys=False))
    checked = apispec("registry", "check", "--registry", str(registry_copy), cwd=tmp_path)
    assert checked.returncode == 1
    assert "does not know the object kinds device of the tree the mock serves" in checked.stdout
    shutil.rmtree(registry_copy)
