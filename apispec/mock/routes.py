"""From registry endpoints to handlers: every route of the mock is derived, none is typed.

An endpoint's behaviour follows from its registry facts (method, `list`,
`creates`) and the shape of its path: the object kind's collection (from the
registry's object kinds), path parameters, and a last word naming a
sub-resource or an action (`move`, `history`, ...). An endpoint whose shape
the mock does not know stops the start-up with an error, and a test runs
this over the whole registry, so a new registry row cannot go unserved.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from starlette.responses import Response

from apispec.mock import creation, reads, session
from apispec.mock.auth import GROUP_KIND, USER_KIND
from apispec.mock.context import Call, MockState
from apispec.mock.errors import ApiError
from apispec.mock.paths import UnknownEndpointShape, created_kind, strip_experimental
from apispec.registry.model import Endpoint

# A handler answers at once, or (lists: filtering runs off the event loop) when awaited.
Handler = Callable[[Call], Response | Awaitable[Response]]

OBJECTS = "objects"  # the spec's path for lists of every tree kind
ITEM_VIEWS = ("overview", "clone", "settings")  # deprecated views of one object
_PARAM = re.compile(r"\{[a-z_]+\}")


@dataclass(frozen=True)
class Route:
    endpoint: Endpoint
    segments: tuple[str | None, ...]  # literal text, or None for a parameter
    handler: Handler

    def match(self, parts: list[str]) -> dict[str, str] | None:
        if len(parts) != len(self.segments):
            return None
        values = []
        for literal, part in zip(self.segments, parts, strict=True):
            if literal is None:
                if not part:
                    return None
                values.append(part)
            elif literal != part:
                return None
        return dict(zip(self.endpoint.path_params, values, strict=True))

    @property
    def literal_count(self) -> int:
        return sum(s is not None for s in self.segments)


def _collection(state: MockState, words: list[str]) -> tuple[str | None, int]:
    """The longest registry collection at the start of `words`: (kind name, words used)."""
    best: tuple[str | None, int] = (None, 0)
    for kind, collection in state.kinds.collection_of.items():
        parts = collection.split("/")
        if words[: len(parts)] == parts and len(parts) > best[1]:
            best = (kind, len(parts))
    if best[0] is None and words[0] in state.kinds.level_of:
        best = (words[0], 1)  # the spec's singular `/group/{id}/clone`
    return best


@dataclass(frozen=True)
class _PathShape:
    """An endpoint's path read against the registry's collections."""

    shape: list[str]  # the path's words without /experimental, each parameter `{}`
    kind: str | None  # the object kind whose collection the path starts with
    rest: list[str]  # the words after that collection
    tree_kind: str | None  # `kind`, when it is a kind of the object tree


def _path_shape(state: MockState, endpoint: Endpoint) -> _PathShape:
    words = strip_experimental(endpoint.path).strip("/").split("/")
    shape = ["{}" if _PARAM.fullmatch(w) else w for w in words]
    kind, used = _collection(state, words)
    tree_kind = kind if kind in state.kinds.level_of else None
    return _PathShape(shape, kind, shape[used:], tree_kind)


def handler_for(state: MockState, endpoint: Endpoint) -> Handler:
    """The behaviour of one registry endpoint, from its method, its facts and its path."""
    path = _path_shape(state, endpoint)
    if endpoint.creates:
        return _creating(state, endpoint, path)
    handler: Handler | None = None
    if endpoint.method == "GET":
        handler = _listing(state, path) if endpoint.is_list else _reading(state, path)
    elif endpoint.method == "POST":
        handler = _posting(endpoint, path)
    elif endpoint.method in ("DELETE", "PATCH") and path.rest == ["{}"]:
        handler = _changing(state, endpoint.method, path)
    if handler is None:
        raise UnknownEndpointShape(f"the mock has no behaviour for {endpoint}")
    return handler


def _creating(state: MockState, endpoint: Endpoint, path: _PathShape) -> Handler:
    """An endpoint that creates an object: `<collection>/{id}/<kind>` under a tree object."""
    rest, tree_kind = path.rest, path.tree_kind
    if tree_kind is None or rest[:1] != ["{}"] or len(rest) != 2:
        raise UnknownEndpointShape(
            f"{endpoint}: a creating endpoint needs <collection>/{{id}}/<kind>"
        )
    child = created_kind(state, rest[1])
    if child in state.kinds.level_of:
        return creation.create_tree_object(tree_kind, child)
    if state.kinds.collection_of.get(child) == creation.JOB_COLLECTION:
        return creation.create_job(tree_kind)
    raise UnknownEndpointShape(f"{endpoint}: the mock cannot create a {child}")


def _listing(state: MockState, path: _PathShape) -> Handler | None:
    """A GET that lists: a collection, or what belongs to one object (alarms, data, history)."""
    shape, kind, rest, tree_kind = path.shape, path.kind, path.rest, path.tree_kind
    if kind is None and shape == [OBJECTS]:
        return reads.list_tree(None)
    if rest == [] and tree_kind is not None:
        return reads.list_tree([tree_kind])
    if rest == [] and kind == USER_KIND:
        return reads.list_users
    if rest == [] and kind == GROUP_KIND:
        return reads.list_user_groups
    if rest == [] and kind is not None:
        return reads.list_side(state.kinds.collection_of[kind])
    if tree_kind is not None and rest == ["alarms"]:
        return reads.list_alarms(tree_kind)
    if tree_kind is not None and rest == ["data"]:
        return reads.list_channel_data(tree_kind)
    if kind is not None and rest in (["history"], ["{}", "history"]):
        return reads.list_history(state.kinds.collection_of[kind], creation.HISTORY)
    return None


def _reading(state: MockState, path: _PathShape) -> Handler | None:
    """A GET of one object, or of a singleton resource (license, public settings)."""
    shape, kind, rest, tree_kind = path.shape, path.kind, path.rest, path.tree_kind
    if tree_kind is not None and (rest == ["{}"] or (len(rest) == 2 and rest[1] in ITEM_VIEWS)):
        return reads.get_tree_item(tree_kind)
    if rest == ["{}"] and kind == USER_KIND:
        return reads.get_user
    if rest == ["{}"] and kind == GROUP_KIND:
        return reads.get_user_group
    if rest == ["{}"] and kind is not None:
        collection = state.kinds.collection_of[kind]
        if collection == "settings-lookups":
            return reads.get_settings_lookup
        if collection == "schemas":
            return reads.get_schema
        return reads.get_side_item(collection)
    if shape == [OBJECTS, "{}", "types"]:
        return reads.get_object_types
    if shape[:1] == ["timeseries"] and shape[1:] in (["{}"], ["{}", "{}"]):
        return reads.get_timeseries
    if shape == ["license"]:
        return reads.get_license
    if shape == ["settings", "public"]:
        return reads.get_public_settings
    return None


def _posting(endpoint: Endpoint, path: _PathShape) -> Handler | None:
    """A POST that does not create a tree object: a session, an API key, an action."""
    kind, rest, tree_kind = path.kind, path.rest, path.tree_kind
    if endpoint.request_fields and endpoint.response_fields and not endpoint.auth:
        return session.create_session
    if kind == USER_KIND and rest == ["{}", "api-keys"]:
        return session.create_api_key
    if tree_kind is not None and rest == ["{}", "move"]:
        return creation.move_tree_object(tree_kind)
    if tree_kind is not None and rest == ["{}", "metascan"]:
        return creation.metascan(tree_kind)
    if kind is not None and rest == ["{}", "start"]:
        return creation.start_job
    return None


def _changing(state: MockState, method: str, path: _PathShape) -> Handler | None:
    """DELETE or PATCH of one object: a tree object, or a job."""
    if path.tree_kind is not None:
        if method == "DELETE":
            return creation.delete_tree_object(path.tree_kind)
        return creation.patch_tree_object(path.tree_kind)
    if path.kind is None or state.kinds.collection_of[path.kind] != creation.JOB_COLLECTION:
        return None
    return creation.delete_job if method == "DELETE" else creation.patch_job


def _not_mocked(endpoint: Endpoint) -> Handler:
    """An overlay endpoint (a server's own) the mock has no behaviour for: say so, never crash."""

    def handler(call: Call) -> Response:
        raise ApiError(
            "METHOD_NOT_IMPLEMENTED",
            f"the mock has no behaviour for {endpoint} ({endpoint.provenance})",
        )

    return handler


def build_routes(state: MockState) -> list[Route]:
    """One route per registry endpoint (available or not: unavailable ones answer 404)."""
    routes = []
    for endpoint in state.registry.endpoints:
        segments = tuple(
            None if _PARAM.fullmatch(w) else w for w in endpoint.path.strip("/").split("/")
        )
        try:
            handler = handler_for(state, endpoint)
        except UnknownEndpointShape:
            if endpoint.provenance is None:
                raise
            handler = _not_mocked(endpoint)
        routes.append(Route(endpoint, segments, handler))
    return routes
