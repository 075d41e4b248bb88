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
from typing import TYPE_CHECKING, NamedTuple

from apispec.lint.calls.assemble import call_info, http_helper_argument, table_entry
from apispec.lint.calls.helpers import helper_call, through_helper, trusted_receivers, with_helper
from apispec.lint.calls.inference import infer
from apispec.lint.candidates import Candidate, candidates
from apispec.lint.details.build import build
from apispec.lint.details.headers import attach_headers
from apispec.lint.evidence import Context, Evidence
from apispec.lint.helpers import Helper, HelperTable
from apispec.lint.languages.dialect import Dialect, GenericDialect
from apispec.lint.languages.table import (
    DECISIVE,
    DIALECTS,
    EMBEDDING,
    EXTENSIONS,
    NAMES,
    SNIFFS,
    VARIANTS,
    shebang_language,
)
from apispec.lint.lines import Lines
from apispec.lint.prefilter import collections, might_reference
from apispec.lint.reference import Reference
from apispec.lint.scan import Source
from apispec.registry.model import Registry

if TYPE_CHECKING:
    from apispec.lint.languages.embedded import Region

__all__ = ["extract", "extract_references", "extract_region", "language_of", "might_reference"]

STDIN = "-"  # the name of standard input when the user gave it none
_SNIFFED = 8192  # characters of standard input its language is read from


def language_of(filename: str, text: str = "") -> str:
    """The language extraction uses for a file: by name, then by shebang; standard input
    without a name (STDIN) also by its content, where that shows one language.

    "generic" when none is known (a generic scanner reads only full URLs in quotes).
    """
    path = PurePath(filename)
    language = (
        NAMES.get(path.name)
        or EXTENSIONS.get(path.suffix.lower())
        or VARIANTS.get(path.name.split(".", 1)[0])
    )
    if language:
        return language
    if text.startswith("#!"):
        end = text.find("\n")
        return shebang_language(text[: end if end >= 0 else len(text)]) or "generic"
    if filename == STDIN:
        return _sniffed(text[:_SNIFFED])
    return "generic"


@cache
def _sniffs() -> tuple[tuple[str, re.Pattern[str]], ...]:
    return tuple((language, re.compile(pattern, re.M)) for language, pattern in SNIFFS)


def _sniffed(head: str) -> str:
    """The one language whose marks `head` shows (a decisive one first), else "generic"."""
    shown = [language for language, pattern in _sniffs() if pattern.search(head)]
    decisive = [language for language in shown if language in DECISIVE]
    if decisive:
        return decisive[0]
    return shown[0] if len(shown) == 1 else "generic"


class Extraction(NamedTuple):
    """What extraction finds in one file: its calls, and the API helpers it defines."""

    references: list[Reference]
    helpers: list[Helper]


def extract_references(
    text: str, filename: str, registry: Registry | None = None, helpers: HelperTable | None = None
) -> list[Reference]:
    """Every API v2 call in `text`, in file order.

    `registry` (default: the bundled one) supplies the collection names that
    let a relative path count; pass the registry being linted against.
    `helpers` are API helpers known from elsewhere (the repository pass, the
    configuration); the file's own are learnt here.
    """
    return extract(text, filename, registry, helpers).references


def extract(
    text: str,
    filename: str,
    registry: Registry | None = None,
    helpers: HelperTable | None = None,
    lines: Lines | None = None,
    tree: frozenset[str] = frozenset(),
) -> Extraction:
    """The calls in `text` and the helpers it defines (for the repository pass).

    `tree`: languages read by the tree path where a region holds them (a Markdown
    block, a notebook cell).

    `lines` are the text's, when the caller made them already (the engine does).
    """
    table = helpers if helpers is not None else HelperTable()
    if not might_reference(text) and not (table and table.names_in(text.lower())):
        return Extraction([], [])
    language = language_of(filename, text)
    shared = _Text(text, collections(registry), table, lines)
    refs = _region(shared, language, 0, len(text), tree)
    return Extraction(refs, shared.defined)


class _Text:
    """What every region of one text shares: its lines, evidence and helpers, read once."""

    def __init__(
        self, text: str, known: frozenset[str], helpers: HelperTable, lines: Lines | None = None
    ) -> None:
        self.text = text
        self.known = known
        self.lines = Lines(text) if lines is None else lines
        self.lower = text.lower() if helpers else ""
        self.helpers = helpers
        self.evidence = Evidence(text, known, helpers.names_in(self.lower))
        self.defined: list[Helper] = []  # the helpers this text defines

    def learn(self, found: list[Helper]) -> None:
        """Add helpers defined in the text (any region) to what its regions may call."""
        if not found:
            return
        self.defined.extend(found)
        self.helpers = self.helpers.merged(found)
        if not self.lower:
            self.lower = self.text.lower()
        names = self.helpers.names_in(self.lower)
        self.evidence.helpers = names


