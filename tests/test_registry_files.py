"""Reading the registry: the on-disk parse cache must never serve stale data."""

from __future__ import annotations

from apispec.registry.files import read_registry


def test_cache_is_used_and_invalidated_by_an_edit(registry_copy, tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    first = read_registry(registry_copy)
    assert list((tmp_path / "cache" / "apispec").glob("registry-*.json"))
    again = read_registry(registry_copy)
    assert again.document == first.document
    path = registry_copy / "endpoints.yaml"
    path.write_text(path.read_text().replace("summary: list probes", "summary: list all probes"))
    edited = read_registry(registry_copy)
    assert edited.document["endpoints"][0]["summary"] == "list all probes"


def test_unwritable_cache_directory_only_costs_speed(registry_copy, tmp_path, monkeypatch):
    blocker = tmp_path / "not-a-directory"
    blocker.write_text("")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))
    source = read_registry(registry_copy)
    assert len(source.document["endpoints"]) == 76
    assert source.files["endpoints"].name == "endpoints.yaml"


def test_corrupt_cache_file_is_ignored(registry_copy, tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    read_registry(registry_copy)
    for cached in (tmp_path / "cache" / "apispec").glob("registry-*.json"):
        cached.write_text("{not json")
    assert len(read_registry(registry_copy).document["endpoints"]) == 76
