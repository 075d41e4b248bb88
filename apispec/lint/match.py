"""Match a path as code writes it to the registry's path templates.

Rules (docs/linter-detection.md): literal segments beat parameters; `{id}`
and `{parent}` (object ids) match an interpolation or a numeric literal, never
a word, so `/sensors/alarms` is its own endpoint and `/sensors/status` is
unknown rather than `/sensors/{id}`; `{type}`, `{name}` and `{kind}` are words
by nature (`/experimental/timeseries/2048/live`, `/schemas/device`) and also
match a literal word. A leading `/api/v2`, the query string and trailing
slashes are ignored; `/experimental` is an ordinary literal segment.

The index is a trie built once per registry, so a match costs one dictionary
step per segment (plus a rare step back where a literal led nowhere).
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field

from apispec.lint.reference import Reference
from apispec.model import Endpoint, Registry

# Template parameters whose values are words, not ids.
WORD_PARAMS = frozenset({"type", "name", "kind"})
_TEMPLATE_PARAM = re.compile(r"\{([a-z_]*)\}")
_TYPO_SEGMENT = 0.7  # similarity of the one differing segment for a "likely typo"


@dataclass(frozen=True)
class Match:
    """The registry's answer for one path (and method, when the code shows it)."""

    path: str  # the normalized path that was matched, parameters as `{}`
    template: str | None  # the registry path template it matched
    endpoints: tuple[Endpoint, ...]  # every endpoint on that template, any method
    method: str | None = None
    endpoint: Endpoint | None = None  # the endpoint for `method`, when defined
    suggestions: tuple[str, ...] = ()  # closest registry paths, best first (unmatched only)
    likely_typo: bool = False  # the best suggestion differs by one near-identical segment

    @property
    def matched(self) -> bool:
        return self.template is not None

    @property
    def method_allowed(self) -> bool | None:
        """None when the method is unknown or the path unmatched."""
        if self.method is None or not self.matched:
            return None
        return self.endpoint is not None


@dataclass
class _Node:
    literal: dict[str, _Node] = field(default_factory=dict)
    id_param: _Node | None = None
    word_param: _Node | None = None
    template: str | None = None
    endpoints: list[Endpoint] = field(default_factory=list)


@dataclass
class _Index:
    root: _Node
    templates: tuple[str, ...]
    normalized: dict[str, str]  # "/sensors/{}/overview" -> "/sensors/{id}/overview"


_CACHE: dict[int, tuple[Registry, _Index]] = {}


def _index(registry: Registry) -> _Index:
    cached = _CACHE.get(id(registry))
    if cached is not None and cached[0] is registry:
        return cached[1]
    root = _Node()
    templates: list[str] = []
    for endpoint in registry.endpoints:
        node = root
        for segment in _split(endpoint.path):
            param = _TEMPLATE_PARAM.fullmatch(segment)
            if param is None:
                node = node.literal.setdefault(segment, _Node())
            elif param.group(1) in WORD_PARAMS:
                node.word_param = node.word_param or _Node()
                node = node.word_param
            else:
                node.id_param = node.id_param or _Node()
                node = node.id_param
        if node.template is None:
            node.template = endpoint.path
            templates.append(endpoint.path)
        node.endpoints.append(endpoint)
    index = _Index(root, tuple(templates), {_TEMPLATE_PARAM.sub("{}", t): t for t in templates})
    _CACHE[id(registry)] = (registry, index)
    return index


def _split(path: str) -> list[str]:
    return [s for s in path.split("/") if s]


def normalize(path: str) -> list[tuple[str, bool]]:
    """Segments of a path as written: (text, is_param), URL prefix, query and `/api/v2` removed."""
    path = path.split("#", 1)[0].split("?", 1)[0]
    scheme = path.find("://")
    if scheme >= 0:
        slash = path.find("/", scheme + 3)
        path = path[slash:] if slash >= 0 else "/"
    at = path.find("/api/v2")
    if at >= 0 and (len(path) == at + 7 or path[at + 7] == "/"):
        path = path[at + 7 :]
    segments = []
    for segment in _split(path):
        is_param = segment.isdigit() or ("{" in segment and "}" in segment) or "$" in segment
        segments.append((segment, is_param))
    return segments


def match(
    registry: Registry, reference_or_path: Reference | str, method: str | None = None
) -> Match:
    """Which registry endpoint(s) a path (or an extracted Reference) names.

    `method` defaults to the Reference's method; with a plain path it is the
    method to look up (None: any).
    """
    if isinstance(reference_or_path, Reference):
        segments = [(s.text, s.is_param) for s in reference_or_path.segments]
        method = method or reference_or_path.method
    else:
        segments = normalize(reference_or_path)
    method = method.upper() if method else None
    shown = "/" + "/".join("{}" if is_param else text for text, is_param in segments)
    index = _index(registry)
    node = _walk(index.root, segments, 0)
    if node is None:
        suggestions, typo = _suggest(index, segments)
        return Match(shown, None, (), method, None, suggestions, typo)
    endpoint = None
    if method is not None:
        endpoint = next((e for e in node.endpoints if e.method == method), None)
    return Match(shown, node.template, tuple(node.endpoints), method, endpoint)


def _walk(node: _Node, segments: list[tuple[str, bool]], i: int) -> _Node | None:
    if i == len(segments):
        return node if node.template is not None else None
    text, is_param = segments[i]
    if not is_param:
        child = node.literal.get(text)
        if child is not None:
            found = _walk(child, segments, i + 1)
            if found is not None:
                return found
        if node.word_param is not None:
            return _walk(node.word_param, segments, i + 1)
        return None
    for child in (node.id_param, node.word_param):
        if child is not None:
            found = _walk(child, segments, i + 1)
            if found is not None:
                return found
    return None


def _suggest(index: _Index, segments: list[tuple[str, bool]]) -> tuple[tuple[str, ...], bool]:
    shown = "/" + "/".join("{}" if p else t for t, p in segments)
    close = difflib.get_close_matches(shown, list(index.normalized), n=3, cutoff=0.6)
    suggestions = tuple(index.normalized[c] for c in close)
    typo = bool(close) and _one_segment_off(segments, _split(close[0]))
    return suggestions, typo


def _one_segment_off(segments: list[tuple[str, bool]], template: list[str]) -> bool:
    """True when exactly one literal segment differs, and only slightly (a typo)."""
    if len(segments) != len(template):
        return False
    differing = [
        (text, want)
        for (text, is_param), want in zip(segments, template, strict=True)
        if not (is_param and want == "{}") and text != want
    ]
    if len(differing) != 1:
        return False
    text, want = differing[0]
    return difflib.SequenceMatcher(None, text, want).ratio() >= _TYPO_SEGMENT
