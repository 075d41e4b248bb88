"""The code samples of every operation are proven: linted by apispec, run against the mock.

The samples come from the OpenAPI document (`x-codeSamples`), so the docs,
Redoc or Scalar readers and these tests see the same text. The lint test
checks every sample of a release with `apispec lint` (a real process) and
proves the linter saw each call by linting a copy with the path broken. The
live test runs the curl samples with the real curl binary and executes the
Python samples against a running mock on a loopback port.
"""

from __future__ import annotations

import contextlib
import dataclasses
import io
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from apispec.generate.openapi import build_document
from apispec.generate.openapi.samples import (
    SAMPLE_BASE_URL,
    TOKEN_VARIABLE,
    SampleRequest,
    curl,
    env_name,
    python,
    sample_request,
)
from apispec.generate.release_status import Badge, badge_in
from apispec.mock import MockConfig
from apispec.mock.server import RunningMock, start_in_thread
from apispec.registry.model import Endpoint, Registry

SUFFIX = {"Shell": ".sh", "Python": ".py", "PowerShell": ".ps1"}
# The notice each lifecycle state earns from the linter: nothing else may be found.
NOTICE = {Badge.STABLE: set(), Badge.EXPERIMENTAL: {"API003"}, Badge.DEPRECATED: {"API002"}}
LINT = (
    sys.executable,
    "-m",
    "apispec",
    "lint",
    "--format",
    "json",
    "--fail-on",
    "never",
    "-j",
    "1",
)
CREDENTIALS = {"username": "prtgadmin", "password": "prtgadmin"}  # the mock's administrator


def _operations(registry: Registry, release: str) -> Iterator[tuple[Endpoint, dict[str, Any]]]:
    doc = build_document(registry, release)
    for endpoint in registry.endpoints_in(registry.release(release)):
        yield endpoint, doc["paths"][endpoint.path][endpoint.method.lower()]


