"""The mock's data: a seeded object tree (or a user's own from `--data`), plus side collections.

Records are kept flat, with dotted keys (`basic.tags`) exactly as filters name
the fields, so the filter engine evaluates them without conversion; `nested`
turns a record into the JSON shape (`{"basic": {"tags": [...]}}`) only for the
page that is sent. Kinds, collections, reference types, record fields and
setting sections come from the registry; what the spec does not show (status
values beyond `up` and `down`, the finer `kind`, names, settings values) is
mock data, documented in docs/mock.md.
"""

from __future__ import annotations

import bisect
import itertools
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from apispec.registry.model import Registry
from apispec.support.exceptions import UsageError

API_PREFIX = "/api/v2"
EXPERIMENTAL_PREFIX = "/experimental"
MAX_OBJECTS = 100_000
MIN_OBJECTS = 6  # the root and one object of each tree kind
MAX_ID_DIGITS = 18  # ids are numbers a 64-bit integer holds

# Status tokens beyond the spec's `up` and `down`: mock values (docs/mock.md).
MOCK_STATUSES = ("warning", "paused", "unknown")
STATUS_WEIGHTS = (80, 5, 6, 5, 4)  # up, down, then MOCK_STATUSES in order
PAUSED = "paused"

# Which tree levels may hold which: probes under the root group, groups under
# probes and groups, devices under probes and groups, sensors under devices,
# channels under sensors (spec: "probe, then groups, then devices ...").
ROOT_LEVEL = 0
PARENT_LEVELS = {1: (ROOT_LEVEL,), 2: (1, 2), 3: (1, 2), 4: (3,), 5: (4,)}
# Setting sections by tree level (spec: "the available sections depend on the
# object type"): credentials down to devices, intervals down to sensors.
SECTION_LEVELS = {
    "windowsconnection": (ROOT_LEVEL, 1, 2, 3),
    "intervalgroup": (ROOT_LEVEL, 1, 2, 3, 4),
}
MASK = "********"

_GROUP_WORDS = ("Servers", "Network", "Branch", "Datacenter", "Linux", "Windows", "Printers", "Lab")
_DEVICE_ROLES = ("web", "db", "mail", "switch", "router", "fw", "nas", "ap")
SENSOR_TYPES = (
    ("ping", "Ping", ("Ping Time", "Packet Loss", "Downtime")),
    ("http", "HTTP", ("Loading Time", "Downtime")),
    ("cpu", "CPU Load", ("Total", "Core 1", "Core 2")),
    ("disk", "Disk Free", ("Free Space", "Free Bytes")),
    ("snmptraffic", "Traffic", ("Traffic In", "Traffic Out", "Total")),
    ("memory", "Memory", ("Available Memory", "Percent Available")),
)
_TAGS = ("ping", "linux", "windows", "critical", "branch", "core", "backup", "vm")
PROBE_DEVICE_KIND = "probedevice"
_CHANNELS = {sub: channels for sub, _, channels in SENSOR_TYPES}
_SENSOR_TAGS = {
    sub: [f"{sub}sensor", *(["ping"] if sub == "ping" else [])] for sub, _, _ in SENSOR_TYPES
}


@dataclass(frozen=True)
class Kinds:
    """The tree kinds of the registry by level, and where their records live."""

    by_level: dict[int, str]
    level_of: dict[str, int]
    collection_of: dict[str, str]
    reference_type: dict[str, str]
    root_id: str
    root_reference: str
    href_prefix: dict[str, str]

    @classmethod
    def from_registry(cls, registry: Registry) -> Kinds:
        tree = [k for k in registry.object_kinds if k.tree_level is not None]
        prefixes = {}
        for kind in registry.object_kinds:
            prefix = href_prefix(registry, kind.collection) if kind.collection else None
            if prefix is not None:
                prefixes[kind.name] = prefix
        return cls(
            by_level={k.tree_level: k.name for k in tree if k.tree_level is not None},
            level_of={k.name: k.tree_level for k in tree if k.tree_level is not None},
            collection_of={k.name: k.collection for k in registry.object_kinds if k.collection},
            reference_type={
                k.name: k.reference_type for k in registry.object_kinds if k.reference_type
            },
            root_id=registry.root["id"],
            root_reference=registry.root["reference_type"],
            href_prefix=prefixes,
        )

    def level(self, record: dict[str, Any]) -> int:
        if record["id"] == self.root_id:
            return ROOT_LEVEL
        return self.level_of[record["type"]]


