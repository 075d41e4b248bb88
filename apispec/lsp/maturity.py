"""What an endpoint is in the target release, in the words completion, hover and hints share.

The same judgement as the linter's rules (API001 removed, API005 not yet
available, API002 deprecated, API003 experimental), told about an endpoint
rather than about a call.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from apispec.registry.model import Endpoint, Maturity, Registry
from apispec.registry.releases import Release

Word = Literal["stable", "experimental", "deprecated", "removed", "not yet available"]


@dataclass(frozen=True)
class Status:
    word: Word
    detail: str  # one line with the releases, for hover and completion details
    successor: str | None  # the successor as the registry writes it, when there is one

    @property
    def going(self) -> bool:
        """Deprecated, removed or not there: sorted last and struck through by editors."""
        return self.word in ("deprecated", "removed", "not yet available")

    @property
    def hint(self) -> str:
        """The inlay hint after a path: `experimental`, `deprecated → /sensors/{id}`."""
        if self.word == "deprecated" and self.successor:
            return f"deprecated → {self.successor}"
        return self.word


def status(endpoint: Endpoint, registry: Registry, target: Release) -> Status:
    succ = endpoint.successor
    successor = None
    if succ is not None:
        successor = succ.path if succ.is_endpoint and succ.method == endpoint.method else succ.text
    if endpoint.removed_in is not None and endpoint.removed_in <= target:
        return Status("removed", f"removed in {endpoint.removed_in}", successor)
    if endpoint.since is not None and target < endpoint.since:
        return Status(
            "not yet available", f"not in {target}: it appears in {endpoint.since}", successor
        )
    if endpoint.maturity == Maturity.DEPRECATED and (
        endpoint.deprecated_in is None or endpoint.deprecated_in <= target
    ):
        since = f" since {endpoint.deprecated_in}" if endpoint.deprecated_in else ""
        removal = (
            f"removed in {endpoint.removed_in}"
            if endpoint.removed_in
            else "no removal release named"
        )
        return Status("deprecated", f"deprecated{since} ({removal})", successor)
    if endpoint.is_experimental_path or endpoint.maturity == Maturity.EXPERIMENTAL:
        since = f" since {endpoint.since}" if endpoint.since else ""
        return Status("experimental", f"experimental{since}; may change in any release", None)
    since = f" since {endpoint.since}" if endpoint.since else ""
    return Status("stable", f"stable{since}", None)


def newest_target(registry: Registry, targets: tuple[str, ...]) -> Release:
    """The release completion and hover speak about: the newest configured target, else
    the one `apispec lint` would choose (the server an overlay describes, else the newest
    concrete release)."""
    known = {r.text: r for r in registry.release_list}
    chosen = [known[t] for t in targets if t in known]
    return max(chosen, key=lambda r: r.sort_key) if chosen else default_release(registry)


def default_release(registry: Registry) -> Release:
    """The release linted when none is configured, as `apispec lint` chooses it: the
    server an overlay describes, else the newest concrete release (Registry.default_release)."""
    return registry.default_release[0]
