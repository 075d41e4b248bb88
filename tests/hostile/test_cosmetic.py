"""Point 18 of issue 11: small wrong answers on odd but legal input."""

from __future__ import annotations

from pathlib import Path

from apispec.registry.files import default_directory
from tests.hostile.helpers import apispec_run, clean


def test_dev_null_is_not_a_broken_symlink(tmp_path: Path) -> None:
    result = clean(apispec_run("lint", "/dev/null", cwd=tmp_path), 2)  # named, not linted
    assert result.out == ""  # nothing was checked: the error line is the whole answer
    assert (
        result.err
        == "apispec: error: /dev/null: skipped: not a regular file (a character device)\n"
    )
    assert "broken symlink" not in result.out + result.err


def test_releases_takes_a_registry_directory(registry_copy: Path) -> None:
    bundled = clean(apispec_run("releases", "--format", "json"), 0)
    copied = clean(apispec_run("releases", "--format", "json", "--registry", str(registry_copy)), 0)
    assert copied.out == bundled.out
    assert default_directory() != registry_copy


def test_registry_check_of_a_missing_directory_is_a_usage_error(tmp_path: Path) -> None:
    result = clean(apispec_run("registry", "check", "--registry", str(tmp_path / "missing")), 2)
    assert (
        result.err == f"apispec: error: {tmp_path / 'missing'}: registry directory does not exist\n"
    )
