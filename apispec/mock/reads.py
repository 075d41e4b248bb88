"""GET handlers: object records with their setting sections, lists, and the small read-only resources."""

from __future__ import annotations

import math
import random
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from starlette.responses import JSONResponse, Response

from apispec.mock.context import Call, MockState
from apispec.mock.data import MASK, PAUSED, SECTION_LEVELS, nested, reference, status_values
from apispec.mock.errors import ApiError
from apispec.mock.lists import Include, page_headers, parse_include, parse_query
from apispec.mock.paths import created_kind, strip_experimental
from apispec.mock.selection import select

WAIT_FOR_HEADER = "Wait-For"
LIST_CACHE_SIZE = 32
TIMESERIES_TYPES = ("live", "short", "medium", "long")  # mock values: the spec names none
_TIMESERIES_STEP = {"live": 60, "short": 300, "medium": 3600, "long": 86400}
_EPOCH = 1_735_689_600  # 2025-01-01T00:00:00Z, the start of every mock time series


# -- records ----------------------------------------------------------------------


def _section_rules(state: MockState) -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    """Per section: fields returned masked, and fields that only the shadowed copy has."""
    masked: dict[str, set[str]] = {}
    shadow_only: dict[str, set[str]] = {}
    for section in state.registry.setting_sections:
        masked[section.name] = {f.name for f in section.fields if "masked" in f.notes}
        shadow_only[section.name] = {f.name for f in section.fields if "shadowed" in f.notes}
    return masked, shadow_only


def section_body(state: MockState, oid: str, section: str, inheritance: bool) -> dict[str, Any]:
    """The effective settings of one section; with `inheritance`, the underscore fields too."""
    masked, shadow_only = _section_rules(state)
    tree = state.tree
    source = tree.inheritance_source(oid, section)
    values = {
        name: (MASK if value and name in masked[section] else value)
        for name, value in tree.settings[source["id"]][section].items()
    }
    body: dict[str, Any] = dict(values)
    if inheritance:
        inherited = source["id"] != oid
        shadow = {**values, **{name: "1" for name in shadow_only[section]}}
        body["_inheritancesource"] = reference(state.kinds, source)
        body["_inherited"] = inherited
        body["_shadowed"] = shadow if inherited else None
    return body


def render(state: MockState, record: dict[str, Any], include: Include) -> dict[str, Any]:
    out = nested(record)
    if include.sections or include.every_section:
        level = state.tree.level(record)
        available = [s for s, levels in SECTION_LEVELS.items() if level in levels]
        for section in include.wanted(available):
            out[section] = section_body(state, record["id"], section, include.inheritance)
    return out


def tree_object(call: Call, oid: str, kind: str | None, status: int = 404) -> dict[str, Any]:
    """The available tree object `oid` of `kind`; 404 (or `status`) when missing."""
    state = call.state
    record = state.tree.get(oid)
    if record is None or (kind is not None and record["type"] != kind):
        what = kind or "object"
        raise ApiError("NOT_FOUND", f"no {what} with id {oid!r}", status=status)
    return record


def not_yet_available(state: MockState, oid: str, collection: str | None = None) -> Response | None:
    """The 202 answer for an object that is created but not yet fully available."""
    if collection is None:
        ready = state.tree.pending.get(oid)
    else:
        ready = state.side_pending.get((collection, oid))
    if ready is None:
        return None
    wait = max(1, math.ceil(ready - time.monotonic()))
    return Response(status_code=202, headers={WAIT_FOR_HEADER: str(wait)})


def get_tree_item(kind: str) -> Callable[[Call], Response]:
    def handler(call: Call) -> Response:
        oid = call.params[call.endpoint.path_params[0]]
        record = tree_object(call, oid, kind)
        waiting = not_yet_available(call.state, oid)
        if waiting is not None:
            return waiting
        include = parse_include(call.state.registry, call.request.query_params.get("include"))
        return JSONResponse(render(call.state, record, include))

    return handler


# -- lists ------------------------------------------------------------------------


