"""Keep an imported overlay loadable: lifecycle order and successors the registry accepts.

A description may state lifecycle extensions that contradict each other or the
registry (`x-since` after `x-deprecated-in`, a successor that does not exist or
is removed, two successors naming each other). `registry check` refuses such a
registry, and an import must never write an overlay that every command then
refuses. Each contradiction is resolved the cautious way (a deprecation stays,
an unknowable successor becomes "to be decided", a contradicting release is
left out) and reported as a note.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from apispec.registry.releases import Release, ReleaseSyntaxError, parse_release

if TYPE_CHECKING:
    from apispec.registry.model import Registry

TO_BE_DECIDED = "to be decided"
_LIFECYCLE = ("deprecated_in", "removed_in", "successor")
Key = tuple[str, str]


class _Effective:
    """An endpoint's fields as the registry will have them once the overlay is merged."""

    def __init__(self, entries: list[dict[str, Any]], registry: Registry) -> None:
        self.entries = {(e["method"], e["path"]): e for e in entries}
        self.registry = registry

    def known(self, key: Key) -> bool:
        return key in self.entries or self.registry.find(*key) is not None

    def get(self, key: Key, name: str) -> str | None:
        entry = self.entries.get(key, {})
        if name in entry:
            return str(entry[name])
        base = self.registry.find(*key)
        if base is None:
            return None
        if name in _LIFECYCLE and entry.get("maturity", base.maturity) != base.maturity:
            return None  # a new maturity states its lifecycle anew
        value = getattr(base, name)
        return None if value is None else str(value)

    def release(self, key: Key, name: str) -> Release | None:
        text = self.get(key, name)
        try:
            return None if text is None else parse_release(text)
        except ReleaseSyntaxError:
            return None


def make_consistent(
    entries: list[dict[str, Any]],
    registry: Registry,
    notes: list[str],
    guessed: frozenset[Key] = frozenset(),
) -> None:
    """Resolve contradictions in `entries` (changed in place), with a note for each.

    `guessed` are the endpoints whose `deprecated_in` is the described release
    because the description did not state one: the first thing to move.
    """
    view = _Effective(entries, registry)
    for entry in entries:
        key = (entry["method"], entry["path"])
        if view.get(key, "maturity") == "deprecated":
            _order(entry, key, view, notes, key in guessed)
    for entry in entries:
        key = (entry["method"], entry["path"])
        if "successor" in entry and not _successor_fits(entry, key, view):
            notes.append(
                f"{key[0]} {key[1]}: successor {entry['successor']!r} left out (not an endpoint "
                "that outlives it): to be decided"
            )
            entry["successor"] = TO_BE_DECIDED
    _break_cycles(entries, view, notes)


def _order(
    entry: dict[str, Any], key: Key, view: _Effective, notes: list[str], guessed: bool
) -> None:
    """since <= deprecated_in <= removed_in, as `registry check` requires."""
    name = f"{key[0]} {key[1]}"
    since = view.release(key, "since")
    deprecated = view.release(key, "deprecated_in")
    if since is not None and deprecated is not None and deprecated < since:
        if "since" in entry and not guessed:
            notes.append(f"{name}: since {since} left out: after its deprecation in {deprecated}")
            del entry["since"]
        else:
            entry["deprecated_in"] = since.text
            notes.append(f"{name}: deprecated in {since}, the release it appears in")
    since = view.release(key, "since")
    deprecated = view.release(key, "deprecated_in")
    removed = view.release(key, "removed_in")
    if removed is None or "removed_in" not in entry:
        return
    too_early = (deprecated is not None and removed < deprecated) or (
        since is not None
        and removed <= since
        and not (deprecated and removed.key == deprecated.key)
    )
    if too_early:
        notes.append(f"{name}: removed_in {removed} left out: before it appears or is deprecated")
        del entry["removed_in"]


def _successor_fits(entry: dict[str, Any], key: Key, view: _Effective) -> bool:
    method, _, path = str(entry["successor"]).partition(" ")
    if not path:
        return True  # "none planned", "to be decided"
    target = (method, path)
    if target == key or not view.known(target):
        return False
    if view.get(target, "removed_in") is not None:
        return False
    removed = view.release(key, "removed_in")
    arrives = view.release(target, "since")
    return removed is None or arrives is None or not removed < arrives


def _break_cycles(entries: list[dict[str, Any]], view: _Effective, notes: list[str]) -> None:
    for entry in entries:
        start = (entry["method"], entry["path"])
        seen = [start]
        current = start
        while True:
            method, _, path = str(view.get(current, "successor") or "").partition(" ")
            if not path:
                break
            current = (method, path)
            if current == start:
                notes.append(
                    f"{start[0]} {start[1]}: successor {entry.get('successor')!r} left out: "
                    "the successors lead back to it"
                )
                entry["successor"] = TO_BE_DECIDED
                break
            if current in seen:
                break
            seen.append(current)
