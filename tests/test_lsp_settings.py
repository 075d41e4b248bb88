"""Which configuration a document is linted with: its file, then the editor's settings."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from apispec.lsp.settings import ClientSettings, Profiles, canonical


def _profiles(client: dict | None = None) -> Profiles:
    profiles = Profiles()
    profiles.defaults = ClientSettings.parse(client)
    return profiles


def test_editor_settings_apply_where_there_is_no_file(tmp_path):
    profile = _profiles({"target": "24.3.100", "ignore": ["API003"], "maxFileSize": "1MB"}).profile(
        tmp_path, tmp_path
    )
    assert profile.source is None
    assert profile.targets == ("24.3.100",)
    assert profile.config.ignore == {"API003"}
    assert profile.config.max_file_size == 1024 * 1024


def test_the_file_found_upwards_wins_key_by_key(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[tool.apispec]\ntarget = "25.x.122"\n')
    deep = tmp_path / "a" / "b"
    deep.mkdir(parents=True)
    profile = _profiles({"target": "24.3.100", "select": ["API002"]}).profile(deep, tmp_path)
    assert profile.source == tmp_path / "pyproject.toml"
    assert profile.targets == ("25.x.122",)  # the file says it
    assert profile.config.select == {"API002"}  # the file is silent: the editor's


def test_editor_first_and_editor_only(tmp_path):
    (tmp_path / ".apispec.toml").write_text('target = "25.x.122"\nignore = ["API004"]\n')
    first = _profiles({"target": "24.3.100", "configurationPreference": "editorFirst"})
    profile = first.profile(tmp_path, tmp_path)
    assert profile.targets == ("24.3.100",) and profile.config.ignore == {"API004"}
    only = _profiles({"target": "24.3.100", "configurationPreference": "editorOnly"})
    profile = only.profile(tmp_path, tmp_path)
    assert profile.source is None and profile.config.ignore == set()


def test_a_changed_file_is_read_again_and_a_broken_one_is_reported(tmp_path):
    config = tmp_path / ".apispec.toml"
    config.write_text('ignore = ["API004"]\n')
    profiles = _profiles()
    first = profiles.profile(tmp_path, tmp_path)
    config.write_text('ignore = ["API003"]\nunknown-key = 1\n')
    os.utime(config, ns=(first.stamp[0] + 10**9, first.stamp[0] + 10**9))
    broken = profiles.profile(tmp_path, tmp_path)
    assert broken.source is None and broken.config.ignore == set()
    assert "unknown key 'unknown-key'" in profiles.errors[config]
    config.write_text('ignore = ["API003"]\n')
    os.utime(config, ns=(first.stamp[0] + 2 * 10**9, first.stamp[0] + 2 * 10**9))
    fixed = profiles.profile(tmp_path, tmp_path)
    assert fixed.config.ignore == {"API003"} and config not in profiles.errors
    assert fixed.key != first.key


def test_a_relative_registry_is_relative_to_the_workspace_folder(tmp_path):
    profile = _profiles({"registry": "vendor/registry"}).profile(None, tmp_path)
    assert profile.registry_dir == tmp_path / "vendor" / "registry"


def test_overlays_are_one_key_relative_to_the_workspace_folder_or_to_the_file(tmp_path):
    editor = _profiles({"overlays": ["ov/a", "/srv/b"]})
    profile = editor.profile(None, tmp_path)
    assert profile.overlays == (tmp_path / "ov" / "a", Path("/srv/b"))
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / ".apispec.toml").write_text('overlays = ["mine"]\n')
    profile = editor.profile(tmp_path / "sub", tmp_path)
    assert profile.overlays == (tmp_path / "sub" / "mine",)  # the file's list, whole
    assert profile.key != editor.profile(None, tmp_path).key


@pytest.mark.parametrize(
    ("raw", "problem"),
    [
        ({"selct": ["API002"]}, "unknown setting 'selct' (did you mean select?)"),
        ({"select": ["API999"]}, "unknown rule 'API999'"),
        ({"severity": {"API002": "fatal"}}, "unknown severity 'fatal'"),
        ({"maxFileSize": "lots"}, "expected a size such as 5MB"),
        ({"respectGitignore": "yes"}, "expected true or false"),
        ({"overlays": "ov"}, "overlays: expected a list of strings"),
        ({"configurationPreference": "mine"}, "expected one of filesystemFirst"),
        ({"debounce": -5}, "debounce: expected milliseconds"),
        ("apispec", "expected an object of settings"),
    ],
)
def test_a_bad_setting_is_reported_and_ignored(raw, problem):
    settings = ClientSettings.parse(raw)
    assert len(settings.problems) == 1 and problem in settings.problems[0]
    assert settings.lint == ()


def test_the_shapes_clients_send():
    assert ClientSettings.parse({"settings": {"inlayHints": True}}).inlay_hints
    assert ClientSettings.parse({"apispec": {"inlay_hints": True}}).inlay_hints
    assert ClientSettings.parse({"target": None}).lint == ()  # VS Code's null: not set
    assert ClientSettings.parse(None) == ClientSettings()
    assert [canonical(k) for k in ("maxFileSize", "max_file_size", "max-file-size")] == [
        "max-file-size"
    ] * 3


def test_a_document_outside_any_folder_uses_its_own_directory(tmp_path):
    (tmp_path / ".apispec.toml").write_text('target = "25.x.122"\n')
    assert _profiles().profile(tmp_path, None).targets == ("25.x.122",)
    assert _profiles().profile(None, None).source is None
    assert isinstance(_profiles().profile(None, None).config.root, Path)


REPO = Path(__file__).resolve().parents[1]


def _camel(key: str) -> str:
    head, *rest = key.split("-")
    return head + "".join(part.title() for part in rest)


def test_the_vscode_settings_and_the_docs_mirror_the_servers_keys():
    import json

    from apispec.lsp.settings import _LSP_KEYS, LINT_KEYS

    manifest = json.loads((REPO / "editors" / "vscode" / "package.json").read_text())
    declared = set(manifest["contributes"]["configuration"]["properties"])
    server = {f"apispec.{_camel(k)}" for k in (*LINT_KEYS, *_LSP_KEYS)}
    client_only = {"apispec.path", "apispec.trace.server"}  # read by the extension itself
    assert declared - client_only == server
    for key in server:  # and the server reads each camelCase name back as its own key
        assert canonical(key.removeprefix("apispec.")) in (*LINT_KEYS, *_LSP_KEYS)
    page = (REPO / "docs" / "editors.md").read_text()
    for key in (*LINT_KEYS, *_LSP_KEYS):
        assert f"`{_camel(key)}`" in page, key
