"""What `apispec lint` reads, and what it says when it cannot (issue 13 points 2, 3, 10).

Standard input as `-`; a file named on the command line that is skipped is an
error (exit 2); a run with nothing to lint says so; binary files and ignored
paths are counted, and listed with --show-skipped. Each through a real process.
"""

from __future__ import annotations

import json
from pathlib import Path

from tests.hostile.helpers import apispec_run, clean

CALL = 'requests.get("https://m:1616/api/v2/sensors/1/overview")\n'
ONE_FINDING = (
    "{name}:1:36: API002 [warning] [*] GET /sensors/{{id}}/overview is deprecated since "
    "24.3.100 (no removal release named); use GET /sensors/{{id}}"
)


def lint_stdin(tmp_path: Path, *args: str) -> tuple[int, str, str]:
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-m", "apispec", "lint", "--format", "concise", "--quiet", *args],
        cwd=tmp_path,
        input=CALL,
        capture_output=True,
        text=True,
        timeout=60,
    )
    return done.returncode, done.stdout, done.stderr


def test_a_dash_lints_standard_input(tmp_path: Path) -> None:
    code, out, err = lint_stdin(tmp_path, "--fail-on", "warning", "-")
    assert (code, out, err) == (1, ONE_FINDING.format(name="-") + "\n", "")


def test_stdin_filename_names_the_file_and_its_language(tmp_path: Path) -> None:
    code, out, _ = lint_stdin(tmp_path, "--stdin-filename", "pkg/client.py", "-")
    assert out == ONE_FINDING.format(name="pkg/client.py") + "\n" and code == 1
    alone = lint_stdin(tmp_path, "--stdin-filename", "pkg/client.py")  # `-` may be left out
    assert alone[1] == out


def test_a_dash_with_other_paths_is_a_usage_error(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text(CALL)
    code, out, err = lint_stdin(tmp_path, "-", "a.py")
    assert (code, out) == (2, "")
    assert err == "apispec: error: `-` reads standard input: give no other PATH with it\n"


def test_a_named_file_that_is_skipped_is_exit_2(tmp_path: Path) -> None:
    (tmp_path / "ok.py").write_text(CALL)
    (tmp_path / "logo.png").write_bytes(b"\x89PNG\0\0")
    (tmp_path / "big.py").write_text("# prtg\n" + "x" * 4096 + "\n")
    result = clean(
        apispec_run(
            "lint",
            "--format",
            "concise",
            "--max-file-size",
            "2KB",
            "ok.py",
            "logo.png",
            "big.py",
            "missing.py",
            cwd=tmp_path,
        ),
        2,
    )
    assert result.err.splitlines() == [
        "apispec: error: big.py: skipped: larger than 2 KB (4 KB)",
        "apispec: error: logo.png: skipped: binary",
        "apispec: error: missing.py: skipped: no such file or directory",
    ]
    assert result.out.startswith(ONE_FINDING.format(name="ok.py") + "\n")  # the rest is linted
    assert result.out.endswith(
        "Checked 1 file against 25.x.122 (default: the newest concrete release).\n"
        "Skipped 3 files:\n"
        "  big.py: larger than 2 KB (4 KB)\n"
        "  logo.png: binary\n"
        "  missing.py: no such file or directory\n"
    )


def test_a_skipped_file_found_in_a_walk_does_not_change_the_exit_code(tmp_path: Path) -> None:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "ok.py").write_text("x = 1\n")
    (tmp_path / "src" / "logo.png").write_bytes(b"\x89PNG\0\0")
    result = clean(apispec_run("lint", "src", cwd=tmp_path), 0)
    assert result.err == ""
    assert result.out == (
        "No findings.\n"
        "Checked 1 file against 25.x.122 (default: the newest concrete release).\n"
        "Not listed: 1 binary file skipped (--show-skipped lists them).\n"
    )


def test_nothing_to_lint_in_named_paths_is_exit_2(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    result = clean(apispec_run("lint", "empty", cwd=tmp_path), 2)
    assert result.err == "apispec: error: no file to lint in empty\n"
    (tmp_path / "gen").mkdir()
    (tmp_path / "gen" / "a.py").write_text(CALL)
    ignored = clean(apispec_run("lint", "--exclude", "*.py", "gen", cwd=tmp_path), 2)
    assert ignored.err == (
        "apispec: error: no file to lint in gen (1 path ignored by .gitignore or --exclude)\n"
    )


def test_nothing_to_lint_in_the_default_directory_is_a_warning(tmp_path: Path) -> None:
    result = clean(apispec_run("lint", cwd=tmp_path), 0)
    assert result.err == "apispec: warning: no file to lint in .\n"
    assert result.out == (
        "No findings.\nChecked 0 files against 25.x.122 (default: the newest concrete release).\n"
    )


def test_binary_and_ignored_paths_are_counted_and_listed_on_request(tmp_path: Path) -> None:
    (tmp_path / ".gitignore").write_text("build/\n*.log\n")
    (tmp_path / "build").mkdir()
    (tmp_path / "build" / "gen.py").write_text(CALL)
    (tmp_path / "run.log").write_text(CALL)
    for i in range(3):
        (tmp_path / f"img{i}.png").write_bytes(b"\x89PNG\0\0")
    (tmp_path / "a.py").write_text("x = 1\n")
    counted = clean(apispec_run("lint", cwd=tmp_path), 0)
    assert counted.out.splitlines()[-1] == (
        "Not listed: 3 binary files skipped, 2 paths ignored by .gitignore or --exclude "
        "(--show-skipped lists them)."
    )
    listed = clean(apispec_run("lint", "--show-skipped", cwd=tmp_path), 0)
    assert listed.out.splitlines()[-7:] == [
        "Skipped 3 files:",
        "  img0.png: binary",
        "  img1.png: binary",
        "  img2.png: binary",
        "Ignored 2 paths (.gitignore, --exclude):",
        "  build/",
        "  run.log",
    ]
    report = json.loads(clean(apispec_run("lint", "--format", "json", cwd=tmp_path), 0).out)
    assert report["summary"]["skipped"] == 3 and report["summary"]["ignored"] == 2


def test_a_named_directory_is_linted_even_when_the_configuration_excludes_it(
    tmp_path: Path,
) -> None:
    """The repository's own configuration excludes examples/, yet the README's Quickstart
    lints `examples/` by name: the patterns that exclude a named directory do not apply
    below it; the others still do."""
    (tmp_path / "pyproject.toml").write_text(
        '[tool.apispec]\nexclude = ["examples/", "*.min.py"]\n'
    )
    (tmp_path / "examples").mkdir()
    (tmp_path / "examples" / "a.py").write_text(CALL)
    (tmp_path / "examples" / "b.min.py").write_text(CALL)
    (tmp_path / "src.py").write_text("x = 1\n")
    walked = clean(apispec_run("lint", "--format", "concise", cwd=tmp_path), 0)
    assert "examples/" not in walked.out.partition("Not listed")[0]
    named = clean(
        apispec_run("lint", "--format", "concise", "--quiet", "examples/", cwd=tmp_path), 1
    )
    assert named.out == ONE_FINDING.format(name="examples/a.py") + "\n"  # *.min.py still out