def _lint(directory: Path, release: str) -> dict[str, set[str]]:
    result = subprocess.run(
        [*LINT, "--target", release, str(directory)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    found: dict[str, set[str]] = {}
    for finding in json.loads(result.stdout)["findings"]:
        found.setdefault(Path(finding["path"]).name, set()).add(finding["code"])
    return found


@pytest.mark.parametrize("which", ["first", "newest"])
def test_every_sample_lints_clean_but_for_its_maturity_notice(
    registry: Registry, tmp_path: Path, which: str
) -> None:
    release = getattr(registry, f"{which}_release")
    clean, broken = tmp_path / "clean", tmp_path / "broken"
    clean.mkdir()
    broken.mkdir()
    expected: dict[str, set[str]] = {}
    # API003 does not report an experimental successor (API002's advice names it)
    successors = {s.key for s in map(registry.successor_of, registry.endpoints) if s}
    for endpoint, operation in _operations(registry, release.text):
        badge = badge_in(registry, endpoint, release)
        assert badge is not None
        samples = operation["x-codeSamples"]
        assert [s["lang"] for s in samples] == ["Shell", "Python", "PowerShell"]
        for sample in samples:
            name = f"{endpoint.operation_id}{SUFFIX[sample['lang']]}"
            (clean / name).write_text(sample["source"] + "\n", encoding="utf-8")
            expected[name] = set() if endpoint.key in successors else NOTICE[badge]
            # the same sample with the path's first segment misspelt: the linter must see it
            first = "/" + endpoint.path.strip("/").split("/")[0]
            mangled = sample["source"].replace(first + "/", first + "x/", 1)
            if mangled == sample["source"]:
                mangled = sample["source"].replace(first, first + "x", 1)
            (broken / name).write_text(mangled + "\n", encoding="utf-8")
    found = _lint(clean, release.text)
    wrong = {n: found.get(n, set()) for n, want in expected.items() if found.get(n, set()) != want}
    assert not wrong, f"samples with findings beyond their maturity notice: {wrong}"
    seen = _lint(broken, release.text)
    unseen = {n for n in expected if "API004" not in seen.get(n, set())}
    assert not unseen, f"the linter does not see the call in: {sorted(unseen)}"


# -- run against the mock -----------------------------------------------------------


@pytest.fixture(scope="module")
def mock() -> Iterator[RunningMock]:
    running = start_in_thread(MockConfig(objects=300, seed=3, wait_for=0.2))
    yield running
    running.stop()


@pytest.fixture(scope="module")
def token(mock: RunningMock) -> str:
    answer = httpx.post(f"{mock.api}/session", json=CREDENTIALS, timeout=10)
    return answer.json()["token"]


def _live_values(mock: RunningMock, token: str, endpoint: Endpoint, example: SampleRequest) -> dict:
    """Path values of objects the running mock has, found through its own list endpoints.

    Where no list names such an object (a time-series `type`), the sample's
    own example value stays; the answer must then still be documented.
    """
    values = dict(example.path_values)
    segments = endpoint.path.removeprefix("/experimental").strip("/").split("/")
    headers = {"Authorization": f"Bearer {token}"}
    for name in endpoint.path_params:
        at = segments.index("{" + name + "}")
        collection = "sensors" if segments[0] == "timeseries" else "/".join(segments[:at])
        if name not in ("id",) or not collection:
            continue
        for prefix in ("/experimental", ""):
            answer = httpx.get(
                f"{mock.api}{prefix}/{collection}", params={"limit": 1}, headers=headers
            )
            if answer.status_code == 200 and answer.json():
                values[name] = str(answer.json()[0]["id"])
                break
    return values


def _documented(operation: dict[str, Any], status: int) -> bool:
    codes = set(operation["responses"])
    return str(status) in codes or f"{str(status)[0]}XX" in codes


def _run_curl(text: str, environment: dict[str, str]) -> int:
    result = subprocess.run(
        ["bash", "-c", text + " -o /dev/null -w '%{http_code}'"],
        capture_output=True,
        text=True,
        timeout=30,
        env={**os.environ, **environment},
    )
    return int(result.stdout.strip() or 0)


def _run_python(text: str, environment: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> int:
    import requests

    for key, value in environment.items():
        monkeypatch.setenv(key, value)
    statuses: list[int] = []
    original = requests.Session.send

    def send(self, request, **kwargs):  # type: ignore[no-untyped-def]
        response = original(self, request, **kwargs)
        statuses.append(response.status_code)
        return response

    monkeypatch.setattr(requests.Session, "send", send)
    with contextlib.suppress(requests.HTTPError), contextlib.redirect_stdout(io.StringIO()):
        exec(compile(text, "<sample>", "exec"), {"__name__": "sample"})
    return statuses[-1]


def test_every_get_and_post_sample_answers_its_documented_status(
    registry: Registry, mock: RunningMock, token: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    if shutil.which("curl") is None:
        pytest.skip("curl is not installed")
    environment = {TOKEN_VARIABLE: token} | {env_name(k): v for k, v in CREDENTIALS.items()}
    release = mock.state.release.text
    ran = succeeded = 0
    for endpoint, operation in _operations(registry, release):
        if endpoint.method not in ("GET", "POST"):
            continue
        example = sample_request(endpoint, operation)
        live = dataclasses.replace(
            example, path_values=_live_values(mock, token, endpoint, example)
        )
        # every value known: a live id, or an example the registry gives (root id, a kind)
        complete = live.body_shown and all(
            n in ("parent", "kind") or (n == "id" and live.path_values[n] != example.path_values[n])
            for n in endpoint.path_params
        )
        for run in ("curl", "python"):
            if run == "curl":
                status = _run_curl(curl(live, mock.api), environment)
            else:
                status = _run_python(python(live, mock.api), environment, monkeypatch)
            ran += 1
            assert _documented(operation, status), f"{run} {endpoint}: {status} is not documented"
            if complete:
                assert str(status).startswith("2"), (
                    f"{run} {endpoint}: {status}, documented success {live.success}"
                )
                succeeded += 1
    assert ran > 100 and succeeded > ran // 2, (ran, succeeded)
    assert SAMPLE_BASE_URL not in mock.api
