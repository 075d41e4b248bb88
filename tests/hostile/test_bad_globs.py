"""Point 15 of issue 11: a pattern that is not a valid glob is skipped with a warning.

git itself ignores such a .gitignore line; apispec says so, naming file and
line, and applies the other patterns.
"""

from __future__ import annotations

from pathlib import Path

from tests.hostile.helpers import apispec_run, clean

CALL = 'x = "https://h:1616/api/v2/devices"\n'


def test_the_hook_smoke_test(tmp_path: Path) -> None:
    (tmp_path / ".gitignore").write_text("!\n[z-a]\n\\\n")
    (tmp_path / "a.py").write_text(CALL)
    result = clean(apispec_run("lint", "--fail-on", "never", ".", cwd=tmp_path), 0)
    assert result.err.splitlines() == [
        "apispec: warning: .gitignore:1: invalid pattern '!' skipped (Invalid git pattern: '!')",
        "apispec: warning: .gitignore:2: invalid pattern '[z-a]' skipped (bad character range z-a)",
        "apispec: warning: .gitignore:3: invalid pattern '\\\\' skipped (Invalid git pattern: '\\\\')",
    ]
    assert "a.py:1:27: API002" in result.out


def test_the_valid_patterns_around_a_bad_one_still_apply(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / "sub").mkdir()
    (tmp_path / ".gitignore").write_text("ignored.py\n")
    (tmp_path / "sub" / ".gitignore").write_text("gen/\n[z-a]\n*.tmp.py\n")
    for name in ("ignored.py", "sub/kept.py", "sub/x.tmp.py", "sub/gen/g.py"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(CALL)
    result = clean(apispec_run("lint", "sub", cwd=tmp_path), 1)  # API002 fails by default
    assert result.err == (
        "apispec: warning: sub/.gitignore:2: invalid pattern '[z-a]' skipped "
        "(bad character range z-a)\n"
    )
    linted = sorted(line.split(":")[0] for line in result.out.splitlines() if ": API002 " in line)
    assert linted == ["sub/kept.py"]


def test_bad_exclude_options_are_skipped(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text(CALL)
    (tmp_path / "b.py").write_text(CALL)
    result = clean(
        apispec_run(
            "lint", ".", "--exclude", "[z-a]", "--exclude", "!", "--exclude", "b.py", cwd=tmp_path
        ),
        1,  # a.py's deprecated call fails at the default fail level
    )
    assert result.err.splitlines() == [
        "apispec: warning: --exclude '[z-a]': invalid pattern skipped (bad character range z-a)",
        "apispec: warning: --exclude '!': invalid pattern skipped (Invalid git pattern: '!')",
    ]
    assert "a.py:1:" in result.out and "b.py" not in result.out


def test_a_bad_pattern_in_the_configuration_is_an_error(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text(CALL)
    (tmp_path / ".apispec.toml").write_text('exclude = ["ok/", "[z-a]"]\n')
    result = clean(apispec_run("lint", ".", cwd=tmp_path), 2)
    assert result.err == (
        f"apispec: error: {tmp_path / '.apispec.toml'}: exclude: invalid pattern '[z-a]' "
        "(bad character range z-a)\n"
    )
    (tmp_path / ".apispec.toml").write_text('[per-file-ignores]\n"!" = ["API002"]\n')
    result = clean(apispec_run("lint", ".", cwd=tmp_path), 2)
    assert "per-file-ignores: invalid pattern '!'" in result.err
