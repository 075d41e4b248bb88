"""Configuration files: where they are found, what they may say, and one-line errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from apispec.lint.config import load_config, parse_size
from apispec.lint.finding import Severity
from apispec.lint.rules import BY_CODE
from apispec.support.exceptions import ApispecError

FULL = """
[tool.apispec]
target = ["24.3.100", "25.x.122"]
select = ["API00"]
ignore = ["API003"]
exclude = ["legacy/"]
fail-on = "warning"
max-file-size = "512KB"
respect-gitignore = false

[tool.apispec.severity]
API004 = "error"

[tool.apispec.per-file-ignores]
"tests/**" = ["API002", "API005"]
"""


def test_pyproject_table_is_found_from_a_subdirectory(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(FULL)
    (tmp_path / "src" / "deep").mkdir(parents=True)
    config = load_config(start=tmp_path / "src" / "deep")
    assert config.source == tmp_path / "pyproject.toml"
    assert config.target == ["24.3.100", "25.x.122"]
    assert config.select == {f"API00{i}" for i in range(1, 10)}
    assert (
        config.enabled("API002") and not config.enabled("API003") and not config.enabled("API010")
    )
    assert config.exclude == ["legacy/"]
    assert config.fail_on == "warning"
    assert config.max_file_size == 512 * 1024
    assert config.respect_gitignore is False
    assert config.severity == {"API004": Severity.ERROR}
    assert config.ignored_in("tests/unit/test_x.py") == {"API002", "API005"}
    assert config.ignored_in("src/x.py") == set()


def test_dotfile_wins_over_pyproject_and_uses_top_level_keys(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(FULL)
    (tmp_path / ".apispec.toml").write_text('target = "24.3.102"\nignore = ["ALL"]\n')
    config = load_config(start=tmp_path)
    assert config.source == tmp_path / ".apispec.toml"
    assert config.target == ["24.3.102"]
    assert config.ignore == set(BY_CODE)


def test_pyproject_without_the_table_is_not_a_config(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'x'\n")
    assert load_config(start=tmp_path).source is None


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "[tool.apispec]\nselct = ['API001']\n",
            "unknown key 'selct' in [tool.apispec] (did you mean select?)",
        ),
        ("[tool.apispec]\nselect = ['API999']\n", "select: unknown rule 'API999'"),
        ("[tool.apispec]\nselect = 'API001'\n", "select: expected a list of strings"),
        (
            "[tool.apispec.severity]\nAPI002 = 'fatal'\n",
            "severity.API002: unknown severity 'fatal'",
        ),
        (
            "[tool.apispec]\nfail-on = 'sometimes'\n",
            "fail-on: expected one of error, warning, info, never",
        ),
        ("[tool.apispec]\nmax-file-size = 'huge'\n", "max-file-size: expected a size such as 5MB"),
        (
            "[tool.apispec]\nrespect-gitignore = 'yes'\n",
            "respect-gitignore: expected true or false",
        ),
        ("[tool.apispec]\nper-file-ignores = ['x']\n", "per-file-ignores: expected a table"),
        ("[tool.apispec\n", "invalid TOML"),
    ],
)
def test_mistakes_are_one_line_errors_naming_file_and_key(
    tmp_path: Path, text: str, message: str
) -> None:
    (tmp_path / "pyproject.toml").write_text(text)
    with pytest.raises(ApispecError) as caught:
        load_config(tmp_path / "pyproject.toml")
    assert caught.value.exit_code == 2
    assert str(caught.value).startswith(f"{tmp_path / 'pyproject.toml'}: ")
    assert message in str(caught.value)
    assert "\n" not in str(caught.value)


def test_sizes() -> None:
    assert parse_size("5MB", "x") == 5 * 1024 * 1024
    assert parse_size("1.5 kb", "x") == 1536
    assert parse_size(100, "x") == 100
    with pytest.raises(ApispecError):
        parse_size(0, "x")
