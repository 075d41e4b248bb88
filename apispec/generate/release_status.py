"""What an endpoint is in one given release: the badge the docs and the changelog show.

The registry's `maturity` is the endpoint's state today; a reader of an older
release needs the state *then*, so the badge is derived from since /
deprecated_in / removed_in and the spec's maturity rules (an endpoint that is
not deprecated yet is experimental under /experimental, stable otherwise).
"""

from __future__ import annotations

from enum import StrEnum

from apispec.registry.model import Endpoint, Maturity, Registry
from apispec.registry.releases import Release


class Badge(StrEnum):
    STABLE = "stable"
    EXPERIMENTAL = "experimental"
    DEPRECATED = "deprecated"
    REMOVED = "removed"


def badge_in(registry: Registry, endpoint: Endpoint, release: Release) -> Badge | None:
    """The endpoint's badge in `release`; None when it has not appeared yet."""
    if not registry.available_in(endpoint, release):
        if endpoint.removed_in is not None and endpoint.removed_in <= release:
            return Badge.REMOVED
        return None
    if endpoint.maturity is Maturity.DEPRECATED:
        if endpoint.deprecated_in is None or endpoint.deprecated_in <= release:
            return Badge.DEPRECATED
        return Badge.EXPERIMENTAL if endpoint.is_experimental_path else Badge.STABLE
    return Badge(str(endpoint.maturity))


def first_available(registry: Registry, endpoint: Endpoint) -> Release | None:
    """The first release (in listing order) in which the endpoint can be called."""
    return next((r for r in registry.release_list if registry.available_in(endpoint, r)), None)
