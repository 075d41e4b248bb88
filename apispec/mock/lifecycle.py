"""The lifecycle headers of an answer: `Deprecation`, and the successor as a `Link`.

The mock sends them on every answer of an endpoint deprecated in the release it
emulates; `apispec proxy` adds the same ones to a real server's answers, so a
client sees one behaviour whichever of the two it talks to.
"""

from __future__ import annotations

from collections.abc import Mapping
from urllib.parse import quote

from apispec.mock.data import API_PREFIX
from apispec.registry.model import Endpoint, Maturity, Registry
from apispec.registry.releases import Release

SUCCESSOR_RELATION = "successor-version"
# RFC 9745 wants a date; the spec names releases, not dates, so the mock sends
# the boolean form of the header's earlier drafts, which clients also accept.
DEPRECATION_VALUE = "true"


def deprecated_in(endpoint: Endpoint, release: Release) -> bool:
    """Deprecated in `release`: an endpoint deprecated later is not, yet."""
    if endpoint.maturity is not Maturity.DEPRECATED:
        return False
    return endpoint.deprecated_in is None or endpoint.deprecated_in <= release


def lifecycle_headers(
    registry: Registry,
    release: Release,
    endpoint: Endpoint,
    params: Mapping[str, str],
    base_url: str,
) -> list[tuple[str, str]]:
    """`Deprecation` and, when the successor exists in `release`, its URL as a `Link`.

    `params` are the request's path parameters (decoded); `base_url` is the URL the
    client called, without `/api/v2`, so the link leads where the client can follow.
    """
    if not deprecated_in(endpoint, release):
        return []
    headers = [("Deprecation", DEPRECATION_VALUE)]
    successor = registry.successor_of(endpoint)
    if successor is None or not registry.available_in(successor, release):
        return headers
    path = successor.path
    for name in successor.path_params:
        if name not in params:
            return headers
        path = path.replace("{" + name + "}", quote(params[name], safe=""))
    base = base_url.rstrip("/")
    headers.append(("Link", f'<{base}{API_PREFIX}{path}>; rel="{SUCCESSOR_RELATION}"'))
    return headers
