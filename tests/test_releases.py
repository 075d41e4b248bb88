"""Release ordering (DESIGN decision 1) and availability on every named release."""

from __future__ import annotations

import itertools

import pytest

from apispec.registry.releases import ReleaseSyntaxError, parse_release

SPEC_ORDER = [
    "24.3.100",
    "24.3.102",
    "25.x.102",
    "25.1.104",
    "25.x.106",
    "25.1.108",
    "25.x.108",
    "25.x.110",
    "25.x.112",
    "25.x.122",
    "25.x.1xx",
]


def test_registry_knows_every_release_the_spec_names_oldest_first(registry):
    assert [r.text for r in registry.release_list] == SPEC_ORDER
    assert registry.newest_release.text == "25.x.1xx"
    assert registry.first_release.text == "24.3.100"


@pytest.mark.parametrize(("older", "newer"), list(itertools.pairwise(SPEC_ORDER)))
def test_each_release_orders_after_the_previous_one(older, newer):
    a, b = parse_release(older), parse_release(newer)
    assert a <= b and b >= a
    if not a.level_with(b):
        assert a < b and b > a


def test_minor_is_informational_so_same_build_orders_level():
    a, b = parse_release("25.1.108"), parse_release("25.x.108")
    assert a.level_with(b) and not a < b and not b < a and a <= b <= a
    assert a != b  # still two releases
    assert a.sort_key < b.sort_key  # listing puts the numeric minor first


def test_x_minor_orders_by_build_even_before_a_numeric_minor():
    assert parse_release("25.x.102") < parse_release("25.1.104")


def test_placeholder_build_orders_after_every_concrete_build_of_its_major():
    placeholder = parse_release("25.x.1xx")
    assert placeholder.is_placeholder
    assert parse_release("25.x.999") < placeholder < parse_release("26.1.1")
    assert parse_release("24.3.100") < placeholder


@pytest.mark.parametrize(
    "text", ["", "25", "25.1", "25.1.1.1", "v25.1.100", "25.y.100", "٢٥.1.100"]
)
def test_malformed_release_is_a_one_line_error(text):
    with pytest.raises(ReleaseSyntaxError, match=r"expected MAJOR\.MINOR\.BUILD"):
        parse_release(text)


def _available(registry, method, path):
    endpoint = registry.endpoint(method, path)
    return [r.text for r in registry.release_list if registry.available_in(endpoint, r)]


def test_since_bounds_availability(registry):
    assert _available(registry, "GET", "/experimental/users") == SPEC_ORDER[1:]
    assert _available(registry, "POST", "/experimental/devices/{id}/sensor") == SPEC_ORDER[7:]


def test_unknown_since_means_available_from_the_first_release(registry):
    assert _available(registry, "GET", "/devices/{id}") == SPEC_ORDER
    assert _available(registry, "GET", "/sensors") == SPEC_ORDER


def test_removed_in_the_deprecation_release_is_never_available(registry):
    assert _available(registry, "GET", "/experimental/devices/{id}/settings") == []
    assert _available(registry, "GET", "/experimental/sensors/{id}/settings") == []


def test_placeholder_since_is_only_available_in_the_placeholder(registry):
    assert _available(registry, "GET", "/experimental/autodiscoveryjobs/history") == ["25.x.1xx"]


def test_doubtful_pairs_follow_the_order_key(registry):
    # 25.x.102 orders before 25.1.104: the endpoint is already there in 25.1.104
    assert _available(registry, "GET", "/experimental/objects/{parent}/types") == SPEC_ORDER[2:]
    # since 25.x.108 is level with 25.1.108, so 25.1.108 offers it too
    assert "25.1.108" in _available(registry, "GET", "/experimental/objects")
    # since 25.1.108 (also listed with 25.x.110): the earlier release counts
    assert _available(registry, "GET", "/experimental/devices/templates")[0] == "25.1.108"


def test_endpoint_counts_per_release(registry):
    counts = {r.text: len(registry.endpoints_in(r)) for r in registry.release_list}
    assert counts["24.3.100"] == 76 - 2 - sum(
        1 for e in registry.endpoints if e.since is not None and e.since.text != "24.3.100"
    )
    assert counts["25.x.1xx"] == 74