def extract_region(
    text: str,
    language: str,
    known: frozenset[str],
    pos: int,
    endpos: int,
    evidence: str | None = None,
) -> list[Reference]:
    """References inside text[pos:endpos] (a whole file, a Markdown fence) as `language`.

    `evidence`: the whole file the region was cut from, when its text is apart (a
    Jenkinsfile's `sh` step): what the file says about this API counts for the region."""
    shared = _Text(text, known, HelperTable())
    if evidence is not None:
        shared.evidence = Evidence(evidence, known)
    return _region(shared, language, pos, endpos)


def _region(
    shared: _Text, language: str, pos: int, endpos: int, tree: frozenset[str] = frozenset()
) -> list[Reference]:
    text = shared.text
    if language == "prose":
        return []
    scripts: list[Region] = []
    if language == "yaml" and ("run:" in text or "script:" in text):
        from apispec.lint.languages import embedded  # CI workflows: their shell scripts

        scripts = embedded.yaml_scripts(text, pos, endpos) if embedded.has_scripts(text) else []
    if language not in EMBEDDING and not scripts:
        source = Source(text, dialect(language), pos, endpos, shared.lines)
        context = Context(source, shared.evidence)
        shared.learn(infer(source, context))
        context.helpers = shared.helpers.callable_in(shared.evidence.helpers, language)
        return references(source, shared.known, language, shared.evidence, context, shared.helpers)
    from apispec.lint.languages import embedded  # most trees hold few such files

    if scripts:
        regions = scripts
    elif language == "markdown":
        regions = embedded.markdown(text, pos, endpos)
    elif language == "html":
        regions = embedded.html(text, pos, endpos)
    elif language == "terraform":
        regions = embedded.terraform(Source(text, dialect("hcl"), pos, endpos, shared.lines))
    elif language in ("make", "dockerfile"):
        regions = _scripts(text[pos:endpos], language, pos)
    else:
        regions = embedded.notebook(Source(text, dialect("json"), pos, endpos, shared.lines))
    tree_refs = _tree_regions(shared, [r for r in regions if r.language in tree])
    regions = [r for r in regions if r.language not in tree]
    # Every region first, for the helpers it defines: a notebook cell or a Markdown
    # block may call a helper another one defines.
    scanned: list[tuple[Region, _Text, Source, Context]] = []
    for region in regions:
        own = shared if region.text is None else _Text(region.text, shared.known, shared.helpers)
        if own is not shared:
            own.evidence = shared.evidence if region.text is None else own.evidence
        if region.language in EMBEDDING or region.language == "prose":
            continue
        source = Source(own.text, dialect(region.language), region.start, region.end, own.lines)
        context = Context(source, own.evidence)
        shared.learn(infer(source, context))
        scanned.append((region, own, source, context))
    refs: list[Reference] = []
    for region, own, source, context in scanned:
        if own is not shared:
            own.helpers = shared.helpers
            own.evidence.helpers = shared.helpers.names_in(own.text.lower())
        context.helpers = shared.helpers.callable_in(own.evidence.helpers, region.language)
        found = references(
            source, own.known, region.language, own.evidence, context, shared.helpers
        )
        if own is not shared:
            found = [embedded.remap(ref, region.offsets or [], shared.lines) for ref in found]
        refs.extend(found)
    refs.extend(tree_refs)
    if len(regions) + len(tree_refs) > 1:  # regions may overlap (a notebook's shell lines)
        refs = _one_per_place(refs)
    return refs


def _one_per_place(refs: list[Reference]) -> list[Reference]:
    """References of overlapping regions, one per place and method, in file order.

    A CI workflow's `env:` value is read as YAML and as the scripts' shell variable: where
    both name the same path, the reading that knows the method (the command's) is kept.
    """
    refs.sort(key=lambda ref: ref.span.start)
    known = {(ref.span, ref.path) for ref in refs if ref.method is not None}
    kept: list[Reference] = []
    seen: set[tuple[object, ...]] = set()
    for ref in refs:
        key = (ref.span, ref.path, ref.method)
        if key in seen or (ref.method is None and (ref.span, ref.path) in known):
            continue
        seen.add(key)
        kept.append(ref)
    return kept


