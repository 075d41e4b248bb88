"""Fixtures shared by every test module: the registry and an in-process CLI runner."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from apispec.cli import main
from apispec.registry.files import default_directory
from apispec.registry.load import load_registry
from apispec.registry.model import Registry

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture(autouse=True, scope="session")
def _own_lint_cache(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Lint results are cached in the session's own directory, never the user's (inherited by
    the apispec processes tests start); tests of the cache itself name their directories."""
    import os

    os.environ["APISPEC_CACHE_DIR"] = str(tmp_path_factory.mktemp("lint-cache"))


@pytest.fixture(scope="session")
def registry() -> Registry:
    return load_registry()


@pytest.fixture
def registry_copy(tmp_path: Path) -> Path:
    """A writable copy of the bundled registry directory, for tests that break it."""
    target = tmp_path / "registry"
    shutil.copytree(default_directory(), target)
    return target


@dataclass
class CliResult:
    code: int
    out: str
    err: str


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str]) -> Callable[..., CliResult]:
    """Run `apispec ARGS...` in this process and capture its exit code and output."""

    def run(*args: str) -> CliResult:
        capsys.readouterr()
        try:
            code = main(list(args))
        except SystemExit as exc:  # argparse's own exits (--help, --version, usage)
            code = int(exc.code or 0)
        captured = capsys.readouterr()
        return CliResult(code, captured.out, captured.err)

    return run
