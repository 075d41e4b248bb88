"""The checker against the registry's property catalog: FLT002-FLT006, exactly as users see them."""

from __future__ import annotations

import pytest

from apispec.filters import CODES, check
from apispec.support.exceptions import UsageError


def test_every_example_filter_of_the_spec_checks_clean(registry):
    assert len(registry.filter_examples) >= 10
    for example in registry.filter_examples:
        assert check(example.filter, example.endpoint) == [], example
        assert check(example.filter) == [], example


def test_the_examples_cover_every_relationship_word_the_spec_shows(registry):
    words = {e.filter.split()[0] for e in registry.filter_examples}
    assert {"children", "descendants", "ancestors"} <= words


# (filter, endpoint, [(code, severity, start, end, message, hint), ...]): the whole report.
CASES = [
    (
        'tags contains "x"',
        None,
        [
            (
                "FLT002",
                "error",
                0,
                4,
                "`tags` is not a filterable property",
                "did you mean `basic.tags`?",
            )
        ],
    ),
    (
        'ancestors.id = "2048"',
        None,
        [
            (
                "FLT002",
                "error",
                0,
                12,
                "`ancestors.id` is not a filterable property",
                'a relationship word goes first, before the filter: `ancestors id = "2048"`',
            )
        ],
    ),
    (
        "statsu = up",
        None,
        [
            (
                "FLT002",
                "error",
                0,
                6,
                "`statsu` is not a filterable property",
                "did you mean `status`?",
            )
        ],
    ),
    (
        "status contains up",
        None,
        [
            (
                "FLT003",
                "error",
                7,
                15,
                "operator `contains` is not allowed on `status`; allowed: =, !=",
                "`status` holds one value: compare with `=`",
            )
        ],
    ),
    (
        'basic.tags = "x"',
        None,
        [
            (
                "FLT003",
                "error",
                11,
                12,
                "operator `=` is not allowed on `basic.tags`; allowed: contains",
                '`basic.tags` holds several values: write `basic.tags contains "x"`',
            )
        ],
    ),
    (
        'id in ["1","2"]',
        None,
        [
            (
                "FLT003",
                "error",
                3,
                5,
                "operator `in` is not allowed on `id`; allowed: =, !=",
                'compare with `=` and join with `or`: `id = "1" or id = "2"`',
            )
        ],
    ),
    (
        'name < "a"',
        None,
        [
            (
                "FLT003",
                "error",
                5,
                6,
                "operator `<` is not allowed on `name`; allowed: =, !=, in",
                None,
            )
        ],
    ),
    (
        'status = "up"',
        None,
        [
            (
                "FLT004",
                "error",
                9,
                13,
                "`status` takes an enumeration value without quotes, not a quoted text",
                "write `status = up`",
            )
        ],
    ),
    (
        'favorite = "true"',
        None,
        [
            (
                "FLT004",
                "error",
                11,
                17,
                "`favorite` takes `true` or `false` without quotes, not a quoted text",
                "write `favorite = true`",
            )
        ],
    ),
    (
        "parentid = 2048",
        None,
        [
            (
                "FLT004",
                "error",
                11,
                15,
                "`parentid` takes a text in double quotes, not a number",
                'write `parentid = "2048"`',
            )
        ],
    ),
    (
        'name in ["a", 2]',
        None,
        [
            (
                "FLT004",
                "error",
                14,
                15,
                "`name` takes a text in double quotes, not a number",
                'write `name in ["a", "2"]`',
            )
        ],
    ),
    (
        'name in "a"',
        None,
        [
            (
                "FLT004",
                "error",
                8,
                11,
                "`in` takes a list in `[ ]`, not a single value",
                'write `name in ["a"]`',
            )
        ],
    ),
    (
        "status = [up]",
        None,
        [("FLT004", "error", 9, 13, "`=` compares with one value, not a list", None)],
    ),
    (
        "status = Up",
        None,
        [
            (
                "FLT005",
                "warning",
                9,
                11,
                "`Up` is not a known value of `status` (known: up, down)",
                "did you mean `up`? Values are case-sensitive",
            )
        ],
    ),
    (
        "status = sleeping",
        None,
        [
            (
                "FLT005",
                "warning",
                9,
                17,
                "`sleeping` is not a known value of `status` (known: up, down)",
                "the spec lists only some values (the registry adds those it assumes); "
                "the server may know more",
            )
        ],
    ),
    (
        "primary = true",
        "/experimental/sensors",
        [
            (
                "FLT006",
                "warning",
                0,
                7,
                "`primary` applies to channel objects only, not to the sensor objects of this endpoint",
                "use `primary` on channel endpoints",
            )
        ],
    ),
]


@pytest.mark.parametrize(("text", "endpoint", "expected"), CASES, ids=[c[0] for c in CASES])
def test_catalog_diagnostics(text: str, endpoint: str | None, expected: list[tuple]) -> None:
    found = [(d.code, d.severity, d.start, d.end, d.message, d.hint) for d in check(text, endpoint)]
    assert found == expected


def test_every_code_has_a_case_here_or_in_the_syntax_tests() -> None:
    assert {c[2][0][0] for c in CASES} | {"FLT001"} == set(CODES)


@pytest.mark.parametrize(
    ("endpoint", "warned"),
    [
        ("/experimental/channels", False),
        ("/experimental/sensors", True),
        ("/experimental/objects", False),  # lists every kind: nothing to say
        (None, False),
    ],
)
def test_primary_applies_to_channels_only(endpoint: str | None, warned: bool) -> None:
    assert [d.code for d in check("primary = true", endpoint)] == ["FLT006"] * warned


def test_a_relationship_word_selects_other_objects_so_applicability_is_not_judged() -> None:
    assert check("children primary = true", "/experimental/sensors") == []


def test_an_unknown_endpoint_is_a_usage_error_with_a_suggestion() -> None:
    with pytest.raises(UsageError) as caught:
        check("status = up", "/experimental/sensor")
    assert str(caught.value) == (
        "unknown endpoint path '/experimental/sensor' (did you mean /experimental/sensors?)"
    )


def test_independent_defects_are_all_reported_earliest_first() -> None:
    found = check('statsu = "up" and basic.tags = "x" and favorite = 1 and status = Up')
    assert [(d.code, d.start, d.end) for d in found] == [
        ("FLT002", 0, 6),  # the value of an unknown property is not judged
        ("FLT003", 29, 30),
        ("FLT004", 50, 51),
        ("FLT005", 65, 67),
    ]


def test_a_misspelt_known_property_still_gets_its_value_checked() -> None:
    found = check("parentId = 2048")
    assert [(d.code, d.start, d.end) for d in found] == [("FLT002", 0, 8), ("FLT004", 11, 15)]
    assert found[1].hint == 'write `parentid = "2048"`'


def test_a_warning_alone_leaves_the_filter_valid() -> None:
    (diagnostic,) = check("status = Up")
    assert not diagnostic.is_error


def test_the_cached_catalog_is_the_registry_s(registry):
    from apispec.filters.catalog import catalog_of, default_catalog

    assert default_catalog() == catalog_of(registry)
