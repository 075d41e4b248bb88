"""API006's fixes: the filter checker's fix-its as edits of the file that holds the filter.

The checker's edits are offsets into the filter value; the query value's offset
map says where each character of the value stands in the file. Mapping is not
enough: the value may be written with escapes, URL encoding or interpolations,
and a fix's content may need the host language's escaping (a `"` inside a
double-quoted string). So a fix is kept only when the file, with its edits
applied and extracted again, has the repaired filter exactly where the old one
stood. That one check covers every way a filter is written in code: a fix the
host literal cannot hold is dropped rather than offered broken.

Extracting again costs about what linting the file costs, so it is done for all
the file's filters at once, when the first fix is asked for (most files have
no fixable filter and pay nothing), and at most MAX_EXTRACTIONS times per file:
a fix not verified by then is not offered, and the next `--fix` finds it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, NamedTuple

from apispec.lint.extract import extract_references
from apispec.lint.finding import Applicability, Edit, Fix
from apispec.lint.reference import QueryValue

if TYPE_CHECKING:
    from apispec.filters.diagnostics import Diagnostic
    from apispec.lint.rules.context import FileContext

MAX_EXTRACTIONS = 8
MAX_ESCAPE = 6  # the longest escape of one character: `\u00e9`

# (file offset of the value, FLT code, start, end of the diagnostic in the value)
Key = tuple[int, str, int, int]


def fix_for(file: FileContext, query: QueryValue, diagnostic: Diagnostic) -> Fix | None:
    """The file edits of `diagnostic`'s fix, found in `query` of `file`, when verified."""
    if diagnostic.fix is None or query.span is None:
        return None
    if file.filter_fixes is None:
        file.filter_fixes = _verified(file)
    return file.filter_fixes.get(_key(query, diagnostic))


def _key(query: QueryValue, diagnostic: Diagnostic) -> Key:
    assert query.span is not None
    return (query.span.start, diagnostic.code, diagnostic.start, diagnostic.end)


Change = tuple[int, int, str]  # (start, end, content)


class _Candidate(NamedTuple):
    key: Key
    query: QueryValue
    fix: Fix  # in file offsets
    changes: tuple[Change, ...]  # the same edits, in offsets of the filter value


def _candidates(file: FileContext) -> list[_Candidate]:
    """Every fix of every filter in the file, in file order.

    Checked without an endpoint: the endpoint adds only FLT006, which has no fix.
    """
    from apispec.filters.check import check as check_filter

    found: list[_Candidate] = []
    seen: set[tuple[int, str]] = set()  # a path listed with several methods shares its query
    for reference in file.references:
        for query in reference.query:
            if query.name != "filter" or query.value is None or query.span is None:
                continue
            if (query.span.start, query.value) in seen:
                continue
            seen.add((query.span.start, query.value))
            diagnostics = check_filter(
                query.value,
                registry=file.run.registry,
                placeholder_spans=query.placeholder_spans,
            )
            for d in diagnostics:
                if d.fix is None:
                    continue
                edits = tuple(
                    _in_file(file.text, query, e.start, e.end, e.content) for e in d.fix.edits
                )
                fix = Fix(d.hint or f"fix {d.code}", Applicability(d.fix.applicability), edits)
                changes = tuple((e.start, e.end, e.content) for e in d.fix.edits)
                found.append(_Candidate(_key(query, d), query, fix, changes))
    return found


def _in_file(text: str, query: QueryValue, start: int, end: int, content: str) -> Edit:
    """An edit of value[start:end] as an edit of the file text that spells those characters."""
    at = _offset(query, start)
    return Edit(at, _char_end(text, query, end - 1) if end > start else at, content)


def _offset(query: QueryValue, index: int) -> int:
    """Where character `index` of the value stands in the file (its end, past the last)."""
    assert query.span is not None and query.value is not None
    omap = query.offset_map
    if omap is None:
        return query.span.start + index
    if index < len(omap):
        return omap[index]
    return omap[-1] + 1 if omap else query.span.start


def _char_end(text: str, query: QueryValue, index: int) -> int:
    """Where the file's spelling of value character `index` ends: after the character,
    or after its escape (`\\"`, `%3D`, a doubled quote), never across the code between
    two literals (`"a" + "b"`)."""
    at = _offset(query, index)
    omap = query.offset_map
    char = query.value[index] if query.value is not None else ""
    if omap is None or (text.startswith(char, at) and not text.startswith(char * 2, at)):
        return at + 1
    if index + 1 < len(omap) and omap[index + 1] - at <= MAX_ESCAPE:
        return omap[index + 1]
    return at + (3 if text.startswith("%", at) else 2)


def _applied(text: str, edits: Iterable[tuple[int, int, str]]) -> str:
    for start, end, content in sorted(edits, reverse=True):
        text = text[:start] + content + text[end:]
    return text


def _verified(file: FileContext) -> dict[Key, Fix]:
    """The fixes whose edits give the repaired filter where it was, when extracted again.

    First every filter's fixes are tried together (most filters have one mistake,
    or several the string holds alike); the fixes of a filter that fails are then
    tried one per round. When some of a round fail, each of those is tried alone,
    so that a broken neighbour (an edit that ends a string early) does not
    condemn a good fix.
    """
    kept: dict[Key, Fix] = {}
    pending = _candidates(file)
    together = True
    extractions = 0
    while pending and extractions < MAX_EXTRACTIONS:
        trials, pending = _trials(pending, together)
        extractions += 1
        good = _surviving(file, trials)
        failed = [trial for trial in trials if trial not in good]
        if together:  # their fixes get a round each
            retried = [c for trial in failed if len(trial) > 1 for c in trial]
            pending = sorted(pending + retried, key=lambda c: c.key)
        elif len(trials) > 1:
            for trial in failed:
                if extractions >= MAX_EXTRACTIONS:
                    break
                extractions += 1
                good.extend(_surviving(file, [trial]))
        kept.update((c.key, c.fix) for trial in good for c in trial)
        together = False
    return kept


Trial = tuple[_Candidate, ...]  # fixes of one filter value, tried together


def _trials(items: list[_Candidate], together: bool) -> tuple[list[Trial], list[_Candidate]]:
    """One trial per filter value: all its fixes that do not overlap (`together`) or its
    first; and the rest for later rounds."""
    by_value: dict[int, list[_Candidate]] = {}
    rest: list[_Candidate] = []
    for item in items:
        taken = by_value.setdefault(item.key[0], [])
        if not taken or (together and not _overlapping(item, taken)):
            taken.append(item)
        else:
            rest.append(item)
    return [tuple(taken) for taken in by_value.values()], rest


def _overlapping(item: _Candidate, taken: list[_Candidate]) -> bool:
    """Two insertions at one point overlap too: their order would be a guess."""
    return any(
        s == ts or (s < te and ts < e)
        for s, e, _ in item.changes
        for other in taken
        for ts, te, _ in other.changes
    )


def _surviving(file: FileContext, trials: list[Trial]) -> list[Trial]:
    edits = [(e.start, e.end, e.content) for trial in trials for c in trial for e in c.fix.edits]
    found = {
        (q.span.start, q.value)
        for r in extract_references(_applied(file.text, edits), file.path, file.run.registry)
        for q in r.query
        if q.name == "filter" and q.span is not None
    }
    survivors = []
    for trial in trials:
        start = trial[0].key[0]
        value = trial[0].query.value
        assert value is not None
        expected = _applied(value, [change for c in trial for change in c.changes])
        shift = sum(len(content) - (end - begin) for begin, end, content in edits if begin < start)
        if (start + shift, expected) in found:
            survivors.append(trial)
    return survivors