def _scripts(text: str, language: str, pos: int) -> list[Region]:
    """A Makefile's recipes or a Dockerfile's commands: one shell region each, its own text
    with every character's offset in the file (extract/buildfiles.py)."""
    from apispec.lint.extract import buildfiles
    from apispec.lint.languages.embedded import Region

    found = buildfiles.makefile(text) if language == "make" else buildfiles.dockerfile(text)
    return [Region(0, len(r.text), r.language, r.text, [pos + k for k in r.offsets]) for r in found]


def _tree_regions(shared: _Text, regions: list[Region]) -> list[Reference]:
    """Regions in tree languages: the code of each language joined into one text, as a
    notebook's cells share one namespace (and a page's blocks often share a helper),
    read by the tree path with the file's own evidence, positions mapped back."""
    from apispec.lint.extract.tree import extract_tree
    from apispec.lint.languages import embedded

    refs: list[Reference] = []
    for language in sorted({r.language for r in regions}):
        chunks: list[str] = []
        offsets: list[int] = []
        for region in (r for r in regions if r.language == language):
            code = (
                region.text if region.text is not None else shared.text[region.start : region.end]
            )
            where = (
                region.offsets
                if region.offsets is not None
                else range(region.start, region.end + 1)
            )
            chunks.append(code + "\n")
            offsets.extend(list(where)[: len(code)])
            offsets.append(offsets[-1] + 1 if offsets else region.start)
        virtual = "".join(chunks)
        found, defined = extract_tree(
            virtual,
            language,
            shared.known,
            helpers=shared.helpers,
            evidence_text=shared.text,
            read=extract_region,
        )
        shared.learn(defined)
        refs.extend(embedded.remap(ref, offsets, shared.lines) for ref in found)
    return refs


def references(
    source: Source,
    known: frozenset[str],
    language: str,
    evidence: Evidence | None = None,
    context: Context | None = None,
    helpers: HelperTable | None = None,
) -> list[Reference]:
    """The stages over one scanned source: candidates, their calls, then the details."""
    refs: list[Reference] = []
    table = helpers if helpers is not None else HelperTable()
    found = list(candidates(source, known, evidence, context))
    uses = [helper_call(source, c.chain, table) if table else None for c in found]
    trusted = trusted_receivers(
        [(use, _relative_own(c)) for use, c in zip(uses, found, strict=True) if use is not None]
    )
    for k, candidate in enumerate(found):
        use = uses[k]
        if (
            use is not None
            and (candidate.needs_helper or candidate.one_word)
            and not (
                through_helper(source, use, candidate.chain.start, trusted)
                and _starts_argument(candidate)
            )
        ):
            use = None
        if candidate.needs_helper:
            if use is None or not (use.helper.strong or _known_path(candidate, known)):
                continue
        elif (
            candidate.one_word
            and use is None
            and not http_helper_argument(source, candidate.chain)
            and not table_entry(source, found, k)
        ):
            continue
        info = call_info(source, candidate.chain)
        if info.route:
            continue
        if use is not None:
            with_helper(info, use)
        ref = build(source, candidate, info, language)
        if candidate.weak and use is None:
            ref.extra["weak"] = True
        refs.append(ref)
    attach_headers(source, refs, context.bases if context is not None else None)
    return _per_method(refs)


def _relative_own(candidate: Candidate) -> bool:
    """A registry path written relative (`"/experimental/sensors"`), accepted on its own."""
    return not candidate.needs_helper and not candidate.one_word and not candidate.hit.via_api_v2


def _starts_argument(candidate: Candidate) -> bool:
    """Whether the path is the argument's own text, not a URL after another variable.

    A helper prepends the API's base to what it is given; `get(f"{PVE_API}/cluster")`
    hands it another base's URL, which counts by its own evidence or not at all.
    """
    return candidate.hit.start == 0 or not candidate.chain.parts[0].is_param


def _known_path(candidate: Candidate, known: frozenset[str]) -> bool:
    """Whether the candidate's path starts as this API's paths do (a weak helper needs it)."""
    path = candidate.flat[candidate.hit.start : candidate.hit.end].strip("/").split("/")
    first = path[0] if path else ""
    second = path[1] if len(path) > 1 else ""
    return first in known and (first != "experimental" or second in known)


def _per_method(refs: list[Reference]) -> list[Reference]:
    """One reference per method where a path lists several (an OpenAPI path key)."""
    if not any(ref.extra.get("methods") for ref in refs):
        return refs
    expanded: list[Reference] = []
    for ref in refs:
        methods = ref.extra.get("methods") or ()
        if methods:
            expanded.extend(replace(ref, method=m, extra=ref.extra.copy()) for m in methods)
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
    found: Dialect = getattr(module, entry[1])()
    return found
