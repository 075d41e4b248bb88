"""Changes: creation with delayed availability, delete, move, PATCH and the actions.

Creation follows the spec's state table: 204 with `Location`; until the
`--wait-for` delay has passed a GET on that URL answers 202 with `Wait-For`,
then 200. Decisions where the spec is silent (docs/mock.md):

- objects not yet fully available are missing from lists, and any action on
  them (move, delete, PATCH, meta-scan, creating a child) answers
  `WRONG_NODE_STATUS`: a script must wait before acting on what it created;
- a meta-scan of a paused device, and starting an auto-discovery job that is
  running, answer `WRONG_NODE_STATUS` too;
- a PATCH of an object that does not exist answers 409 (spec, status table).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from starlette.responses import JSONResponse, Response

from apispec.mock.bodies import known_fields
from apispec.mock.context import Call, MockState
from apispec.mock.data import PARENT_LEVELS, PAUSED, SENSOR_TYPES, nested, status_values
from apispec.mock.errors import ApiError
from apispec.mock.lists import Include
from apispec.mock.reads import render, side_item, tree_object

LOCATION_HEADER = "Location"
JOB_COLLECTION = "autodiscoveryjobs"
HISTORY = "history"
RUNNING, IDLE = "running", "idle"
_EDITABLE = ("name", "favorite", "basic.tags")
# Fields a creation body may hold, by tree level (groups 2, devices 3, sensors 4).
CREATE_FIELDS = {
    2: ("name", "basic.tags"),
    3: ("name", "basic.host", "basic.hostv6", "basic.tags"),
    4: ("name", "kind", "basic.tags"),
}


def _flat(body: dict[str, Any]) -> dict[str, Any]:
    flat: dict[str, Any] = {}
    for key, value in body.items():
        if key == "basic" and isinstance(value, dict):
            flat.update({f"basic.{k}": v for k, v in value.items()})
        else:
            flat[key] = value
    return flat


def _text(flat: dict[str, Any], key: str, default: str) -> str:
    value = flat.get(key, default)
    if not isinstance(value, str) or not value.strip():
        raise ApiError("BAD_REQUEST", f"field {key!r} must be a non-empty string")
    return value


def _tags(flat: dict[str, Any], key: str = "basic.tags") -> list[str]:
    tags = flat.get(key, [])
    if not isinstance(tags, list) or not all(isinstance(t, str) for t in tags):
        raise ApiError("BAD_REQUEST", f"field {key!r} must be a list of strings")
    return list(dict.fromkeys(tags))


def available_node(call: Call, oid: str, kind: str | None, status: int = 404) -> dict[str, Any]:
    """A tree object that exists and is fully available; WRONG_NODE_STATUS while it is not."""
    record = tree_object(call, oid, kind, status)
    if oid in call.state.tree.pending:
        raise ApiError(
            "WRONG_NODE_STATUS",
            f"{record['type']} {oid} is created but not yet fully available; "
            "wait until a GET on its URL answers 200",
        )
    return record


def _created(call: Call, href: str) -> Response:
    call.headers.append((LOCATION_HEADER, href))
    return Response(status_code=204)


def create_tree_object(parent_kind: str, child_kind: str) -> Callable[[Call], Response]:
    """POST <parents>/{id}/<children>: a new object, available after the configured delay."""

    def handler(call: Call) -> Response:
        call.require_admin()
        state, tree = call.state, call.state.tree
        level = state.kinds.level_of[child_kind]
        body = _flat(call.json_object())
        known_fields(body, CREATE_FIELDS.get(level, CREATE_FIELDS[2]), f"a new {child_kind}")
        parent = available_node(call, call.params[call.endpoint.path_params[0]], parent_kind)
        if tree.level(parent) not in PARENT_LEVELS[level]:
            raise ApiError(
                "BAD_REQUEST",
                f"a {child_kind} cannot be created in {parent['type']} {parent['id']}",
            )
        ready = time.monotonic() + state.config.wait_for
        record = _new_record(state, child_kind, parent, body)
        tree.add(record)
        tree.pending[record["id"]] = ready
        if level == 4:  # a new sensor comes with the channels of its type
            _, _, channels = next(
                (s for s in SENSOR_TYPES if s[0] == record["kind"]), SENSOR_TYPES[0]
            )
            for n, name in enumerate(channels):
                channel = _new_record(state, state.kinds.by_level[5], record, {"name": name})
                channel["primary"] = n == 0
                channel["status"] = record["status"]
                tree.add(channel)
                tree.pending[channel["id"]] = ready
        return _created(call, record["href"])

    return handler


def _new_record(
    state: MockState, kind: str, parent: dict[str, Any], body: dict[str, Any]
) -> dict[str, Any]:
    tree = state.tree
    oid = tree.new_id()
    level = state.kinds.level_of[kind]
    record: dict[str, Any] = {
        "href": state.kinds.href_prefix[kind] + oid,
        "id": oid,
        "kind": kind,
        "name": _text(body, "name", f"New {kind}"),
        "status": status_values(state.registry)[0],
        "type": kind,
        "parentid": parent["id"],
        "favorite": False,
        "basic.tags": _tags(body),
        "basic.parenttags": list(
            dict.fromkeys([*parent["basic.tags"], *parent["basic.parenttags"]])
        ),
    }
    if level == 3:
        record["basic.host"] = _text(body, "basic.host", "127.0.0.1")
        record["basic.hostv6"] = _text(body, "basic.hostv6", "::1")
    elif level == 4:
        kinds = [s for s, _, _ in SENSOR_TYPES]
        sub = body.get("kind", kinds[0])
        if sub not in kinds:
            raise ApiError(
                "BAD_REQUEST", f"unknown sensor kind {sub!r}; the mock knows {', '.join(kinds)}"
            )
        record["kind"] = sub
    elif level == 5:
        record["primary"] = False
    return record


def create_job(parent_kind: str) -> Callable[[Call], Response]:
    """An auto-discovery job on a device, group or probe (listed with method GET in the spec)."""

    def handler(call: Call) -> Response:
        call.require_admin()
        state = call.state
        parent = available_node(call, call.params[call.endpoint.path_params[0]], parent_kind)
        jobs = state.side.lists[JOB_COLLECTION]
        oid = str(max((int(j["id"]) for j in jobs), default=0) + 1)
        prefix = state.kinds.href_prefix.get(_job_kind(state), "")
        job = {
            "href": prefix + oid,
            "id": oid,
            "name": f"Auto-discovery of {parent['name']}",
            "kind": "autodiscoveryjob",
            "status": IDLE,
            "parentid": parent["id"],
        }
        jobs.append(job)
        state.side_pending[(JOB_COLLECTION, oid)] = time.monotonic() + state.config.wait_for
        return _created(call, job["href"])

    return handler


def _job_kind(state: MockState) -> str:
    return next(k for k, c in state.kinds.collection_of.items() if c == JOB_COLLECTION)


def delete_tree_object(kind: str) -> Callable[[Call], Response]:
    def handler(call: Call) -> Response:
        call.require_admin()
        oid = call.params[call.endpoint.path_params[0]]
        record = available_node(call, oid, kind)
        if "parentid" not in record:
            raise ApiError("BAD_REQUEST", "the root group cannot be deleted")
        call.state.tree.remove(oid)
        return Response(status_code=204)

    return handler


def delete_job(call: Call) -> Response:
    call.require_admin()
    oid = call.params[call.endpoint.path_params[0]]
    job = side_item(call, JOB_COLLECTION, oid)
    _job_available(call, oid)
    call.state.side.lists[JOB_COLLECTION].remove(job)
    call.state.job_runs.pop(oid, None)
    return Response(status_code=204)


def _job_available(call: Call, oid: str) -> None:
    if (JOB_COLLECTION, oid) in call.state.side_pending:
        raise ApiError("WRONG_NODE_STATUS", f"auto-discovery job {oid} is not yet fully available")


def move_tree_object(kind: str) -> Callable[[Call], Response]:
    """POST <collection>/{id}/move with {"parentid": "<new parent>"}: moves the object and all below it."""

    def handler(call: Call) -> Response:
        call.require_admin()
        state, tree = call.state, call.state.tree
        oid = call.params[call.endpoint.path_params[0]]
        record = available_node(call, oid, kind)
        body = call.json_object()
        target_id = body.get("parentid")
        if not isinstance(target_id, str):
            raise ApiError("BAD_REQUEST", 'the body must name the new parent: {"parentid": "<id>"}')
        target = tree.get(target_id)
        if target is None:
            raise ApiError("NOT_FOUND", f"no object with id {target_id!r} to move to")
        available_node(call, target_id, None)
        if tree.level(target) not in PARENT_LEVELS[state.kinds.level_of[kind]]:
            raise ApiError(
                "BAD_REQUEST", f"a {kind} cannot be moved into {target['type']} {target_id}"
            )
        if target_id in tree.subtree(oid):
            raise ApiError("BAD_REQUEST", f"cannot move {kind} {oid} into itself or below itself")
        tree.move(oid, target_id)
        return JSONResponse(render(state, record, Include()))

    return handler


def patch_tree_object(kind: str) -> Callable[[Call], Response]:
    """PATCH name, favorite, basic.tags and setting sections; 409 when the object does not exist."""

    def handler(call: Call) -> Response:
        call.require_admin()
        state, tree = call.state, call.state.tree
        oid = call.params[call.endpoint.path_params[0]]
        record = available_node(call, oid, kind, status=409)
        body = call.json_object()
        sections = {s.name: {f.name for f in s.fields} for s in state.registry.setting_sections}
        own_sections = tree.sections_of(record)
        flat = _flat({k: v for k, v in body.items() if k not in sections})
        unknown = [k for k in flat if k not in _EDITABLE] + [
            k for k in body if k in sections and k not in own_sections
        ]
        if unknown:
            raise ApiError(
                "BAD_REQUEST",
                f"cannot change {', '.join(map(repr, unknown))}; editable: "
                f"{', '.join((*_EDITABLE, *own_sections))}",
            )
        changes: dict[str, Any] = {}
        if "name" in flat:
            changes["name"] = _text(flat, "name", "")
        if "favorite" in flat:
            if not isinstance(flat["favorite"], bool):
                raise ApiError("BAD_REQUEST", "field 'favorite' must be true or false")
            changes["favorite"] = flat["favorite"]
        if "basic.tags" in flat:
            changes["basic.tags"] = _tags(flat)
        explicit = {}
        for name in (k for k in body if k in sections):
            value = body[name]
            if not isinstance(value, dict) or not all(
                k in sections[name] and isinstance(v, str) for k, v in value.items()
            ):
                raise ApiError(
                    "BAD_REQUEST",
                    f"{name} takes string fields of {', '.join(sorted(sections[name]))}",
                )
            current = tree.settings.get(tree.inheritance_source(oid, name)["id"], {}).get(name, {})
            explicit[name] = {**current, **value}
        record.update(changes)
        tree.settings.setdefault(oid, {}).update(explicit)
        if "basic.tags" in changes:
            tree.refresh_parent_tags(oid)
        return JSONResponse(render(state, record, Include()))

    return handler


def patch_job(call: Call) -> Response:
    call.require_admin()
    oid = call.params[call.endpoint.path_params[0]]
    job = side_item(call, JOB_COLLECTION, oid, status=409)
    _job_available(call, oid)
    body = call.json_object()
    unknown = [k for k in body if k != "name"]
    if unknown:
        raise ApiError(
            "BAD_REQUEST", f"cannot change {', '.join(map(repr, unknown))}; editable: name"
        )
    if "name" in body:
        job["name"] = _text(body, "name", "")
    return JSONResponse(nested(job))


def metascan(kind: str) -> Callable[[Call], Response]:
    def handler(call: Call) -> Response:
        call.require_admin()
        record = available_node(call, call.params[call.endpoint.path_params[0]], kind)
        if record["status"] == PAUSED:
            raise ApiError(
                "WRONG_NODE_STATUS",
                f"{kind} {record['id']} is paused; resume it before a meta-scan",
            )
        return Response(status_code=204)

    return handler


def start_job(call: Call) -> Response:
    call.require_admin()
    state = call.state
    oid = call.params[call.endpoint.path_params[0]]
    job = side_item(call, JOB_COLLECTION, oid)
    _job_available(call, oid)
    if job["status"] == RUNNING:
        raise ApiError("WRONG_NODE_STATUS", f"auto-discovery job {oid} is already running")
    job["status"] = RUNNING
    state.job_runs[oid] = time.monotonic() + max(state.config.wait_for, 0.1)
    state.on_tick(finish_jobs)
    return Response(status_code=204)


def finish_jobs(state: MockState, now: float) -> None:
    """Running jobs whose time is up go idle and leave an entry in the history."""
    for oid, until in list(state.job_runs.items()):
        if until > now:
            continue
        del state.job_runs[oid]
        state.changed()
        history = state.side.lists[HISTORY]
        for job in state.side.lists[JOB_COLLECTION]:
            if job["id"] == oid:
                job["status"] = IDLE
                history.append(
                    {
                        "id": str(len(history) + 1),
                        "autodiscoveryjobgroup.discojobid": oid,
                        "name": f"{job['name']} run",
                        "status": "finished",
                        "started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                        "devicesfound": 0,
                    }
                )