async def respond_list(
    call: Call,
    candidates: Callable[[], list[dict[str, Any]]],
    render_one: Callable[[dict[str, Any], Include], dict[str, Any]] | None = None,
    universe: Callable[[], list[dict[str, Any]]] | None = None,
    admits: Callable[[dict[str, Any]], bool] | None = None,
) -> Response:
    """One page of a list; filtering and sorting run off the event loop (selection.py)."""
    state = call.state
    query = parse_query(call.request, state.registry)
    key = (
        call.endpoint.key,
        query.filter,
        query.sort_by,
        query.descending,
        call.user.id if call.user else None,
        state.version,
    )
    records = state.list_cache.get(key)
    if records is None:
        records = await select(call, query, candidates, universe, admits)
        state.list_cache[key] = records
        if len(state.list_cache) > LIST_CACHE_SIZE:
            state.list_cache.popitem(last=False)
    page = records[query.offset : query.offset + query.limit]
    if render_one is None:
        body = [nested(r) for r in page]
    else:
        body = [render_one(r, query.include) for r in page]
    call.headers.extend(page_headers(call.request, query, len(records), len(page)))
    return JSONResponse(body)


def list_tree(kinds: Sequence[str] | None) -> Callable[[Call], Awaitable[Response]]:
    """A list of tree objects of `kinds` (every kind when None); relationship filters see the whole tree."""
    wanted = None if kinds is None else frozenset(kinds)

    def handler(call: Call) -> Awaitable[Response]:
        state = call.state
        return respond_list(
            call,
            lambda: state.tree_records(wanted),
            lambda record, include: render(state, record, include),
            universe=lambda: state.tree_records(None),
            admits=None if wanted is None else (lambda r: r["type"] in wanted),
        )

    return handler


def list_alarms(kind: str) -> Callable[[Call], Awaitable[Response]]:
    """Sensors with alarms: every status but the first of the registry (`up`) and paused."""

    def handler(call: Call) -> Awaitable[Response]:
        state = call.state
        calm = {status_values(state.registry)[0], PAUSED}
        return respond_list(
            call,
            lambda: [r for r in state.tree.of_types((kind,)) if r["status"] not in calm],
            lambda record, include: render(state, record, include),
        )

    return handler


def list_channel_data(kind: str) -> Callable[[Call], Awaitable[Response]]:
    """One current measurement per channel (mock values derived from the channel id)."""

    def handler(call: Call) -> Awaitable[Response]:
        def rows() -> list[dict[str, Any]]:
            return [
                {
                    "id": r["id"],
                    "name": r["name"],
                    "parentid": r["parentid"],
                    "value": round(int(r["id"]) * 7919 % 1000 / 10, 1),
                    "timestamp": _iso(_EPOCH),
                }
                for r in call.state.tree.of_types((kind,))
            ]

        return respond_list(call, rows)

    return handler


def list_side(collection: str) -> Callable[[Call], Awaitable[Response]]:
    def handler(call: Call) -> Awaitable[Response]:
        pending = call.state.side_pending
        return respond_list(
            call,
            lambda: [
                r for r in call.state.side.lists[collection] if (collection, r["id"]) not in pending
            ],
        )

    return handler


def list_history(job_collection: str, history: str) -> Callable[[Call], Awaitable[Response]]:
    """Execution history of all jobs, or of the job named in the path."""

    def handler(call: Call) -> Awaitable[Response]:
        rows = call.state.side.lists[history]
        if call.endpoint.path_params:
            jid = call.params[call.endpoint.path_params[0]]
            side_item(call, job_collection, jid)
            rows = [r for r in rows if jid in r.values()]
        return respond_list(call, lambda: list(rows))

    return handler


def list_users(call: Call) -> Awaitable[Response]:
    assert call.user is not None
    user = call.user
    return respond_list(call, lambda: call.state.accounts.user_records(user))


def list_user_groups(call: Call) -> Awaitable[Response]:
    assert call.user is not None
    user = call.user
    return respond_list(call, lambda: call.state.accounts.group_records(user))


# -- single resources -------------------------------------------------------------


def side_item(call: Call, collection: str, oid: str, status: int = 404) -> dict[str, Any]:
    for row in call.state.side.lists[collection]:
        if row["id"] == oid:
            return row
    raise ApiError("NOT_FOUND", f"no {collection} entry with id {oid!r}", status=status)


