"""The mock's data: the seeded tree, a user's own tree from --data, and --users."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from apispec.mock.auth import load_users
from apispec.mock.context import MockConfig, MockState
from apispec.mock.data import MAX_OBJECTS, generate_tree, nested
from apispec.mock.routes import build_routes
from apispec.mock.user_tree import load_tree
from apispec.registry.model import Registry
from apispec.support.exceptions import UsageError

FIXTURES = Path(__file__).parent / "fixtures" / "mock"


def test_same_seed_same_tree_other_seed_other_tree(registry: Registry) -> None:
    a, b, c = (generate_tree(registry, 3000, seed) for seed in (1, 1, 2))
    assert a.records == b.records and a.settings == b.settings
    assert a.records != c.records
    assert len(a.records) == 3000


def test_tree_shape_follows_the_spec_hierarchy(registry: Registry) -> None:
    tree = generate_tree(registry, 2000, 0)
    level = {k.name: k.tree_level for k in registry.object_kinds if k.tree_level}
    root = registry.root["id"]
    for record in tree.records.values():
        if record["id"] == root:
            continue
        parent = tree.records[record["parentid"]]
        child_level = level[record["type"]]
        parent_level = 0 if parent["id"] == root else level[parent["type"]]
        assert parent_level < child_level or record["type"] == parent["type"] == "group"
        assert set(parent["basic.tags"]) <= set(record["basic.parenttags"])
    assert {r["type"] for r in tree.records.values()} == set(level)


def test_records_cover_the_registry_record_fields(registry: Registry) -> None:
    tree = generate_tree(registry, 500, 0)
    seen = set().union(*(r.keys() for r in tree.records.values()))
    assert {f.name for f in registry.record_fields} <= seen
    channel = next(r for r in tree.records.values() if r["type"] == "channel")
    assert nested(channel)["basic"]["parenttags"] == channel["basic.parenttags"]


def test_object_count_limits(registry: Registry) -> None:
    with pytest.raises(UsageError, match="between 6 and 100000"):
        generate_tree(registry, MAX_OBJECTS + 1, 0)
    with pytest.raises(UsageError):
        generate_tree(registry, 2, 0)


def test_every_registry_endpoint_has_a_mock_behaviour(registry: Registry) -> None:
    state = MockState(MockConfig(objects=6))
    routes = build_routes(state)
    assert {r.endpoint.key for r in routes} == {e.key for e in registry.endpoints}


def test_data_file_is_loaded_in_any_order(registry: Registry) -> None:
    tree = load_tree(registry, FIXTURES / "tree.json")
    assert set(tree.records) == {"0", "1", "2", "10", "100", "1000"}
    assert tree.records["100"]["basic.parenttags"] == ["core", "net"]
    assert tree.records["1000"]["primary"] is True
    assert tree.settings["2"]["windowsconnection"]["windowsloginusername"] == "svc"


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{", "not valid JSON"),
        ('{"objects": 3}', "expected a list of objects"),
        ('[{"id": "1", "type": "probe", "name": "p"}]', "'parentid' is required"),
        (
            '[{"id": "1", "type": "robot", "name": "p", "parentid": "0"}]',
            "type 'robot' is not one of",
        ),
        (
            '[{"id": "1", "type": "probe", "name": "p", "parentid": "7"}]',
            "parent '7' does not exist",
        ),
        (
            '[{"id": "1", "type": "sensor", "name": "p", "parentid": "0"}]',
            "a sensor cannot be a child of group",
        ),
        ('[{"id": "x", "type": "probe", "name": "p", "parentid": "0"}]', "must be numeric text"),
        (
            '[{"id": "1", "type": "probe", "name": "p", "parentid": "0"},'
            ' {"id": "1", "type": "probe", "name": "q", "parentid": "0"}]',
            "duplicate id",
        ),
    ],
)
def test_bad_data_files_give_one_line_errors(
    registry: Registry, tmp_path: Path, content: str, message: str
) -> None:
    path = tmp_path / "tree.json"
    path.write_text(content)
    with pytest.raises(UsageError, match=message) as caught:
        load_tree(registry, path)
    assert "\n" not in str(caught.value) and str(path) in str(caught.value)


def test_users_file_replaces_the_default_users(tmp_path: Path) -> None:
    users = load_users(FIXTURES / "users.json")
    assert [(u.username, u.role) for u in users] == [
        ("ci-admin", "administrator"),
        ("viewer", "read-only"),
    ]
    bad = tmp_path / "users.json"
    bad.write_text(json.dumps([{"username": "x", "password": "y", "role": "root"}]))
    with pytest.raises(UsageError, match="role must be one of"):
        load_users(bad)
    with pytest.raises(UsageError, match="cannot read"):
        load_users(tmp_path / "missing.json")


def test_data_file_served_over_http_with_inherited_masked_credentials() -> None:
    import httpx

    from apispec.mock.server import start_in_thread

    running = start_in_thread(MockConfig(data=FIXTURES / "tree.json", latency_ms=150))
    try:
        with httpx.Client(base_url=running.api) as client:
            token = client.post("/session", json={"username": "prtgadmin", "password": "prtgadmin"})
            client.headers["Authorization"] = f"Bearer {token.json()['token']}"
            answer = client.get("/devices/10", params={"include": "windowsconnection,inheritance"})
            assert answer.elapsed.total_seconds() >= 0.15  # --latency
            section = answer.json()["windowsconnection"]
            assert section["windowsloginpassword"] == "********"
            assert section["windowsloginusername"] == "svc"
            assert section["_inherited"] is True
            assert section["_inheritancesource"]["id"] == "2"
            assert section["_shadowed"]["windowslogindomain"] == "CORP"
            down = client.get("/experimental/sensors", params={"filter": "status = down"}).json()
            assert [s["id"] for s in down] == ["100"]
    finally:
        running.stop()


def test_schemathesis_config_names_objects_of_the_seeded_tree(registry: Registry) -> None:
    """The ids in the fixture docs/mock.md runs schemathesis with must still exist, of the
    kind the path names, when the tree generator changes."""
    import re
    import tomllib

    from apispec.mock.data import Kinds
    from apispec.mock.paths import strip_experimental

    config = tomllib.loads((FIXTURES / "schemathesis.toml").read_text())
    tree = generate_tree(registry, 10_000, 0)
    kinds = Kinds.from_registry(registry)
    tree_kinds = {kinds.collection_of[k]: k for k in kinds.level_of}
    tree_kinds.update({kind: kind for kind in kinds.level_of})  # the spec's `/group/{id}/clone`
    checked = 0
    for entry in config["operations"]:
        matched = [
            e
            for e in registry.endpoints
            if entry.get("include-method", e.method) == e.method
            and (
                e.path == entry["include-path"]
                if "include-path" in entry
                else re.search(entry["include-path-regex"], e.path)
            )
        ]
        assert matched, entry
        value = entry["parameters"].get("id")
        for endpoint in matched:
            kind = tree_kinds.get(strip_experimental(endpoint.path).split("/")[1])
            if kind is not None and value is not None:
                record = tree.get(value)
                assert record is not None and record["type"] == kind, (endpoint, value)
                checked += 1
    assert checked > 20
