"""The mock's indexes change speed, never answers: indexed and unindexed selections are equal.

Filters are generated from the registry's property table with values taken
from the data (and some that are absent), combined with `and`, `or`, `not`
and relationship words, and sorted by fields with many ties, in both
directions. The unindexed path is the filter engine over every record.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from apispec.filters.format import quote
from apispec.mock import MockConfig
from apispec.mock.data import generate_tree
from apispec.mock.errors import ApiError
from apispec.mock.index import INDEX_MIN, ListIndex
from apispec.mock.lists import Include, ListQuery
from apispec.mock.selection import Selection
from apispec.mock.server import RunningMock, start_in_thread
from apispec.registry.load import load_registry

REGISTRY = load_registry()
TREE = generate_tree(REGISTRY, 4_000, 9)
UNIVERSE = TREE.of_types(None)
SENSORS = TREE.of_types({"sensor"})
assert len(SENSORS) >= INDEX_MIN
SORTABLE = ["name", "id", "status", "type", "parentid", "kind", "favorite", "basic.host", "primary"]
PROPERTIES = {p.name: p for p in REGISTRY.properties}


def _values(field: str) -> list[Any]:
    """Values the data holds (every element of list fields), the most frequent first."""
    counts: dict[Any, int] = {}
    for record in UNIVERSE:
        value = record.get(field)
        for v in value if isinstance(value, list) else [value]:
            if v is not None:
                counts[v] = counts.get(v, 0) + 1
    return sorted(counts, key=lambda v: -counts[v])[:8] + list(counts)[-4:]


def _literal(prop: Any, value: Any) -> str:
    if prop.type == "enumeration":
        return str(value)
    if prop.type == "boolean":
        return "true" if value else "false"
    return quote(str(value))


@st.composite
def comparisons(draw: st.DrawFn) -> str:
    prop = draw(st.sampled_from(list(PROPERTIES.values())))
    pool = _values(prop.name) or (["x"] if prop.type != "boolean" else [True])
    if prop.type == "text":
        pool = [*pool, "absent value"]
    op = draw(st.sampled_from(prop.operators))
    if op == "in":
        items = draw(st.lists(st.sampled_from(pool), min_size=1, max_size=3))
        return f"{prop.name} in [{', '.join(_literal(prop, v) for v in items)}]"
    return f"{prop.name} {op} {_literal(prop, draw(st.sampled_from(pool)))}"


FILTERS = st.recursive(
    comparisons(),
    lambda inner: st.one_of(
        st.lists(inner, min_size=2, max_size=4).map(lambda p: "(" + " and ".join(p) + ")"),
        st.lists(inner, min_size=2, max_size=4).map(lambda p: "(" + " or ".join(p) + ")"),
        inner.map(lambda p: f"not({p})"),
    ),
    max_leaves=6,
)
RELATION = st.sampled_from(["", "", "", "children ", "parents ", "ancestors ", "descendants "])
SORT = st.one_of(st.none(), st.tuples(st.sampled_from(SORTABLE), st.booleans()))


def _selection(text: str | None, sort: tuple[str, bool] | None, indexed: bool) -> list[int]:
    query = ListQuery(3000, 0, text, sort[0] if sort else None, bool(sort and sort[1]), Include())
    selection = Selection(
        query=query,
        records=SENSORS,
        universe=UNIVERSE,
        admits=lambda r: r["type"] == "sensor",
        deadline=math.inf,
        time_limit=25.0,
        stopped=lambda: False,
        index=ListIndex(SENSORS) if indexed else None,
        universe_index=ListIndex(UNIVERSE) if indexed else None,
    )
    try:
        return [id(r) for r in selection.run()]
    except ApiError as error:  # an invalid combination: both paths must refuse it alike
        return [hash(error.message)]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(RELATION, FILTERS, SORT)
# each kind of lookup the index makes, besides what the strategy finds
@example("", 'basic.tags contains "ping"', None)  # an element of a list value
@example("", 'basic.parenttags contains "linux" or favorite = true', ("name", True))
@example("", "status = down and not(type = sensor)", ("status", False))
@example("", 'status = down and name != "Ping" or favorite = true', None)  # a partial answer
@example("children ", 'parentid = "0" or name in ["Ping", "x"]', ("id", True))
@example("descendants ", 'id = "1" and kind != probedevice', None)
def test_indexed_selection_equals_the_unindexed_one(relation: str, text: str, sort: Any) -> None:
    flt = relation + text
    assert _selection(flt, sort, indexed=True) == _selection(flt, sort, indexed=False), flt


@pytest.mark.parametrize("field", SORTABLE)
@pytest.mark.parametrize("descending", [False, True])
def test_sorting_by_ranks_equals_sorting_by_keys(field: str, descending: bool) -> None:
    # no filter: the whole list, where the ranks are used
    assert _selection(None, (field, descending), True) == _selection(
        None, (field, descending), False
    )


def test_an_index_narrows_what_is_tested() -> None:
    index = ListIndex(SENSORS)
    from apispec.filters import parse

    expr = parse('status = down and basic.tags contains "ping" or favorite = true').tree.expr
    candidates, rest = index.plan(expr)
    assert candidates is not None and 0 < len(candidates) < len(SENSORS) / 4
    assert rest is None  # lookups of text and booleans are exact: nothing left to test
    other = parse('status = down and name != "x"').tree.expr
    candidates, rest = index.plan(other)
    assert rest == parse('name != "x"').tree.expr  # only the complement is tested
    assert index.plan(parse('name != "x"').tree.expr) == (None, parse('name != "x"').tree.expr)


@pytest.fixture(scope="module")
def mock() -> Iterator[RunningMock]:
    running = start_in_thread(MockConfig(objects=6_000, seed=2, wait_for=0.1))
    yield running
    running.stop()


def test_the_server_answers_with_the_index_what_the_engine_selects(mock: RunningMock) -> None:
    from apispec.filters import compile
    from apispec.mock.lists import sort_records

    with httpx.Client(base_url=mock.api, timeout=30) as client:
        token = client.post(
            "/session", json={"username": "prtgadmin", "password": "prtgadmin"}
        ).json()["token"]
        client.headers["Authorization"] = f"Bearer {token}"
        text = 'type = sensor and (status = down or basic.tags contains "ping")'
        answer = client.get("/experimental/objects", params={"filter": text, "sort_by": "-name"})
        assert answer.status_code == 200
        records = mock.state.tree.of_types(None)
        expected = sort_records(compile(text).select(records), "name", True)
        assert [r["id"] for r in answer.json()] == [r["id"] for r in expected][:3000]
        assert mock.state.index_of(mock.state.tree_records(None)) is not None