def href_prefix(registry: Registry, collection: str) -> str | None:
    """`/api/v2/<collection>/` when the registry has that item URL, else the experimental one.

    None when the collection has no item URL at all (its records carry no href).
    """
    for prefix in ("", EXPERIMENTAL_PREFIX):
        base = f"{prefix}/{collection}/"
        for endpoint in registry.endpoints:
            if endpoint.method != "GET" or not endpoint.path.startswith(base):
                continue
            rest = endpoint.path[len(base) :]
            if rest.startswith("{") and rest.endswith("}") and "/" not in rest:
                return f"{API_PREFIX}{base}"
    return None


@dataclass
class Tree:
    """Probes, groups, devices, sensors and channels by id, with their settings and creation state."""

    kinds: Kinds
    records: dict[str, dict[str, Any]] = field(default_factory=dict)
    children: dict[str, list[str]] = field(default_factory=dict)
    # explicit setting sections per object id: {section: {field: value}}
    settings: dict[str, dict[str, dict[str, str]]] = field(default_factory=dict)
    # ids created through the API that are not yet fully available: {id: monotonic time}
    pending: dict[str, float] = field(default_factory=dict)
    next_id: int = 1

    # -- building ---------------------------------------------------------------

    def add(self, record: dict[str, Any]) -> None:
        oid = record["id"]
        self.records[oid] = record
        self.children.setdefault(oid, [])
        parent = record.get("parentid")
        if parent is not None and oid != self.kinds.root_id:
            self.children.setdefault(parent, []).append(oid)
        self.next_id = max(self.next_id, int(oid) + 1)

    def new_id(self) -> str:
        oid = str(self.next_id)
        self.next_id += 1
        return oid

    # -- reading ----------------------------------------------------------------

    def get(self, oid: str) -> dict[str, Any] | None:
        return self.records.get(oid)

    def level(self, record: dict[str, Any]) -> int:
        return self.kinds.level(record)

    def of_types(self, types: Iterable[str] | None) -> list[dict[str, Any]]:
        """Every available record, of the given types (all when None), in id order."""
        wanted = None if types is None else set(types)
        pending = self.pending
        return [
            r
            for r in self.records.values()
            if (wanted is None or r["type"] in wanted) and (not pending or r["id"] not in pending)
        ]

    def subtree(self, oid: str) -> list[str]:
        """`oid` and every id below it."""
        out, stack = [], [oid]
        while stack:
            current = stack.pop()
            out.append(current)
            stack.extend(self.children.get(current, ()))
        return out

    # -- changing ---------------------------------------------------------------

    def remove(self, oid: str) -> int:
        """Delete an object with everything below it; the count of deleted objects."""
        ids = self.subtree(oid)
        parent = self.records[oid]["parentid"]
        self.children[parent].remove(oid)
        for each in ids:
            del self.records[each]
            self.children.pop(each, None)
            self.settings.pop(each, None)
            self.pending.pop(each, None)
        return len(ids)

    def move(self, oid: str, new_parent: str) -> None:
        record = self.records[oid]
        self.children[record["parentid"]].remove(oid)
        self.children[new_parent].append(oid)
        record["parentid"] = new_parent
        self.refresh_parent_tags(oid)

    def refresh_parent_tags(self, oid: str) -> None:
        """Recompute `basic.parenttags` of `oid` and below after a move or a tag change."""
        for each in self.subtree(oid):
            record = self.records[each]
            parent = self.records.get(record.get("parentid", ""))
            if parent is None:
                continue
            record["basic.parenttags"] = _merge(parent["basic.tags"], parent["basic.parenttags"])

    # -- settings ---------------------------------------------------------------

    def sections_of(self, record: dict[str, Any]) -> tuple[str, ...]:
        level = self.level(record)
        return tuple(name for name, levels in SECTION_LEVELS.items() if level in levels)

    def inheritance_source(self, oid: str, section: str) -> dict[str, Any]:
        """The object whose explicit settings `oid` uses: itself or the nearest ancestor."""
        record = self.records[oid]
        while section not in self.settings.get(record["id"], {}):
            record = self.records[record["parentid"]]
        return record


