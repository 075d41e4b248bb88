"""The cheap test run on every file before extraction, and the API's vocabulary.

Most files in a repository never talk to the API; `might_reference` lets the
engine skip them after a handful of substring searches, so the scan of a large
tree costs little more than reading it. Every reference extraction can find
needs one of these markers (see docs/linter-detection.md): a path with
`api/v2`, the `experimental/` prefix, the API's port or a `prtg` name.
"""

from __future__ import annotations

from collections.abc import Callable

from apispec.registry.load import load_registry
from apispec.registry.model import Registry

# Substrings at least one of which is present in every file extraction can
# report on; kept as plain `in` tests because they run on every file.
_MARKERS = ("api/v2", "experimental/", ":1616", "prtg", "PRTG", "Prtg")


def might_reference(text: str) -> bool:
    """False only when `extract_references` is sure to find nothing in `text`."""
    return any(marker in text for marker in _MARKERS)


# The markers and the suppression comment's `apispec:`, tested on a file's bytes.
_EXACT = (*(m.encode() for m in _MARKERS), b"apispec:")


def python_worth_decoding(data: bytes) -> bool:
    """False only when the bytes of an ASCII-compatible file hold no marker at all.

    Decoding UTF-8 (even with replacement) keeps every ASCII byte, so a marker
    is in the text exactly when it is in the bytes. The first test is six
    searches written out (`rtg` and `RTG` stand for the three spellings of
    prtg; lower() would cost more than two searches), the exact one runs only
    on the few files that pass it. The fallback where the compiled pass is missing.
    """
    return (
        b"api/v2" in data
        or b"experimental/" in data
        or b":1616" in data
        or b"rtg" in data
        or b"RTG" in data
        or b"apispec:" in data
    ) and any(marker in data for marker in _EXACT)


def _compiled() -> Callable[[bytes], bool] | None:
    """One Aho-Corasick pass over the bytes for every marker at once (ahocorasick-rs, a
    compiled wheel), or None where it is not installed: half the cost of the searches
    above on a tree where most files hold no marker, the most common tree there is."""
    try:
        from ahocorasick_rs import BytesAhoCorasick, Implementation
    except ImportError:
        return None
    find = BytesAhoCorasick(list(_EXACT), implementation=Implementation.DFA).find_matches_as_indexes

    def worth(data: bytes) -> bool:
        return bool(find(data))

    return worth


_C = _compiled()
ENGINE = "python" if _C is None else "ahocorasick-rs"  # which pass `worth_decoding` is
worth_decoding: Callable[[bytes], bool] = _C or python_worth_decoding


_CACHE: dict[int, tuple[Registry, frozenset[str]]] = {}


def _collections(registry: Registry) -> frozenset[str]:
    cached = _CACHE.get(id(registry))
    if cached is not None and cached[0] is registry:
        return cached[1]
    names: set[str] = set()
    for endpoint in registry.endpoints:
        segments = endpoint.path.strip("/").split("/")
        if segments[0] == "experimental" and len(segments) > 1:
            names.add(segments[1])
        names.add(segments[0])
    result = frozenset(names)
    _CACHE[id(registry)] = (registry, result)
    return result


def collections(registry: Registry | None = None) -> frozenset[str]:
    """First path segments of the registry's endpoints, with and without /experimental.

    Derived from the registry so a newer registry (`--registry DIR`) brings its
    new collections along.
    """
    return _collections(registry if registry is not None else load_registry())