def get_side_item(collection: str) -> Callable[[Call], Response]:
    def handler(call: Call) -> Response:
        oid = call.params[call.endpoint.path_params[0]]
        record = side_item(call, collection, oid)
        waiting = not_yet_available(call.state, oid, collection)
        return waiting or JSONResponse(nested(record))

    return handler


def get_user(call: Call) -> Response:
    assert call.user is not None
    oid = call.params[call.endpoint.path_params[0]]
    for record in call.state.accounts.user_records(call.user):
        if record["id"] == oid:
            return JSONResponse(record)
    raise ApiError("NOT_FOUND", f"no user with id {oid!r}")


def get_user_group(call: Call) -> Response:
    assert call.user is not None
    oid = call.params[call.endpoint.path_params[0]]
    for record in call.state.accounts.group_records(call.user):
        if record["id"] == oid:
            return JSONResponse(record)
    raise ApiError("NOT_FOUND", f"no user group with id {oid!r} visible to {call.user.username!r}")


def get_settings_lookup(call: Call) -> Response:
    name = call.params[call.endpoint.path_params[0]]
    lookups = call.state.side.settings_lookups
    if name not in lookups:
        raise ApiError("NOT_FOUND", f"no settings lookup {name!r}; known: {', '.join(lookups)}")
    return JSONResponse(lookups[name])


def get_schema(call: Call) -> Response:
    """The record fields of a tree kind, from the registry (`primary` only for channels)."""
    state = call.state
    kind = call.params[call.endpoint.path_params[0]]
    if kind not in state.kinds.level_of:
        known = ", ".join(state.kinds.level_of)
        raise ApiError("NOT_FOUND", f"no schema for kind {kind!r}; known: {known}")
    primary = {
        p.name for p in state.registry.properties if p.applies_to and kind not in p.applies_to
    }
    fields = [
        {"name": f.name, "type": f.type}
        for f in state.registry.record_fields
        if f.name not in primary
    ]
    return JSONResponse({"kind": kind, "fields": fields})


def get_license(call: Call) -> Response:
    return JSONResponse(call.state.side.license)


def get_public_settings(call: Call) -> Response:
    return JSONResponse({"release": call.state.release.text, "server": "apispec mock"})


def get_timeseries(call: Call) -> Response:
    """Values of a sensor or channel for a time frame (mock values, the same on every call)."""
    state = call.state
    names = call.endpoint.path_params
    oid = call.params[names[0]]
    frame = call.params[names[1]] if len(names) > 1 else TIMESERIES_TYPES[0]
    record = state.tree.get(oid)
    measured = (state.kinds.by_level[4], state.kinds.by_level[5])
    if record is None or record["type"] not in measured:
        raise ApiError("NOT_FOUND", f"no sensor or channel with id {oid!r}")
    if frame not in TIMESERIES_TYPES:
        raise ApiError(
            "NOT_FOUND", f"unknown time frame {frame!r}; known: {', '.join(TIMESERIES_TYPES)}"
        )
    rng = random.Random(f"{oid}:{frame}")
    step = _TIMESERIES_STEP[frame]
    values = [
        {"timestamp": _iso(_EPOCH + n * step), "value": round(rng.uniform(0, 100), 2)}
        for n in range(12)
    ]
    return JSONResponse({"id": oid, "type": frame, "values": values})


def get_object_types(call: Call) -> Response:
    """What can be created under a parent: the release's creating endpoints on its collection."""
    state = call.state
    oid = call.params[call.endpoint.path_params[0]]
    record = tree_object(call, oid, None)

    collection = state.kinds.collection_of.get(record["type"])
    types = []
    for endpoint in state.registry.endpoints_in(state.release):
        if not endpoint.creates:
            continue
        segments = strip_experimental(endpoint.path).strip("/").split("/")
        if segments[0] != collection:
            continue
        path = endpoint.path.replace("{" + endpoint.path_params[0] + "}", oid)
        types.append(
            {
                "type": created_kind(state, segments[-1]),
                "method": endpoint.method,
                "href": f"/api/v2{path}",
            }
        )
    return JSONResponse(types)


def _iso(seconds: int) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(seconds))
