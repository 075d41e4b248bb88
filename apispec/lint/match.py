"""Match a path as code writes it to the registry's path templates.

Rules (docs/linter-detection.md): literal segments beat parameters; `{id}`
and `{parent}` (object ids) match an interpolation or a numeric literal, never
a word, so `/sensors/alarms` is its own endpoint and `/sensors/status` is
unknown rather than `/sensors/{id}`; `{type}`, `{name}` and `{kind}` are words
by nature (`/experimental/timeseries/2048/live`, `/schemas/device`) and also
match a literal word. A leading `/api/v2`, the query string and trailing
slashes are ignored; `/experimental` is an ordinary literal segment.

A path whose collection is itself a variable (`f"{base}/experimental/{kind}/{oid}/move"`)
matches no template directly; it then stands for every registry path its
collection could name, and the rules report only what all of them share.

The index is a trie built once per registry, so a match costs one dictionary
step per segment (plus a rare step back where a literal led nowhere).
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field

from apispec.lint.reference import Reference
from apispec.registry.model import Endpoint, Registry

# Template parameters whose values are words, not ids.
WORD_PARAMS = frozenset({"type", "name", "kind"})
_TEMPLATE_PARAM = re.compile(r"\{([a-z_]*)\}")
_TYPO_SEGMENT = 0.75  # similarity of the one differing segment for a "likely typo"
COLLECTION = "{collection}"  # how a variable collection segment is shown


@dataclass(frozen=True)
class Match:
    """The registry's answer for one path (and method, when the code shows it)."""

    path: str  # the normalized path that was matched, parameters as `{}`
    template: str | None  # the registry path template it matched
    endpoints: tuple[Endpoint, ...]  # every endpoint on that template, any method
    method: str | None = None
    endpoint: Endpoint | None = None  # the endpoint for `method`, when defined
    suggestions: tuple[str, ...] = ()  # likely meant registry paths, best first (unmatched only)
    likely_typo: bool = False  # a suggestion is a likely typo (there are suggestions)
    # A path whose collection is a variable: every template it may mean. `template`
    # is then the path shown with `{collection}`, `endpoints` those of every template.
    alternatives: tuple[str, ...] = ()

    @property
    def matched(self) -> bool:
        return self.template is not None

    @property
    def named(self) -> tuple[Endpoint, ...]:
        """The endpoints the call names, which the findings and `--show-calls` both speak of:
        the one for the method the code shows (for a variable collection, every candidate
        with it); where the code shows no method, GET when the path has it (a client's
        default: requests.get, curl, Invoke-RestMethod), else every method of the path."""
        if self.endpoint is not None:
            return (self.endpoint,)
        if self.alternatives and self.method:
            return tuple(e for e in self.endpoints if e.method == self.method)
        if self.template is None or self.method:
            return ()  # unknown path, or a method the path does not have
        return tuple(e for e in self.endpoints if e.method == "GET") or self.endpoints

    @property
    def named_method(self) -> str | None:
        """The method as the code shows it, else the one of the endpoints named (GET where
        the path has it); None when the code shows none and the path has several."""
        if self.method is not None:
            return self.method
        methods = {e.method for e in self.named}
        return methods.pop() if len(methods) == 1 else None


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
    return [(segment, is_parameter(segment)) for segment in _split(path)]


def is_parameter(segment: str) -> bool:
    """Whether a path segment stands for an id: a number, an interpolation, a variable."""
    return segment.isdigit() or ("{" in segment and "}" in segment) or "$" in segment


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
        nodes = _walk_collections(index.root, segments)
        if nodes:
            return _alternatives(shown, segments, nodes, method)
        suggestions = _suggest(index, segments)
        return Match(shown, None, (), method, None, suggestions, bool(suggestions))
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


def _collection_position(segments: list[tuple[str, bool]], i: int) -> bool:
    """Whether segment `i` stands where a path names its collection."""
    return i == 0 or (i == 1 and segments[0] == ("experimental", False))