def _merge(*lists: list[str]) -> list[str]:
    return list(dict.fromkeys(tag for tags in lists for tag in tags))


def reference(kinds: Kinds, record: dict[str, Any]) -> dict[str, str]:
    """The spec's reference structure for a tree object."""
    is_root = record["id"] == kinds.root_id
    return {
        "id": record["id"],
        "type": kinds.root_reference if is_root else kinds.reference_type[record["type"]],
        "name": record["name"],
        "href": record["href"],
    }


def nested(record: dict[str, Any]) -> dict[str, Any]:
    """The JSON shape of a flat record: `basic.tags` -> `{"basic": {"tags": ...}}`."""
    out: dict[str, Any] = {}
    for key, value in record.items():
        head, dot, rest = key.partition(".")
        if dot:
            out.setdefault(head, {})[rest] = value
        else:
            out[key] = value
    return out


# -- the seeded tree ------------------------------------------------------------


def level_counts(total: int) -> dict[int, int]:
    """How many objects of each tree level make `total` objects (the root included)."""
    rest = total - 1
    probes = max(1, min(20, total // 5000))
    rest -= probes
    groups = max(1, rest * 3 // 100)
    devices = max(1, rest * 12 // 100)
    sensors = max(1, rest * 40 // 100)
    channels = rest - groups - devices - sensors
    return {1: probes, 2: groups, 3: devices, 4: sensors, 5: channels}


def generate_tree(registry: Registry, objects: int, seed: int) -> Tree:
    """A deterministic tree of `objects` objects: the same seed gives the same tree.

    Written for speed (100,000 objects in well under 2 s): one pass in level
    order, so every parent is complete before its children are made.
    """
    if not MIN_OBJECTS <= objects <= MAX_OBJECTS:
        raise UsageError(
            f"--objects must be between {MIN_OBJECTS} and {MAX_OBJECTS}, not {objects}"
        )
    kinds = Kinds.from_registry(registry)
    statuses = (*status_values(registry), *MOCK_STATUSES)
    thresholds = list(itertools.accumulate(w / sum(STATUS_WEIGHTS) for w in STATUS_WEIGHTS))
    rng = random.Random(seed)
    rand = rng.random
    tree = Tree(kinds)
    records, children, settings = tree.records, tree.children, tree.settings
    root_kind = registry.root["kind"]
    tree.add(record_of(kinds, kinds.root_id, root_kind, "Root", "up", None, root_kind))
    settings[kinds.root_id] = {
        "windowsconnection": credentials(None),
        "intervalgroup": interval(60),
    }
    counts = level_counts(objects)
    by_level: dict[int, list[str]] = {ROOT_LEVEL: [kinds.root_id]}
    inherited: dict[str, list[str]] = {kinds.root_id: []}  # tags + parent tags, per parent
    next_id = 1
    for level in range(1, 6):
        kind = kinds.by_level[level]
        prefix = kinds.href_prefix[kind]
        ids: list[str] = []
        by_level[level] = ids
        for n in range(counts[level]):
            oid = str(next_id)
            next_id += 1
            parent = _pick_parent(rand, level, n, by_level)
            parent_record = records[parent]
            probe_device = level == 3 and n < counts[1]
            sub, name, tags = _flavour(rand, kind, level, n, parent_record, probe_device)
            if level == 5:
                status = parent_record["status"]
            else:
                status = statuses[bisect.bisect(thresholds, rand())]
            parent_tags = inherited.get(parent)
            if parent_tags is None:
                parent_tags = _merge(parent_record["basic.tags"], parent_record["basic.parenttags"])
                inherited[parent] = parent_tags
            record = {
                "href": prefix + oid,
                "id": oid,
                "kind": sub,
                "name": name,
                "status": status,
                "type": kind,
                "parentid": parent,
                "favorite": rand() < 0.05,
                "basic.tags": tags,
                "basic.parenttags": parent_tags,
            }
            if level == 3:
                record["basic.host"] = _host(int(oid), sub)
                record["basic.hostv6"] = f"fd00::{int(oid):x}"
            elif level == 5:
                record["primary"] = not children[parent]
            records[oid] = record
            children[oid] = []
            children[parent].append(oid)
            ids.append(oid)
            if level <= 3 and rand() < 0.08:
                settings.setdefault(oid, {})["windowsconnection"] = credentials(rng)
            if 2 <= level <= 4 and rand() < 0.1:
                settings.setdefault(oid, {})["intervalgroup"] = interval(
                    30 if rand() < 0.5 else 300
                )
    tree.next_id = next_id
    return tree


def status_values(registry: Registry) -> tuple[str, ...]:
    prop = registry.property("status")
    return prop.values if prop is not None else ()


T = TypeVar("T")


def _pick(rand: Callable[[], float], items: Sequence[T]) -> T:
    return items[int(rand() * len(items))]


def _pick_parent(
    rand: Callable[[], float], level: int, n: int, by_level: dict[int, list[str]]
) -> str:
    """Spread objects over the allowed parents; the first ones fill every parent once."""
    if level == 1:
        return by_level[ROOT_LEVEL][0]
    probes = by_level[1]
    if level == 2:
        if n < len(probes):
            return probes[n]
        return _pick(rand, by_level[2]) if rand() < 0.4 else _pick(rand, probes)
    if level == 3:  # each probe's own device first, then mostly into groups
        if n < len(probes):
            return probes[n]
        return _pick(rand, by_level[2]) if rand() < 0.95 else _pick(rand, probes)
    parents = by_level[level - 1]
    return parents[n] if n < len(parents) else _pick(rand, parents)


def _flavour(
    rand: Callable[[], float],
    kind: str,
    level: int,
    n: int,
    parent: dict[str, Any],
    probe_device: bool,
) -> tuple[str, str, list[str]]:
    """(finer kind, name, tags) of a new object; mock values (the finer kind defaults to `kind`)."""
    if level == 5:
        names = _CHANNELS.get(parent["kind"], ("Value",))
        return kind, _pick(rand, names), []
    if level == 4:
        sub, label, _ = _pick(rand, SENSOR_TYPES)
        name = label if rand() < 0.7 else f"{label} {int(rand() * 18) + 2}"
        return sub, name, _SENSOR_TAGS[sub]
    if level == 3:
        if probe_device:
            return PROBE_DEVICE_KIND, "Probe Device", [PROBE_DEVICE_KIND]
        role = _pick(rand, _DEVICE_ROLES)
        tags = [role, _pick(rand, _TAGS)] if rand() < 0.3 else [role]
        if rand() < 0.15:  # named by address, as many real devices are
            return kind, f"10.0.{int(rand() * 256)}.{int(rand() * 254) + 1}", tags
        return kind, f"{role}-{int(rand() * 999) + 1}", tags
    if level == 2:
        if rand() < 0.1:  # numeric names show the numeric-then-alphabetic order
            return kind, str(int(rand() * 199) + 1), []
        word = _pick(rand, _GROUP_WORDS)
        tags = [word.lower()] if rand() < 0.3 else []
        return kind, f"{word} {int(rand() * 99) + 1}", tags
    return kind, "Local Probe" if n == 0 else f"Remote Probe {n}", []


def _host(oid: int, sub: str) -> str:
    if sub == PROBE_DEVICE_KIND:
        return "127.0.0.1"
    return f"10.{oid // 65536 % 256}.{oid // 256 % 256}.{oid % 256}"


def record_of(
    kinds: Kinds,
    oid: str,
    kind_name: str,
    name: str,
    status: str,
    parent: str | None,
    sub: str,
) -> dict[str, Any]:
    return {
        "href": f"{kinds.href_prefix[kind_name]}{oid}",
        "id": oid,
        "kind": sub,
        "name": name,
        "status": status,
        "type": kind_name,
        **({} if parent is None else {"parentid": parent}),
        "favorite": False,
        "basic.tags": [],
        "basic.parenttags": [],
    }


def credentials(rng: random.Random | None) -> dict[str, str]:
    """A windowsconnection section; blank fields when no credentials are saved (rng None)."""
    if rng is None:
        return {"windowslogindomain": "", "windowsloginpassword": "", "windowsloginusername": ""}
    return {
        "windowslogindomain": rng.choice(("CORP", "LAB", "")),
        "windowsloginpassword": f"secret-{rng.randrange(10**6)}",
        "windowsloginusername": f"svc-monitor-{rng.randrange(100)}",
    }


def interval(seconds: int) -> dict[str, str]:
    return {"errorintervalsdown": "1", "interval": str(seconds)}


# -- collections beside the tree ------------------------------------------------


@dataclass
class SideData:
    """The small collections that are not part of the object tree (mock values)."""

    lists: dict[str, list[dict[str, Any]]]
    license: dict[str, Any]
    settings_lookups: dict[str, dict[str, Any]]


def side_data(registry: Registry, seed: int, tree: Tree, enabled: Iterable[str]) -> SideData:
    """Device templates, auto-discovery jobs and their history, lookups, libraries, toggles."""
    rng = random.Random(seed + 1)
    kinds = Kinds.from_registry(registry)
    by_name = {k.name: k for k in registry.object_kinds}
    lists: dict[str, list[dict[str, Any]]] = {}

    def collection(kind: str, rows: list[dict[str, Any]]) -> None:
        name = by_name[kind].collection
        assert name is not None
        prefix = kinds.href_prefix.get(kind)
        if prefix is None:
            lists[name] = rows
        else:
            lists[name] = [{"href": f"{prefix}{row['id']}", **row} for row in rows]

    templates = ("Linux Server", "Windows Server", "Cisco Switch", "Printer", "Web Server")
    collection(
        "device template",
        [
            {"id": str(i + 1), "name": name, "kind": "devicetemplate"}
            for i, name in enumerate(templates)
        ],
    )
    # a tree of the root group alone (`--data` of `[]`) has one container: the root
    containers = [r["id"] for r in tree.records.values() if tree.level(r) in (1, 2, 3)] or ["0"]
    jobs = [
        {
            "id": str(i + 1),
            "name": f"Auto-discovery {i + 1}",
            "kind": "autodiscoveryjob",
            "status": "idle",
            "parentid": rng.choice(containers),
        }
        for i in range(3)
    ]
    collection("auto-discovery job", jobs)
    lists["history"] = [
        {
            "id": str(n + 1),
            "autodiscoveryjobgroup.discojobid": job["id"],
            "name": f"{job['name']} run {run + 1}",
            "status": "finished",
            "started": f"2025-0{run + 1}-1{n % 10}T03:00:00Z",
            "devicesfound": rng.randrange(0, 12),
        }
        for n, (job, run) in enumerate((job, run) for job in jobs for run in range(2))
    ]
    collection(
        "lookup definition",
        [
            {"id": str(i + 1), "name": name, "kind": "lookup"}
            for i, name in enumerate(("prtg.standardlookups.yesno", "prtg.standardlookups.offon"))
        ],
    )
    collection(
        "library",
        [
            {"id": str(i + 1), "name": name, "kind": "library"}
            for i, name in enumerate(("Core", "Branches"))
        ],
    )
    toggles = sorted({"newui", *enabled})
    collection(
        "feature toggle",
        [{"id": str(i + 1), "name": name, "enabled": True} for i, name in enumerate(toggles)],
    )
    return SideData(
        lists=lists,
        license={"name": "apispec mock license", "status": "active", "maxsensors": 10_000},
        settings_lookups={
            "timezones": {"name": "timezones", "values": ["UTC", "Europe/Berlin"]},
            "languages": {"name": "languages", "values": ["en", "de"]},
        },
    )
