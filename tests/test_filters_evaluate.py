"""Evaluation of compiled filters on a fixture tree of probe/group/device/sensor/channel records."""

from __future__ import annotations

import json

import pytest

from apispec.filters import FilterError, compile
from apispec.filters.evaluate import ID_FIELD, PARENT_FIELD
from apispec.support.exceptions import UsageError
from tests.conftest import FIXTURES

RECORDS = json.loads((FIXTURES / "filters" / "tree.json").read_text())["records"]


def ids(text: str) -> list[str]:
    return [r["id"] for r in compile(text).select(RECORDS)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("status = down", ["11", "101", "1001", "1010", "10010", "10100"]),
        ("status != down and type = sensor", ["1000", "1100"]),
        ('basic.tags contains "ping"', ["100", "1000", "1010", "1100"]),
        ('basic.tags contains "a \\"quoted\\" tag"', ["1100"]),
        ('basic.parenttags contains "branch"', ["110", "1100"]),
        ('name = "Ping"', ["1000", "1010", "1100"]),
        ('name = "ping"', []),  # text is case-sensitive
        ('name in ["HQ", "Branch", "nowhere"]', ["10", "11"]),
        ('basic.host in ["10.0.0.1", "192.168.1.1"]', ["100", "110"]),
        ('basic.host != "10.0.0.1" and type = device', ["101", "110"]),
        ("favorite = true", ["100", "1100"]),
        ("favorite != true and type = device", ["101", "110"]),
        ("primary = true", ["10000", "10010", "10100"]),
        ('parentid = "1000"', ["10000", "10001"]),
        ('id = "10"', ["10"]),
        ('kind = "probe"', ["1"]),
        ("not(status = up) and type = channel", ["10010", "10100"]),
        # and binds tighter than or
        ('type = sensor and status = down or name = "HQ"', ["10", "1001", "1010"]),
        ('type = sensor and (status = down or name = "Ping")', ["1000", "1001", "1010", "1100"]),
    ],
)
def test_plain_filters_select_the_matching_records(text: str, expected: list[str]) -> None:
    assert ids(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # children: the records whose parent matches
        ('children id = "100"', ["1000", "1001"]),
        ("children type = sensor and status = down", ["10010", "10100"]),
        # descendants: every record below a match
        (
            'descendants id = "10"',
            ["100", "101", "1000", "1001", "1010", "10000", "10001", "10010", "10100"],
        ),
        ('descendants name = "core-switch"', ["1000", "1001", "10000", "10001", "10010"]),
        # ancestors: every record above a match
        ('ancestors id = "10100"', ["0", "1", "10", "101", "1010"]),
        ('ancestors basic.tags contains "traffic"', ["0", "1", "10", "100"]),
        # parents: the direct parents of the matches
        ("parents primary = true", ["1000", "1001", "1010"]),
        ('parents id = "0"', []),  # the root has no parent
    ],
)
def test_relationship_words_follow_the_tree(text: str, expected: list[str]) -> None:
    assert ids(text) == expected


def test_a_plain_filter_is_a_predicate_on_one_record() -> None:
    active = compile('status = up and basic.tags contains "ping"')
    assert [r["id"] for r in RECORDS if active(r)] == ["100", "1000", "1100"]


def test_missing_fields_match_only_not_equal() -> None:
    sensor = next(r for r in RECORDS if r["id"] == "1000")
    assert "primary" not in sensor
    assert not compile("primary = true")(sensor)
    assert compile("primary != true")(sensor)


def test_a_relationship_filter_needs_the_whole_tree() -> None:
    with pytest.raises(UsageError, match="select"):
        compile('children id = "1"')(RECORDS[0])


def test_filters_with_errors_do_not_compile() -> None:
    with pytest.raises(FilterError) as caught:
        compile('status = "up" and tags contains "x"')
    assert [d.code for d in caught.value.diagnostics] == ["FLT004", "FLT002"]
    assert isinstance(caught.value, UsageError)
    assert "offset 9" in str(caught.value)


def test_warnings_do_not_stop_compilation() -> None:
    assert ids("status = Down") == []


def test_tree_fields_are_registry_properties(registry) -> None:
    names = {p.name for p in registry.properties}
    assert {ID_FIELD, PARENT_FIELD} <= names


def test_deep_trees_need_no_recursion() -> None:
    chain = [{"id": str(i), "parentid": str(i - 1), "status": "up"} for i in range(1, 5000)]
    chain.insert(0, {"id": "0", "status": "up"})
    below = compile('descendants id = "0"').select(chain)
    above = compile('ancestors id = "4999"').select(chain)
    assert len(below) == 4999 and len(above) == 4999


def test_a_filter_nested_beyond_the_bound_is_a_filter_error_not_a_crash() -> None:
    deep = "not(" * 5_000 + "status = up" + ")" * 5_000
    with pytest.raises(FilterError) as caught:
        compile(deep)
    assert [d.code for d in caught.value.diagnostics] == ["FLT001"]
    assert str(caught.value).endswith(
        "at offset 400: the filter nests operators 5000 levels deep; apispec reads at most 100"
    )
    assert compile("not(" * 100 + "status = up" + ")" * 100)({"status": "down"}) is False


def test_long_chains_evaluate_without_recursion() -> None:
    ids = [f'id = "{n}"' for n in range(5_000)]
    anyone = compile(" or ".join(ids))
    assert anyone({"id": "4999"}) and not anyone({"id": "5000"})
    nobody = compile(" and ".join(ids))
    assert not nobody({"id": "1"})
    assert compile(" and ".join(f'id != "{n}"' for n in range(5_000)))({"id": "x"})


def test_built_conditions_are_bounded_as_parsed_filters_are() -> None:
    from apispec.filters import Enum, prop

    condition = prop("status") == Enum("up")
    for _ in range(100):
        condition = ~condition
    assert compile(str(condition))({"status": "up"})  # 100 `not`s: an even count
    with pytest.raises(ValueError, match="more than 100 deep"):
        ~condition  # noqa: B018
    chain = prop("id") == "0"
    for n in range(1, 3_000):
        chain = chain | (prop("id") == str(n))  # a chain adds no level
    assert chain.depth == 1 and compile(str(chain))({"id": "2999"})


def test_numbers_beyond_the_range_are_out_of_range_on_number_properties(registry_copy) -> None:
    from apispec.filters import check
    from apispec.registry.load import load_registry

    path = registry_copy / "filters.yaml"
    path.write_text(
        path.read_text().replace(
            "properties:\n",
            'properties:\n  - name: size\n    type: number\n    operators: ["="]\n',
            1,
        )
    )
    registry = load_registry(registry_copy)
    assert check("size = 9223372036854775807", registry=registry) == []
    for digits in ("9223372036854775808", "9" * 4_301):
        (problem,) = check(f"size = 0{digits}", registry=registry)
        assert problem.code == "FLT004" and problem.end == len(digits) + 8
        assert "out of range: `size` takes at most 9223372036854775807" in problem.message
    big = {"size": "9" * 5_000}  # numeric text in a record, past the conversion limit
    assert not compile("size = 5", registry=registry)(big)