def _walk_collections(root: _Node, segments: list[tuple[str, bool]]) -> list[_Node]:
    """Every template node the path reaches when a variable collection may be any collection.

    Only a parameter at the collection's position (first, or after `experimental`)
    stands for a literal segment, the other segments match as written (a word
    never stands for a `{type}` here), and the path must hold a literal segment:
    `f"{base}/{path}"` is a helper's body, not a call to every endpoint.
    """
    positions = [
        i
        for i, (_, is_param) in enumerate(segments[:2])
        if is_param and _collection_position(segments, i)
    ]
    if not positions or all(is_param for _, is_param in segments):
        return []
    found: list[_Node] = []

    def walk(node: _Node, i: int) -> None:
        if i == len(segments):
            if node.template is not None:
                found.append(node)
            return
        text, is_param = segments[i]
        if is_param and i in positions:
            for child in node.literal.values():
                walk(child, i + 1)
            return
        if not is_param:
            literal = node.literal.get(text)
            if literal is not None:
                walk(literal, i + 1)
            return
        for param_child in (node.id_param, node.word_param):
            if param_child is not None:
                walk(param_child, i + 1)
                return

    walk(root, 0)
    return found


def _alternatives(
    shown: str, segments: list[tuple[str, bool]], nodes: list[_Node], method: str | None
) -> Match:
    templates = tuple(node.template for node in nodes if node.template is not None)
    first = _split(templates[0])
    display = "/" + "/".join(
        COLLECTION if is_param and _collection_position(segments, i) else first[i]
        for i, (_, is_param) in enumerate(segments)
    )
    endpoints = tuple(e for node in nodes for e in node.endpoints)
    return Match(shown, display, endpoints, method, None, alternatives=templates)


def _suggest(index: _Index, segments: list[tuple[str, bool]]) -> tuple[str, ...]:
    """Registry paths the written path is likely a typo of; none when nothing is close.

    A likely typo is one literal segment written slightly wrong (`devcies`), a
    singular for a plural or the reverse (`metascans`, `template`), or the
    `/experimental` prefix added or left out (`/groups/{id}/devices`). Anything
    else (`/experimental/schemas/{id}` against `/experimental/users/{id}`) is a
    path the registry does not know, not a typo, and gets no suggestion.
    """
    found: list[str] = []
    for template in index.templates:
        if _one_segment_off(segments, _split(template)):
            found.append(template)
    if segments and segments[0] == ("experimental", False):
        slipped = segments[1:]
    else:
        slipped = [("experimental", False), *segments]
    node = _walk(index.root, slipped, 0) if slipped else None
    if node is not None and node.template is not None:
        found.append(node.template)
    return tuple(dict.fromkeys(found))[:3]


def _one_segment_off(segments: list[tuple[str, bool]], template: list[str]) -> bool:
    """True when exactly one literal segment differs, and only slightly (a typo)."""
    if len(segments) != len(template):
        return False
    differing = []
    for (text, is_param), want in zip(segments, template, strict=True):
        param = _TEMPLATE_PARAM.fullmatch(want)
        if param is not None:
            if is_param or param.group(1) in WORD_PARAMS:
                continue
            return False  # a word where an id stands: not a typo of this template
        if is_param:
            return False
        if text != want:
            differing.append((text, want))
    if len(differing) != 1:
        return False
    text, want = differing[0]
    return _close(text, want)


def _close(text: str, want: str) -> bool:
    """A singular/plural slip, or a small edit of a word of some length."""
    for short, long in ((text, want), (want, text)):
        if long in (short + "s", short + "es") or (
            short.endswith("y") and long == short[:-1] + "ies"
        ):
            return True
    if min(len(text), len(want)) < 4:
        return False
    return difflib.SequenceMatcher(None, text, want).ratio() >= _TYPO_SEGMENT
