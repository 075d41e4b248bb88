"""What every handler of the mock shares: the configuration, the data, and one call's facts."""

from __future__ import annotations

import asyncio
import math
import time
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from starlette.requests import Request

from apispec.mock.auth import DEFAULT_USERS, Accounts, User, load_users, make_users
from apispec.mock.bodies import BodyError, decode_json
from apispec.mock.data import Kinds, SideData, Tree, generate_tree, side_data
from apispec.mock.errors import ApiError
from apispec.mock.faults import Faults
from apispec.mock.index import INDEX_MIN, ListIndex
from apispec.mock.user_tree import load_tree
from apispec.registry.load import load_registry
from apispec.registry.model import Endpoint, Registry
from apispec.registry.releases import Release

T = TypeVar("T")

# Threads for filtering and sorting. CPU-bound work shares one GIL, so more
# threads add no speed, but a cheap list need not queue behind a slow one.
WORKERS = 16
MCP_FEATURE = "mcp"
FEATURES = (MCP_FEATURE,)
DEFAULT_OBJECTS = 5000
DEFAULT_WAIT_FOR = 2.0


@dataclass(frozen=True)
class MockConfig:
    """The options of `apispec mock`, usable from Python with the same meaning."""

    release: str | None = None
    seed: int = 0
    objects: int = DEFAULT_OBJECTS
    fault_rate: float = 0.0
    latency_ms: float = 0.0
    data: Path | None = None
    users: Path | None = None
    wait_for: float = DEFAULT_WAIT_FOR
    enable: tuple[str, ...] = ()
    cors: bool = False  # answer browsers from any origin (the docs' try-it panel)
    log: bool = False  # one line per request on standard output (log.py)


class MockState:
    """The mock's world: data and accounts, built once per application from the config."""

    def __init__(self, config: MockConfig, registry: Registry | None = None) -> None:
        from apispec.support.exceptions import UsageError

        self.config = config
        self.registry = registry or load_registry()
        self.release: Release = (
            self.registry.release(config.release)
            if config.release
            else self.registry.default_release[0]
        )
        if not 0.0 <= config.fault_rate <= 1.0:
            raise UsageError(f"--fault-rate must be between 0 and 1, not {config.fault_rate}")
        if config.latency_ms < 0 or config.wait_for < 0:
            raise UsageError("--latency and --wait-for must not be negative")
        for feature in config.enable:
            if feature not in FEATURES:
                raise UsageError(
                    f"unknown feature {feature!r} for --enable; known: {', '.join(FEATURES)}"
                )
        self.kinds = Kinds.from_registry(self.registry)
        self.tree: Tree = (
            load_tree(self.registry, config.data)
            if config.data is not None
            else generate_tree(self.registry, config.objects, config.seed)
        )
        self.side: SideData = side_data(self.registry, config.seed, self.tree, config.enable)
        users = load_users(config.users) if config.users else make_users(DEFAULT_USERS)
        self.accounts = Accounts(users, self.kinds)
        self.faults = Faults(self.registry, config.fault_rate, config.latency_ms, config.seed)
        self.job_runs: dict[str, float] = {}
        self.tick_hooks: set[Callable[[MockState, float], None]] = set()
        # side records (auto-discovery jobs) not yet fully available: {(collection, id): time}
        self.side_pending: dict[tuple[str, str], float] = {}
        # Bumped on every change, so filtered and sorted lists can be reused until
        # the data changes (paging through a list filters once, not once per page).
        self.version = 0
        self.list_cache: OrderedDict[tuple[Any, ...], list[dict[str, Any]]] = OrderedDict()
        self._of_types: dict[frozenset[str] | None, list[dict[str, Any]]] = {}
        self._indexes: dict[int, ListIndex] = {}  # by id() of a list in _of_types
        self._pool: ThreadPoolExecutor | None = None
        self.closed = False

    # -- work off the event loop ------------------------------------------------

    async def off_loop(self, work: Callable[[], T]) -> T:
        """`work()` in a worker thread, so the event loop keeps serving (see selection.py)."""
        if self._pool is None:
            self._pool = ThreadPoolExecutor(WORKERS, thread_name_prefix="apispec-mock")
        return await asyncio.get_running_loop().run_in_executor(self._pool, work)

    def close(self) -> None:
        """The server stops: work in progress gives up at its next look at the clock."""
        self.closed = True
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)

    def changed(self) -> None:
        self.version += 1
        self.list_cache.clear()
        self._of_types.clear()
        self._indexes.clear()

    def index_of(self, records: list[dict[str, Any]]) -> ListIndex | None:
        """The index of one of the cached lists `tree_records` returns; None for other lists.

        Only those lists are kept unchanged until the data changes, which is
        what an index needs; a list built for one request is just scanned.
        """
        if len(records) < INDEX_MIN or not any(records is kept for kept in self._of_types.values()):
            return None
        index = self._indexes.get(id(records))
        if index is None:
            index = self._indexes[id(records)] = ListIndex(records)
        return index

    def tree_records(self, types: frozenset[str] | None) -> list[dict[str, Any]]:
        """The available tree records of `types` (all when None), kept until the data changes."""
        found = self._of_types.get(types)
        if found is None:
            found = self._of_types[types] = self.tree.of_types(types)
        return found

    @property
    def mcp_enabled(self) -> bool:
        return MCP_FEATURE in self.config.enable

    def settle(self) -> None:
        """Objects whose creation delay has passed become available; finished jobs go idle."""
        now = time.monotonic()
        pending = self.tree.pending
        ready = [oid for oid, at in pending.items() if at <= now] if pending else []
        for oid in ready:
            del pending[oid]
        ready_side = [key for key, at in self.side_pending.items() if at <= now]
        for key in ready_side:
            del self.side_pending[key]
        if ready or ready_side:
            self.changed()
        for hook in tuple(self.tick_hooks):
            hook(self, now)

    def on_tick(self, hook: Callable[[MockState, float], None]) -> None:
        """Run `hook(state, now)` whenever time is settled (once per request).

        Handlers that start something timed (an auto-discovery job) register
        how it ends, so the state never imports the handlers.
        """
        self.tick_hooks.add(hook)


