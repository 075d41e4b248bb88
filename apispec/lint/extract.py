"""Find the API v2 calls in one file: the entry point the lint engine calls.

The language is chosen from the file name (extension, well-known names) and,
for extension-less scripts, the shebang (languages/table.py); files that embed
code (Markdown, HTML, notebooks) are cut into regions (languages/embedded.py),
each scanned as its own language. A language's dialect says how its strings,
comments and calls look, and the stages do the rest, in order:

1. scan.py - literals and comments (one regex pass);
2. candidates.py - expressions that name an API path the file's evidence accepts;
3. calls/ - the call around each: callee, method, route or mock exclusions;
4. details/ - query values, filters and headers, built into a Reference.

Files in no known language get a generic scanner that reports only full
`/api/v2` URLs in quotes. This is the only module that loads dialects.
"""

from __future__ import annotations

import re
from dataclasses import replace
from functools import cache
from importlib import import_module
from pathlib import PurePath

from apispec.lint.calls.assemble import call_info, http_helper_argument, table_entry
from apispec.lint.candidates import Evidence, candidates
from apispec.lint.details.build import build
from apispec.lint.details.headers import attach_headers
from apispec.lint.languages.dialect import Dialect, GenericDialect
from apispec.lint.languages.table import DIALECTS, EMBEDDING, EXTENSIONS, INTERPRETERS, NAMES
from apispec.lint.lines import Lines
from apispec.lint.prefilter import collections, might_reference
from apispec.lint.reference import Reference
from apispec.lint.scan import Source
from apispec.model import Registry

__all__ = ["extract_references", "extract_region", "language_of", "might_reference"]

_SHEBANG = re.compile(r"#!\s*\S*?(?:/env\s+)?(\w+)")


def language_of(filename: str, text: str = "") -> str:
    """The language extraction uses for a file: by name, then by shebang."""
    path = PurePath(filename)
    language = NAMES.get(path.name) or EXTENSIONS.get(path.suffix.lower())
    if language:
        return language
    if text.startswith("#!"):
        m = _SHEBANG.match(text)
        if m:
            return INTERPRETERS.get(m.group(1).rstrip("0123456789.") or m.group(1), "generic")
    return "generic"


def extract_references(
    text: str, filename: str, registry: Registry | None = None
) -> list[Reference]:
    """Every API v2 call in `text`, in file order.

    `registry` (default: the bundled one) supplies the collection names that
    let a relative path count; pass the registry being linted against.
    """
    if not might_reference(text):
        return []
    language = language_of(filename, text)
    return extract_region(text, language, collections(registry), 0, len(text))


class _Text:
    """What every region of one text shares: its lines and its evidence, read once."""

    def __init__(self, text: str, known: frozenset[str]) -> None:
        self.text = text
        self.known = known
        self.lines = Lines(text)
        self.evidence = Evidence(text, known)


def extract_region(
    text: str, language: str, known: frozenset[str], pos: int, endpos: int
) -> list[Reference]:
    """References inside text[pos:endpos] (a whole file, a Markdown fence) as `language`."""
    return _region(_Text(text, known), language, pos, endpos)


def _region(shared: _Text, language: str, pos: int, endpos: int) -> list[Reference]:
    text = shared.text
    if language == "prose":
        return []
    if language not in EMBEDDING:
        source = Source(text, dialect(language), pos, endpos, shared.lines)
        return references(source, shared.known, language, shared.evidence)
    from apispec.lint.languages import embedded  # most trees hold few such files

    if language == "markdown":
        regions = embedded.markdown(text, pos, endpos)
    elif language == "html":
        regions = embedded.html(text, pos, endpos)
    elif language == "terraform":
        regions = embedded.terraform(Source(text, dialect("hcl"), pos, endpos, shared.lines))
    else:
        regions = embedded.notebook(Source(text, dialect("json"), pos, endpos, shared.lines))
    refs: list[Reference] = []
    for region in regions:
        if region.text is None:
            refs.extend(_region(shared, region.language, region.start, region.end))
            continue
        own = _Text(region.text, shared.known)
        found = _region(own, region.language, region.start, region.end)
        refs.extend(embedded.remap(ref, region.offsets or [], shared.lines) for ref in found)
    if len(regions) > 1 and regions[0].start == pos and regions[0].end == endpos:
        refs.sort(key=lambda ref: ref.span.start)  # regions inside a whole-file region
    return refs


def references(
    source: Source, known: frozenset[str], language: str, evidence: Evidence | None = None
) -> list[Reference]:
    """The stages over one scanned source: candidates, their calls, then the details."""
    refs: list[Reference] = []
    found = list(candidates(source, known, evidence))
    for k, candidate in enumerate(found):
        if (
            candidate.one_word
            and not http_helper_argument(source, candidate.chain)
            and not table_entry(source, found, k)
        ):
            continue
        info = call_info(source, candidate.chain)
        if info.route:
            continue
        refs.append(build(source, candidate, info, language))
    attach_headers(source, refs)
    return _per_method(refs)


def _per_method(refs: list[Reference]) -> list[Reference]:
    """One reference per method where a path lists several (an OpenAPI path key)."""
    if not any(ref.extra.get("methods") for ref in refs):
        return refs
    expanded: list[Reference] = []
    for ref in refs:
        methods = ref.extra.get("methods") or ()
        if methods:
            expanded.extend(replace(ref, method=m, extra=dict(ref.extra)) for m in methods)  # type: ignore[union-attr]
        else:
            expanded.append(ref)
    return expanded


@cache
def dialect(language: str) -> Dialect:
    """The dialect object of a language (loaded on first use: most runs need few)."""
    entry = DIALECTS.get(language)
    if entry is None:
        return GenericDialect()
    module = import_module(f"apispec.lint.languages.{entry[0]}")
    return getattr(module, entry[1])()