@dataclass
class Call:
    """One request as a handler sees it: the endpoint, path parameters, caller and body."""

    request: Request
    state: MockState
    endpoint: Endpoint
    params: dict[str, str]
    user: User | None = None
    body: bytes = b""
    headers: list[tuple[str, str]] = field(default_factory=list)
    started: float = field(default_factory=time.monotonic)
    time_limit: float = math.inf  # seconds; the registry's execution limit

    @property
    def deadline(self) -> float:
        """The time.monotonic() value at which the request has run too long."""
        return self.started + self.time_limit

    def json(self) -> Any:
        """The JSON body, or None when empty; ApiError 400 `BAD_REQUEST` when unusable.

        Nothing in a refused body is kept: deep nesting, lone surrogates,
        non-finite and over-long numbers are refused here (bodies.py).
        """
        if not self.body.strip():
            return None
        try:
            return decode_json(self.body)
        except BodyError as exc:
            raise ApiError("BAD_REQUEST", f"request body: {exc}") from None

    def json_object(self) -> dict[str, Any]:
        """The body as a JSON object; no body counts as `{}`, any other JSON value is a 400."""
        if not self.body.strip():
            return {}
        body = self.json()
        if not isinstance(body, dict):
            raise ApiError("BAD_REQUEST", f"the body must be a JSON object, not {_json_type(body)}")
        return body

    def require_admin(self) -> User:
        assert self.user is not None
        if not self.user.is_admin:
            raise ApiError(
                "FORBIDDEN",
                f"{self.endpoint} changes data; user {self.user.username!r} is {self.user.role}",
            )
        return self.user


def _json_type(value: Any) -> str:
    names = {type(None): "null", bool: "a boolean", str: "a string", list: "an array"}
    return names.get(type(value), "a number")
